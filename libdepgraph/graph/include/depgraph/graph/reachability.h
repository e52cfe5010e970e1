// "Does task u reach task v?" on large DAGs, without a transitive closure.
#pragma once

#include <cstdint>
#include <vector>

#include "depgraph/graph/graph.h"

namespace depgraph {

/// How queries were decided; for cost reports and tests.
struct ReachabilityStats {
  uint64_t queries = 0;
  uint64_t by_label = 0;   ///< answered "no" by a position, level or reach-range test
  uint64_t by_edge = 0;    ///< answered "yes" by a direct edge
  uint64_t by_chain = 0;   ///< answered "yes" by a chain certificate
  uint64_t by_search = 0;  ///< needed the pruned search
  uint64_t searched_nodes = 0;  ///< nodes the pruned searches expanded, in total
};

/// The working memory of one thread's reachability queries (a mark per node, a stack) and
/// their statistics: queries with distinct scratches may run at once on one index.
struct ReachScratch {
  std::vector<uint32_t> mark;
  uint32_t epoch = 0;
  std::vector<uint32_t> stack;
  ReachabilityStats stats;
};

/// A reachability index over the pair graph of one DepGraph.
///
/// Labels, all O(V + E) to build and O(V) memory per label:
/// - two topological orders (Kahn's, and the reverse post-order of a depth-first search) and,
///   per order and node, the largest position reachable from it: u reaches v only if
///   pos(u) < pos(v) <= max_reach(u) in both orders;
/// - the level (longest path from a source, in edges): u reaches v only if level(u) <
///   level(v);
/// - up to kMaxChains chains (paths of the graph: first a longest path, then paths covering
///   the most nodes not yet on a chain) with, per node, the first chain index it reaches and
///   the last chain index reaching it: u reaches v if, on some chain, first(u) <= last(v).
/// A query tries, in order: the negative labels, a direct edge (binary search in u's
/// successors), the chain certificates, and then a depth-first search from u that skips
/// every node the labels exclude and stops at the first node a chain certifies.
/// Query cost: O(log out-degree + kMaxChains) when a label or an edge decides, which on
/// runtime graphs is nearly always; otherwise the search is bounded by the nodes whose
/// topological positions lie between u and v (O(V + E) worst case, per query).
/// Memory: 7 + 2 * kMaxChains 32-bit words per node (60 bytes with 4 chains).
class ReachabilityIndex {
 public:
  /// Chains used for positive certificates.
  static constexpr int kMaxChains = 4;

  /// Builds the index. Returns false on a cyclic graph and fills *cycle (if given) with one
  /// cycle as TopologicalOrder reports it; the index is then unusable.
  bool Build(const DepGraph& graph, std::vector<uint32_t>* cycle = nullptr);

  /// True iff u == v or a path u -> ... -> v exists. Not thread-safe (reuses the index's own
  /// scratch); counted in stats().
  bool Reaches(uint32_t u, uint32_t v) { return Reaches(u, v, &own_); }
  /// The same with the caller's scratch (sized on first use, O(V)): threads with a scratch
  /// each may query one index at once. Counted in scratch->stats, not in stats().
  bool Reaches(uint32_t u, uint32_t v, ReachScratch* scratch) const;

  /// Node indices in (Kahn) topological order.
  const std::vector<uint32_t>& order() const { return order_; }
  /// Position of a node in order().
  uint32_t Position(uint32_t node) const { return pos_[0][node]; }
  /// Longest path from any source to `node`, in edges.
  uint32_t Level(uint32_t node) const { return level_[node]; }
  /// All levels, indexed by node.
  const std::vector<uint32_t>& levels() const { return level_; }
  /// One longest path of the graph (node indices, source first); empty for no nodes.
  const std::vector<uint32_t>& critical_path() const { return critical_path_; }
  /// Statistics of the queries made with the index's own scratch since Build, plus those
  /// added by AddStats.
  const ReachabilityStats& stats() const { return own_.stats; }
  /// Adds the statistics of queries made with a caller's scratch to stats(). O(1).
  void AddStats(const ReachabilityStats& more);

 private:
  static constexpr uint32_t kNone = UINT32_MAX;

  bool Excluded(uint32_t w, uint32_t v) const;
  bool Certified(uint32_t w, uint32_t v) const;
  bool HasEdge(uint32_t u, uint32_t v) const;
  void BuildReachRanges(int which);
  void BuildChains();
  void AddChain(const std::vector<uint32_t>& path);

  const DepGraph* graph_ = nullptr;
  std::vector<uint32_t> order_;
  std::vector<uint32_t> pos_[2];
  std::vector<uint32_t> max_reach_[2];
  std::vector<uint32_t> level_;
  std::vector<uint32_t> critical_path_;
  int chains_ = 0;
  std::vector<uint32_t> first_on_chain_[kMaxChains];  ///< kNone when no chain node is reached
  std::vector<uint32_t> last_on_chain_[kMaxChains];   ///< kNone when no chain node reaches
  ReachScratch own_;
};

}  // namespace depgraph
