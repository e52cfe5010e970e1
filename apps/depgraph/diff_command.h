// `depgraph diff`: the orderings graph B loses or adds against reference graph A, as a report
// or as a CI gate's verdict.
#pragma once

#include <ostream>
#include <string>

#include "gate_flags.h"

namespace CLI {
class App;
}

namespace depgraph {

/// Arguments of `depgraph diff`.
struct DiffArgs {
  std::string a;            ///< reference graph A
  std::string b;            ///< graph B
  std::string output;       ///< where to write the report (atomically); empty = stdout
  std::string func_names_a; ///< name map of A; empty = the newest sibling name_map*.json
  std::string func_names_b; ///< name map of B; likewise
  GateFlags gate;           ///< --format, --strict, --warnings-as-errors, --allow-empty
  bool closure = false;     ///< also compare reachability
  bool by_order = false;    ///< match tasks by submit order
  unsigned threads = 0;     ///< 0 = every core
};

/// Registers the `diff` subcommand on `app`, storing its arguments in *args (which must
/// outlive the parse). Returns the subcommand, whose parsed() says whether it was chosen.
CLI::App* AddDiffCommand(CLI::App* app, DiffArgs* args);

/// Runs `depgraph diff` as a gate (diff_gate.h): one verdict line per finding, a counted
/// summary. Exit 0: no ordering lost; 3: B loses an ordering of A (or, with
/// --warnings-as-errors, adds an edge A does not imply; with --strict, a coverage gap);
/// 1: bad input, including a capture without tasks unless --allow-empty (one line on `err`, no
/// file written). Cost: two loads plus DiffGraphs (graph_diff.h) and DiffGateReport.
int RunDiffCommand(const DiffArgs& args, std::ostream& out, std::ostream& err);

}  // namespace depgraph
