// `depgraph sched-overhead`: the scheduler-overhead report of a level-3/4 run
// (docs/sched_overhead.md), standing in for the reference sched_overhead_analysis.py: timing
// records + deps.json -> the six-part report on stdout, or its numbers as JSON.
#pragma once

#include <CLI/CLI.hpp>
#include <ostream>
#include <string>

namespace depgraph {

/// Arguments of `depgraph sched-overhead`, named as the reference's argparse names them.
struct SchedOverheadArgs {
  /// --chip-swimlane-records-json ("": the newest outputs/*/chip_swimlane_records.json)
  std::string records;
  std::string deps_json;  ///< --deps-json ("": deps.json beside the records, required to exist)
  bool json = false;      ///< --json: the numbers as JSON instead of the text report
};

/// The `sched-overhead` subcommand registered on an app: construct it before parsing, then
/// ask parsed() and Run().
class SchedOverheadCommand {
 public:
  /// Adds the subcommand, its options and argparse-style unique prefixes of the long ones.
  explicit SchedOverheadCommand(CLI::App* app);
  /// Whether the command line chose this subcommand.
  bool parsed() const { return command_->parsed(); }
  /// Runs it (see RunSchedOverheadCommand).
  int Run(std::ostream& out, std::ostream& err) const;

 private:
  CLI::App* command_;
  SchedOverheadArgs args_;
};

/// Runs `depgraph sched-overhead`. Exit codes: 0 the report on stdout; 1 bad input (records
/// missing or invalid, no tasks, no scheduler phases, a phase count that is not an integer,
/// deps.json missing or unreadable): one line `error: <file>: ...` on stderr, nothing on
/// stdout. Cost: the two loads (in parallel), then O(n log n) in task rows (AnalyzeSchedOverhead).
int RunSchedOverheadCommand(const SchedOverheadArgs& args, std::ostream& out, std::ostream& err);

}  // namespace depgraph
