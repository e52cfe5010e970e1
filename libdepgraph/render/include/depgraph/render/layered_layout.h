// A layered (Sugiyama-style) drawing of the pair graph for the explorer page: layers from the
// topological structure, order within layers by barycentre sweeps, then coordinates.
#pragma once

#include <cstdint>
#include <vector>

#include "depgraph/graph/graph.h"

namespace depgraph {

/// Knobs of ComputeLayeredLayout. Units are abstract layout units (the page scales them).
struct LayeredLayoutOptions {
  int sweeps = 4;            ///< barycentre sweeps (each one down and one up); bounded work
  float layer_gap = 120.0f;  ///< distance between consecutive layers (along the flow)
  float node_gap = 36.0f;    ///< minimum distance between neighbours in one layer
  /// y relaxation passes (each one down and one up): every node moves towards the mean y of
  /// its neighbours, overlaps resolved per layer; bounded work.
  int coordinate_passes = 4;
  /// Only pairs with include[p] != 0 take part (null or empty = all pairs; pairs past the end
  /// of a shorter vector do not). Nodes stay all present.
  const std::vector<uint8_t>* include = nullptr;
};

/// Where every node of a DepGraph goes. Indexed like DepGraph::nodes.
///
/// Coordinates are for a left-to-right flow: `x` grows with the layer, `y` with the position
/// in the layer; both are >= 0. The layout is deterministic: the same graph and options give
/// the same numbers on every run (no hashing, no threads; the same build gives the same
/// floating-point results on every x86-64 machine).
struct LayeredLayout {
  std::vector<uint32_t> layer;  ///< per node: its layer (0 = sources)
  std::vector<uint32_t> order;  ///< per node: its position within its layer (0-based)
  std::vector<float> x;         ///< per node: centre along the flow
  std::vector<float> y;         ///< per node: centre across the flow
  uint32_t num_layers = 0;
  uint32_t max_layer_size = 0;
  float width = 0;              ///< max x + layer_gap/2 (0 for an empty graph)
  float height = 0;             ///< max y + node_gap/2
  /// Pairs reversed to break cycles (ascending pair indices); empty for a DAG. The drawing
  /// still shows them in their true direction; only the layering treats them as reversed.
  /// A self loop (pred == succ) is a cycle of one pair: it is listed here too (if it takes
  /// part) and ignored by the layering. Excluded pairs are never listed.
  std::vector<uint32_t> reversed_pairs;
};

/// Lays out `graph`:
///  1. cycles: a depth-first search (roots and successors in index order) reverses its back
///     pairs; self loops are set aside;
///  2. layers: longest path from the sources, then, in reverse topological order, every node
///     with successors moves to the layer just before its earliest successor (sources,
///     allocations and side branches next to their first consumer; sinks stay); nodes
///     without any pair that takes part go to layer 0, after the others;
///  3. order: `sweeps` barycentre sweeps (down by predecessors, up by successors; a node with
///     none on that side uses the other side, one with none at all keeps its slot); long
///     pairs get no dummy nodes, the neighbour's relative place in its own layer counts;
///  4. y: packed by order, then `coordinate_passes` passes (down, up) moving each node to
///     the mean y of its neighbours, per layer the least-squares placement in order with
///     node_gap spacing (pooled adjacent violators); shifted so the smallest y is node_gap/2.
/// Cost: O((V + E) · (sweeps + coordinate_passes)) time plus sorting within layers
/// (O(Σ k log k) per sweep, k the layer sizes), O(V + E) memory; the cost does not depend
/// on edge spans. Single-threaded, so the floating-point results are reproducible.
LayeredLayout ComputeLayeredLayout(const DepGraph& graph,
                                   const LayeredLayoutOptions& options = {});

}  // namespace depgraph
