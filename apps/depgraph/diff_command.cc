#include "diff_command.h"

#include <CLI/CLI.hpp>

#include "cli_inputs.h"
#include "cli_output.h"
#include "depgraph/audit/diff_gate.h"
#include "depgraph/audit/diff_report.h"
#include "depgraph/audit/graph_diff.h"
#include "depgraph/graph/task_label.h"

namespace depgraph {

CLI::App* AddDiffCommand(CLI::App* app, DiffArgs* args) {
  CLI::App* cmd = app->add_subcommand(
      "diff", "Edges and orderings of A that B loses or adds. Exit 0: none lost, 3: B loses "
              "an ordering of A, 1: bad input.");
  cmd->add_option("a_json", args->a, "reference graph A")->required();
  cmd->add_option("b_json", args->b, "graph B")->required();
  cmd->add_flag("--closure", args->closure,
                "also compare reachability (every ordered pair), not only edges");
  cmd->add_flag("--by-order", args->by_order, "match tasks by submit order instead of by id");
  AddGateFlags(cmd, &args->gate, "schema depgraph-diff/1");
  cmd->add_option("--func-names-a", args->func_names_a,
                  "name map of A (default: the newest name_map*.json beside A)");
  cmd->add_option("--func-names-b", args->func_names_b,
                  "name map of B (default: the newest name_map*.json beside B)");
  cmd->add_option("-o,--output", args->output, "write the report here (atomically)");
  AddThreadsOption(cmd, &args->threads);
  return cmd;
}

int RunDiffCommand(const DiffArgs& args, std::ostream& out, std::ostream& err) {
  const std::vector<std::string> inputs{args.a, args.b, NamesPathFor(args.a, args.func_names_a),
                                        NamesPathFor(args.b, args.func_names_b)};
  if (!OutputIsNotAnInputOrReport(args.output, inputs, err) ||
      !OutputIsNotAnInputOrReport(args.gate.summary, inputs, err)) {
    return 1;
  }
  DepGraph a, b;
  // The diff and its findings read ids, edges, arguments and tensors, never a view.
  if (!LoadGraphOrReport(args.a, &a, err, args.threads, ViewUse::kSkip) ||
      !LoadGraphOrReport(args.b, &b, err, args.threads, ViewUse::kSkip)) {
    return 1;
  }
  for (const auto& [graph, path] : {std::pair{&a, &args.a}, std::pair{&b, &args.b}}) {
    if (CaptureIsEmpty(*graph) && !args.gate.allow_empty) {
      err << "error: " << *path << ": the capture has no tasks, so the diff would check "
          << "nothing (--allow-empty to pass anyway)\n";
      return 1;
    }
  }
  NameMap names_a, names_b;
  if (!LoadNamesOrReport(args.a, args.func_names_a, &names_a, err) ||
      !LoadNamesOrReport(args.b, args.func_names_b, &names_b, err)) {
    return 1;
  }
  DiffOptions options;
  options.by_order = args.by_order;
  options.closure = args.closure;
  options.threads = args.threads;
  GraphDiff diff;
  std::string error;
  if (!DiffGraphs(a, b, options, args.a, args.b, &diff, &error)) {
    err << "error: " << error << "\n";
    return 1;
  }
  // Ids differ between runs with other rings or scopes: when no edge of A could be compared
  // by id, match by submit order (saying so) rather than report on nothing.
  if (!options.by_order && diff.pairs_a > 0 && diff.edges_unmatched_a == diff.pairs_a) {
    err << "note: no edge of A has both ends among B's task ids (" << diff.matched << " of "
        << diff.tasks_a << " tasks match by id: other rings or scopes?); matching tasks by "
        << "submit order instead (--by-order)\n";
    options.by_order = true;
    diff = GraphDiff{};
    if (!DiffGraphs(a, b, options, args.a, args.b, &diff, &error)) {
      err << "error: " << error << "\n";
      return 1;
    }
  }
  if (diff.pairs_a > 0 && diff.edges_unmatched_a == diff.pairs_a) {
    err << "error: " << args.a << " and " << args.b << " share no comparable edge: all "
        << diff.pairs_a << " edges of A touch a task B lacks (" << diff.matched << " of "
        << diff.tasks_a << " tasks matched by " << (options.by_order ? "submit order" : "id")
        << ")\n";
    return 1;
  }
  DiffReportInput input{a, b, diff, options, args.a, args.b};
  const std::vector<TaskLabel> labels_a = ResolveTaskLabels(a, names_a);
  const std::vector<TaskLabel> labels_b = ResolveTaskLabels(b, names_b);
  const GateReport gate =
      DiffGateReport(DiffGateInput{input, labels_a, labels_b, args.gate.Options()});
  input.gate = &gate;
  WarnCoverageGaps(gate, args.a + " vs " + args.b, err);
  const std::string format = args.gate.Format();
  const bool ok = EmitReport(args.output, out, err, [&](std::ostream& stream) {
    if (format == "json") {
      WriteDiffJson(input, stream);
    } else if (args.gate.CiFormat()) {
      WriteGateCiFormat(format, gate, stream);
    } else {
      WriteDiffText(input, stream);
    }
  });
  if (!ok || !WriteGateStepSummary(args.gate, gate, out, err)) return 1;
  const int code = gate.exit_code;
  if (!args.output.empty()) {
    out << "Wrote " << args.output << " (" << diff.orderings_lost.size()
        << " ordering(s) lost, " << diff.orderings_added.size() << " added, exit " << code
        << ")\n";
  }
  return code;
}

}  // namespace depgraph
