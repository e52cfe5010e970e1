#include "depgraph/graph/graph_metrics.h"

#include "depgraph/graph/topo_order.h"

namespace depgraph {

GraphMetrics ComputeGraphMetrics(const DepGraph& graph, const std::vector<uint8_t>& shown) {
  GraphMetrics metrics;
  std::vector<uint32_t> order;
  if (!TopologicalOrder(graph, &order, nullptr)) {
    metrics.is_dag = false;
    return metrics;
  }
  // Levels by longest distance from a source, relaxing edges in topological order. A
  // topological order of all pairs is one of every subset of them too.
  const PairGraph& g = graph.graph;
  std::vector<uint32_t> level(graph.nodes.size(), 0);
  for (uint32_t u : order) {
    for (auto [it, end] = boost::out_edges(u, g); it != end; ++it) {
      size_t pair = boost::get(boost::edge_index, g, *it);
      if (!shown.empty() && !shown[pair]) continue;
      uint32_t v = static_cast<uint32_t>(boost::target(*it, g));
      if (level[v] < level[u] + 1) level[v] = level[u] + 1;
    }
  }
  std::vector<uint64_t> per_level;
  for (uint32_t l : level) {
    if (l >= per_level.size()) per_level.resize(l + 1, 0);
    ++per_level[l];
    if (l > metrics.depth) metrics.depth = l;
  }
  for (uint64_t count : per_level) {
    if (count > metrics.width) metrics.width = count;
  }
  return metrics;
}

}  // namespace depgraph
