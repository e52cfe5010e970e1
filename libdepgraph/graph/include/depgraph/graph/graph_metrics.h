// Shape statistics of a dependency graph: depth and width.
#pragma once

#include <cstdint>
#include <vector>

#include "depgraph/graph/graph.h"

namespace depgraph {

/// Depth and width of a DAG restricted to a set of pairs.
struct GraphMetrics {
  bool is_dag = true;
  /// Longest path, counted in edges (0 for a graph without edges).
  uint64_t depth = 0;
  /// Largest number of tasks on one level, a level being the longest-path distance from a
  /// source. Tasks on one level are pairwise unordered, so this is a lower bound on the
  /// largest antichain (the most tasks that may run at once).
  uint64_t width = 0;
};

/// Computes depth and width over the pairs with shown[pair] != 0 (all pairs if `shown` is
/// empty). O(V + E) time and memory; on a cyclic graph returns is_dag = false and zeros.
GraphMetrics ComputeGraphMetrics(const DepGraph& graph, const std::vector<uint8_t>& shown = {});

}  // namespace depgraph
