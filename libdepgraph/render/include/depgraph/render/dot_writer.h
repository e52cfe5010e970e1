// Graphviz DOT text of a dependency graph, as deps_viewer feeds it to the layout engine.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "depgraph/graph/graph.h"
#include "depgraph/graph/task_label.h"

namespace depgraph {

/// Kernel names longer than this many bytes are cut (at a character boundary, "..." appended)
/// in DOT labels, so Graphviz lays out a capture with a megabyte name in bounded time; the
/// viewer's side panel and exports keep the full name.
inline constexpr size_t kMaxDotLabelBytes = 200;

/// What a DOT text is for.
enum class DotForm {
  /// What the html page lays out: every pair, the ones not selected drawn in the page
  /// background colour (class "hidden-edge"), so node positions do not depend on the edge mode.
  kLayout,
  /// The `--format dot` file: only the selected pairs, and an `xN` badge (an external label,
  /// red, bold, 8 pt, as the page draws it) beside every SPMD task with N > 1 blocks.
  kExport,
};

/// How WriteDot draws the graph.
struct DotOptions {
  DotForm form = DotForm::kLayout;
  /// Graphviz `rankdir`: TB, LR, BT or RL. Written verbatim.
  std::string rankdir = "LR";
  /// `--show-tensor-info`: tasks become tables of their arguments and every annotation row
  /// becomes its own port-routed edge. Ignored when the graph has no tasks[] at all.
  bool rich = false;
};

/// The DOT node id of a task: `T{ring}_{local}`, e.g. `T1_3`. The part before `_` is the
/// whole upper word (id >> 32), which is the ring for every id the runtime writes (bits
/// 40..63 zero) and keeps ids that differ only in those bits from merging into one node. O(1).
std::string DotNodeId(TaskId id);

/// The 🔥/⭐ marker of every node, indexed like graph.nodes ("", "🔥", "⭐" or "🔥⭐").
/// 🔥: alloc node or `early_dispatch` task. ⭐: at least one predecessor, all predecessors
/// 🔥, and at least one of them not alloc. Uses every pair regardless of any edge mode.
/// O(V + E).
std::vector<std::string> ComputeNodeMarkers(const DepGraph& graph,
                                            const std::vector<TaskLabel>& labels);

/// OUTPUT arguments whose tensor id the runtime left out, recovered from creator rows:
/// for each creator row with a tensor id (pairs in first-seen order, rows in file order),
/// if the pred task has no INOUT/OUTPUT_EXISTING/OUTPUT argument with that id yet and
/// exactly one OUTPUT argument without an id, that argument takes the id. Returned as
/// (index into graph.args, tensor id), ascending by argument. O(R log R + rows' pred args).
std::vector<std::pair<uint32_t, TaskId>> InferOutputTensorIds(const DepGraph& graph);

/// The DOT text for `graph`.
///
/// `labels` comes from ResolveTaskLabels(graph, ...). `shown` has one entry per pair (1 =
/// selected; 0 = drawn in the page background colour with class "hidden-edge" in the layout
/// form, left out of the export form); an empty vector selects every pair. Nodes come in
/// ascending id order (every node, also one without a selected pair), edges ascending by
/// (pred, succ); fan counts and markers always count every pair. A NUL byte in a kernel name
/// or an overlap string is drawn as the two characters `\0` (Graphviz reads DOT as a C
/// string). Never fails.
/// Cost: O(V + E + rows + args) time; the returned text is the only large allocation.
std::string WriteDot(const DepGraph& graph, const std::vector<TaskLabel>& labels,
                     const std::vector<uint8_t>& shown, const DotOptions& options);

}  // namespace depgraph
