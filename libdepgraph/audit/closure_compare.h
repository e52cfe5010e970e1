// Comparing the transitive closures of two graphs over their matched tasks (depgraph diff
// --closure). Private to libdepgraph: DiffGraphs is the public entry point.
#pragma once

#include <cstdint>
#include <vector>

#include "depgraph/audit/graph_diff.h"
#include "depgraph/graph/graph.h"
#include "depgraph/graph/reachability.h"

namespace depgraph {

/// A task matched in both graphs, in the order closure pairs are listed (ascending A id).
struct ClosureItem {
  uint32_t node_a;  ///< its node in A, or UINT32_MAX when it is not a node
  uint32_t node_b;  ///< likewise in B
  TaskId id_a;
  TaskId id_b;
  bool alloc;       ///< an allocation node of A
};

/// Counts the ordered pairs (u reaches v, u != v) of A and of B among `items`, the pairs A has
/// and B lacks (lost) and the reverse (added), and lists the first `max_pairs` of each by
/// (pred, succ) in item order, into diff->closure_*.
/// Method: bit-parallel sweeps, 64 sources at a time, each over the topological order from
/// its earliest source to the last node it reaches; a block then reads the 64-bit rows of
/// the items reached, and sorts only those it lists. Blocks are
/// split over `threads` threads (0 = all cores) and merged in block order, so the result does
/// not depend on the thread count.
/// Cost: O(M / 64 * (V + E)) time for M items, and in practice the span each block's sweep
/// covers (from its earliest source to the last node reached) plus the items it reaches; O(V + E + threads * (V + M)) memory (a position-ordered copy of the
/// successor lists, and per thread the 64-bit words).
void CompareClosures(const DepGraph& a, const ReachabilityIndex& reach_a, const DepGraph& b,
                     const ReachabilityIndex& reach_b, const std::vector<ClosureItem>& items,
                     size_t max_pairs, unsigned threads, GraphDiff* diff);

}  // namespace depgraph
