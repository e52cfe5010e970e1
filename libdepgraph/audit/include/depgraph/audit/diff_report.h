// Text and JSON output of `depgraph diff`.
#pragma once

#include <ostream>
#include <string>

#include "depgraph/audit/gate_report.h"
#include "depgraph/audit/graph_diff.h"
#include "depgraph/graph/graph.h"

namespace depgraph {

/// What the writers need besides the diff.
struct DiffReportInput {
  const DepGraph& a;
  const DepGraph& b;
  const GraphDiff& diff;
  const DiffOptions& options;
  std::string name_a;  ///< paths as given
  std::string name_b;
  /// The gate's verdict (diff_gate.h): when given, the text report lists its findings as
  /// verdict lines (`error: ordering lost: ...`), ends with its summary, and its exit code
  /// decides the result line.
  const GateReport* gate = nullptr;
};

/// Exit status of a diff: 3 when B loses an ordering of A, else 0.
int DiffExitCode(const GraphDiff& diff);

/// Writes the human-readable comparison: task matching (loudly when the task sets differ),
/// edge counts, every ordering lost and added, up to 100 edges of each side whose order the
/// other graph still implies (as the gate's verdict lines when `input.gate` is set), closure
/// counts, the summary and the result line. O(listed pairs), streamed.
void WriteDiffText(const DiffReportInput& input, std::ostream& out);

/// Writes the JSON comparison (schema "depgraph-diff/1", documented in docs/audit.md); every
/// list complete except the closure lists (DiffOptions::max_closure_pairs).
void WriteDiffJson(const DiffReportInput& input, std::ostream& out);

}  // namespace depgraph
