// `depgraph swimlane [RECORDS]`: a drop-in for the reference swimlane_converter.py
// (docs/swimlane.md): timing records + deps.json + kernel names -> a Perfetto trace
// (merged_swimlane.json) and a per-function table on stdout.
#pragma once

#include <CLI/CLI.hpp>
#include <ostream>
#include <string>

namespace depgraph {

/// Arguments of `depgraph swimlane`.
struct SwimlaneArgs {
  std::string input;          ///< RECORDS ("" : the newest outputs/*/chip_swimlane_records.json)
  std::string output;         ///< -o: the trace ("" : merged_swimlane.json beside RECORDS)
  std::string kernel_config;  ///< -k: a kernel_config.py (run by python3)
  std::string func_names;     ///< --func-names: a name map ("" : the one sibling name_map*.json)
  std::string deps_json;      ///< --deps-json ("" : deps.json beside RECORDS)
  bool verbose = false;       ///< -v: the reference's progress lines
  bool overhead = false;      ///< --overhead: the overhead counter tracks
};

/// The `swimlane` subcommand registered on an app: construct it before parsing, then ask
/// parsed() and Run().
class SwimlaneCommand {
 public:
  /// Adds the subcommand, its options and argparse-style unique prefixes of the long ones.
  explicit SwimlaneCommand(CLI::App* app);
  /// Whether the command line chose this subcommand.
  bool parsed() const { return command_->parsed(); }
  /// Runs it (see RunSwimlaneCommand).
  int Run(std::ostream& out, std::ostream& err) const;

 private:
  CLI::App* command_;
  SwimlaneArgs args_;
};

/// Runs `depgraph swimlane`. Exit codes: 0 written (warnings on stderr); 1 bad input, a name
/// that cannot be printed, or an output that cannot be written: one line `error: ...` on
/// stderr, nothing on stdout, no trace written. Cost: the loads, then linear in rows, phases
/// and flow pairs (docs/swimlane.md); the trace is streamed to a temporary file.
int RunSwimlaneCommand(const SwimlaneArgs& args, std::ostream& out, std::ostream& err);

}  // namespace depgraph
