// Structural transitive reduction of the pair graph.
#pragma once

#include <cstdint>
#include <vector>

#include "depgraph/graph.h"

namespace depgraph {

/// Which pairs are implied by a longer path.
struct StructuralReduction {
  bool is_dag = true;
  std::vector<uint32_t> cycle;     ///< one cycle (node indices, first repeated) if !is_dag
  std::vector<uint8_t> redundant;  ///< per pair: 1 iff succ is reachable from pred by a path
                                   ///< of >= 2 edges; all 0 when !is_dag
  size_t redundant_count = 0;
};

/// Marks every structurally redundant pair. The set is unique for a DAG.
///
/// Method: nodes get topological positions. For each node u, a successor w is first checked
/// for a two-hop path (one of w's predecessors is another successor of u; budgeted to
/// O(out-degree) in-edge reads per node). The remaining successors are visited in increasing
/// position and a depth-first search from each not-yet-reached one marks what it reaches,
/// pruned at the largest position of a successor still unresolved (nothing beyond can
/// matter). A successor already marked when its turn comes is redundant.
/// Cost: O(sum over u of the edges inside u's topological window) time -- O(V + E) on graphs
/// whose edges are local in submit order, O(V * E) worst case -- and O(V + E) memory
/// (epoch-stamped marks; no transitive closure is built).
StructuralReduction ReduceStructurally(const DepGraph& graph);

}  // namespace depgraph
