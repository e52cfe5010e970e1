// `depgraph critical-path ROOT`: a drop-in for the reference critical_path.py (spec/timing.md
// §3, §6): every rank directory under ROOT gets a markdown report and, from its merged
// Perfetto trace, CPM_static.json and CPM_observed.json; a summary line per rank on stdout.
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <ostream>
#include <string>

namespace depgraph {

/// Arguments of `depgraph critical-path`.
struct CriticalPathArgs {
  std::string root;                                ///< BUILD_DIR: a directory or a file in it
  std::string report = "critical_path_report.md";  ///< --report: file name in each rank dir
  std::string top = "25";       ///< --top N: rows of the kernel-family table (Python int() text)
  std::string tol = "2";        ///< --tol T: ticks of tolerance for "finished before"
  bool to_stdout = false;       ///< --stdout: also print the combined report
  std::string json;             ///< --json FILE: the per-rank results as JSON
  bool accept_v2_rows = false;  ///< --accept-v2-rows: read 5-column (legacy) rows too
  std::string cpm_weight = "span";  ///< --cpm-weight span|longest-block
};

/// The `critical-path` subcommand registered on an app: construct it before parsing, then ask
/// parsed() and Run().
class CriticalPathCommand {
 public:
  /// Adds the subcommand with its options (and argparse-style unique prefixes of the long
  /// ones, `--std` for `--stdout`) to `app`.
  explicit CriticalPathCommand(CLI::App* app);
  /// Whether the command line chose this subcommand.
  bool parsed() const { return command_->parsed(); }
  /// Runs it. Exit codes: 0 done; 2 path not found, a --report that is a path, no rank
  /// directory, or an invalid merged trace (the other ranks are still processed); 1 a rank's
  /// inputs cannot be analysed or an output cannot be written (stdout then stays empty;
  /// reports of earlier ranks stay written). Cost: per rank the loads and O(E + R log R).
  int Run(std::ostream& out, std::ostream& err) const;

 private:
  CLI::App* command_;
  CriticalPathArgs args_;
};

/// Runs `depgraph critical-path` with parsed arguments (see CriticalPathCommand::Run).
int RunCriticalPathCommand(const CriticalPathArgs& args, std::ostream& out, std::ostream& err);

}  // namespace depgraph
