// The self-contained pan/zoom HTML page of deps_viewer: DOT, in-process Graphviz layout,
// edge layering and the page around the SVG.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "depgraph/graph/graph.h"
#include "depgraph/graph/task_label.h"

namespace depgraph {

/// How RenderHtmlPage lays out and draws the graph, and what the page says it shows.
struct HtmlOptions {
  std::string engine = "dot";   ///< dot, neato, sfdp, fdp, circo or twopi
  std::string rankdir = "LR";   ///< TB, LR, BT or RL
  bool rich = false;            ///< --show-tensor-info: argument tables and per-row edges
  std::string source;                ///< the input path: the page names CaptureName(source)
                                     ///< ("deps.json" when empty)
  std::string edge_mode = "full";    ///< the edge mode's name, shown in the title and header
};

/// What the page calls a capture: the last three components of `source` made absolute
/// (against the current directory) and normalised: the file and its two directories, e.g.
/// `paged_attention/CaseSmall1/deps.json`, fewer near the root; backslashes count as
/// separators. "" stays "". O(|source| + |current directory|).
std::string CaptureName(std::string_view source);

/// The `spmdBlocks` object of the page: `{"T0_2":8}` for every node whose task has
/// block_num > 1, keys sorted as strings, compact JSON. O(V log V).
std::string SpmdBlocksJson(const DepGraph& graph);

/// The `depStats` object of the page: per DOT node id (sorted as strings) `id` (the raw
/// decimal task id), `fanin`, `fanout`, `drawn_in`, `drawn_out` (the pairs drawn in this
/// mode), `label` (display id), `name_hint` (alloc, dummy, the kernel names, f{first kernel
/// id} or unknown), `preds` / `succs` as [[DOT id, drawn 0|1], ...] ascending by task id,
/// and `pred_by_hint` / `succ_by_hint` as [[hint, count], ...] sorted by count descending
/// then hint. Fan counts and lists use every pair; `shown` is per pair as in WriteDot
/// (empty = all drawn). Compact JSON, non-ASCII escaped as \uXXXX (and < > & too, so the
/// text is safe inside <script>); a NUL in a name becomes the two characters `\0`, as the
/// drawing shows it. O(V log V + E log E).
std::string DepStatsJson(const DepGraph& graph, const std::vector<TaskLabel>& labels,
                         const std::vector<uint8_t>& shown = {});

/// The page around an already laid-out `svg` (taken from its first `<svg`; edge layering
/// is the caller's business). Title and header name the capture (CaptureName of
/// options.source), options.edge_mode and the counts: `{capture} — {mode}: {nodes} nodes,
/// {shown} edges`, or `{shown} of {total} edges` when some pair is not drawn. `shown` is
/// per pair as in WriteDot (empty = all shown). O(|svg| + V log V + E log E).
std::string BuildHtmlPage(const DepGraph& graph, const std::vector<TaskLabel>& labels,
                          const std::vector<uint8_t>& shown, const HtmlOptions& options,
                          std::string_view svg);

/// The whole pipeline: WriteDot, Graphviz layout in process, SVG edge layering when some
/// pair is hidden, BuildHtmlPage. On failure (unknown engine, Graphviz error) returns false
/// with the reason in *err and leaves *html empty; Graphviz warnings (such as an unknown
/// port) go to *warnings when given. Nothing is printed. Not thread-safe (Graphviz state).
/// Cost: dominated by the layout engine.
bool RenderHtmlPage(const DepGraph& graph, const std::vector<TaskLabel>& labels,
                    const std::vector<uint8_t>& shown, const HtmlOptions& options,
                    std::string* html, std::string* err, std::string* warnings = nullptr);

}  // namespace depgraph
