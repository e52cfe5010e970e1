// Buffer retention across two runs of one program: which retentions of created tensors the
// runtime run has and the compiled run drops.
#pragma once

#include <cstdint>
#include <vector>

#include "depgraph/graph/graph.h"
#include "depgraph_orchestration/depir_interpreter.h"

namespace depgraph {

/// A task of the reference run that retained the allocation of a created tensor while, in the
/// other run, neither it nor any task it reaches retains that tensor's allocation.
struct LostRetention {
  uint32_t create = 0;        ///< ordinal of the tensor among the run's executed `create`s
  TaskId ref_allocation = 0;  ///< the allocation task's id in the reference run
  TaskId ref_user = 0;        ///< the user's id in the reference run
  uint32_t user_task = 0;     ///< the user's index in tasks[] (submit order, both runs)
};

/// Compares the buffer retention of a reference run (the runtime's own inference) with another
/// run of the same program (the compiled one): tasks matched by submit order, created tensors
/// by execution order (`*_creates`, from DepirRunTrace), so differing scopes (ring ids) and
/// alloc batching do not matter.
///
/// An allocation completes at once, so an edge from it orders nothing; its RETAIN half keeps
/// the buffers from being reclaimed while a retaining task runs. A creator edge retains the
/// tensor of its row (found by the row's tensor's buffer address); an explicit edge from an
/// allocation retains all of its tensors. A user u of created tensor c in the reference is
/// still protected in the other run when some task r retains c there and u reaches r (u == r
/// included): r cannot finish before u, so the buffer outlives u. Otherwise the retention is
/// lost: in a MANUAL scope the ring may reuse the buffer while u runs.
/// Cost: O(V + E + rows) to index, then one reachability query per candidate (user, retainer).
std::vector<LostRetention> CompareBufferRetention(const DepGraph& reference,
                                                  const std::vector<CreatedTensor>& reference_creates,
                                                  const DepGraph& other,
                                                  const std::vector<CreatedTensor>& other_creates);

}  // namespace depgraph
