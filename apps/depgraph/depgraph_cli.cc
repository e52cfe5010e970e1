#include "depgraph_cli.h"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <filesystem>

#include "depgraph/audit/audit.h"
#include "depgraph/audit/audit_report.h"
#include "depgraph/audit/diff_report.h"
#include "depgraph/audit/graph_diff.h"
#include "depgraph/graph/load_deps.h"
#include "depgraph/graph/name_map.h"
#include "depgraph/graph/task_label.h"
#include "depgraph/support/atomic_file.h"
#include "depgraph/support/input_file.h"
#include "cli_inputs.h"
#include "cli_usage.h"
#include "critical_path_command.h"
#include "derive_command.h"
#include "query_command.h"
#include "run_command.h"
#include "simulate_command.h"
#include "sched_overhead_command.h"
#include "swimlane_command.h"
#include "overlap_command.h"
#include "wait_sim_command.h"

namespace depgraph {

namespace {

struct AuditArgs {
  std::string input;
  std::string output;
  std::string func_names;
  bool json = false;
  size_t max_findings = 20;
  unsigned threads = 0;
};

struct DiffArgs {
  std::string a;
  std::string b;
  std::string output;
  bool json = false;
  bool closure = false;
  bool by_order = false;
  unsigned threads = 0;
};

// Writes `render`'s output to stdout or, atomically, to `path`.
template <typename Render>
bool Emit(const std::string& path, std::ostream& out, std::ostream& err, Render&& render) {
  if (path.empty()) {
    render(out);
    out.flush();
    return true;
  }
  AtomicFile file;
  std::string error;
  if (!file.Open(path, &error)) {
    err << "error: " << error << "\n";
    return false;
  }
  render(file.stream());
  if (!file.Commit(&error)) {
    err << "error: " << error << "\n";
    return false;
  }
  return true;
}

// False after `error: <output>: is the input file ...` when `output` (if any) is one of `inputs`.
bool OutputIsNotAnInputOrReport(const std::string& output, const std::vector<std::string>& inputs,
                                std::ostream& err) {
  std::string error;
  if (output.empty() || CheckOutputIsNotAnInput(output, inputs, &error)) return true;
  err << "error: " << error << "\n";
  return false;
}

// The `--func-names` option of the subcommands that name kernels (audit, query).
void AddFuncNamesOption(CLI::App* cmd, std::string* target) {
  cmd->add_option("--func-names", *target,
                  "name_map*.json with kernel names (default: newest sibling name_map*.json)");
}

// The `--threads N` option of the subcommands that load deps.json (audit, diff, query).
void AddThreadsOption(CLI::App* cmd, unsigned* target) {
  cmd->add_option("--threads", *target,
                  "threads that load and analyse the input (default 0: every core); results are "
                  "the same for any N")
      ->check(CLI::Range(0u, 1024u));
}

int RunAuditCommand(const AuditArgs& args, std::ostream& out, std::ostream& err) {
  // The name map found beside the input counts as an input too.
  if (!OutputIsNotAnInputOrReport(args.output,
                                  {args.input, NamesPathFor(args.input, args.func_names)}, err)) {
    return 1;
  }
  DepGraph graph;
  if (!LoadGraphOrReport(args.input, &graph, err, args.threads)) return 1;
  NameMap names;
  if (!LoadNamesOrReport(args.input, args.func_names, &names, err)) return 1;
  std::string error;
  AuditResult result;
  AuditOptions audit_options;
  audit_options.threads = args.threads;
  if (!RunAudit(graph, audit_options, &result, &error)) {
    err << "error: " << args.input << ": " << error << "\n";
    return 1;
  }
  const std::vector<TaskLabel> labels = ResolveTaskLabels(graph, names);
  const AuditReportInput input{graph, result, labels, args.input, args.max_findings};
  const bool ok = Emit(args.output, out, err, [&](std::ostream& stream) {
    if (args.json) {
      WriteAuditJson(input, stream);
    } else {
      WriteAuditText(input, stream);
    }
  });
  if (!ok) return 1;
  const int code = AuditExitCode(result);
  if (!args.output.empty()) {
    out << "Wrote " << args.output << " (" << result.races.total << " race(s), "
        << result.serialization.findings.size() << " false serialization finding(s), exit "
        << code << ")\n";
  }
  return code;
}

int RunDiffCommand(const DiffArgs& args, std::ostream& out, std::ostream& err) {
  if (!OutputIsNotAnInputOrReport(args.output, {args.a, args.b}, err)) return 1;
  DepGraph a, b;
  if (!LoadGraphOrReport(args.a, &a, err, args.threads) ||
      !LoadGraphOrReport(args.b, &b, err, args.threads)) {
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
  if (diff.task_sets_differ) {
    err << "warning: the task sets differ (" << diff.only_in_a.size() << " only in A, "
        << diff.only_in_b.size() << " only in B)"
        << (args.by_order ? "" : "; --by-order matches tasks by submit order") << "\n";
  }
  const DiffReportInput input{a, b, diff, options, args.a, args.b};
  const bool ok = Emit(args.output, out, err, [&](std::ostream& stream) {
    if (args.json) {
      WriteDiffJson(input, stream);
    } else {
      WriteDiffText(input, stream);
    }
  });
  if (!ok) return 1;
  const int code = DiffExitCode(diff);
  if (!args.output.empty()) {
    out << "Wrote " << args.output << " (" << diff.orderings_lost.size()
        << " ordering(s) lost, " << diff.orderings_added.size() << " added, exit " << code
        << ")\n";
  }
  return code;
}

}  // namespace

int DepgraphMain(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  CLI::App app{"Audit captured task dependency graphs (deps.json), compare two of them and run depir "
               "programs on the runtime shim.",
               "depgraph"};
  app.require_subcommand(1);
  app.set_version_flag("--version", cli::VersionLine("depgraph"));
  AuditArgs audit;
  CLI::App* audit_cmd = app.add_subcommand(
      "audit", "Races, false serialization, redundancy and a summary of one deps.json. "
               "Exit 0: no race, 3: races found, 1: bad input.");
  audit_cmd->add_option("deps_json", audit.input, "deps.json to audit")->required();
  audit_cmd->add_flag("--json", audit.json, "write JSON (schema depgraph-audit/1)");
  AddFuncNamesOption(audit_cmd, &audit.func_names);
  audit_cmd->add_option("-o,--output", audit.output, "write the report here (atomically)");
  audit_cmd->add_option("--max-findings", audit.max_findings,
                        "race groups and false serialization findings listed in the text report "
                        "(default 20; 0 = all; --json always has every finding)");
  AddThreadsOption(audit_cmd, &audit.threads);

  DiffArgs diff;
  CLI::App* diff_cmd = app.add_subcommand(
      "diff", "Edges and orderings of A that B loses or adds. Exit 0: none lost, 3: B loses "
              "an ordering of A, 1: bad input.");
  diff_cmd->add_option("a_json", diff.a, "reference graph A")->required();
  diff_cmd->add_option("b_json", diff.b, "graph B")->required();
  diff_cmd->add_flag("--closure", diff.closure,
                     "also compare reachability (every ordered pair), not only edges");
  diff_cmd->add_flag("--by-order", diff.by_order,
                     "match tasks by submit order instead of by id");
  diff_cmd->add_flag("--json", diff.json, "write JSON (schema depgraph-diff/1)");
  diff_cmd->add_option("-o,--output", diff.output, "write the report here (atomically)");
  AddThreadsOption(diff_cmd, &diff.threads);

  QueryArgs query;
  CLI::App* query_cmd = app.add_subcommand(
      "query", "A task's predecessors and successors (--task), its ancestors and descendants "
               "(--depth), a shortest path (--path), tasks by kernel name (--grep) or the repeated "
               "structure as nested groups (--groups). Task ids: "
               "decimal or \"(ring, local)\". Exit 0: answered, 1: bad input or unknown task.");
  query_cmd->add_option("deps_json", query.input, "deps.json to query")->required();
  query_cmd->add_option("--task", query.task, "the task whose neighbours to list");
  query_cmd->add_option("--depth", query.depth,
                        "with --task: also ancestors and descendants up to N edges away");
  query_cmd->add_option("--path", query.path, "a shortest path in edges from A to B")
      ->expected(2);
  query_cmd->add_option("--grep", query.grep,
                        "tasks whose kernel name contains NAME (case-insensitive)");
  query_cmd->add_flag("--groups", query.groups,
                      "repeated structure: series of identical instances, nested");
  query_cmd->add_flag("--json", query.json, "print one JSON object instead of text");
  AddFuncNamesOption(query_cmd, &query.func_names);
  AddThreadsOption(query_cmd, &query.threads);

  RunCommandArgs run;
  CLI::App* run_cmd = app.add_subcommand(
      "run", "Interpret a depir program on the runtime shim and write its deps.json and name "
             "map. Exit 0: written, 1: bad program, unbound name or runtime error (nothing "
             "written).");
  run_cmd->add_option("program", run.input, "the .depir program")->required();
  run_cmd->add_option("-o,--output", run.output, "deps.json to write (atomically)")->required();
  run_cmd->add_option("--set", run.sets,
                      "name=value: an index/bool parameter, a symbolic dimension, an if "
                      "condition (true/false) or a while trip count (integer); repeatable")
      ->allow_extra_args(false)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  run_cmd->add_option("--entry", run.entry, "entry function (default main, or the only one)");
  run_cmd->add_option("--name-map", run.name_map,
                      "name map to write (default <output dir>/name_map_<program stem>.json)");
  run_cmd->add_flag("--hbg", run.host_build_graph,
                    "imitate host_build_graph (one ring, no edge flags)");
  run_cmd->add_flag("-q,--quiet", run.quiet, "no summary line");

  DeriveArgs derive;
  CLI::App* derive_cmd = app.add_subcommand(
      "derive", "Run AutoDeriveTaskDependencies on a depir program and print the result. "
                "Exit 0, or 1 on a bad program.");
  derive_cmd->add_option("program", derive.input, "the .depir program")->required();
  derive_cmd->add_flag("--analyze", derive.analyze,
                       "turn on analyze_auto_scopes (without it the pass changes nothing)");
  derive_cmd->add_flag("--materialize", derive.materialize, "also run MaterializeRuntimeScopes");
  derive_cmd->add_flag("--sound", derive.sound,
                       "the pass without the reference's soundness gaps (docs/depir.md)");
  derive_cmd->add_flag("--debug-log", derive.debug_log, "print the rewrite-bucket log on stderr");
  derive_cmd->add_option("-o,--output", derive.output, "write the program here (atomically)");

  CheckArgs check;
  CLI::App* check_cmd = app.add_subcommand(
      "check", "Derive, then run the original and the compiled program on the runtime shim and "
               "compare: orderings lost and hazards left unordered. Exit 0: none, 3: some, "
               "1: bad program or run error.");
  check_cmd->add_option("program", check.input, "the .depir program")->required();
  check_cmd->add_option("--set", check.sets, "name=value bindings, as for run; repeatable")
      ->allow_extra_args(false)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  check_cmd->add_option("--entry", check.entry, "entry function (default main, or the only one)");
  check_cmd->add_flag("--sound", check.sound, "check the sound variant of the pass");
  check_cmd->add_flag("--manual-stats", check.manual_stats,
                      "instead of checking, count the kernel submits that run in MANUAL scopes "
                      "after the reference and after the sound pass");
  check_cmd->add_option("--max-findings", check.max_findings,
                        "findings listed per kind, all are counted (default 20; 0 = all)");

  CriticalPathCommand critical_path(&app);
  SwimlaneCommand swimlane(&app);
  SchedOverheadCommand sched_overhead(&app);
  WaitSimArgs wait_sim;
  CLI::App* wait_sim_cmd = AddWaitSimCommand(&app, &wait_sim);
  OverlapArgs overlap;
  CLI::App* overlap_cmd = AddOverlapCommand(&app, &overlap);
  SimulateArgs simulate;
  CLI::App* simulate_cmd = AddSimulateCommand(&app, &simulate);

  std::vector<std::string> reversed(args.rbegin(), args.rend());
  try {
    app.parse(reversed);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e, out, err);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e, out, err);
  } catch (const CLI::ParseError& e) {
    err << "error: " << cli::DescribeParseError(app, e, args) << "\nRun with --help for usage.\n";
    return 2;
  }
  if (audit_cmd->parsed()) return RunAuditCommand(audit, out, err);
  if (query_cmd->parsed()) return RunQueryCommand(query, out, err);
  if (run_cmd->parsed()) return RunDepirCommand(run, out, err);
  if (derive_cmd->parsed()) return RunDeriveCommand(derive, out, err);
  if (check_cmd->parsed()) return RunCheckCommand(check, out, err);
  if (critical_path.parsed()) return critical_path.Run(out, err);
  if (swimlane.parsed()) return swimlane.Run(out, err);
  if (sched_overhead.parsed()) return sched_overhead.Run(out, err);
  if (wait_sim_cmd->parsed()) return RunWaitSimCommand(wait_sim, out, err);
  if (overlap_cmd->parsed()) return RunOverlapCommand(overlap, out, err);
  if (simulate_cmd->parsed()) return RunSimulateCommand(simulate, out, err);
  return RunDiffCommand(diff, out, err);
}

}  // namespace depgraph
