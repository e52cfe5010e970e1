// One meaning for every name: converts an orchestration function written with the DSL's
// Python name semantics into SSA form, where every plain read of a name denotes the one
// definition it is bound to.
//
// The DSL reads a name as Python does: the value most recently assigned to it on the path that
// ran (loop variables and iter args are local to their loop body). The depir parser binds a
// read to the name's latest *textual* definition, which differs at three places: a read after
// an `if` of a name both branches (or one branch) assign, a read in a loop body of a name the
// body reassigns later (pattern-B: iteration k+1 sees iteration k's value), and a read in an
// `else` branch of a name the `then` branch assigned. ConvertToSsa makes those merges explicit
// so that the parser's binding and the run-time value agree: it gives the `if` a return var
// with a yield per branch, or the loop an iter arg with a yield and a return var, and rebinds
// the reads. Afterwards the pass (which reasons on bindings) and the interpreter (which runs
// them) read one meaning. Programs already in SSA form are left unchanged.
#pragma once

#include <string>

#include "depgraph_passes/ir.h"

namespace depgraph::passes {

/// What ConvertToSsa changed in one program.
struct SsaReport {
  int if_merges = 0;    ///< return vars added to `if` statements
  int loop_merges = 0;  ///< iter args (each with its return var) added to loops
  int rebound = 0;      ///< plain reads rebound to another definition
  /// Whether the program changed at all.
  bool changed() const { return if_merges + loop_merges + rebound > 0; }
};

/// Converts every orchestration function of `program` to SSA form (see above). A merge whose
/// name is undefined on one path (Python would raise NameError there) is left as it is, and
/// so are reads written `name@k`. Var ids are renumbered so that VarId order stays the `@k`
/// order. O(statements x names assigned in the enclosing loops and branches + vars).
SsaReport ConvertToSsa(Program* program);

}  // namespace depgraph::passes
