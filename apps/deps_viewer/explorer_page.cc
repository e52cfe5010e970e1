#include "explorer_page.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <map>

#include "depgraph/internal/html_escape.h"
#include "depgraph/render/grouped_layout.h"
#include "depgraph/render/layered_layout.h"
#include "explorer_assets.h"
#include "html_page.h"

namespace depgraph {

namespace {

// Appends to a string and hands it to the stream every megabyte.
class Sink {
 public:
  explicit Sink(std::ostream& out) : out_(out) { buf_.reserve(kChunk + 4096); }
  ~Sink() { Flush(); }
  std::string& buf() { return buf_; }
  void Lit(std::string_view s) { buf_ += s; }
  void Int(int64_t v) {
    char tmp[24];
    auto r = std::to_chars(tmp, tmp + sizeof tmp, v);
    buf_.append(tmp, r.ptr);
  }
  // A non-negative number rounded to 3 decimals, shortest form ("12.34", "0.02", "7").
  void Milli(double v) {
    const double rounded = std::round(v * 1000.0) / 1000.0;
    char tmp[32];
    auto r = std::to_chars(tmp, tmp + sizeof tmp, rounded);
    buf_.append(tmp, r.ptr);
  }
  void UInt(uint64_t v) {
    char tmp[24];
    auto r = std::to_chars(tmp, tmp + sizeof tmp, v);
    buf_.append(tmp, r.ptr);
  }
  void Str(std::string_view s) { AppendScriptSafeJsonString(&buf_, s); }
  void Sep(bool* first) {
    if (!*first) buf_ += ',';
    *first = false;
  }
  void MaybeFlush() {
    if (buf_.size() >= kChunk) Flush();
  }
  void Flush() {
    out_.write(buf_.data(), static_cast<std::streamsize>(buf_.size()));
    buf_.clear();
  }

 private:
  static constexpr size_t kChunk = 1 << 20;
  std::ostream& out_;
  std::string buf_;
};

// Writes "key":[f(0),f(1),...] for n elements.
template <typename F>
void IntArray(Sink& s, const char* key, size_t n, F&& f) {
  s.Lit(",\"");
  s.Lit(key);
  s.Lit("\":[");
  for (size_t i = 0; i < n; ++i) {
    if (i) s.Lit(",");
    s.Int(f(i));
    s.MaybeFlush();
  }
  s.Lit("]");
}

// Dimensions as "16x16"; "" when absent, "?" when invalid.
void AppendDims(std::string* out, const DepGraph& graph, const DimList& dims) {
  if (dims.state == FieldState::kInvalid) {
    *out += '?';
    return;
  }
  const int64_t* d = graph.DimData(dims);
  for (uint16_t i = 0; i < dims.size; ++i) {
    if (i) *out += 'x';
    *out += std::to_string(d[i]);
  }
}

// T{index} of a tensor id, "?{id}" when the id has no tensors[] entry.
std::string TensorName(const DepGraph& graph, FieldState state, TaskId id) {
  if (state == FieldState::kAbsent) return "";
  if (state == FieldState::kInvalid) return "?";
  const Tensor* t = graph.FindTensor(id);
  return t ? std::to_string(t->index) : "?" + std::to_string(id);
}

// Argument types as one letter each (docs/explorer.md): the page maps them back.
char ArgTypeCode(ArgType type) {
  switch (type) {
    case ArgType::kInput: return 'I';
    case ArgType::kOutput: return 'O';
    case ArgType::kInOut: return 'B';
    case ArgType::kOutputExisting: return 'E';
    case ArgType::kNoDep: return 'U';
    default: return '?';
  }
}
constexpr int kNumDTypes = static_cast<int>(DType::kOther) + 1;

// One node's detail string: "aic,aiv0,aiv1|arg;arg;..." with each argument
// "idx,type,tensor,dtype,start_offset,shape,strides" (docs/explorer.md): type a letter of
// ArgTypeCode, dtype an index into the `dtypes` table.
std::string NodeDetails(const DepGraph& graph, uint32_t node) {
  const Task* task = graph.TaskOfNode(node);
  if (!task) return "";
  std::string d = std::to_string(task->kernel_ids[0]) + "," +
                  std::to_string(task->kernel_ids[1]) + "," +
                  std::to_string(task->kernel_ids[2]) + "|";
  for (uint32_t a = 0; a < task->num_args; ++a) {
    const TaskArg& arg = graph.args[task->first_arg + a];
    if (a) d += ';';
    if (arg.idx != INT64_MIN) d += std::to_string(arg.idx);
    d += ',';
    d += ArgTypeCode(arg.type);
    d += ',';
    d += TensorName(graph, arg.tensor_id_state, arg.tensor_id);
    d += ',';
    const View& view = graph.ViewOf(arg);
    if (view.dtype_state != FieldState::kAbsent) {
      d += std::to_string(static_cast<int>(view.dtype));
    }
    d += ',';
    if (view.start_offset_state == FieldState::kValid) {
      d += std::to_string(view.start_offset);
    } else if (view.start_offset_state == FieldState::kInvalid) {
      d += '?';
    }
    d += ',';
    AppendDims(&d, graph, view.shape);
    d += ',';
    AppendDims(&d, graph, view.strides);
  }
  return d;
}

// The page's mode names: the four it can show; the omitted modes open as full.
const char* ModeKey(EdgeMode mode) {
  switch (mode) {
    case EdgeMode::kReduced:
    case EdgeMode::kReducedDataflow:
    case EdgeMode::kRetained:
      return EdgeModeName(mode);
    default:
      return "full";
  }
}

// Writes [kind, count, begin, ...] for a list of series.
void SeriesArray(Sink& s, const std::vector<GroupSeries>& series) {
  s.Lit("[");
  for (size_t k = 0; k < series.size(); ++k) {
    if (k) s.Lit(",");
    s.UInt(series[k].kind);
    s.Lit(",");
    s.UInt(series[k].count);
    s.Lit(",");
    s.UInt(series[k].begin);
  }
  s.Lit("]");
}

// The repeated structure (graph/task_groups.h), when there is any: `groups` {kinds, series,
// order}, and `box` (the grouped layout's boxes, when the page is drawn with it); see
// docs/explorer.md, "Data format".
void WriteGroups(const TaskGrouping& grouping, const std::vector<float>* boxes, Sink& s) {
  if (grouping.series.empty()) return;
  s.Lit(",\"groups\":{\"kinds\":[");
  for (size_t k = 0; k < grouping.kinds.size(); ++k) {
    const GroupKind& kind = grouping.kinds[k];
    if (k) s.Lit(",");
    s.Lit("{\"label\":");
    s.Str(kind.label);
    s.Lit(",\"size\":");
    s.UInt(kind.size);
    s.Lit(",\"tasks\":");
    s.UInt(kind.tasks);
    s.Lit(",\"children\":");
    SeriesArray(s, kind.children);
    s.Lit("}");
  }
  s.Lit("],\"series\":");
  SeriesArray(s, grouping.series);
  IntArray(s, "order", grouping.order.size(), [&](size_t i) { return grouping.order[i]; });
  if (boxes != nullptr) {
    IntArray(s, "box", boxes->size(), [&](size_t i) { return std::lround((*boxes)[i]); });
  }
  s.Lit("}");
}

// The perf sidecar's facts per node: `perf` {level, freq}, `dur` and `t0` (µs, -1 for a
// node without records) and `nb` (records merged, 0 without).
void WritePerfData(const DepGraph& graph, const PerfSidecar& perf, Sink& s) {
  const size_t v = graph.nodes.size();
  std::vector<const PerfTask*> timed(v, nullptr);
  for (size_t i = 0; i < v; ++i) timed[i] = perf.Find(graph.nodes[i]);
  s.Lit(",\"perf\":{\"level\":");
  s.Int(perf.level);
  s.Lit(",\"freq\":");
  s.Int(perf.clock_freq_hz);
  s.Lit("}");
  for (const char* key : {"dur", "t0"}) {
    const bool duration = key[0] == 'd';
    s.Lit(",\"");
    s.Lit(key);
    s.Lit("\":[");
    for (size_t i = 0; i < v; ++i) {
      if (i) s.Lit(",");
      if (timed[i] == nullptr) {
        s.Lit("-1");
      } else {
        s.Milli(std::max(0.0, duration ? timed[i]->duration_us : timed[i]->start_us));
      }
      s.MaybeFlush();
    }
    s.Lit("]");
  }
  IntArray(s, "nb", v, [&](size_t i) { return timed[i] ? int64_t{timed[i]->blocks} : 0; });
  // The timeline's runs are in their own element (WriteExplorerRuns), parsed when it opens.
  s.Lit(",\"timeline\":");
  s.Lit(perf.runs.empty() ? "false" : "true");
}

// The observed critical path and the ready-idle stretches, in the runs' time base (ns since
// the sidecar's base tick): "cp" per step node (-1: not a node), stall kind (0 front gap,
// 1 data wait, 2 core wait) and stall ns; "cpsum" makespan, compute and stall ns; "idlesum"
// the count and ns of all idle-while-ready stretches, the dispatch-latency floor (ns) and the
// count and ns of those under it; "idle" per stretch (the longest kExplorerMaxIdleStretches)
// core, start ns, length ns and the waiting task's node. Or "cpnote": why not.
void WriteObservedRun(const DepGraph& graph, const PerfSidecar& perf, const ObservedRun& observed,
                      Sink& s) {
  if (!observed.unavailable.empty()) {
    s.Lit(",\"cpnote\":");
    s.Str(observed.unavailable);
    return;
  }
  const TaskTimings& timings = observed.analysis.timings;
  const double ns_per_tick = 1e9 / static_cast<double>(perf.clock_freq_hz);
  const auto ns = [&](int64_t ticks) {
    return std::max<int64_t>(
        0, std::llround(static_cast<double>(ticks - perf.base_ticks) * ns_per_tick));
  };
  const auto span_ns = [&](int64_t ticks) {
    return std::llround(static_cast<double>(ticks) * ns_per_tick);
  };
  const auto node_of = [&](uint32_t task) -> int64_t {
    const TaskTiming& t = timings.tasks[task];
    return t.has_task_id ? graph.FindNode(t.task_id) : -1;
  };
  const CriticalPathResult& r = observed.analysis.result;
  s.Lit(",\"cp\":[");
  bool first = true;
  for (const ObservedStep& step : r.observed_path) {
    s.Sep(&first);
    s.Int(node_of(step.task));
    s.Lit(",");
    s.Int(static_cast<int64_t>(step.kind));
    s.Lit(",");
    s.Int(span_ns(step.stall));
  }
  s.Lit("],\"cpsum\":[");
  s.Int(span_ns(r.makespan));
  s.Lit(",");
  s.Int(span_ns(r.compute_total));
  s.Lit(",");
  s.Int(span_ns(r.stall_total));
  // The longest stretches, in their order (core, start), and the totals of all of them.
  const std::vector<ReadyIdleGap>& gaps = observed.idle.gaps;
  std::vector<uint32_t> order(gaps.size());
  for (uint32_t k = 0; k < order.size(); ++k) order[k] = k;
  if (order.size() > kExplorerMaxIdleStretches) {
    const auto longer = [&](uint32_t a, uint32_t b) {
      const int64_t la = gaps[a].end - gaps[a].start, lb = gaps[b].end - gaps[b].start;
      return la != lb ? la > lb : a < b;
    };
    std::nth_element(order.begin(), order.begin() + kExplorerMaxIdleStretches, order.end(), longer);
    order.resize(kExplorerMaxIdleStretches);
    std::sort(order.begin(), order.end());
  }
  int64_t total = 0;
  for (const ReadyIdleGap& gap : gaps) total += gap.end - gap.start;
  s.Lit("],\"idlesum\":[");
  s.UInt(gaps.size());
  s.Lit(",");
  s.Int(span_ns(total));
  s.Lit(",");
  s.Int(span_ns(observed.idle.floor));
  s.Lit(",");
  s.UInt(observed.idle.skipped);
  s.Lit(",");
  s.Int(span_ns(observed.idle.skipped_ticks));
  s.Lit("],\"idle\":[");
  first = true;
  for (uint32_t k : order) {
    const ReadyIdleGap& gap = gaps[k];
    s.Sep(&first);
    s.Int(gap.core);
    s.Lit(",");
    s.Int(ns(gap.start));
    s.Lit(",");
    s.Int(std::max<int64_t>(0, ns(gap.end) - ns(gap.start)));
    s.Lit(",");
    s.Int(node_of(gap.waiting));
    s.MaybeFlush();
  }
  s.Lit("]");
}

}  // namespace

void WriteExplorerData(const DepGraph& graph, const std::vector<TaskLabel>& labels,
                       const StructuralReduction& reduction, const ExplorerPageOptions& options,
                       std::ostream& out, ExplorerPageSummary* summary) {
  const size_t v = graph.nodes.size(), e = graph.pairs.size();
  const EdgeSelection reduced = SelectEdges(graph, reduction, EdgeMode::kReduced, options.threads);
  const EdgeSelection dataflow = SelectEdges(graph, reduction, EdgeMode::kReducedDataflow, options.threads);
  const EdgeSelection retained = SelectEdges(graph, reduction, EdgeMode::kRetained, options.threads);
  summary->full = e;
  summary->reduced = reduced.shown_count;
  summary->reduced_dataflow = dataflow.shown_count;
  summary->retained = retained.shown_count;
  summary->cycle = !reduction.is_dag;
  summary->task_details = options.task_details;

  // Graphs large enough to want their structure drawn (and that have some) get the grouped
  // layout, where every group owns a box; the others the flat layered one.
  const TaskGrouping grouping = ComputeTaskGroups(graph, labels);
  const bool grouped = !grouping.series.empty() && v >= kGroupedLayoutMinNodes &&
                       grouping.series.size() + (v - grouping.covered) <= kGroupedLayoutMaxTopItems;
  std::vector<float> x, y, boxes;
  uint32_t num_layers = 0;
  if (grouped) {
    GroupedLayoutOptions grouped_options;
    if (reduction.is_dag) grouped_options.include = &reduced.shown;
    GroupedLayout layout = ComputeGroupedLayout(graph, grouping, grouped_options);
    x = std::move(layout.x);
    y = std::move(layout.y);
    boxes = std::move(layout.boxes);
  } else {
    LayeredLayoutOptions layout_options;
    layout_options.layer_gap = 160.0f;  // room for a 116-unit box ("(2, 1408) · QK") and arrows
    if (reduction.is_dag) layout_options.include = &reduced.shown;
    LayeredLayout layout = ComputeLayeredLayout(graph, layout_options);
    x = std::move(layout.x);
    y = std::move(layout.y);
    num_layers = layout.num_layers;
  }

  Sink s(out);
  s.Lit("{\"v\":1,\"name\":");
  s.Str(CaptureName(options.source));
  s.Lit(",\"mode\":\"");
  summary->opens_in = ModeKey(options.initial_mode);
  s.Lit(summary->opens_in);
  s.Lit("\",\"rings\":");
  s.Lit(graph.UsesRings() ? "true" : "false");
  if (graph.Display() == IdDisplay::kHbgSpace) s.Lit(",\"hbg\":true");  // t5 / g3t7 / p5 ids
  s.Lit(",\"cycle\":");
  s.Lit(reduction.is_dag ? "false" : "true");
  s.Lit(",\"details\":");
  s.Lit(options.task_details ? "true" : "false");
  s.Lit(",\"rows\":");
  s.UInt(graph.rows.size());
  s.Lit(",\"counts\":{\"full\":");
  s.UInt(summary->full);
  s.Lit(",\"reduced\":");
  s.UInt(summary->reduced);
  s.Lit(",\"reduced_dataflow\":");
  s.UInt(summary->reduced_dataflow);
  s.Lit(",\"retained\":");
  s.UInt(summary->retained);
  s.Lit("},\"layers\":");
  s.UInt(num_layers);

  s.Lit(",\"ids\":[");
  for (size_t i = 0; i < v; ++i) {
    if (i) s.Lit(",");
    s.Lit("\"");
    s.UInt(graph.nodes[i]);
    s.Lit("\"");
    s.MaybeFlush();
  }
  s.Lit("]");
  IntArray(s, "x", v, [&](size_t i) { return std::lround(x[i]); });
  IntArray(s, "y", v, [&](size_t i) { return std::lround(y[i]); });

  // Kind and core type in one character per node: '0' + kind * 4 + core.
  s.Lit(",\"kc\":\"");
  for (size_t i = 0; i < v; ++i) {
    s.buf() += static_cast<char>('0' + static_cast<int>(labels[i].kind) * 4 +
                                 static_cast<int>(labels[i].core));
    s.MaybeFlush();
  }
  s.Lit("\"");

  // Kernel names interned in first-seen order (deterministic: node order); without a name map
  // a kernel is f{id}, as in the text report and the Graphviz page.
  std::map<std::string, int64_t> name_ids;
  std::vector<const std::string*> names;
  std::vector<int64_t> kern(v, -1);
  for (uint32_t i = 0; i < v; ++i) {
    std::string name = DisplayKernelName(graph, labels, i);
    if (name.empty()) continue;
    auto [it, inserted] = name_ids.emplace(std::move(name), names.size());
    if (inserted) names.push_back(&it->first);
    kern[i] = it->second;
  }
  s.Lit(",\"names\":[");
  for (size_t n = 0; n < names.size(); ++n) {
    if (n) s.Lit(",");
    s.Str(*names[n]);
  }
  s.Lit("]");
  IntArray(s, "kern", v, [&](size_t i) { return kern[i]; });

  // Sparse facts: [node, block_num, ...] for SPMD tasks, manual-scope node indices.
  s.Lit(",\"block\":[");
  bool first = true;
  for (uint32_t i = 0; i < v; ++i) {
    const Task* task = graph.TaskOfNode(i);
    if (!task || task->block_num == 1) continue;
    s.Sep(&first);
    s.UInt(i);
    s.Lit(",");
    s.Int(task->block_num);
    s.MaybeFlush();
  }
  s.Lit("],\"manual\":[");
  first = true;
  for (uint32_t i = 0; i < v; ++i) {
    const Task* task = graph.TaskOfNode(i);
    if (!task || !task->manual_scope) continue;
    s.Sep(&first);
    s.UInt(i);
    s.MaybeFlush();
  }
  s.Lit("]");
  if (options.perf != nullptr) WritePerfData(graph, *options.perf, s);
  WriteGroups(grouping, grouped ? &boxes : nullptr, s);

  s.Lit(",\"pairs\":[");
  for (size_t p = 0; p < e; ++p) {
    if (p) s.Lit(",");
    s.UInt(graph.pairs[p].pred);
    s.Lit(",");
    s.UInt(graph.pairs[p].succ);
    s.MaybeFlush();
  }
  s.Lit("]");
  // Per pair one digit: bit 0 shown in reduced, bit 1 in reduced_dataflow, bit 2 in retained.
  s.Lit(",\"cls\":\"");
  for (size_t p = 0; p < e; ++p) {
    s.buf() += static_cast<char>('0' + (reduced.shown[p] ? 1 : 0) + (dataflow.shown[p] ? 2 : 0) +
                                 (retained.shown[p] ? 4 : 0));
    s.MaybeFlush();
  }
  s.Lit("\"");

  s.Lit("}");
}

void WriteExplorerRuns(const DepGraph& graph, const PerfSidecar& perf, const ObservedRun* observed,
                       std::ostream& out) {
  Sink s(out);
  // Per core its type (an index into ctypes; -1 for a core no run names).
  int64_t max_core = -1;
  for (const PerfRun& run : perf.runs) max_core = std::max(max_core, run.core);
  std::vector<int64_t> core_type(static_cast<size_t>(std::max<int64_t>(0, max_core + 1)), -1);
  for (const PerfRun& run : perf.runs) {
    if (run.core >= 0) core_type[static_cast<size_t>(run.core)] = run.type;
  }
  s.Lit("{\"ctypes\":[");
  for (size_t t = 0; t < perf.core_type_names.size(); ++t) {
    if (t) s.Lit(",");
    s.Str(perf.core_type_names[t]);
  }
  s.Lit("]");
  IntArray(s, "ctype", core_type.size(), [&](size_t c) { return core_type[c]; });
  // Task after task: node, run count, then per run core, start and length in ns (integers:
  // shorter than µs with decimals). Runs of tasks that are no node are left out.
  s.Lit(",\"runs\":[");
  bool first = true;
  for (size_t i = 0; i < perf.runs.size();) {
    size_t j = i;
    while (j < perf.runs.size() && perf.runs[j].task == perf.runs[i].task) ++j;
    const int64_t node = graph.FindNode(perf.tasks[perf.runs[i].task].id);
    if (node >= 0) {
      s.Sep(&first);
      s.Int(node);
      s.Lit(",");
      s.UInt(j - i);
      for (size_t k = i; k < j; ++k) {
        const PerfRun& run = perf.runs[k];
        const int64_t start = std::llround(std::max(0.0, run.start_us) * 1000.0);
        const int64_t end = std::llround(std::max(0.0, run.end_us) * 1000.0);
        s.Lit(",");
        s.Int(run.core);
        s.Lit(",");
        s.Int(start);
        s.Lit(",");
        s.Int(std::max<int64_t>(0, end - start));
      }
      s.MaybeFlush();
    }
    i = j;
  }
  s.Lit("]");
  if (observed != nullptr) WriteObservedRun(graph, perf, *observed, s);
  s.Lit("}");
}

void WriteExplorerDetails(const DepGraph& graph, std::ostream& out) {
  Sink s(out);
  const size_t v = graph.nodes.size(), e = graph.pairs.size();
  s.Lit("{\"dtypes\":[");
  for (int t = 0; t < kNumDTypes; ++t) {
    if (t) s.Lit(",");
    s.Str(DTypeName(static_cast<DType>(t)));
  }
  s.Lit("],\"overlaps\":[");
  for (size_t o = 0; o < graph.overlap_names.size(); ++o) {
    if (o) s.Lit(",");
    s.Str(graph.overlap_names[o]);
  }
  // Rows grouped by pair (file order within a pair): pair, packed facts, tensor index.
  s.Lit("],\"erows\":[");
  std::vector<uint32_t> offsets, row_ids;
  graph.RowsByPair(&offsets, &row_ids);
  bool first = true;
  for (size_t p = 0; p < e; ++p) {
    for (uint32_t k = offsets[p]; k < offsets[p + 1]; ++k) {
      const EdgeRow& row = graph.rows[row_ids[k]];
      const int64_t arg = row.arg_state == FieldState::kValid && row.arg >= 0 &&
                                  row.arg < 65535
                              ? row.arg + 1
                              : 0;
      const int64_t packed = static_cast<int64_t>(row.source) | (row.flags & 7) << 2 |
                             static_cast<int64_t>(row.overlap) << 5 | arg << 13;
      int64_t tensor = -1;
      if (row.tensor_id_state == FieldState::kValid) {
        const Tensor* t = graph.FindTensor(row.tensor_id);
        tensor = t ? t->index : -2;
      }
      s.Sep(&first);
      s.UInt(p);
      s.Lit(",");
      s.Int(packed);
      s.Lit(",");
      s.Int(tensor);
      s.MaybeFlush();
    }
  }
  s.Lit("],\"det\":[");
  for (uint32_t i = 0; i < v; ++i) {
    if (i) s.Lit(",");
    s.Str(NodeDetails(graph, i));
    s.MaybeFlush();
  }
  s.Lit("]}");
}

void WriteExplorerPage(const DepGraph& graph, const std::vector<TaskLabel>& labels,
                       const StructuralReduction& reduction, const ExplorerPageOptions& options,
                       std::ostream& out, ExplorerPageSummary* summary) {
  const std::string_view html = assets::kExplorerHtml;
  // The script sets the full title (mode, shown edges) on load; this one is for tab lists.
  std::string title;
  AppendHtmlEscaped(&title, CaptureName(options.source));
  title += " \u2014 " + std::to_string(graph.nodes.size()) + " tasks, " +
           std::to_string(graph.pairs.size()) + " edges";
  size_t at = 0;
  while (at < html.size()) {
    size_t mark = html.find("@@", at);
    if (mark == std::string_view::npos) break;
    size_t close = html.find("@@", mark + 2);
    if (close == std::string_view::npos) break;
    out << html.substr(at, mark - at);
    const std::string_view key = html.substr(mark + 2, close - mark - 2);
    if (key == "TITLE") {
      out << title;
    } else if (key == "CSS") {
      out << assets::kExplorerCss;
    } else if (key == "DATA") {
      WriteExplorerData(graph, labels, reduction, options, out, summary);
    } else if (key == "RUNS") {
      if (options.perf != nullptr && !options.perf->runs.empty()) {
        WriteExplorerRuns(graph, *options.perf, options.observed, out);
      } else {
        out << "{}";
      }
    } else if (key == "DETAILS") {
      if (options.task_details) {
        WriteExplorerDetails(graph, out);
      } else {
        out << "{}";
      }
    } else if (key == "JS") {
      out << assets::kExplorerDataJs << "\n" << assets::kExplorerRenderJs << "\n"
          << assets::kExplorerSearchJs << "\n" << assets::kExplorerPathJs << "\n"
          << assets::kExplorerGroupsJs << "\n" << assets::kExplorerUnitsJs << "\n"
          << assets::kExplorerTimelineJs << "\n"
          << assets::kExplorerJs;
    } else {
      out << html.substr(mark, close + 2 - mark);
    }
    at = close + 2;
  }
  out << html.substr(at);
}

}  // namespace depgraph
