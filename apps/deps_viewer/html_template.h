// The fixed parts of the deps_viewer HTML page: style sheet, legend, detail panel, script.
#pragma once

#include <string_view>

namespace depgraph {

/// The page's CSS (the contents of its <style> element). Static text, O(1).
std::string_view PageStyleSheet();

/// The legend (core-type swatches, alloc, SPMD, fan-count key) and the initially hidden
/// detail panel (`id="detail"`), as HTML. Static text, O(1).
std::string_view PageLegendAndPanel();

/// The viewer script: SPMD badges, node detail panel (`openDetail`), pan/zoom gestures,
/// keyboard shortcuts and auto-fit. It expects `spmdBlocks` and `depStats` to be declared
/// before it in the same <script>, and the SVG inside `#stage`. Static text, O(1).
std::string_view PageScript();

}  // namespace depgraph
