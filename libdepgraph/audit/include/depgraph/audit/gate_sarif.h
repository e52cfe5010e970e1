// A gate's verdict as SARIF 2.1.0 (GitHub code scanning, Azure DevOps, IDE viewers).
#pragma once

#include <ostream>
#include <string>

#include "depgraph/audit/gate_report.h"

namespace depgraph {

/// Writes `report` as one SARIF 2.1.0 log with one run: tool.driver "depgraph" (with
/// `tool_version` when not empty) and every rule; the inputs as artifacts; one result per rule
/// and kernel pair (GroupGateFindings), whose message is the first finding's with the count of
/// the others, located at line 1 of the first input and at the two kernels (logical
/// locations), with a kernel-pair fingerprint ("depgraphKernelPair/v1", no task ids: stable
/// from run to run), the first finding's path as a code flow and the group's size in
/// properties.occurrences. Keys in a fixed order, 2-space indent, ending with a newline;
/// ill-formed UTF-8 is replaced by U+FFFD. O(F log F + output) for F findings.
void WriteGateSarif(const GateReport& report, std::ostream& out,
                    const std::string& tool_version = "");

}  // namespace depgraph
