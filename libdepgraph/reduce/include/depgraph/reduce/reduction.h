// Structural transitive reduction of the pair graph.
#pragma once

#include <cstdint>
#include <vector>

#include "depgraph/graph/graph.h"

namespace depgraph {

/// Which pairs are implied by a longer path.
struct StructuralReduction {
  bool is_dag = true;
  std::vector<uint32_t> cycle;     ///< one cycle (node indices, first repeated) if !is_dag
  std::vector<uint8_t> redundant;  ///< per pair: 1 iff succ is reachable from pred by a path
                                   ///< of >= 2 edges; all 0 when !is_dag
  size_t redundant_count = 0;
  uint64_t search_steps = 0;       ///< out-edges examined by the searches (the cost above)
};

/// Marks every structurally redundant pair. The set is unique for a DAG.
///
/// Method: nodes get topological positions and levels (longest path from a source). For each
/// node u, a successor w is first checked for a two-hop path (one of w's predecessors is
/// another successor of u; budgeted to O(out-degree) in-edge reads per node). The remaining
/// successors are taken in increasing position: one not reached from an earlier one is kept,
/// and a depth-first search from it marks what it reaches. A search expands only nodes that
/// can still reach an undecided successor -- position at most the largest undecided
/// successor's, level below the largest undecided level -- and every search of u stops as
/// soon as all its successors are decided.
/// Cost: O(V + E) for the labels plus, per node u, the edges of the nodes its searches expand.
/// That is O(V + E) overall on runtime graphs (edges local in submit order) and on shapes
/// built against windowed searches (a chain plus an edge from every task to the last: each
/// search stops at its first step). The honest worst case is still O(V * E): a node whose
/// kept successors sit behind large descendant sets that lie inside both bounds yet reach
/// none of the later successors -- e.g. chain a, where each a_i also feeds x_i, and x_i
/// also waits for the end of a second chain as long as a: every search from a_i+1 walks the
/// rest of a (n^2 / 2 steps), since x_i's position and level are beyond all of it. Memory O(V + E) (epoch-stamped
/// marks; no transitive closure is built) plus 12 bytes per node per thread.
/// `search_steps` reports the work. The nodes are split into `threads` ranges of about equal
/// out-pairs (0 = all cores, but one per 65,536 pairs at most); the redundant set is
/// unique, so the result does not depend on the count.
StructuralReduction ReduceStructurally(const DepGraph& graph, unsigned threads = 0);

}  // namespace depgraph
