// Fuzz harness of the deps.json loader (LoadDepsJsonText) and everything the viewer runs on a
// loaded graph: the structural reduction, every edge mode, the text report, the DOT writer
// (plain and --show-tensor-info) and the JSON export, each into a std::ostringstream.
//
// Beyond "no crash", it checks what must hold for any loaded graph: a failed load has a
// one-line message; the parallel load with tiny blocks (cuts everywhere) gives the same message
// or the same model as the sequential one; on a DAG of at most kOracleMaxNodes nodes the
// redundant pairs are exactly those a brute-force closure finds; the edge modes partition the
// pairs as documented; the JSON export parses.
#include <algorithm>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "depgraph/graph/graph.h"
#include "depgraph/graph/graph_metrics.h"
#include "depgraph/graph/load_deps.h"
#include "depgraph/graph/name_map.h"
#include "depgraph/graph/task_label.h"
#include "depgraph/reduce/edge_mode.h"
#include "depgraph/reduce/reduction.h"
#include "depgraph/render/dot_writer.h"
#include "depgraph/render/text_report.h"
#include "deps_viewer/viewer_options.h"
#include "deps_viewer/viewer_output.h"
#include "fuzz_check.h"

namespace depgraph::fuzz {
namespace {

/// Largest graph checked against the brute-force closure (O(V^2) memory, O(V * E) time).
constexpr size_t kOracleMaxNodes = 96;

/// Per pair: 1 iff its succ is reachable from another successor of its pred. O(V * E).
std::vector<uint8_t> BruteForceRedundant(const DepGraph& graph) {
  const size_t n = graph.nodes.size();
  std::vector<std::vector<uint32_t>> succ(n);
  for (const Pair& p : graph.pairs) succ[p.pred].push_back(p.succ);
  std::vector<std::vector<uint8_t>> reach(n, std::vector<uint8_t>(n, 0));
  for (size_t s = 0; s < n; ++s) {
    std::vector<uint32_t> stack = {static_cast<uint32_t>(s)};
    while (!stack.empty()) {
      const uint32_t x = stack.back();
      stack.pop_back();
      for (uint32_t y : succ[x]) {
        if (!reach[s][y]) {
          reach[s][y] = 1;
          stack.push_back(y);
        }
      }
    }
  }
  std::vector<uint8_t> out(graph.pairs.size(), 0);
  for (size_t p = 0; p < graph.pairs.size(); ++p) {
    for (uint32_t w : succ[graph.pairs[p].pred]) {
      if (w != graph.pairs[p].succ && reach[w][graph.pairs[p].succ]) out[p] = 1;
    }
  }
  return out;
}

/// The graph model's own invariants: nodes ascending and unique, pairs ascending, unique and
/// in range, rows pointing at pairs, the CSR graph agreeing with the pairs. O(V + E + R).
void CheckModel(const DepGraph& graph) {
  const size_t n = graph.nodes.size();
  Require(std::adjacent_find(graph.nodes.begin(), graph.nodes.end(),
                             [](TaskId a, TaskId b) { return a >= b; }) == graph.nodes.end(),
          "nodes not strictly ascending");
  Require(graph.node_task.size() == n, "node_task size");
  for (size_t p = 0; p < graph.pairs.size(); ++p) {
    const Pair& pair = graph.pairs[p];
    Require(pair.pred < n && pair.succ < n, "pair out of range");
    if (p > 0) {
      const Pair& prev = graph.pairs[p - 1];
      Require(prev.pred < pair.pred || (prev.pred == pair.pred && prev.succ < pair.succ),
              "pairs not strictly ascending");
    }
    Require(graph.FindPair(pair.pred, pair.succ) == static_cast<int64_t>(p), "FindPair");
  }
  for (const EdgeRow& row : graph.rows) Require(row.pair < graph.pairs.size(), "row.pair");
  Require(graph.arg_views.size() == graph.args.size() &&
              graph.consumer_views.size() == graph.rows.size(),
          "one view per argument and per row");
  Require(boost::num_vertices(graph.graph) == n, "CSR vertex count");
  Require(boost::num_edges(graph.graph) == graph.pairs.size(), "CSR edge count");
}

auto ViewFields(const View& v) {
  return std::make_tuple(v.dtype, v.dtype_state, v.start_offset_state, v.start_offset,
                         v.shape.offset, v.shape.size, v.shape.state, v.strides.offset,
                         v.strides.size, v.strides.state);
}

/// Every field of two models but the CSR, which is built from `pairs`. O(model).
bool SameModel(const DepGraph& a, const DepGraph& b) {
  auto same = [](const auto& x, const auto& y, auto fields) {
    if (x.size() != y.size()) return false;
    for (size_t i = 0; i < x.size(); ++i) {
      if (fields(x[i]) != fields(y[i])) return false;
    }
    return true;
  };
  auto task = [](const Task& t) {
    return std::make_tuple(t.id, t.kernel_ids[0], t.kernel_ids[1], t.kernel_ids[2], t.block_num,
                           t.early_dispatch, t.manual_scope, t.first_arg, t.num_args);
  };
  // An argument with its view (looked up in whichever graph holds the argument).
  auto arg_in = [](const DepGraph& g) {
    return [&g](const TaskArg& x) {
      return std::tuple_cat(std::make_tuple(x.idx, x.type, x.tensor_id_state, x.tensor_id),
                            ViewFields(g.ViewOf(x)));
    };
  };
  auto tensor = [](const Tensor& t) {
    return std::make_tuple(t.id, t.index, t.addr_state, t.numel_state, t.buffer_addr,
                           t.buffer_numel, t.dtype_state, t.dtype);
  };
  // A row with its producer view (looked up in whichever graph holds the row).
  auto row_in = [](const DepGraph& g) {
    return [&g](const EdgeRow& r) {
      return std::tuple_cat(std::make_tuple(r.pair, r.source, r.arg_state, r.tensor_id_state,
                                            r.overlap, r.flags, r.arg, r.tensor_id),
                            ViewFields(g.ConsumerOf(r)), ViewFields(g.ProducerOf(r)));
    };
  };
  auto pair = [](const Pair& p) { return std::make_pair(p.pred, p.succ); };
  // Elements of two graphs' vectors whose fields are read through their graph.
  auto same_in = [](const auto& x, const auto& y, auto fields_x, auto fields_y) {
    if (x.size() != y.size()) return false;
    for (size_t i = 0; i < x.size(); ++i) {
      if (fields_x(x[i]) != fields_y(y[i])) return false;
    }
    return true;
  };
  return a.nodes == b.nodes && a.node_task == b.node_task && a.task_index == b.task_index &&
         a.dims == b.dims && a.overlap_names == b.overlap_names && a.runtime == b.runtime &&
         a.views_loaded == b.views_loaded && same(a.tasks, b.tasks, task) &&
         same_in(a.args, b.args, arg_in(a), arg_in(b)) && same(a.tensors, b.tensors, tensor) &&
         same_in(a.rows, b.rows, row_in(a), row_in(b)) &&
         same(a.pairs, b.pairs, pair);
}

/// The load on 1 to 4 threads with blocks of 1 to 97 bytes (cut points everywhere: in strings,
/// escapes, whitespace) agrees with the sequential one: the same message, or the same model.
/// O(the load).
void CheckParallelLoad(std::string_view text, bool loaded, const DepGraph& graph,
                       const std::string& err) {
  LoadOptions options;
  options.threads = 1 + static_cast<unsigned>(text.size() % 4);
  options.block_bytes = 1 + text.size() % 97;
  DepGraph parallel;
  std::string parallel_err;
  const bool ok = LoadDepsJsonText(text, "deps.json", &parallel, &parallel_err, options);
  Require(ok == loaded, "the parallel load succeeds where the sequential one fails, or fails");
  Require(parallel_err == (loaded ? "" : err), "the parallel load reports another error");
  if (ok) Require(SameModel(graph, parallel), "the parallel load builds another model");
}

/// The edge modes' documented relations to the reduction and to each other. O(E).
void CheckSelection(const DepGraph& graph, const StructuralReduction& reduction,
                    const EdgeSelection& selection) {
  const size_t pairs = graph.pairs.size();
  Require(selection.shown.size() == pairs, "shown size");
  Require(static_cast<size_t>(std::count(selection.shown.begin(), selection.shown.end(), 1)) ==
              selection.shown_count,
          "shown_count");
  Require(std::is_sorted(selection.listed.begin(), selection.listed.end()) &&
              std::adjacent_find(selection.listed.begin(), selection.listed.end()) ==
                  selection.listed.end(),
          "listed not strictly ascending");
  for (uint32_t p : selection.listed) Require(p < pairs, "listed out of range");
  if (selection.mode == EdgeMode::kFull || selection.cycle_fallback) {
    Require(selection.shown_count == pairs, "full / fallback shows every pair");
    Require(selection.cycle_fallback == (selection.mode != EdgeMode::kFull && !reduction.is_dag),
            "cycle_fallback iff a reduction mode meets a cycle");
    return;
  }
  for (uint32_t p : selection.listed) Require(reduction.redundant[p] != 0, "listed not redundant");
  switch (selection.mode) {
    case EdgeMode::kReduced:
    case EdgeMode::kReducedDataflow:
      Require(selection.shown_count + selection.listed.size() == pairs, "reduced partition");
      for (uint32_t p : selection.listed) Require(!selection.shown[p], "listed pair shown");
      break;
    case EdgeMode::kOmitted:
    case EdgeMode::kOmittedDataflow:
    case EdgeMode::kRetained:
      Require(selection.shown_count == selection.listed.size(), "omitted shows its list");
      for (uint32_t p : selection.listed) Require(selection.shown[p] != 0, "listed pair hidden");
      break;
    default:
      break;
  }
  if (selection.mode == EdgeMode::kRetained) {
    Require(selection.retained_count == selection.listed.size(), "retained lists its count");
  } else {
    Require(selection.retained_count + selection.listed.size() == reduction.redundant_count,
            "removed + retained != redundant");
  }
}

/// Runs every writer on one selection and checks the JSON export parses. O(V + E + R).
void WriteEverything(const DepGraph& graph, const std::vector<TaskLabel>& labels,
                     const EdgeSelection& selection) {
  const std::string source = "fuzz/deps.json";
  std::ostringstream text;
  WriteTextReport(graph, selection, labels, source, text);
  const TextReportCounts counts = CountTextReport(graph, selection);
  Require(counts.unique_edges == selection.shown_count, "text report counts shown pairs");

  DotOptions dot;
  dot.rich = false;
  const std::string plain = WriteDot(graph, labels, selection.shown, dot);
  Require(plain.rfind("digraph", 0) == 0, "DOT starts with digraph");
  dot.rich = true;
  dot.rankdir = "TB";
  (void)WriteDot(graph, labels, selection.shown, dot);

  ViewerOptions options;
  options.format = "json";
  options.edge_mode = selection.mode;
  const RenderRequest request{graph, labels, selection, source, options};
  std::ostringstream json;
  WriteJsonExport(request, json);
  const nlohmann::json parsed = nlohmann::json::parse(json.str(), nullptr, false);
  Require(!parsed.is_discarded(), "the JSON export is not valid JSON");
  Require(parsed["edges"].size() == selection.shown_count, "JSON edges count");
}

}  // namespace
}  // namespace depgraph::fuzz

/// libFuzzer entry point: loads `data` as deps.json; when it loads, reduces it, applies every
/// edge mode and runs every writer. Inputs above kMaxInputBytes are skipped. Cost: the
/// loader's O(bytes + R log R), the reduction, the dataflow proof, and O(V * E) for the
/// brute-force check on small graphs.
extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace depgraph;
  using namespace depgraph::fuzz;
  if (size > kMaxInputBytes) return 0;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  DepGraph graph;
  std::string err;
  LoadOptions sequential;
  sequential.threads = 1;
  sequential.block_bytes = SIZE_MAX;  // straight from the input, no blocks
  const bool loaded = LoadDepsJsonText(text, "deps.json", &graph, &err, sequential);
  CheckParallelLoad(text, loaded, graph, err);
  if (!loaded) {
    RequireOneLineMessage(err);
    return 0;
  }
  CheckModel(graph);
  // Names for kernel ids 0..2 and one empty name, so the labelled paths of the writers run.
  NameMap names;
  names.names = {{"0", "qk"}, {"1", "softmax \"x\" <b>"}, {"2", ""}, {"level", ""}};
  const std::vector<TaskLabel> labels = ResolveTaskLabels(graph, names);
  Require(labels.size() == graph.nodes.size(), "one label per node");

  const StructuralReduction reduction = ReduceStructurally(graph);
  Require(reduction.is_dag == reduction.cycle.empty(), "a cycle iff not a DAG");
  Require(reduction.redundant.size() == graph.pairs.size(), "redundant size");
  if (reduction.is_dag && graph.nodes.size() <= kOracleMaxNodes) {
    Require(reduction.redundant == BruteForceRedundant(graph), "reduction != brute force");
  }
  if (!reduction.is_dag) {
    Require(reduction.cycle.size() >= 2 && reduction.cycle.front() == reduction.cycle.back(),
            "the cycle repeats its first node");
    for (size_t i = 0; i + 1 < reduction.cycle.size(); ++i) {
      Require(graph.FindPair(reduction.cycle[i], reduction.cycle[i + 1]) >= 0,
              "the cycle follows pairs");
    }
  }
  Require(ComputeGraphMetrics(graph).is_dag == reduction.is_dag, "metrics and reduction agree");

  for (EdgeMode mode :
       {EdgeMode::kFull, EdgeMode::kReduced, EdgeMode::kOmitted, EdgeMode::kReducedDataflow,
        EdgeMode::kOmittedDataflow, EdgeMode::kRetained}) {
    const EdgeSelection selection = SelectEdges(graph, reduction, mode);
    CheckSelection(graph, reduction, selection);
    WriteEverything(graph, labels, selection);
  }
  return 0;
}
