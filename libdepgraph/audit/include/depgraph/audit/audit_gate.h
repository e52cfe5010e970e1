// `depgraph audit` as a CI gate: its result in the neutral gate model (gate_report.h) that the
// verdict line and the CI writers (SARIF, JUnit XML, GitHub) render.
#pragma once

#include <string>
#include <vector>

#include "depgraph/audit/audit.h"
#include "depgraph/audit/gate_report.h"
#include "depgraph/graph/graph.h"
#include "depgraph/graph/task_label.h"

namespace depgraph {

/// Stable rule ids of the audit gate (docs/audit.md, "Gate"): never reused for another meaning.
inline constexpr const char* kRuleRaceRaw = "DG101";
inline constexpr const char* kRuleRaceWaw = "DG102";
inline constexpr const char* kRuleRaceWar = "DG103";
inline constexpr const char* kRuleFalseSerialization = "DG104";

/// The audit's verdict as a gate report: rules DG101-DG103 (races RAW, WAW, WAR; error) and
/// DG104 (false serialization; warning); one finding per race kept in result.races.races
/// (path: its two ends) and per false serialization finding (path: its tasks in submit
/// order); a check per race kind, one for false serialization and one "coverage"; coverage
/// gaps for OUTPUT slots no creator row names, arguments without a byte set and edges against
/// submit order (each hides races from the sweep). exit_code 3 when a race was found, or a
/// false serialization under warnings_as_errors, or a coverage gap under strict; else 0.
/// `labels` are ResolveTaskLabels(graph, names); kernels without a name show as f{id}.
/// O(V + findings) time.
GateReport AuditGateReport(const DepGraph& graph, const AuditResult& result,
                           const std::vector<TaskLabel>& labels, const std::string& input_name,
                           const GateOptions& options);

}  // namespace depgraph
