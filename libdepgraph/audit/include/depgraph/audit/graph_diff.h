// Comparing two graphs of one orchestration: edges and orderings lost or added.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "depgraph/graph/graph.h"

namespace depgraph {

/// How DiffGraphs matches tasks and what it compares.
struct DiffOptions {
  /// Match the k-th tasks[] entry of A with the k-th of B (and allocation nodes, which are
  /// not in tasks[], by rank of id) instead of by equal id.
  bool by_order = false;
  /// Also compare the transitive closures (every ordered pair), not only the edges.
  bool closure = false;
  /// Closure pairs kept per list (lost, added); counting goes on past it.
  size_t max_closure_pairs = 100000;
  /// Threads (0 = all cores): from 2 up, A's and B's reachability indices and the edge
  /// comparisons each way run side by side, and the closure comparison is split over them.
  /// The result does not depend on it.
  unsigned threads = 0;
};

/// A pair of matched tasks, by id in A and in B (equal when matched by id).
struct DiffPair {
  TaskId a_pred = 0;
  TaskId a_succ = 0;
  TaskId b_pred = 0;
  TaskId b_succ = 0;
  /// The predecessor is an allocation node (alloc_tensors: not in tasks[], completes at
  /// submit), so the ordering only carries buffer lifetime.
  bool pred_is_alloc = false;
};

/// Calls visit(pair) for each edge of `only` that `not_implied` does not hold, in order: the
/// edges one graph alone has whose order the other still implies through a path
/// (`not_implied`, e.g. orderings_lost for edges_only_in_a, is a subsequence of `only`, so one
/// walk skips it). `visit` returns false to stop. O(|only|).
template <typename Visit>
void ForEachImpliedEdge(const std::vector<DiffPair>& only,
                        const std::vector<DiffPair>& not_implied, Visit&& visit) {
  size_t next = 0;
  for (const DiffPair& p : only) {
    if (next < not_implied.size() && not_implied[next].a_pred == p.a_pred &&
        not_implied[next].a_succ == p.a_succ) {
      ++next;
      continue;
    }
    if (!visit(p)) return;
  }
}

/// The comparison of graph A (reference) with graph B.
struct GraphDiff {
  uint64_t tasks_a = 0;  ///< tasks[] entries plus allocation nodes of A
  uint64_t tasks_b = 0;
  uint64_t matched = 0;
  bool task_sets_differ = false;   ///< some task of either graph has no partner
  std::vector<TaskId> only_in_a;   ///< unmatched tasks of A, ascending id
  std::vector<TaskId> only_in_b;
  uint64_t pairs_a = 0;
  uint64_t pairs_b = 0;
  std::vector<DiffPair> edges_only_in_a;  ///< both ends matched, no such edge in B
  std::vector<DiffPair> edges_only_in_b;
  uint64_t edges_unmatched_a = 0;  ///< A edges with an end that has no partner in B
  uint64_t edges_unmatched_b = 0;
  /// A edges whose order B does not imply (no path in B): what B loses.
  std::vector<DiffPair> orderings_lost;
  /// B edges whose order A does not imply: what B adds.
  std::vector<DiffPair> orderings_added;
  // With DiffOptions::closure (over matched tasks only):
  bool closure_computed = false;
  uint64_t closure_a = 0;  ///< ordered pairs (u reaches v, u != v) in A
  uint64_t closure_b = 0;
  uint64_t closure_lost_count = 0;
  uint64_t closure_added_count = 0;
  std::vector<DiffPair> closure_lost;   ///< first max_closure_pairs, by A's pred then succ
  std::vector<DiffPair> closure_added;
};

/// Compares A with B. Edges and orderings are judged only between matched tasks; edges
/// touching an unmatched task are counted apart. A's edge (u, v) is an ordering lost when B
/// has no path from u's partner to v's partner; closure(A) is a subset of closure(B) exactly
/// when no ordering is lost, so the closure lists only tell how much is lost.
/// Returns false with a message when either graph has a cycle (`b.json: dependency graph has
/// a cycle: 3 -> 7 -> 3`, naming the graph by `name_a` / `name_b`).
/// Cost: O((V + E) log V) plus one reachability query per edge (see reachability.h); with
/// closure, O(M / 64 * (V + E + M)) time for M matched tasks (bit-parallel sweeps of 64
/// sources, each from its earliest source on; see closure_compare.h), split over
/// `options.threads`, and O(threads * (V + M)) memory.
bool DiffGraphs(const DepGraph& a, const DepGraph& b, const DiffOptions& options,
                const std::string& name_a, const std::string& name_b, GraphDiff* diff,
                std::string* err);

}  // namespace depgraph
