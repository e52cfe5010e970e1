#include "depgraph_orchestration/compile_check.h"

#include <algorithm>
#include <set>
#include <sstream>
#include <utility>

#include "depgraph/audit/race_audit.h"
#include "depgraph/graph/load_deps.h"
#include "depgraph_passes/auto_derive_task_dependencies.h"
#include "depgraph_passes/materialize_runtime_scopes.h"
#include "depgraph_shim/shim_runtime.h"

namespace depgraph {

void DeriveProgram(passes::Program* program, bool analyze, bool materialize, bool sound,
                   std::string* debug_log) {
  passes::AutoDeriveOptions options;
  options.analyze_auto_scopes = analyze;
  options.debug_log = debug_log != nullptr;
  options.sound = sound;
  passes::AutoDeriveReport report;
  passes::AutoDeriveTaskDependencies(program, options, &report);
  if (materialize) passes::MaterializeRuntimeScopes(program);
  if (debug_log) *debug_log = report.debug_log;
}

bool CaptureDepirRun(const passes::Program& program, const DepirRunOptions& options,
                     const std::string& label, DepGraph* graph, DepirRunTrace* trace,
                     std::string* err) {
  shim::ShimRuntime runtime{shim::ShimConfig{}};
  if (!RunDepirOnShim(program, options, &runtime, err, trace)) return false;
  std::ostringstream text;
  if (!runtime.WriteDepsJson(text)) {
    *err = label + ": could not write deps.json";
    return false;
  }
  return LoadDepsJsonText(text.str(), label, graph, err);
}

ManualSubmitCount CountManualSubmits(const DepGraph& graph) {
  ManualSubmitCount count;
  for (const Task& task : graph.tasks) {
    if (!task.HasActiveKernel()) continue;
    ++count.kernel_submits;
    if (task.manual_scope) ++count.manual;
  }
  return count;
}

namespace {

// Index in tasks[] of the task with `id`, or nullopt (an allocation). O(log tasks).
std::optional<uint32_t> TaskIndex(const DepGraph& graph, TaskId id) {
  const Task* task = graph.FindTask(id);
  if (task == nullptr) return std::nullopt;
  return static_cast<uint32_t>(task - graph.tasks.data());
}

// The first byte range where task `pred` and task `succ` of `graph` conflict (one of the two
// writes it), by the bounds of their accesses in `model`; nullopt when none does (an explicit
// or creator ordering with no byte hazard). O(accesses of the two tasks squared).
std::optional<ByteInterval> ConflictRange(const DepGraph& graph, const AccessModel& model,
                                          TaskId pred, TaskId succ) {
  const std::optional<uint32_t> p = TaskIndex(graph, pred), q = TaskIndex(graph, succ);
  if (!p || !q) return std::nullopt;
  for (const Access& x : model.TaskAccesses(*p)) {
    for (const Access& y : model.TaskAccesses(*q)) {
      if (!x.writes && !y.writes) continue;
      const int64_t begin = std::max(x.bounds.begin, y.bounds.begin);
      const int64_t end = std::min(x.bounds.end, y.bounds.end);
      if (begin < end) return ByteInterval{begin, end};
    }
  }
  return std::nullopt;
}

}  // namespace

CompileCheckStatus CheckCompiledProgram(const passes::Program& original,
                                        const DepirRunOptions& options, bool sound,
                                        const std::string& label, CompileCheck* check,
                                        std::string* err) {
  passes::Program compiled = original;
  DeriveProgram(&compiled, /*analyze=*/true, /*materialize=*/true, sound, nullptr);
  if (!CaptureDepirRun(original, options, label + " (runtime)", &check->runtime_graph,
                       &check->runtime_trace, err)) {
    return CompileCheckStatus::kOriginalFailed;
  }
  if (!CaptureDepirRun(compiled, options, label + " (compiled)", &check->compiled_graph,
                       &check->compiled_trace, err)) {
    return CompileCheckStatus::kCompiledFailed;
  }
  // Orderings: tasks are the same submits in the same order; scopes (and so ring ids) may
  // differ, hence matching by submit order.
  DiffOptions diff_options;
  diff_options.by_order = true;
  GraphDiff& diff = check->diff;
  if (!DiffGraphs(check->runtime_graph, check->compiled_graph, diff_options, "runtime",
                  "compiled", &diff, err) ||
      !RunAudit(check->runtime_graph, AuditOptions{}, &check->runtime_audit, err) ||
      !RunAudit(check->compiled_graph, AuditOptions{}, &check->compiled_audit, err)) {
    *err = label + ": " + *err;
    return CompileCheckStatus::kError;
  }
  // Compiler edges codegen cannot name at their call (spec §3.4): the run leaves them out, as
  // generated code does; any ordering that costs shows up below.
  for (const DroppedEdge& d : check->compiled_trace.dropped_edges) {
    ++check->dropped_edges[{d.function, d.kernel, d.edge}];
  }
  for (const DiffPair& pair : diff.orderings_lost) {
    // Orderings from allocations carry only buffer lifetime; they are judged per created
    // tensor (matched by execution order, not by scope-dependent ids and batching).
    if (pair.pred_is_alloc) continue;
    check->lost_orderings.push_back(
        {pair, ConflictRange(check->runtime_graph, check->runtime_audit.model, pair.a_pred,
                             pair.a_succ)});
  }
  check->lost_retentions =
      CompareBufferRetention(check->runtime_graph, check->runtime_trace.creates,
                             check->compiled_graph, check->compiled_trace.creates);
  // Hazards by task pair only: a rewrite (InOut -> OutputExisting) can turn the runtime's RAW
  // race of a pair into a WAW one without adding a hazard.
  for (const Race& race : check->runtime_audit.races.races) {
    check->runtime_race_pairs.insert({race.first.task, race.second.task});
  }
  const std::vector<Race>& races = check->compiled_audit.races.races;
  for (size_t i = 0; i < races.size(); ++i) {
    if (!check->runtime_race_pairs.count({races[i].first.task, races[i].second.task})) {
      check->new_hazards.push_back(i);
    }
  }
  return CompileCheckStatus::kCompared;
}

}  // namespace depgraph
