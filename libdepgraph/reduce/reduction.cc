#include "depgraph/reduce/reduction.h"

#include <algorithm>
#include <functional>
#include <thread>

#include "depgraph/graph/topo_order.h"
#include "depgraph/support/thread_count.h"

namespace depgraph {

namespace {

/// Below this many pairs per thread, another thread costs more than it saves.
constexpr size_t kPairsPerThread = 1 << 16;

/// Per-node scratch of the reduction, epoch-stamped so that nothing is cleared between nodes.
struct Marks {
  std::vector<uint32_t> successor;  ///< == epoch iff the node is a successor of the current u
  std::vector<uint32_t> slot;       ///< its index in `targets` (valid with `successor`)
  std::vector<uint32_t> reached;    ///< == epoch iff reached from an earlier successor
  uint32_t epoch = 0;

  explicit Marks(uint32_t n) : successor(n, 0), slot(n, 0), reached(n, 0) {}
  void Next() {
    if (++epoch != 0) return;
    std::fill(successor.begin(), successor.end(), 0);  // wrapped: reset the stamps
    std::fill(reached.begin(), reached.end(), 0);
    epoch = 1;
  }
};

/// One successor of the current node: its topological position, level and pair.
struct Target {
  uint32_t position;
  uint32_t level;
  uint32_t pair;
  bool decided;  ///< redundant, or known not to be (it was a search root)
};

/// The labels every worker reads: topological position and level per node.
struct Labels {
  std::vector<uint32_t> position;
  std::vector<uint32_t> level;
};

/// What one worker found for its range of nodes.
struct RangeResult {
  size_t redundant_count = 0;
  uint64_t search_steps = 0;
};

/// Decides the out-pairs of the nodes [first, last) into `redundant` (only their own bytes
/// are written, so workers on disjoint ranges never touch the same byte).
void ReduceRange(const DepGraph& graph, const Labels& labels, uint32_t first, uint32_t last,
                 std::vector<uint8_t>& redundant, RangeResult* out) {
  const PairGraph& g = graph.graph;
  const std::vector<uint32_t>& position = labels.position;
  const std::vector<uint32_t>& level = labels.level;
  Marks marks(static_cast<uint32_t>(graph.nodes.size()));
  std::vector<Target> targets;             // successors of u by position
  std::vector<uint32_t> by_level;          // indices into targets, by level
  std::vector<uint32_t> stack;
  for (uint32_t u = first; u < last; ++u) {
    auto [begin, end] = boost::out_edges(u, g);
    if (end - begin < 2) continue;  // a single successor is never redundant
    marks.Next();
    const uint32_t epoch = marks.epoch;
    targets.clear();
    for (auto it = begin; it != end; ++it) {
      const uint32_t v = static_cast<uint32_t>(boost::target(*it, g));
      targets.push_back({position[v], level[v],
                         static_cast<uint32_t>(boost::get(boost::edge_index, g, *it)), false});
    }
    std::sort(targets.begin(), targets.end(),
              [](const Target& a, const Target& b) { return a.position < b.position; });
    for (uint32_t i = 0; i < targets.size(); ++i) {
      const uint32_t v = graph.pairs[targets[i].pair].succ;
      marks.successor[v] = epoch;
      marks.slot[v] = i;
    }
    size_t undecided = targets.size();
    auto decide = [&](uint32_t i, bool is_redundant) {
      targets[i].decided = true;
      --undecided;
      if (!is_redundant) return;
      redundant[targets[i].pair] = 1;
      ++out->redundant_count;
    };

    // Two-hop check: w is redundant when one of its predecessors is another successor of u.
    // Cheap on hubs where a search would re-walk a whole level; bounded by a budget so that a
    // successor with a huge fan-in cannot make it quadratic.
    size_t budget = 8 * targets.size() + 256;
    for (uint32_t i = 1; i < targets.size(); ++i) {
      const uint32_t w = graph.pairs[targets[i].pair].succ;
      if (boost::in_degree(w, g) > budget) continue;
      budget -= boost::in_degree(w, g);
      for (auto [it, last] = boost::in_edges(w, g); it != last; ++it) {
        const uint32_t p = static_cast<uint32_t>(boost::source(*it, g));
        if (p != u && marks.successor[p] == epoch) {
          decide(i, true);
          break;
        }
      }
    }

    // The searches. Successors are taken in increasing position; one not reached by the
    // searches from earlier ones is kept, and searched from in turn. A search only expands
    // nodes that can still reach an undecided successor: position at most the largest
    // undecided position, level below the largest undecided level. Both bounds only shrink,
    // so a node skipped once never matters later. All searches stop once every successor is
    // decided.
    by_level.resize(targets.size());
    for (uint32_t i = 0; i < targets.size(); ++i) by_level[i] = i;
    std::sort(by_level.begin(), by_level.end(), [&](uint32_t a, uint32_t b) {
      return targets[a].level < targets[b].level;
    });
    size_t last_by_position = targets.size(), last_by_level = targets.size();
    uint32_t bound_position = 0, bound_level = 0;
    auto update_bounds = [&]() {
      while (last_by_position > 0 && targets[last_by_position - 1].decided) --last_by_position;
      while (last_by_level > 0 && targets[by_level[last_by_level - 1]].decided) --last_by_level;
      bound_position = last_by_position ? targets[last_by_position - 1].position : 0;
      bound_level = last_by_level ? targets[by_level[last_by_level - 1]].level : 0;
    };
    for (uint32_t root = 0; root < targets.size() && undecided > 0; ++root) {
      if (targets[root].decided) continue;
      const uint32_t v = graph.pairs[targets[root].pair].succ;
      if (marks.reached[v] == epoch) {
        decide(root, true);
        continue;
      }
      decide(root, false);
      update_bounds();
      stack.push_back(v);
      while (!stack.empty() && undecided > 0) {
        const uint32_t x = stack.back();
        stack.pop_back();
        for (auto [it, last] = boost::out_edges(x, g); it != last; ++it) {
          ++out->search_steps;
          const uint32_t w = static_cast<uint32_t>(boost::target(*it, g));
          if (marks.reached[w] == epoch || position[w] > bound_position) continue;
          const bool target = marks.successor[w] == epoch;
          if (!target && level[w] >= bound_level) continue;  // reaches no undecided successor
          marks.reached[w] = epoch;
          if (target && !targets[marks.slot[w]].decided) {
            decide(marks.slot[w], true);
            if (undecided == 0) break;
            update_bounds();
          }
          stack.push_back(w);
        }
      }
      stack.clear();
    }
  }
}

}  // namespace

StructuralReduction ReduceStructurally(const DepGraph& graph, unsigned threads) {
  StructuralReduction result;
  const PairGraph& g = graph.graph;
  const uint32_t n = static_cast<uint32_t>(graph.nodes.size());
  result.redundant.assign(graph.pairs.size(), 0);
  std::vector<uint32_t> order;
  if (!TopologicalOrder(graph, &order, &result.cycle)) {
    result.is_dag = false;
    return result;
  }
  // Position in the order, and level (longest path from a source, in edges): a path only
  // goes to higher positions and strictly higher levels.
  Labels labels;
  labels.position.resize(n);
  labels.level.assign(n, 0);
  for (uint32_t i = 0; i < n; ++i) labels.position[order[i]] = i;
  for (uint32_t u : order) {
    for (auto [it, end] = boost::out_edges(u, g); it != end; ++it) {
      const uint32_t w = static_cast<uint32_t>(boost::target(*it, g));
      labels.level[w] = std::max(labels.level[w], labels.level[u] + 1);
    }
  }
  order.clear();
  order.shrink_to_fit();

  // Ranges of nodes with about equal numbers of out-pairs, one per thread; the redundant set
  // is unique, so the result does not depend on the split.
  if (threads == 0) threads = ThreadCount(0, graph.pairs.size(), kPairsPerThread);
  threads = ThreadCount(threads, n, 1);
  std::vector<uint32_t> bounds = {0};
  for (unsigned t = 1; t < threads; ++t) {
    const size_t goal = graph.pairs.size() * t / threads;
    uint32_t u = bounds.back();
    while (u < n && graph.FirstPairOf(u) < goal) ++u;
    bounds.push_back(u);
  }
  bounds.push_back(n);
  std::vector<RangeResult> parts(threads);
  std::vector<std::thread> workers;
  for (unsigned t = 1; t < threads; ++t) {
    workers.emplace_back(ReduceRange, std::cref(graph), std::cref(labels), bounds[t],
                         bounds[t + 1], std::ref(result.redundant), &parts[t]);
  }
  ReduceRange(graph, labels, bounds[0], bounds[1], result.redundant, &parts[0]);
  for (std::thread& worker : workers) worker.join();
  for (const RangeResult& part : parts) {
    result.redundant_count += part.redundant_count;
    result.search_steps += part.search_steps;
  }
  return result;
}

}  // namespace depgraph
