// The grep-friendly text report (the viewer's default output format).
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "depgraph/graph/graph.h"
#include "depgraph/graph/task_label.h"
#include "depgraph/reduce/edge_mode.h"

namespace depgraph {

/// Counts the report states in its SUMMARY, also used for the viewer's final stdout line.
struct TextReportCounts {
  size_t tasks = 0;
  size_t unique_edges = 0;     ///< shown pairs
  size_t annotated_edges = 0;  ///< rows on shown pairs
};

/// Counts for a selection without writing anything. O(V + R).
TextReportCounts CountTextReport(const DepGraph& graph, const EdgeSelection& selection);

/// Writes the SUMMARY / TASK INDEX / per-task blocks byte-compatible with the reference viewer.
/// `source_path` is printed as given (callers normalise it). `labels` from ResolveTaskLabels;
/// `perf_sidecar: yes` when a task has an active kernel slot or a label is `perf` (the
/// reference's "merged metadata is non-empty").
/// O(V + E) time; streams, so memory beyond the graph is O(max degree).
void WriteTextReport(const DepGraph& graph, const EdgeSelection& selection,
                     const std::vector<TaskLabel>& labels, const std::string& source_path,
                     std::ostream& out);

}  // namespace depgraph
