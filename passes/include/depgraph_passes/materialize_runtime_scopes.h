// MaterializeRuntimeScopes (spec §2.8): turns the markers of AutoDeriveTaskDependencies into
// runtime scopes of auto_scope orchestration functions, and the scope-tree text of E6.
#pragma once

#include <string>

#include "depgraph_passes/ir.h"

namespace depgraph::passes {

/// For every orchestration function with auto_scope=true: function marker -> whole body in
/// one MANUAL scope; otherwise each For body and If branch (not inside a MANUAL scope, not
/// already an AUTO scope) wrapped in MANUAL-candidate or AUTO, then the whole body in AUTO.
/// Then strips call markers and sets auto_scope=false. Trailing `return` stays outside the
/// wrapper. O(function size).
void MaterializeRuntimeScopes(Program* prog);

/// Scope tree of `fn` in the notation of data/passes/README.md E6, e.g.
/// "MANUAL{ range{ fill } consume }". O(function size).
std::string ScopeTreeText(const Function& fn);

}  // namespace depgraph::passes
