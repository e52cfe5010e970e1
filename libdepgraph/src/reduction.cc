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

  std::vector<uint32_t> mark(n, 0);
  uint32_t epoch = 0;
  // Successors of the current node as (position, pair index), and the DFS stack.
  std::vector<std::pair<uint32_t, uint32_t>> successors;
  std::vector<uint32_t> stack;
  for (uint32_t u = 0; u < n; ++u) {
    auto [begin, end] = boost::out_edges(u, g);
    if (end - begin < 2) continue;  // a single successor is never redundant
    successors.clear();
    for (auto it = begin; it != end; ++it) {
      uint32_t v = static_cast<uint32_t>(boost::target(*it, g));
      successors.emplace_back(position[v], static_cast<uint32_t>(boost::get(boost::edge_index, g, *it)));
    }
    std::sort(successors.begin(), successors.end());
    const uint32_t bound = successors.back().first;
    if (++epoch == 0) {  // wrapped: reset stamps
      std::fill(mark.begin(), mark.end(), 0);
      epoch = 1;
    }
    for (const auto& [pos, pair] : successors) {
      uint32_t v = graph.pairs[pair].succ;
      if (mark[v] == epoch) {
        result.redundant[pair] = 1;
        ++result.redundant_count;
        continue;
      }
      // Mark everything reachable from v (excluding v) up to the bound.
      stack.push_back(v);
      while (!stack.empty()) {
        uint32_t x = stack.back();
        stack.pop_back();
        for (auto [it, last] = boost::out_edges(x, g); it != last; ++it) {
          uint32_t w = static_cast<uint32_t>(boost::target(*it, g));
          if (mark[w] == epoch || position[w] > bound) continue;
          mark[w] = epoch;
          stack.push_back(w);
        }
      }
    }
  }
  return result;
}

}  // namespace depgraph
