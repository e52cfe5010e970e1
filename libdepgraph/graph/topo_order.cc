#include "depgraph/graph/topo_order.h"

#include <algorithm>

namespace depgraph {

bool TopologicalOrder(const DepGraph& graph, std::vector<uint32_t>* order,
                      std::vector<uint32_t>* cycle) {
  const PairGraph& g = graph.graph;
  const uint32_t n = static_cast<uint32_t>(graph.nodes.size());
  std::vector<uint32_t> indegree(n, 0);
  for (const Pair& p : graph.pairs) ++indegree[p.succ];
  order->clear();
  order->reserve(n);
  for (uint32_t v = 0; v < n; ++v) {
    if (indegree[v] == 0) order->push_back(v);
  }
  // `order` doubles as the FIFO queue: everything before `head` has been popped.
  for (size_t head = 0; head < order->size(); ++head) {
    uint32_t u = (*order)[head];
    for (auto [it, end] = boost::out_edges(u, g); it != end; ++it) {
      uint32_t v = static_cast<uint32_t>(boost::target(*it, g));
      if (--indegree[v] == 0) order->push_back(v);
    }
  }
  if (order->size() == n) {
    if (cycle) cycle->clear();
    return true;
  }
  if (cycle) {
    // Every node left has a predecessor that is also left: walk predecessors until one
    // repeats, then the walk's tail is a cycle (in reverse edge order).
    uint32_t start = 0;
    while (indegree[start] == 0) ++start;
    std::vector<uint32_t> walk;
    std::vector<int64_t> seen_at(n, -1);
    uint32_t x = start;
    while (seen_at[x] < 0) {
      seen_at[x] = static_cast<int64_t>(walk.size());
      walk.push_back(x);
      for (auto [it, end] = boost::in_edges(x, g); it != end; ++it) {
        uint32_t p = static_cast<uint32_t>(boost::source(*it, g));
        if (indegree[p] > 0) {
          x = p;
          break;
        }
      }
    }
    cycle->assign(walk.begin() + seen_at[x], walk.end());
    std::reverse(cycle->begin(), cycle->end());
    // Start at the smallest node so the report does not depend on where the walk began.
    std::rotate(cycle->begin(), std::min_element(cycle->begin(), cycle->end()), cycle->end());
    cycle->push_back(cycle->front());
  }
  return false;
}

}  // namespace depgraph
