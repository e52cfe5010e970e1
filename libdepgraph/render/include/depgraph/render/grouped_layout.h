// A drawing of a graph with repeated structure (graph/task_groups.h) in which every group
// owns a rectangle: a series is a box holding its instances' boxes, an instance a box holding
// its nested series and its own nodes. A viewer draws a collapsed group as its box and expands
// it in place: nothing else moves, as every box already has the room its inside needs.
//
// Method. Bottom up, one content at a time: the inside of one instance per kind (every
// instance of a kind has the same nodes and pairs at the same relative positions, so one
// layout serves them all), the instances of a series, and the root (its series and the nodes
// outside any series). A content is a list of items in submit order (nodes, and series or
// instances as blocks of known size) and the pairs between them (self pairs dropped). Items
// are layered by longest path over the pairs that go forward in submit order (the others, rare
// as submit order is a topological order of the tasks, are ignored), then every item with
// successors moves to the layer just before its earliest successor; one barycentre pass orders
// each layer by its predecessors' places. A layer is a column, cut into several when taller
// than the target height; columns are laid left to right and wrap into bands stacked top to
// bottom when wider than the target width (both targets from the content's area and the
// aspect, so that 256 independent requests make a grid and 40 chained layers a few rows, not a
// line; a band is never narrower than three of its widest items). Gaps grow with the items (a
// tenth of the largest), so that arrows between large boxes show. A block adds a margin and a
// header row for its label.
//
// Cost: O(V + E) to index the pairs, then O(T + E_T + I log I) per content of T nodes, E_T
// pairs and I items (the sort within layers): each node is in the root content or in the
// content of the one instance laid out per kind, and each pair is looked at once per content
// holding both ends, so O((V + E) x depth) in all; O(V + E) memory. One thread, deterministic.
#pragma once

#include <cstdint>
#include <vector>

#include "depgraph/graph/graph.h"
#include "depgraph/graph/task_groups.h"

namespace depgraph {

/// Sizes of the drawing, in the viewer's world units.
struct GroupedLayoutOptions {
  float node_width = 116.0f;   ///< a node's box
  float node_height = 22.0f;
  float column_gap = 44.0f;    ///< between columns (along the flow)
  float row_gap = 14.0f;       ///< between items of a column
  float margin = 10.0f;        ///< inside a group's box, left, right and bottom
  float header = 26.0f;        ///< inside a group's box, above its content: the label row
  float aspect = 1.6f;         ///< width / height a content aims at when it wraps
  float min_wrap_width = 1600.0f;  ///< a content narrower than this never wraps into bands
  float min_wrap_height = 720.0f;  ///< a column shorter than this is never cut
  /// Only pairs with include[p] != 0 take part (null or empty = all pairs).
  const std::vector<uint8_t>* include = nullptr;
};

/// Node centres and group boxes. Boxes are listed depth first: for each root series its box,
/// then for each of its instances the instance's box followed by (recursively) the series
/// nested in it, in order. 4 numbers per box: x0, y0, x1, y1.
struct GroupedLayout {
  std::vector<float> x;      ///< per node (indexed like DepGraph::nodes): centre, along the flow
  std::vector<float> y;      ///< per node: centre, across
  std::vector<float> boxes;  ///< 4 per group box, in the depth-first order above
  float width = 0;           ///< extent of the drawing (all coordinates are >= 0)
  float height = 0;
};

/// Lays out `graph` with `grouping` (ComputeTaskGroups of the same graph). Without any series
/// it still places every node (one content: the root). Cost above: O((V + E) x depth).
GroupedLayout ComputeGroupedLayout(const DepGraph& graph, const TaskGrouping& grouping,
                                   const GroupedLayoutOptions& options = {});

/// Boxes a grouping yields in GroupedLayout::boxes (series and their instances, nested ones
/// counted once per parent instance). O(kinds + series).
uint64_t GroupBoxCount(const TaskGrouping& grouping);

}  // namespace depgraph
