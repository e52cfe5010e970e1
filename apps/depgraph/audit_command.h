// `depgraph audit`: races, false serialization, redundancy and a summary of one capture, as a
// report or as a CI gate's verdict.
#pragma once

#include <cstddef>
#include <ostream>
#include <string>

namespace CLI {
class App;
}

namespace depgraph {

/// Arguments of `depgraph audit`.
struct AuditArgs {
  std::string input;         ///< deps.json to audit
  std::string output;        ///< where to write the report (atomically); empty = stdout
  std::string func_names;    ///< name map; empty = the newest sibling name_map*.json
  bool json = false;         ///< --json: schema depgraph-audit/1
  size_t max_findings = 20;  ///< findings listed in the text report; 0 = all
  unsigned threads = 0;      ///< 0 = every core
};

/// Registers the `audit` subcommand on `app`, storing its arguments in *args (which must
/// outlive the parse). Returns the subcommand, whose parsed() says whether it was chosen.
CLI::App* AddAuditCommand(CLI::App* app, AuditArgs* args);

/// Runs `depgraph audit`. Exit 0: no race; 3: races found; 1: bad input (one line on `err`,
/// no file written). Cost: the load plus RunAudit (audit.h).
int RunAuditCommand(const AuditArgs& args, std::ostream& out, std::ostream& err);

}  // namespace depgraph
