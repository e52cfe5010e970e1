#include "depgraph/audit/gate_report.h"

namespace depgraph {

const char* GateLevelName(GateLevel level) {
  switch (level) {
    case GateLevel::kError:
      return "error";
    case GateLevel::kWarning:
      return "warning";
    case GateLevel::kNote:
      return "note";
  }
  return "note";
}

bool GateFails(GateLevel level, const GateOptions& options) {
  return level == GateLevel::kError || (level == GateLevel::kWarning && options.warnings_as_errors);
}

void SetGateExitCode(const GateOptions& options, GateReport* report) {
  bool failed = options.strict && !report->coverage_gaps.empty();
  for (const GateCheck& check : report->checks) failed = failed || check.failed;
  report->exit_code = failed ? 3 : 0;
}

std::string VerdictLine(const GateFinding& finding) {
  const char* level = finding.level == GateLevel::kNote ? "info" : GateLevelName(finding.level);
  return std::string(level) + ": " + finding.message;
}

}  // namespace depgraph
