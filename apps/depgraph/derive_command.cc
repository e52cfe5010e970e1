#include "derive_command.h"

#include <map>
#include <optional>

#include "depgraph/audit/race_audit.h"
#include "depgraph/support/atomic_file.h"
#include "depgraph/support/input_file.h"
#include "depgraph_orchestration/compile_check.h"
#include "depgraph_passes/depir_parser.h"
#include "depgraph_passes/depir_printer.h"
#include "depgraph_passes/ssa_form.h"
#include "run_command.h"

namespace depgraph {

namespace {

// `check --manual-stats`: the compiled runs of the reference and the sound pass, counted.
int PrintManualStats(const CheckArgs& args, const passes::Program& original,
                     const DepirRunOptions& options, std::ostream& out, std::ostream& err) {
  std::string error;
  DepGraph graph;
  DepirRunTrace trace;
  if (!CaptureDepirRun(original, options, args.input + " (runtime)", &graph, &trace, &error)) {
    err << "error: " << error << "\n";
    return 1;
  }
  const size_t kernel_submits = CountManualSubmits(graph).kernel_submits;
  out << "manual kernel submits:";
  for (bool sound : {false, true}) {
    passes::Program compiled = original;
    DeriveProgram(&compiled, /*analyze=*/true, /*materialize=*/true, sound, nullptr);
    DepGraph compiled_graph;
    DepirRunTrace compiled_trace;
    out << (sound ? ", sound " : " reference ");
    if (CaptureDepirRun(compiled, options, args.input + " (compiled)", &compiled_graph,
                        &compiled_trace, &error)) {
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

// KernelName of the task with `id`, or "alloc" (not in tasks[]). O(log tasks).
std::string KernelOfId(const DepGraph& graph, const std::map<int32_t, std::string>& names,
                       TaskId id) {
  const Task* task = graph.FindTask(id);
  return task ? KernelName(graph, names, static_cast<uint32_t>(task - graph.tasks.data()))
              : "alloc";
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
  DeriveProgram(&program, args.analyze, args.materialize, args.sound,
                args.debug_log ? &log : nullptr);
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
  CompileCheck check;
  switch (CheckCompiledProgram(original, options, args.sound, args.input, &check, &error)) {
    case CompileCheckStatus::kCompared:
      break;
    case CompileCheckStatus::kOriginalFailed:
    case CompileCheckStatus::kError:
      err << "error: " << error << "\n";  // the user's program fails on its own
      return 1;
    case CompileCheckStatus::kCompiledFailed:
      // The original runs and the pass's output does not: a pass bug, and a failed check.
      out << "result: the compiled program fails where the original runs (a pass bug; see "
             "`depgraph derive "
          << args.input << " --analyze --materialize" << (args.sound ? " --sound" : "")
          << "`): " << error << " -- FAIL\n";
      out.flush();
      return 3;
  }
  const DepGraph& runtime_graph = check.runtime_graph;
  const DepGraph& compiled_graph = check.compiled_graph;
  std::map<int32_t, std::string> names;
  for (const auto& [id, name] : DepirKernelNames(original)) names[id] = name;

  out << "depgraph check of " << args.input << (args.sound ? " (--sound)" : "") << "\n";
  out << "runtime graph: " << runtime_graph.tasks.size() << " tasks, "
      << runtime_graph.pairs.size() << " pairs; compiled graph: " << compiled_graph.tasks.size()
      << " tasks, " << compiled_graph.pairs.size() << " pairs\n";
  if (runtime_graph.tasks.size() != compiled_graph.tasks.size() ||
      check.runtime_trace.creates.size() != check.compiled_trace.creates.size()) {
    out << "warning: the two runs submitted different work (" << runtime_graph.tasks.size()
        << " tasks and " << check.runtime_trace.creates.size() << " created tensors vs "
        << compiled_graph.tasks.size() << " and " << check.compiled_trace.creates.size()
        << ")\n";
  }
  for (const auto& [key, count] : check.dropped_edges) {
    const auto& [function, kernel, edge] = key;
    out << "note: compiler edge [" << edge << "] of " << kernel << " in " << function
        << " is not visible there (its TaskId is defined in a closed block or did not run), so "
           "generated code drops it"
        << (count > 1 ? " (" + std::to_string(count) + " calls)" : std::string()) << "\n";
  }
  const bool rings = runtime_graph.UsesRings() || compiled_graph.UsesRings();
  FindingPrinter lost_orderings(out, args.max_findings, "ordering(s) lost");
  for (const LostOrdering& lost_ordering : check.lost_orderings) {
    const DiffPair& pair = lost_ordering.pair;
    std::ostream* line = lost_orderings.Next();
    if (line == nullptr) continue;
    *line << "ordering lost: " << FormatTaskId(pair.a_pred, rings) << " "
          << KernelOfId(runtime_graph, names, pair.a_pred) << " -> "
          << FormatTaskId(pair.a_succ, rings) << " " << KernelOfId(runtime_graph, names, pair.a_succ);
    if (const std::optional<ByteInterval>& range = lost_ordering.conflict) {
      *line << ", bytes [0x" << std::hex << range->begin << ", 0x" << range->end << std::dec << ")";
    }
    *line << " (runtime orders them; the compiled program does not)\n";
  }
  const size_t lost = lost_orderings.Finish();
  FindingPrinter lost_retentions(out, args.max_findings, "buffer retention(s) lost");
  for (const LostRetention& r : check.lost_retentions) {
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
  for (size_t index : check.new_hazards) {
    const Race& race = check.compiled_audit.races.races[index];
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
