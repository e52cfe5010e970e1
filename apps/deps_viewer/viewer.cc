#include "viewer.h"

#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <iostream>
#include <thread>

#include "depgraph/graph/graph_metrics.h"
#include "depgraph/graph/load_deps.h"
#include "depgraph/graph/name_map.h"
#include "depgraph/graph/task_label.h"
#include "depgraph/graph/topo_order.h"
#include "depgraph/reduce/edge_mode.h"
#include "depgraph/reduce/reduction.h"
#include "depgraph/render/text_report.h"
#include "depgraph/support/atomic_file.h"
#include "depgraph/support/input_file.h"
#include "depgraph/timing/critical_path_inputs.h"
#include "depgraph/timing/perf_sidecar.h"
#include "depgraph/timing/ready_idle_gaps.h"
#include "viewer_output.h"
#include "viewer_paths.h"

namespace depgraph {

namespace {

bool IsReductionMode(EdgeMode mode) { return mode != EdgeMode::kFull; }

// "3 -> 7 -> 3": a cycle's tasks as the reports print ids.
std::string CyclePath(const DepGraph& graph, const std::vector<uint32_t>& cycle, IdDisplay rings) {
  std::string path;
  for (size_t i = 0; i < cycle.size(); ++i) {
    if (i) path += " -> ";
    path += FormatTaskId(graph.nodes[cycle[i]], rings);
  }
  return path;
}

std::string Extension(const std::string& format) {
  if (format == "text") return ".txt";
  return "." + format;
}

// Shows "loading deps.json: 42%" on a terminal once a load has run for a second.
class LoadProgress {
 public:
  LoadProgress(std::ostream& err, bool enabled, std::string name)
      : err_(err), enabled_(enabled), name_(std::move(name)),
        start_(std::chrono::steady_clock::now()) {}
  void operator()(double fraction) {
    if (!enabled_) return;
    auto elapsed = std::chrono::steady_clock::now() - start_;
    if (elapsed < std::chrono::seconds(1)) return;
    int percent = static_cast<int>(fraction * 100);
    if (percent == last_percent_) return;
    last_percent_ = percent;
    shown_ = true;
    err_ << "\rloading " << name_ << ": " << percent << "%" << std::flush;
  }
  void Done() {
    if (shown_) err_ << "\r\033[K" << std::flush;
  }

 private:
  std::ostream& err_;
  bool enabled_;
  std::string name_;
  std::chrono::steady_clock::time_point start_;
  int last_percent_ = -1;
  bool shown_ = false;
};

// Name of the perf sidecar deps_viewer reads beside its input (never l2_perf_records.json).
constexpr const char* kPerfSidecarName = "chip_swimlane_records.json";

// Loads the perf sidecar at `path` if one exists there, as the reference viewer does: its
// reader's warnings and a "couldn't read" warning go to `err` and leave *perf without tasks;
// false (with the error printed) only for what crashes the reference (exit 1).
bool LoadPerfSidecarIfPresent(const std::string& path, PerfSidecar* perf, std::ostream& err) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) return true;
  std::string error;
  switch (LoadPerfSidecar(path, perf, &error)) {
    case PerfSidecarStatus::kOk:
      for (const std::string& line : perf->warnings) err << line << "\n";
      return true;
    case PerfSidecarStatus::kUnreadable:
      err << "Warning: couldn't read " << path << ": " << error << "\n";
      return true;
    case PerfSidecarStatus::kInvalid:
      err << "error: " << error << "\n";
      return false;
  }
  return true;
}

// What the explorer's timeline draws besides the runs: `depgraph critical-path`'s observed
// path and the cores' idle stretches while work was ready, from the records and deps.json.
// Never fails: what stops the analysis becomes `unavailable`, which the page shows.
void AnalyzeObservedRun(const std::string& records, const std::string& deps, ObservedRun* out) {
  RankFiles files;
  files.records = records;
  files.deps = deps;
  files.accept_legacy_rows = true;
  if (!AnalyzeRankFiles(files, &out->analysis, &out->unavailable)) return;
  out->idle = FindReadyIdleGaps(out->analysis.records, out->analysis.timings, out->analysis.hb);
}

}  // namespace

int RunViewer(const ViewerOptions& options, std::ostream& out, std::ostream& err,
              bool err_is_terminal) {
  namespace fs = std::filesystem;
  std::string input = options.input;
  if (input.empty()) {
    std::vector<std::string> warnings;
    input = FindNewestDepsJson("outputs", &warnings);
    for (const std::string& warning : warnings) err << "warning: " << warning << "\n";
    if (input.empty()) {
      err << "No deps.json given and no candidate found under ./outputs/.\n";
      return 1;
    }
  }
  const std::string source = NormalizePath(input);
  std::error_code ec;
  if (!fs::exists(input, ec)) {
    err << source << " not found.\n";
    return 1;
  }

  DepGraph graph;
  std::string error;
  LoadProgress progress(err, err_is_terminal, source);
  LoadOptions load_options;
  load_options.threads = options.threads;
  // The dataflow proof and the graph pages (tensor info, the explorer's every mode) read
  // views; the text and JSON reports of the other modes never do, and load a third lighter.
  load_options.views = EdgeModeReadsViews(options.edge_mode) ||
                       (options.format != "text" && options.format != "json");
  bool loaded =
      LoadDepsJson(input, &graph, &error, load_options, [&](double f) { progress(f); });
  progress.Done();
  if (!loaded) {
    err << "error: " << error << "\n";
    return 1;
  }

  NameMap names;
  std::string names_path =
      options.func_names.empty() ? DiscoverNameMap(ParentPath(source)) : options.func_names;
  if (!names_path.empty()) {
    switch (LoadNameMap(names_path, &names, &error)) {
      case NameMapStatus::kOk:
        break;
      case NameMapStatus::kUnreadable:
        err << "Warning: couldn't read " << names_path << ": " << error << "\n";
        break;
      case NameMapStatus::kInvalid:
        err << "error: " << error << "\n";
        return 1;
    }
  }
  // Tasks of the perf sidecar become nodes even without edges (spec/timing.md §5).
  const std::string perf_path = JoinPath(ParentPath(source), kPerfSidecarName);
  PerfSidecar perf;
  if (!LoadPerfSidecarIfPresent(perf_path, &perf, err)) return 1;
  AddIsolatedNodes(&graph, perf.TaskIds());
  // The labels depend on nothing the reduction computes: with threads to spare, they are
  // resolved on their own thread while the reduction runs.
  // (std::jthread joins on every return below.)
  std::vector<TaskLabel> labels;
  std::jthread labeller;
  if (options.threads != 1 && std::thread::hardware_concurrency() > 1) {
    labeller = std::jthread([&] { labels = ResolveTaskLabels(graph, names, &perf); });
  } else {
    labels = ResolveTaskLabels(graph, names, &perf);
  }

  const bool reducing = IsReductionMode(options.edge_mode);
  const HtmlLayoutChoice layout = ChooseHtmlLayout(options, graph);
  if (!layout.note.empty()) err << layout.note << "\n";
  if (layout.explorer && graph.nodes.size() > kExplorerDetailsMaxTasks) {
    err << "deps_viewer: " << graph.nodes.size() << " tasks > " << kExplorerDetailsMaxTasks
        << ": the explorer page leaves out task arguments and edge rows (depgraph query and "
           "--format text have them)\n";
  }
  // The explorer's timeline: the observed path and idle stretches, read while the graph is
  // reduced and laid out (std::jthread joins on every return below).
  ObservedRun observed;
  std::jthread observer;
  if (layout.explorer && !perf.runs.empty()) {
    observer = std::jthread([&] { AnalyzeObservedRun(perf_path, input, &observed); });
  }
  StructuralReduction reduction;
  if (reducing || options.stats || layout.explorer) {
    reduction = ReduceStructurally(graph, options.threads);
  } else if (options.strict) {
    // --strict needs to know about a cycle in full mode too; Kahn's order is enough.
    std::vector<uint32_t> order;
    reduction.is_dag = TopologicalOrder(graph, &order, &reduction.cycle);
  }
  const EdgeSelection selection = SelectEdges(graph, reduction, options.edge_mode, options.threads);
  const IdDisplay rings = graph.Display();

  std::string stem = "deps_viewer";
  if (reducing && !selection.cycle_fallback) {
    stem += std::string("_") + EdgeModeName(options.edge_mode);
  }
  const std::string output = options.output.empty()
                                 ? JoinPath(ParentPath(source), stem + Extension(options.format))
                                 : NormalizePath(options.output);

  if (labeller.joinable()) labeller.join();
  RenderRequest request{graph, labels, selection, source, options};
  if (!perf.tasks.empty()) request.perf = &perf;
  if (observer.joinable()) {
    observer.join();
    request.observed = &observed;
  }
  request.progress = &err;
  request.progress_is_terminal = err_is_terminal;
  ExplorerPageSummary explorer;
  if (layout.explorer) {
    request.explorer = &explorer;
    request.reduction = &reduction;
  }
  std::string summary;
  AtomicFile file;
  // The default output name can be the input's too (`deps_viewer deps_viewer.txt`).
  if (!CheckOutputIsNotAnInput(output, {input, names_path, perf_path}, &error) || !file.Open(output, &error) ||
      !RenderOutput(request, file.stream(), &summary, &error) || !file.Commit(&error)) {
    err << "error: " << error << "\n";
    return 1;
  }

  if (selection.cycle_fallback) {
    err << "warning: dependency graph has a cycle; transitive reduction skipped, emitting full "
           "graph (--edge-mode "
        << EdgeModeName(options.edge_mode) << " ignored)\n";
    err << "cycle: " << CyclePath(graph, reduction.cycle, rings) << "\n";
  } else if (reducing) {
    out << EdgeModeHeadline(options.edge_mode, selection.listed.size(), graph.pairs.size()) << "\n";
    if (options.explain && options.edge_mode == EdgeMode::kReduced &&
        selection.retained_count > 0) {
      out << "(" << selection.retained_count
          << " further redundant edge(s) retained for creator tensor lifetime)\n";
    }
    for (uint32_t p : selection.listed) {
      out << "  - " << FormatTaskId(graph.nodes[graph.pairs[p].pred], rings) << " -> "
          << FormatTaskId(graph.nodes[graph.pairs[p].succ], rings) << "\n";
    }
    if (options.format == "html" && !layout.explorer) {
      out << "HTML layout preserves all " << graph.pairs.size() << " edge(s); "
          << graph.pairs.size() - selection.shown_count
          << " unselected edge(s) are colored as background\n";
    }
  }
  if (layout.explorer) {
    out << "Explorer page carries every edge mode (full " << explorer.full << ", reduced "
        << explorer.reduced << ", reduced_dataflow " << explorer.reduced_dataflow << ", retained "
        << explorer.retained << " edge(s)) and opens in " << explorer.opens_in << "\n";
  }
  out << "Wrote " << output << " (" << summary << ")\n";

  if (options.stats) {
    out << "Stats: tasks=" << graph.nodes.size() << " edges=" << graph.pairs.size()
        << " rows=" << graph.rows.size();
    if (!reduction.is_dag) {
      out << " cycle=yes\n";
    } else {
      GraphMetrics metrics = ComputeGraphMetrics(graph);
      size_t retained = 0;
      if (options.edge_mode != EdgeMode::kReduced && options.edge_mode != EdgeMode::kRetained) {
        retained = SelectEdges(graph, reduction, EdgeMode::kReduced, options.threads).retained_count;
      } else {
        retained = selection.retained_count;
      }
      out << " depth=" << metrics.depth << " width=" << metrics.width
          << " redundant=" << reduction.redundant_count << " retained=" << retained << "\n";
    }
  }
  out.flush();
  if (selection.cycle_fallback && options.strict) return 3;
  if (options.strict && !reduction.is_dag) {
    err << "error: " << source << ": the dependency graph has a cycle ("
        << CyclePath(graph, reduction.cycle, rings) << "); exit 3 under --strict\n";
    return 3;
  }
  return 0;
}

int ViewerMain(int argc, char** argv) {
  std::ios::sync_with_stdio(false);
  std::vector<std::string> args(argv + 1, argv + argc);
  ViewerOptions options;
  int code = ParseViewerOptions(args, &options, std::cout, std::cerr);
  if (code >= 0) return code;
  return RunViewer(options, std::cout, std::cerr, isatty(STDERR_FILENO));
}

}  // namespace depgraph
