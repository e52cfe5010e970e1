// The neutral form of a CI gate's verdict (`audit`, `diff`, `check`): the rules a gate
// applies, its findings and the checks it ran. The verdict lines and the CI writers (SARIF,
// JUnit XML, GitHub annotations) all render this one model.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "depgraph/graph/graph.h"

namespace depgraph {

/// How bad a finding is: it fails the gate, fails it only under --warnings-as-errors, or
/// only informs.
enum class GateLevel : uint8_t { kError, kWarning, kNote };
/// "error", "warning" or "note" (SARIF's spelling; verdict lines print "info" for kNote).
const char* GateLevelName(GateLevel level);

/// A kind of finding. `id` is stable across releases (SARIF ruleId, JUnit test case).
struct GateRule {
  std::string id;           ///< e.g. "DG101"; never reused for another meaning
  std::string name;         ///< PascalCase, e.g. "RaceReadAfterWrite"
  std::string summary;      ///< one sentence: what a finding of this rule is
  std::string consequence;  ///< what it means for the run, e.g. "an intermittent race"
  GateLevel level = GateLevel::kError;  ///< the level of its findings
  /// How to fix a finding of this rule (SARIF `help`); "" = summary and consequence.
  std::string help;
};

/// One end of a finding (or one step of its path): a task and what it does there.
struct GateTask {
  TaskId id = 0;
  std::string display;  ///< the id as reports print it: "12", "(1, 12)", "t5"
  std::string kernel;   ///< kernel name, "f7" without a name map, "alloc", "dummy"
  std::string access;   ///< what it does with the region ("arg 2 OUTPUT"); "" when unknown
};

/// One finding: an ordered pair of tasks a rule flags.
struct GateFinding {
  size_t rule = 0;  ///< index into GateReport::rules
  GateLevel level = GateLevel::kError;  ///< the rule's level (raised by --warnings-as-errors)
  GateTask first;   ///< the producer, or the earlier task in submit order
  GateTask second;  ///< the consumer, or the later task
  std::string region;       ///< the tensor or bytes they share ("tensor 7 [0x100, 0x200)"), or ""
  std::string edge_source;  ///< the edge's sources ("tensormap", "creator+explicit"), or ""
  /// The tasks that link first to second, both ends included (a SARIF codeFlow); just the two
  /// ends when nothing links them.
  std::vector<GateTask> path;
  std::string message;  ///< the verdict line after its level: one line, names both tasks
};

/// One check the gate ran (a JUnit test case): passes when it has no finding at or above
/// the failing level.
struct GateCheck {
  std::string name;       ///< e.g. "races (RAW)", "orderings kept"
  std::string rule_id;    ///< the rule whose findings it counts; "" for checks without one
  uint64_t findings = 0;  ///< every finding counted, also those past GateReport::findings
  bool failed = false;
  std::string detail;     ///< one line: what was checked and what was found
};

/// How strict a gate is: what fails it besides its error findings.
struct GateOptions {
  bool strict = false;              ///< coverage gaps fail the gate (exit 3)
  bool warnings_as_errors = false;  ///< warning findings fail it too (their level is raised)
};

/// A gate's whole verdict.
struct GateReport {
  std::string command;              ///< "audit", "diff" or "check"
  std::vector<std::string> inputs;  ///< the artifacts as given on the command line
  std::vector<GateRule> rules;
  /// The findings kept (a gate may keep fewer than it counts; GateCheck::findings counts
  /// all), in the gate's report order.
  std::vector<GateFinding> findings;
  std::vector<GateCheck> checks;
  /// What weakens the verdict, one line each (unplaced output slots, unmatched tasks):
  /// a warning, and a failure under --strict.
  std::vector<std::string> coverage_gaps;
  std::string summary;  ///< the counted summary line with the consequence
  int exit_code = 0;    ///< 0 clean, 3 findings (or gaps under --strict)
};

/// Whether a finding at `level` fails the gate under `options`.
bool GateFails(GateLevel level, const GateOptions& options);

/// Sets report->exit_code from its checks and gaps: 3 when a check failed or (strict) a
/// coverage gap exists, else 0. O(checks).
void SetGateExitCode(const GateOptions& options, GateReport* report);

/// "error: <message>" (or "warning: ", "info: "): a finding's verdict line, without newline.
std::string VerdictLine(const GateFinding& finding);

}  // namespace depgraph
