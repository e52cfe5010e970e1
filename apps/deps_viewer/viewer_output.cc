#include "viewer_output.h"

#include "depgraph/render/dot_writer.h"
#include "depgraph/render/text_report.h"
#include "explorer_page.h"
#include "graphviz_job.h"
#include "html_page.h"

namespace depgraph {

namespace {

std::string CountsSummary(const TextReportCounts& counts, const char* format) {
  return std::to_string(counts.tasks) + " tasks, " + std::to_string(counts.unique_edges) +
         " unique edges, " + std::to_string(counts.annotated_edges) + " annotated edges, format=" +
         format;
}

}  // namespace

HtmlLayoutChoice ChooseHtmlLayout(const ViewerOptions& options, const DepGraph& graph) {
  HtmlLayoutChoice choice;
  if (options.format != "html") return choice;
  if (!options.layout.empty()) {
    choice.explorer = options.layout == "layered";
    return choice;
  }
  const size_t tasks = graph.nodes.size(), edges = graph.pairs.size();
  if (tasks <= kGraphvizMaxTasks && edges <= kGraphvizMaxEdges) {
    // Small, but possibly slow for dot (a long chain with skip edges): by the estimate.
    if (options.engine != "dot") return choice;
    const double estimate = EstimateDotSeconds(PredictDotSolverNodes(graph));
    if (estimate < kGraphvizLongLayoutSeconds) return choice;
    choice.explorer = true;
    choice.note = "deps_viewer: Graphviz dot would take " + ApproximateDuration(estimate) +
                  " on " + std::to_string(tasks) + " tasks (estimated): writing the explorer " +
                  "page (layered layout), ready in seconds; --layout graphviz forces Graphviz";
    return choice;
  }
  choice.explorer = true;
  choice.note = "deps_viewer: " +
                (tasks > kGraphvizMaxTasks
                     ? std::to_string(tasks) + " tasks > " + std::to_string(kGraphvizMaxTasks)
                     : std::to_string(edges) + " edges > " + std::to_string(kGraphvizMaxEdges)) +
                ": writing the explorer page (layered layout); --layout graphviz forces Graphviz";
  return choice;
}

void WriteJsonExport(const RenderRequest& request, std::ostream& out) {
  const DepGraph& graph = request.graph;
  const EdgeSelection& selection = request.selection;
  const TextReportCounts counts = CountTextReport(graph, selection);
  std::string buf;
  auto flush = [&]() {
    out.write(buf.data(), static_cast<std::streamsize>(buf.size()));
    buf.clear();
  };
  auto quote = [](const std::string& s) {
    std::string q = "\"";
    for (char c : s) {
      if (c == '"' || c == '\\') {
        q += '\\';
        q += c;
      } else if (static_cast<unsigned char>(c) < 0x20) {
        char hex[8];
        std::snprintf(hex, sizeof hex, "\\u%04x", c);
        q += hex;
      } else {
        q += c;
      }
    }
    return q + "\"";
  };
  buf += "{\n  \"source_deps_json\": " + quote(request.source) + ",\n";
  buf += std::string("  \"edge_mode\": \"") + EdgeModeName(selection.mode) + "\",\n";
  buf += std::string("  \"cycle_fallback\": ") + (selection.cycle_fallback ? "true" : "false") +
         ",\n";
  buf += "  \"tasks\": " + std::to_string(counts.tasks) + ",\n";
  buf += "  \"total_edges\": " + std::to_string(graph.pairs.size()) + ",\n";
  buf += "  \"unique_edges\": " + std::to_string(counts.unique_edges) + ",\n";
  buf += "  \"annotated_edges\": " + std::to_string(counts.annotated_edges) + ",\n";
  buf += "  \"tensors\": " + std::to_string(graph.tensors.size()) + ",\n";
  buf += "  \"retained_for_creator_lifetime\": " + std::to_string(selection.retained_count) +
         ",\n";
  auto pair_list = [&](const char* key, auto&& include) {
    buf += std::string("  \"") + key + "\": [";
    bool first = true;
    for (size_t p = 0; p < graph.pairs.size(); ++p) {
      if (!include(p)) continue;
      buf += first ? "\n    " : ",\n    ";
      first = false;
      const TaskId pred = graph.nodes[graph.pairs[p].pred], succ = graph.nodes[graph.pairs[p].succ];
      buf += "{\"pred\": \"" + std::to_string(pred) + "\", \"succ\": \"" + std::to_string(succ) +
             "\", \"pred_label\": \"" + FormatTaskId(pred, true) + "\", \"succ_label\": \"" +
             FormatTaskId(succ, true) + "\"}";
      if (buf.size() > (1 << 20)) flush();
    }
    buf += first ? "]" : "\n  ]";
  };
  std::vector<uint8_t> listed(graph.pairs.size(), 0);
  for (uint32_t p : selection.listed) listed[p] = 1;
  pair_list("listed", [&](size_t p) { return listed[p] != 0; });
  buf += ",\n";
  pair_list("edges", [&](size_t p) { return selection.shown[p] != 0; });
  buf += "\n}\n";
  flush();
}

bool RenderOutput(const RenderRequest& request, std::ostream& out, std::string* summary,
                  std::string* err) {
  const std::string& format = request.options.format;
  if (format == "text") {
    WriteTextReport(request.graph, request.selection, request.labels, request.source, out);
    *summary = CountsSummary(CountTextReport(request.graph, request.selection), "text");
    return true;
  }
  if (format == "json") {
    WriteJsonExport(request, out);
    *summary = CountsSummary(CountTextReport(request.graph, request.selection), "json");
    return true;
  }
  if (format == "dot") {
    DotOptions dot;
    dot.rankdir = request.options.direction;
    dot.rich = request.options.show_tensor_info;
    dot.form = request.options.dot_layout_form ? DotForm::kLayout : DotForm::kExport;
    out << WriteDot(request.graph, request.labels, request.selection.shown, dot);
    *summary = CountsSummary(CountTextReport(request.graph, request.selection), "dot");
    return true;
  }
  if (request.explorer) {
    ExplorerPageOptions explorer_options;
    explorer_options.source = request.source;
    explorer_options.initial_mode =
        request.selection.cycle_fallback ? EdgeMode::kFull : request.selection.mode;
    explorer_options.task_details = request.graph.nodes.size() <= kExplorerDetailsMaxTasks;
    explorer_options.threads = request.options.threads;
    explorer_options.perf = request.perf;
    explorer_options.observed = request.observed;
    WriteExplorerPage(request.graph, request.labels, *request.reduction, explorer_options, out,
                      request.explorer);
    *summary = std::to_string(request.graph.nodes.size()) + " nodes, " +
               std::to_string(request.selection.shown_count) + " visible edges, " +
               std::to_string(request.graph.pairs.size()) + " edges, layout=layered, format=html";
    return true;
  }
  HtmlOptions html_options;
  html_options.engine = request.options.engine;
  html_options.rankdir = request.options.direction;
  html_options.rich = request.options.show_tensor_info;
  html_options.source = request.source;
  html_options.edge_mode =
      request.selection.cycle_fallback ? "full" : EdgeModeName(request.selection.mode);
  GraphvizJob job{request.graph, request.labels, request.selection.shown, html_options};
  job.timeout_seconds = request.options.layout_timeout;
  job.progress = request.progress;
  job.progress_is_terminal = request.progress_is_terminal;
  std::string html;
  if (!RenderGraphvizPageInChild(job, &html, err)) return false;
  out << html;
  const size_t nodes = request.graph.nodes.size(), total = request.graph.pairs.size(),
               visible = request.selection.shown_count;
  const std::string engine = "engine=" + request.options.engine + ", format=html";
  if (visible < total) {
    *summary = std::to_string(nodes) + " nodes, " + std::to_string(visible) + " visible edges, " +
               std::to_string(total) + " layout edges, " + engine;
  } else {
    *summary = std::to_string(nodes) + " nodes, " + std::to_string(total) + " edges, " + engine;
  }
  return true;
}

}  // namespace depgraph
