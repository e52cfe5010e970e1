#include "derive_command.h"

#include <map>
#include <optional>

#include "depgraph/support/atomic_file.h"
#include "depgraph/support/input_file.h"
#include "depgraph_orchestration/check_gate.h"
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
  if (runtime_graph.tasks.empty() && !args.gate.allow_empty) {
    err << "error: " << args.input << ": the program submits no task, so the check would "
        << "compare nothing (--allow-empty to pass anyway)\n";
    return 1;
  }
  std::map<int32_t, std::string> names;
  for (const auto& [id, name] : DepirKernelNames(original)) names[id] = name;
  const GateReport gate = CheckGateReport(check, names, args.input, args.gate.Options());
  WarnCoverageGaps(gate, args.input, err);
  if (args.gate.CiFormat()) {
    WriteGateCiFormat(args.gate.Format(), gate, out);
    out.flush();
  }
  if (!WriteGateStepSummary(args.gate, gate, out, err)) return 1;
  if (args.gate.CiFormat()) return gate.exit_code;

  out << "depgraph check of " << args.input << (args.sound ? " (--sound)" : "") << "\n";
  out << "runtime graph: " << runtime_graph.tasks.size() << " tasks, "
      << runtime_graph.pairs.size() << " pairs; compiled graph: " << compiled_graph.tasks.size()
      << " tasks, " << compiled_graph.pairs.size() << " pairs\n";
  for (const std::string& gap : gate.coverage_gaps) out << "warning: " << gap << "\n";
  for (const auto& [key, count] : check.dropped_edges) {
    const auto& [function, kernel, edge] = key;
    out << "note: compiler edge [" << edge << "] of " << kernel << " in " << function
        << " is not visible there (its TaskId is defined in a closed block or did not run), so "
           "generated code drops it"
        << (count > 1 ? " (" + std::to_string(count) + " calls)" : std::string()) << "\n";
  }
  // One verdict line per finding, rule by rule, each rule's list cut at --max-findings.
  auto print_rule = [&](const char* rule_id, const char* kind) {
    FindingPrinter printer(out, args.max_findings, kind);
    for (const GateFinding& f : gate.findings) {
      if (gate.rules[f.rule].id != rule_id) continue;
      if (std::ostream* line = printer.Next()) *line << VerdictLine(f) << "\n";
    }
    return printer.Finish();
  };
  const size_t lost = print_rule("DG201", "ordering(s) lost");
  const size_t retention_lost = print_rule("DG301", "buffer retention(s) lost");
  const size_t hazards = print_rule("DG302", "hazard(s) left unordered");
  print_rule("DG202", "edge(s) added");
  print_rule("DG203", "edge(s) added as a fix");
  out << "summary: " << gate.summary << "\n";
  const size_t failures = lost + retention_lost + hazards;
  out << "result: " << lost << " ordering(s) lost, " << retention_lost
      << " buffer retention(s) lost, " << hazards << " hazard(s) left unordered"
      << (gate.exit_code != 0 ? " -- FAIL" : " -- ok")
      << (gate.exit_code != 0 && failures == 0 ? " (--warnings-as-errors or --strict)" : "")
      << "\n";
  return gate.exit_code;
}

}  // namespace depgraph
