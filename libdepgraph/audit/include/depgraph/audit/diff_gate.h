// `depgraph diff` as a CI gate: every edge the two graphs do not share, classified by
// reachability (Ninja's missingdeps verdicts) into the gate model of gate_report.h.
#pragma once

#include <cstddef>
#include <vector>

#include "depgraph/audit/diff_report.h"
#include "depgraph/audit/gate_report.h"
#include "depgraph/graph/task_label.h"

namespace depgraph {

/// Rule ids of the diff gate (stable): DG201 an ordering of A that B loses (error), DG202 an
/// edge of B that no path of A implies (warning: lost parallelism), DG203 an edge of either
/// graph missing from the other but implied there through a path (note).
std::vector<GateRule> DiffGateRules();

/// What DiffGateReport reads besides the diff.
struct DiffGateInput {
  const DiffReportInput& report;
  /// Kernel names per node of A and of B (ResolveTaskLabels); empty vectors: ids only.
  const std::vector<TaskLabel>& labels_a;
  const std::vector<TaskLabel>& labels_b;
  GateOptions options;
  /// Implied edges (DG203) kept as findings per direction; all are counted.
  size_t max_implied = 100;
};

/// Classifies the diff: one finding per ordering lost (named with A's rows of the edge:
/// tensor, both access kinds, the edge's sources), per ordering added (B's rows), and per
/// implied edge up to max_implied each way, with the path that implies it. Checks: orderings
/// kept, no unimplied edge added, implied edges (never fails). Coverage gaps: tasks without a
/// partner and the edges not compared because of them.
/// Cost: O(V + E) per graph for the row index, plus O(V + E) per implied edge listed (a
/// breadth-first path), so O((max_implied + 1) (V + E)) overall.
GateReport DiffGateReport(const DiffGateInput& input);

}  // namespace depgraph
