// Rendering one edge selection into the chosen output format.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "depgraph/graph/graph.h"
#include "depgraph/graph/task_label.h"
#include "depgraph/reduce/edge_mode.h"
#include "depgraph/reduce/reduction.h"
#include "depgraph/timing/perf_sidecar.h"
#include "explorer_page.h"
#include "viewer_options.h"

namespace depgraph {

/// Everything a renderer needs.
struct RenderRequest {
  const DepGraph& graph;
  const std::vector<TaskLabel>& labels;
  const EdgeSelection& selection;
  const std::string& source;  ///< normalised input path, printed in reports
  const ViewerOptions& options;
  /// The perf sidecar's tasks, when it has any: the explorer page shows their durations.
  const PerfSidecar* perf = nullptr;
  /// With `perf`, explorer page only: the run's observed critical path and ready-idle stretches.
  const ObservedRun* observed = nullptr;
  /// html only: write the explorer page (needs `reduction`) and fill this with its counts.
  ExplorerPageSummary* explorer = nullptr;
  const StructuralReduction* reduction = nullptr;  ///< ReduceStructurally(graph)
  /// html with Graphviz: where the long-layout warning and the progress go (stderr), and
  /// whether that is a terminal (graphviz_job.h). Null: nowhere.
  std::ostream* progress = nullptr;
  bool progress_is_terminal = false;
};

/// Largest graphs that get the Graphviz page by default (both limits must hold); above
/// either one deps_viewer writes the explorer page. Chosen by measurement so the in-process
/// Graphviz layout stays within a few seconds (docs/deps_viewer.md, "HTML").
inline constexpr size_t kGraphvizMaxTasks = 300;
inline constexpr size_t kGraphvizMaxEdges = 1000;

/// Which html page to write: `explorer` and, when the graph's size decided it, the one-line
/// stderr `note` saying so. Not html: {false, ""}. O(1).
struct HtmlLayoutChoice {
  bool explorer = false;
  std::string note;
};
/// --layout when given, else the size thresholds above, and within them the estimated dot
/// time (EstimateDotSeconds of PredictDotSolverNodes, dot only): an estimate of
/// kGraphvizLongLayoutSeconds or more also writes the explorer page. O(1) above the size
/// thresholds, O(V + E) within them.
HtmlLayoutChoice ChooseHtmlLayout(const ViewerOptions& options, const DepGraph& graph);

/// Writes the output for options.format (text, html, dot or json) to `out` and sets *summary
/// to the parenthesised part of the final "Wrote ..." line. False with a one-line *err on
/// failure, `out` untouched. The Graphviz page is laid out in a child process
/// (RenderGraphvizPageInChild). Cost: O(V + E) for text/dot/json; html adds the Graphviz
/// layout, or the layered layout and the per-mode classification for the explorer page.
bool RenderOutput(const RenderRequest& request, std::ostream& out, std::string* summary,
                  std::string* err);

/// The JSON export: summary plus the listed and the selected pairs, each as its raw ids
/// (`pred`, `succ`: decimal strings) and their `(ring, local)` labels (`pred_label`,
/// `succ_label`, e.g. "(1, 3)", whatever the text report's id style). O(V + E).
void WriteJsonExport(const RenderRequest& request, std::ostream& out);

}  // namespace depgraph
