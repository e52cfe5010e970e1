#include "depgraph/reduction.h"

#include <algorithm>

#include "depgraph/topo_order.h"

namespace depgraph {

StructuralReduction ReduceStructurally(const DepGraph& graph) {
  StructuralReduction result;
  const PairGraph& g = graph.graph;
  const uint32_t n = static_cast<uint32_t>(graph.nodes.size());
  result.redundant.assign(graph.pairs.size(), 0);
  std::vector<uint32_t> order;
  if (!TopologicalOrder(graph, &order, &result.cycle)) {
    result.is_dag = false;
    return result;
  }
  std::vector<uint32_t> position(n);
  for (uint32_t i = 0; i < n; ++i) position[order[i]] = i;
  order.clear();
  order.shrink_to_fit();

  // Epoch stamps: successor_mark[x] == epoch iff x is a successor of the current node;
  // reach_mark[x] == epoch iff x was reached from one of its successors.
  std::vector<uint32_t> successor_mark(n, 0), reach_mark(n, 0);
  uint32_t epoch = 0;
  // Successors of the current node as (position, pair index), and the DFS stack.
  std::vector<std::pair<uint32_t, uint32_t>> successors;
  std::vector<uint32_t> stack;
  auto mark_redundant = [&](uint32_t pair) {
    result.redundant[pair] = 1;
    ++result.redundant_count;
  };
  for (uint32_t u = 0; u < n; ++u) {
    auto [begin, end] = boost::out_edges(u, g);
    if (end - begin < 2) continue;  // a single successor is never redundant
    if (++epoch == 0) {  // wrapped: reset stamps
      std::fill(successor_mark.begin(), successor_mark.end(), 0);
      std::fill(reach_mark.begin(), reach_mark.end(), 0);
      epoch = 1;
    }
    successors.clear();
    for (auto it = begin; it != end; ++it) {
      uint32_t v = static_cast<uint32_t>(boost::target(*it, g));
      successor_mark[v] = epoch;
      successors.emplace_back(position[v],
                              static_cast<uint32_t>(boost::get(boost::edge_index, g, *it)));
    }
    std::sort(successors.begin(), successors.end());

    // Two-hop check: w is redundant when one of its predecessors is another successor of u.
    // Cheap on hubs where the search below would re-walk a whole level; bounded by a budget
    // so a successor with a huge fan-in cannot make it quadratic.
    size_t budget = 8 * successors.size() + 256;
    uint32_t bound = 0;  // largest position of a successor still unresolved
    for (size_t i = 0; i < successors.size(); ++i) {
      const uint32_t pair = successors[i].second;
      const uint32_t w = graph.pairs[pair].succ;
      bool redundant = false;
      if (i > 0 && boost::in_degree(w, g) <= budget) {
        budget -= boost::in_degree(w, g);
        for (auto [it, last] = boost::in_edges(w, g); it != last; ++it) {
          uint32_t p = static_cast<uint32_t>(boost::source(*it, g));
          if (p != u && successor_mark[p] == epoch) {
            redundant = true;
            break;
          }
        }
      }
      if (redundant) {
        mark_redundant(pair);
      } else {
        bound = successors[i].first;
      }
    }

    for (const auto& [pos, pair] : successors) {
      if (result.redundant[pair]) continue;
      uint32_t v = graph.pairs[pair].succ;
      if (reach_mark[v] == epoch) {
        mark_redundant(pair);
        continue;
      }
      if (pos >= bound) break;  // the last unresolved successor: nothing left to find
      // Mark everything reachable from v (excluding v) up to the bound.
      stack.push_back(v);
      while (!stack.empty()) {
        uint32_t x = stack.back();
        stack.pop_back();
        for (auto [it, last] = boost::out_edges(x, g); it != last; ++it) {
          uint32_t w = static_cast<uint32_t>(boost::target(*it, g));
          if (reach_mark[w] == epoch || position[w] > bound) continue;
          reach_mark[w] = epoch;
          stack.push_back(w);
        }
      }
    }
  }
  return result;
}

}  // namespace depgraph
