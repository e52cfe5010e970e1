// Edge layering of a Graphviz SVG: background-coloured (hidden) edges below visible ones,
// and every edge below the nodes.
#pragma once

#include <string>
#include <string_view>

namespace depgraph {

/// Rewrites Graphviz SVG so that, inside the top `<g class="graph">`, every direct child
/// `<g class="edge ...">` moves into `<g class="edge-layer hidden-edge-layer">` (edges whose
/// class list has `hidden-edge`) or `<g class="edge-layer visible-edge-layer">` (the rest),
/// both keeping document order and placed, in that order, right before the first node
/// group. The comment Graphviz writes before a group moves with it. Class values are read
/// with character references decoded (Graphviz writes `hidden&#45;edge`).
///
/// Returns `svg` unchanged when no edge is hidden or the markup cannot be followed
/// (unbalanced tags, no graph group). One pass: O(|svg|) time and memory.
std::string LayerSvgEdges(std::string_view svg);

}  // namespace depgraph
