// The audit's summary of a graph: size, edge sources, shape, critical path, redundancy.
#pragma once

#include <cstdint>
#include <vector>

#include "depgraph/graph/graph.h"
#include "depgraph/graph/reachability.h"

namespace depgraph {

/// Counts and shape of one DAG.
struct AuditSummary {
  uint64_t tasks = 0;    ///< tasks[] entries (submitted and dummy tasks)
  uint64_t nodes = 0;    ///< graph nodes (edge endpoints and kernel tasks)
  uint64_t submit = 0;   ///< nodes with an active kernel slot
  uint64_t dummy = 0;    ///< nodes that are tasks without a kernel
  uint64_t alloc = 0;    ///< nodes that are not tasks (allocations)
  uint64_t isolated_dummies = 0;  ///< dummy tasks without edges (not nodes)
  uint64_t tensors = 0;
  uint64_t pairs = 0;
  uint64_t rows = 0;
  uint64_t rows_by_source[4] = {0, 0, 0, 0};   ///< indexed by EdgeSource
  uint64_t pairs_by_source[4] = {0, 0, 0, 0};  ///< pairs carrying a row of that source
  uint64_t depth = 0;  ///< longest path, in edges
  uint64_t width = 0;  ///< most tasks on one level (see graph_metrics.h)
  std::vector<uint32_t> critical_path;     ///< node indices of one longest path
  std::vector<uint64_t> tasks_per_level;   ///< nodes per level (longest distance from a source)
  uint64_t redundant = 0;         ///< structurally redundant pairs
  uint64_t reduced_removes = 0;   ///< pairs `--edge-mode reduced` drops
  uint64_t creator_retained = 0;  ///< redundant pairs kept only for a creator row
  uint64_t dataflow_removes = 0;  ///< pairs `--edge-mode reduced_dataflow` drops
};

/// "creator", "tensormap", "explicit" or "other".
const char* EdgeSourceName(EdgeSource source);

/// Summarises a DAG whose index `reach` is built. Reuses the structural reduction and the
/// edge modes for the redundancy counts; levels and the critical path come from the index.
/// Cost: O(V + E) plus the reduction and the dataflow proof (see reduction.h, edge_mode.h),
/// which run on `threads` threads (0 = every core; the summary does not depend on it).
AuditSummary SummarizeGraph(const DepGraph& graph, const ReachabilityIndex& reach,
                            unsigned threads = 0);

}  // namespace depgraph
