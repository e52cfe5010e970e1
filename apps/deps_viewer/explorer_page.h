// The explorer page of deps_viewer: a self-contained canvas viewer for large graphs, laid out
// by depgraph::ComputeLayeredLayout, with every edge mode's classification embedded so the
// page switches modes without regenerating. Format and design: docs/explorer.md.
#pragma once

#include <cstddef>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "depgraph/graph/graph.h"
#include "depgraph/graph/task_groups.h"
#include "depgraph/graph/task_label.h"
#include "depgraph/reduce/edge_mode.h"
#include "depgraph/reduce/reduction.h"
#include "depgraph/support/json_writer.h"  // AppendScriptSafeJsonString, used for the page data
#include "depgraph/timing/critical_path_inputs.h"
#include "depgraph/timing/perf_sidecar.h"
#include "depgraph/timing/ready_idle_gaps.h"

namespace depgraph {

/// What the timeline draws besides the runs, analysed from the same records and deps.json:
/// the observed critical path of `depgraph critical-path` and the idle stretches of cores
/// while work of their type was ready (ready_idle_gaps.h).
struct ObservedRun {
  RankAnalysis analysis;           ///< meaningful only when `unavailable` is empty
  ReadyIdleGaps idle;              ///< FindReadyIdleGaps of the analysis
  std::string unavailable;         ///< why the run could not be analysed ("" when it was)
};

/// What WriteExplorerPage writes besides the graph itself.
struct ExplorerPageOptions {
  std::string source = "deps.json";       ///< input path; title and header show its last
                                          ///< three components (`dir/subdir/deps.json`)
  EdgeMode initial_mode = EdgeMode::kFull;  ///< omitted modes open as full
  /// Per-task details (kernel ids, arguments, tensors, per-row edge facts). Off for graphs
  /// too large for a browser to hold them (see kExplorerDetailsMaxTasks).
  bool task_details = true;
  unsigned threads = 0;  ///< threads of the dataflow proof (0 = every core); output unchanged
  /// The perf sidecar: per task duration, start and block count (`dur`, `t0`, `nb`) for the
  /// panel, the tooltip, the duration colouring and the critical path's weights. Null: none.
  const PerfSidecar* perf = nullptr;
  /// With `perf`: the observed critical path and ready-idle stretches for the timeline.
  const ObservedRun* observed = nullptr;
};

/// At most this many idle-while-ready stretches go into a page (the longest; the page's note
/// gives the totals of all): 100,000 cost ~3 MB.
inline constexpr size_t kExplorerMaxIdleStretches = 100000;

/// Above this many tasks the viewer writes the page without per-task details (measured:
/// docs/explorer.md, "Limits").
inline constexpr size_t kExplorerDetailsMaxTasks = 300000;

/// From this many nodes, a graph with repeated structure is drawn with the grouped layout
/// (render/grouped_layout.h) and opens with its groups collapsed; smaller ones stay flat, as
/// the canvas shows them whole (the same bound opens the structure outline by default).
inline constexpr size_t kGroupedLayoutMinNodes = 1000;
/// ... provided its top level (root series plus the nodes outside every series) has at most
/// this many items, which the page's first view shows as boxes (FIRST_VIEW_ITEMS in
/// explorer_units.js). A graph whose repetition comes in hundreds of short runs among loose
/// tasks reads better flat.
inline constexpr size_t kGroupedLayoutMaxTopItems = 300;

/// Per-mode visible edge counts of a written page (what deps_viewer reports for each mode).
struct ExplorerPageSummary {
  size_t full = 0;
  size_t reduced = 0;
  size_t reduced_dataflow = 0;
  size_t retained = 0;
  bool cycle = false;          ///< reduction skipped: every mode shows every pair
  bool task_details = false;   ///< per-task details were embedded
  const char* opens_in = "full";  ///< the mode the page opens in (omitted modes open as full)
};

/// The page's embedded JSON data (see docs/explorer.md, "Data format"). `reduction` must
/// come from ReduceStructurally(graph). Runs SelectEdges for the three reduction modes, the
/// layered layout and the grouping (ComputeTaskGroups: near-linear). Deterministic.
/// Cost: O(V + E + rows + args) plus the layout (O((V + E) · sweeps)) and the dataflow proof;
/// output ~60-150 bytes per task.
void WriteExplorerData(const DepGraph& graph, const std::vector<TaskLabel>& labels,
                       const StructuralReduction& reduction, const ExplorerPageOptions& options,
                       std::ostream& out, ExplorerPageSummary* summary);

/// The per-task details, a second JSON object the page parses only when a panel first needs
/// it (or when idle): `dtypes`, `overlaps`, `erows` (edge rows grouped by pair) and `det`
/// (per node kernel ids and arguments); see docs/explorer.md. Deterministic.
/// Cost: O(V + rows + args · dims); ~200 bytes per task.
void WriteExplorerDetails(const DepGraph& graph, std::ostream& out);

/// Writes the timeline's runs (the perf sidecar's records of tasks that are nodes) as one JSON
/// object, {ctypes, ctype, runs} plus, from `observed` (may be null), the observed critical
/// path `cp`, its totals `cpsum` and the ready-idle stretches `idle` (the longest
/// kExplorerMaxIdleStretches) with their totals `idlesum`, or `cpnote` saying why
/// there are none (docs/explorer.md): the page parses it when the timeline first opens.
/// O(runs + path + stretches · log V).
void WriteExplorerRuns(const DepGraph& graph, const PerfSidecar& perf, const ObservedRun* observed,
                       std::ostream& out);

/// The whole page: the embedded explorer.html with its CSS, the data (WriteExplorerData) and
/// the details (WriteExplorerDetails, when options.task_details) and the JavaScript put in
/// place. Never prints. Cost: WriteExplorerData plus WriteExplorerDetails.
void WriteExplorerPage(const DepGraph& graph, const std::vector<TaskLabel>& labels,
                       const StructuralReduction& reduction, const ExplorerPageOptions& options,
                       std::ostream& out, ExplorerPageSummary* summary);

}  // namespace depgraph
