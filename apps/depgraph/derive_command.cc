#include "derive_command.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <tuple>

#include "depgraph/atomic_file.h"
#include "depgraph/audit.h"
#include "depgraph/graph_diff.h"
#include "depgraph/input_file.h"
#include "depgraph/load_deps.h"
#include "depgraph/race_audit.h"
#include "depgraph_passes/auto_derive_task_dependencies.h"
#include "depgraph_passes/depir_parser.h"
#include "depgraph_passes/ssa_form.h"
#include "depgraph_passes/depir_printer.h"
#include "depgraph_passes/materialize_runtime_scopes.h"
#include "buffer_retention.h"
#include "depgraph_shim/shim_runtime.h"
#include "depir_interpreter.h"
#include "run_command.h"

namespace depgraph {

namespace {

// Runs the pass (and MaterializeRuntimeScopes) over `program` in place.
void Derive(passes::Program* program, bool analyze, bool materialize, bool sound,
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

// Interprets `program` on a fresh shim and loads the captured deps.json.
bool Capture(const passes::Program& program, const DepirRunOptions& options,
             const std::string& label, DepGraph* graph, DepirRunTrace* trace, std::string* err) {
  shim::ShimRuntime runtime{shim::ShimConfig{}};
  if (!RunDepirOnShim(program, options, &runtime, err, trace)) return false;
  std::ostringstream text;
  if (!runtime.WriteDepsJson(text)) {
    *err = label + ": could not write deps.json";
    return false;
  }
  return LoadDepsJsonText(text.str(), label, graph, err);
}

// The kernel submits of a captured run, and how many of them ran in a MANUAL scope.
struct ManualCount {
  size_t kernel_submits = 0;
  size_t manual = 0;
};

ManualCount CountManualSubmits(const DepGraph& graph) {
  ManualCount count;
  for (const Task& task : graph.tasks) {
    if (!task.HasActiveKernel()) continue;
    ++count.kernel_submits;
    if (task.manual_scope) ++count.manual;
  }
  return count;
}

// `check --manual-stats`: the compiled runs of the reference and the sound pass, counted.
int PrintManualStats(const CheckArgs& args, const passes::Program& original,
                     const DepirRunOptions& options, std::ostream& out, std::ostream& err) {
  std::string error;
  DepGraph graph;
  DepirRunTrace trace;
  if (!Capture(original, options, args.input + " (runtime)", &graph, &trace, &error)) {
    err << "error: " << error << "\n";
    return 1;
  }
  const size_t kernel_submits = CountManualSubmits(graph).kernel_submits;
  out << "manual kernel submits:";
  for (bool sound : {false, true}) {
    passes::Program compiled = original;
    Derive(&compiled, /*analyze=*/true, /*materialize=*/true, sound, nullptr);
    DepGraph compiled_graph;
    DepirRunTrace compiled_trace;
    out << (sound ? ", sound " : " reference ");
    if (Capture(compiled, options, args.input + " (compiled)", &compiled_graph, &compiled_trace,
                &error)) {
      out << CountManualSubmits(compiled_graph).manual;
    } else {
      out << "failed";
    }
  }
  out << " of " << kernel_submits << " kernel submits -- " << args.input << "\n";
  out.flush();
  return 0;
}

// "fill" for a task index, from its first active kernel slot.
std::string KernelName(const DepGraph& graph, const std::map<int32_t, std::string>& names,
                       uint32_t task_index) {
  const Task& task = graph.tasks[task_index];
  for (int64_t id : task.kernel_ids) {
    if (id < 0) continue;
    auto it = names.find(static_cast<int32_t>(id));
    return it == names.end() ? "f" + std::to_string(id) : it->second;
  }
  return "dummy";
}

// Index in tasks[] of the task with `id`, or nullopt (an allocation). O(log tasks).
std::optional<uint32_t> TaskIndex(const DepGraph& graph, TaskId id) {
  const Task* task = graph.FindTask(id);
  if (task == nullptr) return std::nullopt;
  return static_cast<uint32_t>(task - graph.tasks.data());
}

std::string KernelOfId(const DepGraph& graph, const std::map<int32_t, std::string>& names,
                       TaskId id) {
  const std::optional<uint32_t> t = TaskIndex(graph, id);
  return t ? KernelName(graph, names, *t) : "alloc";
}

// Prints findings of one kind up to a limit (0 = no limit), then how many it left out.
class FindingPrinter {
 public:
  FindingPrinter(std::ostream& out, size_t limit, const char* kind)
      : out_(out), limit_(limit), kind_(kind) {}
  /// The stream to write the next finding to, or nullptr when past the limit (count it only).
  std::ostream* Next() {
    ++count_;
    return limit_ == 0 || count_ <= limit_ ? &out_ : nullptr;
  }
  /// Writes the "... more" line if findings were left out; returns the count.
  size_t Finish() {
    if (limit_ != 0 && count_ > limit_) {
      out_ << "... " << count_ - limit_ << " more " << kind_ << " (--max-findings 0 lists all)\n";
    }
    return count_;
  }

 private:
  std::ostream& out_;
  size_t limit_;
  const char* kind_;
  size_t count_ = 0;
};

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

int RunDeriveCommand(const DeriveArgs& args, std::ostream& out, std::ostream& err) {
  passes::Program program;
  std::string error;
  if (!args.output.empty() && !CheckOutputIsNotAnInput(args.output, {args.input}, &error)) {
    err << "error: " << error << "\n";
    return 1;
  }
  if (!passes::ParseDepirFile(args.input, &program, &error)) {
    err << "error: " << error << "\n";
    return 1;
  }
  passes::ConvertToSsa(&program);  // the pass reads the names as the program runs them
  std::string log;
  Derive(&program, args.analyze, args.materialize, args.sound, args.debug_log ? &log : nullptr);
  if (args.debug_log) err << log;
  const std::string text = passes::PrintDepir(program);
  if (args.output.empty()) {
    out << text;
    return 0;
  }
  AtomicFile file;
  if (!file.Open(args.output, &error)) {
    err << "error: " << error << "\n";
    return 1;
  }
  file.stream() << text;
  if (!file.Commit(&error)) {
    err << "error: " << error << "\n";
    return 1;
  }
  return 0;
}

int RunCheckCommand(const CheckArgs& args, std::ostream& out, std::ostream& err) {
  DepirRunOptions options;
  passes::Program original;
  if (int code = PrepareDepirRun(args.input, args.entry, args.sets, &options, &original, err)) {
    return code;
  }
  if (args.manual_stats) return PrintManualStats(args, original, options, out, err);
  std::string error;
  passes::Program compiled = original;
  Derive(&compiled, /*analyze=*/true, /*materialize=*/true, args.sound, nullptr);

  DepGraph runtime_graph, compiled_graph;
  DepirRunTrace runtime_trace, compiled_trace;
  if (!Capture(original, options, args.input + " (runtime)", &runtime_graph, &runtime_trace,
               &error)) {
    err << "error: " << error << "\n";  // the user's program fails on its own
    return 1;
  }
  if (!Capture(compiled, options, args.input + " (compiled)", &compiled_graph, &compiled_trace,
               &error)) {
    // The original runs and the pass's output does not: a pass bug, and a failed check.
    out << "result: the compiled program fails where the original runs (a pass bug; see `depgraph "
           "derive "
        << args.input << " --analyze --materialize" << (args.sound ? " --sound" : "")
        << "`): " << error << " -- FAIL\n";
    out.flush();
    return 3;
  }
  std::map<int32_t, std::string> names;
  for (const auto& [id, name] : DepirKernelNames(original)) names[id] = name;

  // Orderings: tasks are the same submits in the same order; scopes (and so ring ids) may
  // differ, hence matching by submit order.
  DiffOptions diff_options;
  diff_options.by_order = true;
  GraphDiff diff;
  if (!DiffGraphs(runtime_graph, compiled_graph, diff_options, "runtime", "compiled", &diff,
                  &error)) {
    err << "error: " << args.input << ": " << error << "\n";
    return 1;
  }
  // Hazards: races of the compiled graph that the runtime graph does not have.
  AuditResult runtime_audit, compiled_audit;
  if (!RunAudit(runtime_graph, AuditOptions{}, &runtime_audit, &error) ||
      !RunAudit(compiled_graph, AuditOptions{}, &compiled_audit, &error)) {
    err << "error: " << args.input << ": " << error << "\n";
    return 1;
  }
  // By task pair only: a rewrite (InOut -> OutputExisting) can turn the runtime's RAW race of a
  // pair into a WAW one without adding a hazard.
  std::set<std::pair<uint32_t, uint32_t>> runtime_races;
  for (const Race& race : runtime_audit.races.races) {
    runtime_races.insert({race.first.task, race.second.task});
  }

  out << "depgraph check of " << args.input << (args.sound ? " (--sound)" : "") << "\n";
  out << "runtime graph: " << runtime_graph.tasks.size() << " tasks, "
      << runtime_graph.pairs.size() << " pairs; compiled graph: " << compiled_graph.tasks.size()
      << " tasks, " << compiled_graph.pairs.size() << " pairs\n";
  if (runtime_graph.tasks.size() != compiled_graph.tasks.size() ||
      runtime_trace.creates.size() != compiled_trace.creates.size()) {
    out << "warning: the two runs submitted different work (" << runtime_graph.tasks.size()
        << " tasks and " << runtime_trace.creates.size() << " created tensors vs "
        << compiled_graph.tasks.size() << " and " << compiled_trace.creates.size() << ")\n";
  }
  // Compiler edges codegen cannot name at their call (spec §3.4): the run leaves them out, as
  // generated code does; any ordering that costs shows up below.
  std::map<std::tuple<std::string, std::string, std::string>, size_t> dropped;
  for (const DroppedEdge& d : compiled_trace.dropped_edges) ++dropped[{d.function, d.kernel, d.edge}];
  for (const auto& [key, count] : dropped) {
    const auto& [function, kernel, edge] = key;
    out << "note: compiler edge [" << edge << "] of " << kernel << " in " << function
        << " is not visible there (its TaskId is defined in a closed block or did not run), so "
           "generated code drops it"
        << (count > 1 ? " (" + std::to_string(count) + " calls)" : std::string()) << "\n";
  }
  const bool rings = runtime_graph.UsesRings() || compiled_graph.UsesRings();
  FindingPrinter lost_orderings(out, args.max_findings, "ordering(s) lost");
  for (const DiffPair& pair : diff.orderings_lost) {
    // Orderings from allocations carry only buffer lifetime; they are judged below per created
    // tensor (matched by execution order, not by scope-dependent ids and batching).
    if (pair.pred_is_alloc) continue;
    std::ostream* line = lost_orderings.Next();
    if (line == nullptr) continue;
    *line << "ordering lost: " << FormatTaskId(pair.a_pred, rings) << " "
          << KernelOfId(runtime_graph, names, pair.a_pred) << " -> "
          << FormatTaskId(pair.a_succ, rings) << " " << KernelOfId(runtime_graph, names, pair.a_succ);
    if (auto range = ConflictRange(runtime_graph, runtime_audit.model, pair.a_pred, pair.a_succ)) {
      *line << ", bytes [0x" << std::hex << range->begin << ", 0x" << range->end << std::dec << ")";
    }
    *line << " (runtime orders them; the compiled program does not)\n";
  }
  const size_t lost = lost_orderings.Finish();
  FindingPrinter lost_retentions(out, args.max_findings, "buffer retention(s) lost");
  for (const LostRetention& r : CompareBufferRetention(runtime_graph, runtime_trace.creates,
                                                       compiled_graph, compiled_trace.creates)) {
    std::ostream* line = lost_retentions.Next();
    if (line == nullptr) continue;
    *line << "retention lost: alloc " << FormatTaskId(r.ref_allocation, rings) << " (create #"
          << r.create + 1 << ") -> " << FormatTaskId(r.ref_user, rings) << " "
          << KernelName(runtime_graph, names, r.user_task)
          << " (the runtime keeps the buffer alive until this task ends; in the compiled program "
             "nothing does, so it may be reclaimed while the task runs)\n";
  }
  const size_t retention_lost = lost_retentions.Finish();
  FindingPrinter new_hazards(out, args.max_findings, "hazard(s) left unordered");
  for (const Race& race : compiled_audit.races.races) {
    if (runtime_races.count({race.first.task, race.second.task})) {
      continue;
    }
    std::ostream* line = new_hazards.Next();
    if (line == nullptr) continue;
    *line << "hazard left unordered: " << RaceKindName(race.kind) << " "
          << FormatTaskId(compiled_graph.tasks[race.first.task].id, rings) << " "
          << KernelName(compiled_graph, names, race.first.task) << " arg" << race.first.arg_idx
          << " / " << FormatTaskId(compiled_graph.tasks[race.second.task].id, rings) << " "
          << KernelName(compiled_graph, names, race.second.task) << " arg"
          << race.second.arg_idx << ", bytes [0x" << std::hex << race.begin << ", 0x" << race.end
          << std::dec << ")" << (race.approximate ? " (approximate)" : "") << "\n";
  }
  const size_t hazards = new_hazards.Finish();
  const size_t failures = lost + retention_lost + hazards;
  out << "result: " << lost << " ordering(s) lost, " << retention_lost
      << " buffer retention(s) lost, " << hazards << " hazard(s) left unordered"
      << (failures ? " -- FAIL\n" : " -- ok\n");
  return failures ? 3 : 0;
}

}  // namespace depgraph
