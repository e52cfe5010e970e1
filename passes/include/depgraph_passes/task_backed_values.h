// Which variables of an orchestration function may hold, at run time, a value that names a
// task: a TaskId, a TaskId array, or a tensor returned by a task. An edge to any other value
// (a parameter, a slice, a created tensor, a loop result that only ever carries those) names
// no task, and no run can resolve it. Used by AutoDeriveTaskDependencies.
#pragma once

#include <cstdint>
#include <vector>

#include "depgraph_passes/ir.h"

namespace depgraph::passes {

/// Per VarId of `fn`: 1 when the variable may name a task at run time, 0 when it never does.
/// Follows aliases, loop iter args and return vars (initial values and yields, to a fixed
/// point) and if return vars; calls of other functions, `dynamic` ops and the tensor
/// parameters of a function that some function of `prog` calls count as naming a task. Mirrors the depir interpreter (a kernel call's tensor results carry their task;
/// `slice` and `create` values do not). O(statements + V · D) where D is the longest chain of
/// carried values (a fixed point over the alias graph), plus a scan of `prog` for calls.
std::vector<uint8_t> TaskBackedVars(const Program& prog, const Function& fn);

}  // namespace depgraph::passes
