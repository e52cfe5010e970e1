// `depgraph derive` and `depgraph check`: the compiler pass on a depir program, and the check
// that the compiled program keeps every ordering the runtime would have enforced.
#pragma once

#include <cstddef>
#include <ostream>
#include <string>
#include <vector>

#include "gate_flags.h"

namespace depgraph {

/// Arguments of `depgraph derive`.
struct DeriveArgs {
  std::string input;         ///< the .depir program
  std::string output;        ///< where to write the transformed program; empty = stdout
  bool analyze = false;      ///< turn on analyze_auto_scopes (else the pass is a no-op)
  bool materialize = false;  ///< also run MaterializeRuntimeScopes
  bool sound = false;        ///< the pass without the reference's soundness gaps
  bool debug_log = false;    ///< print the rewrite-bucket log on stderr
};

/// Runs `depgraph derive`: parses, runs AutoDeriveTaskDependencies (and optionally
/// MaterializeRuntimeScopes) and prints the program. Exit 0, or 1 with a one-line error (also
/// for a program path that is not a regular file, and an output that is not a regular file or
/// is the program itself).
/// O(program size x accesses per region).
int RunDeriveCommand(const DeriveArgs& args, std::ostream& out, std::ostream& err);

/// Arguments of `depgraph check`.
struct CheckArgs {
  std::string input;              ///< the .depir program
  std::vector<std::string> sets;  ///< `name=value` bindings for the runs
  std::string entry;              ///< entry function; empty = main / the only one
  bool sound = false;             ///< check the sound variant of the pass
  size_t max_findings = 20;       ///< findings listed per kind (all are counted); 0 = all
  GateFlags gate;                 ///< --format (text, sarif, junit, github), --strict, ...
  /// Instead of checking: count the kernel submits that run in MANUAL scopes in the compiled
  /// run, reference pass vs sound pass (how much of the compiler's work each keeps).
  bool manual_stats = false;
};

/// Runs `depgraph check`: derives (analyze on, then materialize), runs the original program
/// (runtime inference only) and the compiled one through the runtime shim (compiler edges that
/// generated code cannot name at their call left out), and compares them: every ordering of
/// the original's graph the compiled graph loses, every created tensor whose buffer a task no
/// longer keeps alive (buffer_retention.h), and every byte-level race of the compiled graph
/// that the original does not have for the same two tasks. Exit 0 when there is none, 3 when
/// there is or when the compiled program fails to run while the original runs (a pass bug,
/// one `result:` line naming the derive command that shows the pass's output), 1 on a bad
/// program or an original that fails to run, 2 on a malformed --set.
/// With `manual_stats`, prints one line instead, `manual kernel submits: reference R, sound S
/// of K kernel submits -- P` (`failed` for a compiled run that fails), exit 0 (1 on a bad
/// program or an original that fails to run).
/// Cost: two shim runs, a diff and two audits of the produced graphs.
int RunCheckCommand(const CheckArgs& args, std::ostream& out, std::ostream& err);

}  // namespace depgraph
