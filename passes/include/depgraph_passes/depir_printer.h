// Program -> depir text (the canonical form; it parses back to an equal Program).
#pragma once

#include <string>

#include "depgraph_passes/ir.h"

namespace depgraph::passes {

/// Prints `prog` in canonical depir: kernels, then functions, then run and expect directives,
/// two-space indentation, compiler-derived attributes included (`edges=[..]`, `mark`,
/// `layer_manual`, `scope ... candidate`). A use whose name's latest textual definition is not
/// the Var used is printed as `name@k`. Comments and blank-line layout of the source are not
/// kept. ParseDepir(PrintDepir(p)) == p for every parsed p. O(program size + vars).
std::string PrintDepir(const Program& prog);

/// Prints one orchestration function (same rules as PrintDepir). O(function size).
std::string PrintFunction(const Function& fn);

}  // namespace depgraph::passes
