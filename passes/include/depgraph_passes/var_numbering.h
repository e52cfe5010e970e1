// The `@k` numbering of definitions (spec §5.3) and reference text/resolution built on it.
#pragma once

#include <string>
#include <vector>

#include "depgraph_passes/ir.h"

namespace depgraph::passes {

/// Per VarId of `fn`, its k in `name@k`: definitions of one name numbered 1, 2, ... in
/// execution order of first visit (params; then per statement: a loop's loop var and iter args
/// at entry, its body, its return vars at exit; an if's then and else bodies, then its return
/// vars; an assignment's LHS left to right). Vars not reached by the walk get 0. O(stmts + vars).
std::vector<int> DefinitionOrdinals(const Function& fn);

/// "name@k" for `v` given ordinals from DefinitionOrdinals. O(name).
std::string VarRefText(const Function& fn, const std::vector<int>& ordinals, VarId v);

/// Resolves an expectation reference: "name" = the last definition of name (highest k),
/// "name@k" = the k-th. Returns -1 and sets *err when there is no such definition.
/// O(vars).
VarId ResolveVarRef(const Function& fn, const std::string& ref, std::string* err);

}  // namespace depgraph::passes
