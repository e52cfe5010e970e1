// Topological order and cycle extraction for the pair graph.
#pragma once

#include <cstdint>
#include <vector>

#include "depgraph/graph/graph.h"

namespace depgraph {

/// Kahn's algorithm (queue seeded with zero in-degree nodes in index order).
/// Returns true and fills *order with all nodes when the graph is a DAG. Otherwise returns
/// false and fills *cycle with the node indices of one actual cycle, in edge order starting at its
/// smallest node index, that node repeated at the end (a self loop x gives {x, x}). O(V + E) time and memory.
bool TopologicalOrder(const DepGraph& graph, std::vector<uint32_t>* order,
                      std::vector<uint32_t>* cycle);

}  // namespace depgraph
