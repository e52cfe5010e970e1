// `depgraph run`: interprets a depir program on the runtime shim and writes deps.json and the
// name map (kernel names).
#pragma once

#include <cstdint>
#include <map>
#include <ostream>
#include <string>
#include <vector>

#include "depgraph_passes/ir.h"
#include "depgraph_orchestration/depir_interpreter.h"

namespace depgraph {

/// Arguments of `depgraph run`.
struct RunCommandArgs {
  std::string input;                ///< the .depir program
  std::string output;               ///< deps.json to write
  std::string name_map;             ///< name map path; empty = <output dir>/name_map_<stem>.json
  std::string entry;                ///< entry function; empty = main / the only one
  std::vector<std::string> sets;    ///< `name=value` bindings (integer, true or false)
  bool host_build_graph = false;    ///< imitate host_build_graph instead of tensormap_and_ringbuffer
  bool quiet = false;               ///< no summary line on stdout
};

/// Runs `depgraph run`. Exit codes: 0 written; 1 unreadable or invalid program, unbound name,
/// shape mismatch, runtime (shim) error or unwritable output (one that is not a regular file,
/// or is the program itself, included), with a one-line message on `err`
/// and no output file written; 2 malformed `--set`. O(executed statements x submit cost).
int RunDepirCommand(const RunCommandArgs& args, std::ostream& out, std::ostream& err);

/// Parses one `--set` binding "name=value" (value: decimal integer, `true` or `false`).
/// False with *error on a malformed binding. O(text).
bool ParseSetBinding(const std::string& text, std::string* name, int64_t* value,
                     std::string* error);
/// Parses every `--set` binding into *values (a later binding of a name wins). False with
/// *error at the first malformed one. O(total text).
bool ParseSetBindings(const std::vector<std::string>& texts, std::map<std::string, int64_t>* values,
                      std::string* error);

/// The common start of `run` and `check`: fills *options from the entry name and the `--set`
/// bindings and parses the program. Returns 0 on success, else the exit code (2 malformed
/// `--set`, 1 unreadable or invalid program) after a one-line message on `err`.
int PrepareDepirRun(const std::string& input, const std::string& entry,
                    const std::vector<std::string>& sets, DepirRunOptions* options,
                    passes::Program* program, std::ostream& err);

}  // namespace depgraph
