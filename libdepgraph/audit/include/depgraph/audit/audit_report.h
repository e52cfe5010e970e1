// Text and JSON output of `depgraph audit`, and the advice attached to each finding.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "depgraph/audit/audit.h"
#include "depgraph/graph/graph.h"
#include "depgraph/graph/task_label.h"

namespace depgraph {

/// What the writers need besides the result.
struct AuditReportInput {
  const DepGraph& graph;
  const AuditResult& result;
  const std::vector<TaskLabel>& labels;  ///< ResolveTaskLabels(graph, names)
  std::string source;                    ///< the deps.json path as given
  /// Text report: race groups and false serialization findings listed (0 = all). The JSON
  /// report always has every finding.
  size_t max_findings = 20;
};

/// Exit status of an audit: 3 when any race was found (approximate ones included), else 0.
int AuditExitCode(const AuditResult& result);

/// The construct that would order a race, in the seeds' terms (`deps=` on the writer for a
/// WAR, on the later task otherwise), naming both tasks. O(1).
std::string RaceAdvice(const DepGraph& graph, const Race& race);

/// The fixes for a false serialization, narrowest first (no_dep_args, manual_dep,
/// manual_scope), with slicing when the views are rectangular. O(1).
std::string SerializationAdvice(const DepGraph& graph, const FalseSerialization& finding);

/// Writes the human-readable report: summary; races grouped by tensor, kind and cause (largest
/// group first, up to 3 examples each with its fix); false serialization; the result line.
/// Lists stop at `max_findings` with a count of the rest. O(V + findings log findings) time.
void WriteAuditText(const AuditReportInput& input, std::ostream& out);

/// Writes the JSON report (schema "depgraph-audit/1", documented in docs/audit.md): ids,
/// tensor ids and absolute addresses as decimal strings, counts as numbers.
/// O(V + findings) time, streamed.
void WriteAuditJson(const AuditReportInput& input, std::ostream& out);

}  // namespace depgraph
