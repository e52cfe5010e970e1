#include "depgraph/audit/audit_report.h"
#include "depgraph/support/printable_text.h"

#include <algorithm>
#include <map>
#include <tuple>
#include <vector>

#include "depgraph/support/json_writer.h"

namespace depgraph {

namespace {

// Display helpers shared by both writers.
class Names {
 public:
  // printable: kernel names with control characters escaped (the text report; JSON escapes).
  Names(const AuditReportInput& input, bool printable)
      : graph_(input.graph),
        labels_(input.labels),
        rings_(input.graph.Display()),
        printable_(printable) {}

  std::string Id(TaskId id) const { return FormatTaskId(id, rings_); }
  std::string TaskIdOf(uint32_t task) const { return Id(graph_.tasks[task].id); }
  std::string NodeId(uint32_t node) const { return Id(graph_.nodes[node]); }

  // Kernel name of a node: the name map's, else "dummy"/"alloc", else "" (no names).
  std::string NodeKernel(uint32_t node) const {
    const TaskLabel& label = labels_[node];
    if (label.kind == TaskKind::kAlloc) return "alloc";
    if (label.kind == TaskKind::kDummy) return "dummy";
    return printable_ ? PrintableText(label.func_name) : label.func_name;
  }
  std::string TaskKernel(uint32_t task) const {
    const int64_t node = graph_.FindNode(graph_.tasks[task].id);
    if (node < 0) return "dummy";
    return NodeKernel(static_cast<uint32_t>(node));
  }
  std::string TaskMention(uint32_t task) const {
    const std::string kernel = TaskKernel(task);
    return TaskIdOf(task) + (kernel.empty() ? "" : " " + kernel);
  }
  std::string NodeMention(uint32_t node) const {
    const std::string kernel = NodeKernel(node);
    return NodeId(node) + (kernel.empty() ? "" : " " + kernel);
  }
  // "T3" (the viewer's name: position in tensors[]), or the id when unknown.
  std::string Tensor(TaskId id) const {
    const depgraph::Tensor* tensor = graph_.FindTensor(id);
    return tensor != nullptr ? "T" + std::to_string(tensor->index) : "tensor " + std::to_string(id);
  }
  int64_t BufferAddr(TaskId id) const {
    const depgraph::Tensor* tensor = graph_.FindTensor(id);
    return tensor != nullptr && tensor->addr_state == FieldState::kValid ? tensor->buffer_addr
                                                                          : 0;
  }

 private:
  const DepGraph& graph_;
  const std::vector<TaskLabel>& labels_;
  IdDisplay rings_;
  bool printable_;
};

const char* AccessVerb(const RaceSide& side) {
  switch (side.type) {
    case ArgType::kInput: return "reads";
    case ArgType::kNoDep: return "reads (NO_DEP)";
    case ArgType::kInOut: return "reads and writes";
    default: return "writes";
  }
}

// Tasks shown at each end of a long critical path in the text report.
constexpr size_t kPathEnds = 8;
// Races shown per group of the text report.
constexpr size_t kRaceExamples = 3;

void Flush(std::string& buf, std::ostream& out, bool force = false) {
  if (!force && buf.size() < (1u << 20)) return;
  out.write(buf.data(), static_cast<std::streamsize>(buf.size()));
  buf.clear();
}

std::string LevelProfile(const std::vector<uint64_t>& per_level) {
  std::string text;
  if (per_level.size() <= 32) {
    for (size_t i = 0; i < per_level.size(); ++i) {
      text += (i ? " " : "") + std::to_string(per_level[i]);
    }
    return text;
  }
  // Sixteen bands of consecutive levels: mean and maximum tasks per level in each.
  const size_t bands = 16;
  const size_t step = (per_level.size() + bands - 1) / bands;
  for (size_t b = 0; b * step < per_level.size(); ++b) {
    const size_t lo = b * step, hi = std::min(per_level.size(), lo + step);
    uint64_t sum = 0, max = 0;
    for (size_t i = lo; i < hi; ++i) {
      sum += per_level[i];
      max = std::max(max, per_level[i]);
    }
    char mean[32];
    std::snprintf(mean, sizeof mean, "%.1f", static_cast<double>(sum) / (hi - lo));
    text += "\n    levels " + std::to_string(lo) + "-" + std::to_string(hi - 1) + ": mean " +
            mean + ", max " + std::to_string(max);
  }
  return text;
}

}  // namespace

int AuditExitCode(const AuditResult& result) { return result.races.total > 0 ? 3 : 0; }

std::string RaceAdvice(const DepGraph& graph, const Race& race) {
  const IdDisplay rings = graph.Display();
  const std::string first = FormatTaskId(graph.tasks[race.first.task].id, rings);
  const std::string second = FormatTaskId(graph.tasks[race.second.task].id, rings);
  std::string text;
  switch (race.cause) {
    case RaceCause::kWarUntracked:
      text = "a WAR is never tracked by the runtime (a writer does not wait for earlier "
             "readers): declare it with deps=[" + first + "] on the writer " + second +
             ". Do not promote the reader's argument to INOUT: that orders it, but serializes "
             "every reader of the tensor.";
      break;
    case RaceCause::kNoDepRead:
      text = second + " passes the tensor as NO_DEP (no_dep_args), so the runtime took no edge "
             "on its writer: drop it from no_dep_args, or declare deps=[" + first + "] on " +
             second + ".";
      break;
    case RaceCause::kNoLookupWrite:
      text = second + " writes the tensor as OUTPUT_EXISTING, which does not look up earlier "
             "writers: declare deps=[" + first + "] on " + second +
             " (or pass the tensor as INOUT if the task also reads it).";
      break;
    case RaceCause::kNoInferredEdges:
      text = second + " received no inferred edge at all (submitted inside pl.manual_scope(), "
             "or every view it passes is manual_dep), so every ordering is yours to declare: "
             "add deps=[" + first + "] on " + second + ".";
      break;
    case RaceCause::kElementUnits:
      text = "the two views use different element sizes and the runtime compares their "
             "offsets in raw element units, so it missed the overlap: declare deps=[" + first +
             "] on " + second + ".";
      break;
    case RaceCause::kUnpublished:
      text = first + "'s write was never published to the TensorMap (written inside a manual "
             "scope, or through a manual_dep view): declare deps=[" + first + "] on " + second +
             ".";
      break;
  }
  if (race.approximate) {
    text += " Approximate: a view expanded past the piece cap and its bounding range was "
            "used; check that the bytes really overlap.";
  }
  return text;
}

std::string SerializationAdvice(const DepGraph& graph, const FalseSerialization& finding) {
  std::string text;
  switch (finding.cause) {
    case SerializationCause::kVersion:
      text = "The later view is a newer version of the buffer; the runtime orders it after "
             "older writers without comparing regions, yet the bytes are disjoint.";
      break;
    case SerializationCause::kDType:
      text = "The views have different dtypes; after a range hit the runtime compares them no "
             "further, yet the bytes are disjoint.";
      break;
    case SerializationCause::kStrided:
      text = "The views are strided differently or interleaved; the runtime proves "
             "disjointness only for row-major views with equal strides, yet the bytes are "
             "disjoint.";
      break;
    case SerializationCause::kUnproven:
      text = "The runtime could not prove the views disjoint, yet the bytes are.";
      break;
  }
  if (finding.accumulator) {
    text += " " + std::to_string(finding.tasks.size()) +
            " tasks writing disjoint parts of one buffer run one after another (an "
            "accumulator chain).";
  }
  const std::string tensor = [&] {
    const Tensor* t = graph.FindTensor(finding.tensor_id);
    return t != nullptr ? "T" + std::to_string(t->index) : std::string("the tensor");
  }();
  text += " Fix, narrowest first: no_dep_args=[" + tensor + "] on the later task (one tensor, "
          "one task); pl.create_tensor(..., manual_dep=True) for " + tensor +
          " (its whole lifetime: then add deps= on the tasks that read what these write, or "
          "they race); or pl.manual_scope() with explicit deps= for the region.";
  if (finding.cause == SerializationCause::kUnproven || finding.accumulator) {
    text += " Or slice the output in the orchestration so each task gets its own region: "
            "disjoint by construction, no assertion needed, at the cost of more tensors to "
            "register per task.";
  }
  text += " Each opt-out is an assertion the runtime cannot check: re-run the audit, and "
          "depgraph diff the old and new graphs to see that only this ordering went.";
  return text;
}

void WriteAuditText(const AuditReportInput& input, std::ostream& out) {
  const DepGraph& graph = input.graph;
  const AuditResult& r = input.result;
  const AuditSummary& s = r.summary;
  const Names names(input, /*printable=*/true);
  std::string buf;
  buf += "depgraph audit of " + input.source + "\n\n== summary\n";
  buf += "tasks: " + std::to_string(s.tasks) + " (" + std::to_string(s.submit) + " submit, " +
         std::to_string(s.dummy + s.isolated_dummies) + " dummy), " + std::to_string(s.alloc) +
         " alloc node(s), " + std::to_string(s.tensors) + " tensors\n";
  buf += "edges: " + std::to_string(s.pairs) + " pairs, " + std::to_string(s.rows) +
         " rows; rows by source:";
  for (int k = 0; k < 4; ++k) {
    buf += std::string(" ") + EdgeSourceName(static_cast<EdgeSource>(k)) + " " +
           std::to_string(s.rows_by_source[k]);
  }
  buf += "; pairs with a row of:";
  for (int k = 0; k < 4; ++k) {
    buf += std::string(" ") + EdgeSourceName(static_cast<EdgeSource>(k)) + " " +
           std::to_string(s.pairs_by_source[k]);
  }
  buf += "\ndepth: " + std::to_string(s.depth) + " edges; width: " + std::to_string(s.width) +
         " tasks on one level\ncritical path:";
  // Long paths show their first and last tasks; the JSON report has all of them.
  const size_t path_size = s.critical_path.size();
  for (size_t i = 0; i < path_size; ++i) {
    if (path_size > 2 * kPathEnds && i == kPathEnds) {
      buf += " -> ... (" + std::to_string(path_size - 2 * kPathEnds) + " more)";
      i = path_size - kPathEnds - 1;
      continue;
    }
    buf += (i ? " -> " : " ") + names.NodeMention(s.critical_path[i]);
    Flush(buf, out);
  }
  buf += "\ntasks per level: " + LevelProfile(s.tasks_per_level) + "\n";
  buf += "redundancy: " + std::to_string(s.redundant) + " structurally redundant pair(s); " +
         "reduced drops " + std::to_string(s.reduced_removes) + ", " +
         std::to_string(s.creator_retained) + " creator-retained; reduced_dataflow drops " +
         std::to_string(s.dataflow_removes) + "\n";
  const AccessModel& m = r.model;
  buf += "access model: " + std::to_string(m.accesses.size()) + " argument byte sets (" +
         std::to_string(m.approximate_count) + " approximate), " +
         std::to_string(m.unknown.size()) + " argument(s) without one; OUTPUT slots " +
         std::to_string(m.output_slots) + ": " + std::to_string(m.outputs_placed) +
         " placed from creator rows, " + std::to_string(m.outputs_unobserved) + " unplaced\n";
  if (m.outputs_unobserved > 0) {
    buf += "note: " + std::to_string(m.outputs_unobserved) +
           " OUTPUT slot(s) are named by no creator row (never read, or read only inside a "
           "manual scope): races on those buffers cannot be checked\n";
  }
  for (const UnknownAccess& u : m.unknown) {
    buf += "  unknown: " + names.TaskIdOf(u.task) + " arg " + std::to_string(u.arg_idx) + ": " +
           UnknownReasonName(u.reason) + "\n";
    Flush(buf, out);
  }
  if (r.races.edges_against_submit_order > 0) {
    buf += "note: " + std::to_string(r.races.edges_against_submit_order) +
           " edge(s) run against submit order; races are still checked both ways\n";
  }

  const RaceReport& races = r.races;
  buf += "\n== races: " + std::to_string(races.total) + " (RAW " +
         std::to_string(races.by_kind[0]) + ", WAW " + std::to_string(races.by_kind[1]) +
         ", WAR " + std::to_string(races.by_kind[2]) + "; " +
         std::to_string(races.approximate) + " approximate)\n";
  // Races grouped by (tensor, kind, cause): a model graph has thousands of races over a few
  // hundred tensors, all with the same fix; a group shows its count and a few examples.
  std::map<std::tuple<uint64_t, int, int>, std::vector<size_t>> groups;
  for (size_t i = 0; i < races.races.size(); ++i) {
    const Race& race = races.races[i];
    groups[{race.first.tensor_id, static_cast<int>(race.kind), static_cast<int>(race.cause)}]
        .push_back(i);
  }
  std::vector<const std::vector<size_t>*> ordered;
  for (const auto& [key, members] : groups) ordered.push_back(&members);
  std::stable_sort(ordered.begin(), ordered.end(), [](const auto* x, const auto* y) {
    return x->size() != y->size() ? x->size() > y->size() : x->front() < y->front();
  });
  if (!ordered.empty()) {
    buf += std::to_string(ordered.size()) + " group(s) by tensor, kind and cause, largest first\n";
  }
  const size_t group_limit = input.max_findings == 0 ? ordered.size() : input.max_findings;
  for (size_t g = 0; g < ordered.size() && g < group_limit; ++g) {
    const std::vector<size_t>& members = *ordered[g];
    const Race& head = races.races[members.front()];
    buf += "[" + std::to_string(g + 1) + "] " + std::to_string(members.size()) + " " +
           RaceKindName(head.kind) + " race(s) on " + names.Tensor(head.first.tensor_id) +
           ", cause " + RaceCauseName(head.cause) + "\n";
    for (size_t k = 0; k < members.size() && k < kRaceExamples; ++k) {
      const Race& race = races.races[members[k]];
      const int64_t base = names.BufferAddr(race.first.tensor_id);
      buf += "    " + std::string(race.approximate ? "(approximate) " : "") +
             names.TaskMention(race.first.task) + " " + AccessVerb(race.first) + ", " +
             names.TaskMention(race.second.task) + " " + AccessVerb(race.second) + "; bytes [" +
             std::to_string(race.begin - base) + ", " + std::to_string(race.end - base) + ") (" +
             std::to_string(race.bytes) + " shared)\n";
      buf += "      args: " + names.TaskIdOf(race.first.task) + " arg " +
             std::to_string(race.first.arg_idx) + " " + ArgTypeName(race.first.type) + " " +
             names.Tensor(race.first.tensor_id) + ", " + names.TaskIdOf(race.second.task) +
             " arg " + std::to_string(race.second.arg_idx) + " " + ArgTypeName(race.second.type) +
             " " + names.Tensor(race.second.tensor_id) + "\n";
      buf += "      fix: " + RaceAdvice(graph, race) + "\n";
      Flush(buf, out);
    }
    if (members.size() > kRaceExamples) {
      buf += "    ... " + std::to_string(members.size() - kRaceExamples) +
             " more in this group (the JSON report lists every race)\n";
    }
  }
  if (ordered.size() > group_limit) {
    buf += "... " + std::to_string(ordered.size() - group_limit) +
           " more group(s) not listed (--max-findings 0 lists all; --json has every race)\n";
  }
  if (races.truncated) {
    buf += "... " + std::to_string(races.total - races.races.size()) +
           " more race(s) not grouped (past the audit's race limit)\n";
  }

  const SerializationReport& fs = r.serialization;
  buf += "\n== false serialization: " + std::to_string(fs.findings.size()) + " finding(s) over " +
         std::to_string(fs.false_pairs) + " pair(s) (" + std::to_string(fs.candidates) +
         " tensormap-only pair(s) checked, " + std::to_string(fs.undecided) +
         " undecided); depth " + std::to_string(fs.depth) + ", " +
         std::to_string(fs.depth_without_false) + " without them\n";
  const size_t finding_limit = input.max_findings == 0 ? fs.findings.size() : input.max_findings;
  for (size_t i = 0; i < fs.findings.size() && i < finding_limit; ++i) {
    const FalseSerialization& f = fs.findings[i];
    buf += "[" + std::to_string(i + 1) + "] ";
    for (size_t k = 0; k < f.tasks.size(); ++k) {
      buf += (k ? " -> " : "") + names.NodeMention(f.tasks[k]);
    }
    const std::string& overlap = graph.overlap_names[f.overlap];
    buf += " on " + names.Tensor(f.tensor_id) + " (arg " + std::to_string(f.consumer_arg) +
           ", overlap " + (overlap.empty() ? std::string("-") : overlap) + ", " + std::to_string(f.pairs.size()) + " edge(s)): " +
           SerializationCauseName(f.cause) + "; depth gain " +
           (f.depth_gain < 0 ? std::string("not computed") : std::to_string(f.depth_gain)) +
           "\n    fix: " + SerializationAdvice(graph, f) + "\n";
    Flush(buf, out);
  }
  if (fs.findings.size() > finding_limit) {
    buf += "... " + std::to_string(fs.findings.size() - finding_limit) +
           " more finding(s) not listed (--max-findings 0 lists all)\n";
  }
  const int code = AuditExitCode(r);
  buf += "\n== result: " + std::to_string(races.total) + " race(s), " +
         std::to_string(fs.findings.size()) + " false serialization finding(s): exit " +
         std::to_string(code) + "\n";
  Flush(buf, out, true);
}

void WriteAuditJson(const AuditReportInput& input, std::ostream& out) {
  const DepGraph& graph = input.graph;
  const AuditResult& r = input.result;
  const AuditSummary& s = r.summary;
  const Names names(input, /*printable=*/false);
  std::string buf;
  auto num = [](uint64_t v) { return std::to_string(v); };
  auto task_ref = [&](uint32_t task) {
    return "{\"task\": " + JsonId(graph.tasks[task].id) + ", \"kernel\": " +
           JsonString(names.TaskKernel(task));
  };
  buf += "{\n  \"schema\": \"depgraph-audit/1\",\n  \"source\": " + JsonString(input.source) +
         ",\n  \"summary\": {\n";
  buf += "    \"tasks\": " + num(s.tasks) + ", \"nodes\": " + num(s.nodes) + ", \"submit\": " +
         num(s.submit) + ", \"dummy\": " + num(s.dummy + s.isolated_dummies) + ", \"alloc\": " +
         num(s.alloc) + ", \"tensors\": " + num(s.tensors) + ",\n    \"pairs\": " +
         num(s.pairs) + ", \"rows\": " + num(s.rows) + ",\n";
  for (const char* key : {"rows_by_source", "pairs_by_source"}) {
    const uint64_t* counts = key[0] == 'r' ? s.rows_by_source : s.pairs_by_source;
    buf += std::string("    \"") + key + "\": {";
    for (int k = 0; k < 4; ++k) {
      buf += std::string(k ? ", " : "") + "\"" + EdgeSourceName(static_cast<EdgeSource>(k)) +
             "\": " + num(counts[k]);
    }
    buf += "},\n";
  }
  buf += "    \"depth\": " + num(s.depth) + ", \"width\": " + num(s.width) +
         ",\n    \"critical_path\": [";
  for (size_t i = 0; i < s.critical_path.size(); ++i) {
    const uint32_t node = s.critical_path[i];
    buf += std::string(i ? ", " : "") + "{\"task\": " + JsonId(graph.nodes[node]) +
           ", \"kernel\": " + JsonString(names.NodeKernel(node)) + "}";
    Flush(buf, out);
  }
  buf += "],\n    \"tasks_per_level\": [";
  for (size_t i = 0; i < s.tasks_per_level.size(); ++i) {
    buf += (i ? ", " : "") + num(s.tasks_per_level[i]);
    Flush(buf, out);
  }
  buf += "],\n    \"redundancy\": {\"structural\": " + num(s.redundant) +
         ", \"reduced_removes\": " + num(s.reduced_removes) + ", \"creator_retained\": " +
         num(s.creator_retained) + ", \"dataflow_removes\": " + num(s.dataflow_removes) +
         "}\n  },\n";
  const AccessModel& m = r.model;
  buf += "  \"access_model\": {\"byte_sets\": " + num(m.accesses.size()) +
         ", \"approximate\": " + num(m.approximate_count) + ", \"output_slots\": " +
         num(m.output_slots) + ", \"outputs_placed\": " + num(m.outputs_placed) +
         ", \"outputs_unobserved\": " + num(m.outputs_unobserved) + ", \"unknown\": [";
  for (size_t i = 0; i < m.unknown.size(); ++i) {
    const UnknownAccess& u = m.unknown[i];
    buf += std::string(i ? ", " : "") + "{\"task\": " + JsonId(graph.tasks[u.task].id) +
           ", \"arg\": " + std::to_string(u.arg_idx) + ", \"reason\": " +
           JsonString(UnknownReasonName(u.reason)) + "}";
    Flush(buf, out);
  }
  buf += "]},\n";

  const RaceReport& races = r.races;
  buf += "  \"races\": {\"total\": " + num(races.total) + ", \"RAW\": " + num(races.by_kind[0]) +
         ", \"WAW\": " + num(races.by_kind[1]) + ", \"WAR\": " + num(races.by_kind[2]) +
         ", \"approximate\": " + num(races.approximate) + ", \"truncated\": " +
         (races.truncated ? "true" : "false") + ", \"edges_against_submit_order\": " +
         num(races.edges_against_submit_order) + ",\n    \"reads_checked\": " +
         num(races.reads_checked) + ", \"reads_skipped\": " + num(races.reads_skipped) +
         ", \"writes_checked\": " + num(races.writes_checked) + ", \"fresh_outputs\": " +
         num(races.fresh_outputs) + ", \"allocation_resets\": " + num(races.allocation_resets) +
         ",\n    \"list\": [";
  for (size_t i = 0; i < races.races.size(); ++i) {
    const Race& race = races.races[i];
    auto side = [&](const RaceSide& x) {
      return task_ref(x.task) + ", \"arg\": " + std::to_string(x.arg_idx) + ", \"type\": " +
             JsonString(ArgTypeName(x.type)) + ", \"tensor\": " + JsonId(x.tensor_id) +
             ", \"tensor_name\": " + JsonString(names.Tensor(x.tensor_id)) +
             ", \"approximate\": " + (x.approximate ? "true" : "false") + "}";
    };
    const int64_t base = names.BufferAddr(race.first.tensor_id);
    buf += std::string(i ? "," : "") + "\n      {\"kind\": \"" + RaceKindName(race.kind) +
           "\", \"cause\": \"" + RaceCauseName(race.cause) + "\", \"approximate\": " +
           (race.approximate ? "true" : "false") + ",\n       \"first\": " + side(race.first) +
           ",\n       \"second\": " + side(race.second) + ",\n       \"bytes\": {\"begin\": " +
           JsonId(static_cast<uint64_t>(race.begin)) + ", \"end\": " +
           JsonId(static_cast<uint64_t>(race.end)) + ", \"offset\": " +
           std::to_string(race.begin - base) + ", \"count\": " + std::to_string(race.bytes) +
           "},\n       \"advice\": " + JsonString(RaceAdvice(graph, race)) + "}";
    Flush(buf, out);
  }
  buf += std::string(races.races.empty() ? "" : "\n    ") + "]},\n";

  const SerializationReport& fs = r.serialization;
  buf += "  \"false_serialization\": {\"candidates\": " + num(fs.candidates) +
         ", \"false_pairs\": " + num(fs.false_pairs) + ", \"undecided\": " +
         num(fs.undecided) + ", \"depth\": " + num(fs.depth) + ", \"depth_without_false\": " +
         num(fs.depth_without_false) + ", \"gains_not_computed\": " +
         num(fs.gains_not_computed) + ",\n    \"findings\": [";
  for (size_t i = 0; i < fs.findings.size(); ++i) {
    const FalseSerialization& f = fs.findings[i];
    buf += std::string(i ? "," : "") + "\n      {\"tasks\": [";
    for (size_t k = 0; k < f.tasks.size(); ++k) {
      buf += std::string(k ? ", " : "") + "{\"task\": " + JsonId(graph.nodes[f.tasks[k]]) +
             ", \"kernel\": " + JsonString(names.NodeKernel(f.tasks[k])) + "}";
    }
    buf += "],\n       \"edges\": [";
    for (size_t k = 0; k < f.pairs.size(); ++k) {
      const Pair& pair = graph.pairs[f.pairs[k]];
      buf += std::string(k ? ", " : "") + "{\"pred\": " + JsonId(graph.nodes[pair.pred]) +
             ", \"succ\": " + JsonId(graph.nodes[pair.succ]) + "}";
    }
    buf += "],\n       \"cause\": \"" + std::string(SerializationCauseName(f.cause)) +
           "\", \"overlap\": " + JsonString(graph.overlap_names[f.overlap]) + ", \"tensor\": " +
           JsonId(f.tensor_id) + ", \"tensor_name\": " + JsonString(names.Tensor(f.tensor_id)) +
           ", \"arg\": " + std::to_string(f.consumer_arg) + ", \"accumulator\": " +
           (f.accumulator ? "true" : "false") + ", \"depth_gain\": " +
           (f.depth_gain < 0 ? std::string("null") : std::to_string(f.depth_gain)) +
           ",\n       \"advice\": " + JsonString(SerializationAdvice(graph, f)) + "}";
    Flush(buf, out);
  }
  buf += std::string(fs.findings.empty() ? "" : "\n    ") + "]},\n";
  const ReachabilityStats& q = r.reach_stats;
  buf += "  \"reachability\": {\"queries\": " + num(q.queries) + ", \"by_label\": " +
         num(q.by_label) + ", \"by_edge\": " + num(q.by_edge) + ", \"by_chain\": " +
         num(q.by_chain) + ", \"by_search\": " + num(q.by_search) + ", \"searched_nodes\": " +
         num(q.searched_nodes) + "},\n";
  buf += "  \"exit_code\": " + std::to_string(AuditExitCode(r)) + "\n}\n";
  Flush(buf, out, true);
}

}  // namespace depgraph
