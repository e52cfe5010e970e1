// A gate's findings aggregated per rule and kernel pair: what the CI writers (SARIF, GitHub
// annotations, the step summary) list, so that 18,000 races over a few kernels stay a few
// dozen entries.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "depgraph/audit/gate_report.h"

namespace depgraph {

/// The findings of one rule between one pair of kernels (first.kernel, second.kernel).
struct GateFindingGroup {
  size_t rule = 0;                 ///< index into GateReport::rules
  GateLevel level = GateLevel::kError;  ///< the most severe level among its findings
  std::string first_kernel;
  std::string second_kernel;
  std::vector<size_t> members;     ///< indices into GateReport::findings, in report order
};

/// Groups the kept findings by (rule, first kernel, second kernel), ordered by level (errors
/// first), then rule index, then the report order of each group's first finding. Every
/// finding is in exactly one group. O(F log F) for F findings.
std::vector<GateFindingGroup> GroupGateFindings(const GateReport& report);

/// The group's message: its first finding's message, plus " (and N more between these
/// kernels)" when it holds N + 1 findings. O(message).
std::string GateGroupMessage(const GateReport& report, const GateFindingGroup& group);

/// A stable fingerprint of a group: 16 hex digits of a 64-bit FNV-1a hash of the rule id and
/// the two kernel names (no task ids, so it survives re-captures). O(names).
std::string GateGroupFingerprint(const GateReport& report, const GateFindingGroup& group);

}  // namespace depgraph
