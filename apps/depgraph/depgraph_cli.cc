#include "depgraph_cli.h"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <filesystem>

#include "audit_command.h"
#include "cli_inputs.h"
#include "cli_usage.h"
#include "critical_path_command.h"
#include "derive_command.h"
#include "diff_command.h"
#include "query_command.h"
#include "run_command.h"
#include "simulate_command.h"
#include "sched_overhead_command.h"
#include "swimlane_command.h"
#include "overlap_command.h"
#include "unsigned_option.h"
#include "wait_sim_command.h"

namespace depgraph {

int DepgraphMain(const std::vector<std::string>& args, std::ostream& out, std::ostream& err) {
  CLI::App app{"Audit captured task dependency graphs (deps.json), compare two of them and run depir "
               "programs on the runtime shim.",
               "depgraph"};
  app.require_subcommand(1);
  app.set_version_flag("--version", cli::VersionLine("depgraph"));
  AuditArgs audit;
  CLI::App* audit_cmd = AddAuditCommand(&app, &audit);
  DiffArgs diff;
  CLI::App* diff_cmd = AddDiffCommand(&app, &diff);

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
  AddGateFlags(check_cmd, &check.gate, "");
  check_cmd->add_option("--max-findings", check.max_findings,
                        "findings listed per kind, all are counted (default 20; 0 = all)")
      ->check(cli::UnsignedAtMost(SIZE_MAX));

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
  if (diff_cmd->parsed()) return RunDiffCommand(diff, out, err);
  return 2;  // require_subcommand(1): unreachable
}

}  // namespace depgraph
