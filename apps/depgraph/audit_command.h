// `depgraph audit`: races, false serialization, redundancy and a summary of one capture, as a
// report or as a CI gate's verdict.
#pragma once

#include <cstddef>
#include <ostream>
#include <string>

#include "gate_flags.h"

namespace CLI {
class App;
}

namespace depgraph {

/// Arguments of `depgraph audit`.
struct AuditArgs {
  std::string input;         ///< deps.json to audit
  std::string output;        ///< where to write the report (atomically); empty = stdout
  std::string func_names;    ///< name map; empty = the newest sibling name_map*.json
  /// --format (text, json: schema depgraph-audit/1, sarif, junit, github), --strict (coverage
  /// gaps fail), --warnings-as-errors (false serialization fails), --allow-empty, --summary.
  GateFlags gate;
  size_t max_findings = 20;  ///< findings listed in the text report; 0 = all
  unsigned threads = 0;      ///< 0 = every core
};

/// Registers the `audit` subcommand on `app`, storing its arguments in *args (which must
/// outlive the parse). Returns the subcommand, whose parsed() says whether it was chosen.
CLI::App* AddAuditCommand(CLI::App* app, AuditArgs* args);

/// Runs `depgraph audit`. Exit 0: no race; 3: races found (or a false serialization with
/// --warnings-as-errors, or a coverage gap with --strict); 1: bad input, or a capture without
/// tasks unless --allow-empty (one line on `err`, no file written). Every coverage gap is one
/// `warning: <file>: <gap>` line on `err`, whatever the format. Reads $GITHUB_STEP_SUMMARY
/// (--format github without --summary). Cost: the load plus RunAudit (audit.h).
int RunAuditCommand(const AuditArgs& args, std::ostream& out, std::ostream& err);

}  // namespace depgraph
