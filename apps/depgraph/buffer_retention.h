// Buffer retention across two runs of one program: which task -> allocation retentions the
// runtime run has and the compiled run drops.
#pragma once

#include <cstdint>
#include <vector>

#include "depgraph/graph.h"

namespace depgraph {

/// A task of the reference run that used an allocated buffer (its task retained the
/// allocation) while, in the other run, neither it nor any task it reaches retains it.
struct LostRetention {
  uint32_t allocation = 0;  ///< ordinal of the allocation (k-th alloc_tensors call)
  TaskId ref_allocation = 0;  ///< the allocation's id in the reference run
  TaskId ref_user = 0;        ///< the user's id in the reference run
  uint32_t user_task = 0;     ///< the user's index in tasks[] (submit order, both runs)
};

/// Compares buffer retention of a reference run (the runtime's own inference) with another
/// run of the same program (the compiled program), tasks matched by submit order and
/// allocations by call order (`*_allocations` = raw alloc task ids in call order).
///
/// An allocation completes at once, so an edge from it orders nothing; its RETAIN half is
/// what keeps the buffer from being reclaimed while a user still runs. A user u of allocation
/// k in the reference is still protected in the other run when some task r retains k there
/// and u reaches r (u == r included): r cannot finish before u, so k outlives u. Otherwise the
/// retention is lost: in a MANUAL scope the ring may reuse the buffer while u runs.
/// Cost: O(V + E) to index the other graph, then one reachability query per (user, retainer)
/// candidate pair.
std::vector<LostRetention> CompareBufferRetention(const DepGraph& reference,
                                                  const std::vector<uint64_t>& reference_allocations,
                                                  const DepGraph& other,
                                                  const std::vector<uint64_t>& other_allocations);

}  // namespace depgraph
