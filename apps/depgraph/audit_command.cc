#include "audit_command.h"

#include <CLI/CLI.hpp>

#include "cli_inputs.h"
#include "cli_output.h"
#include "depgraph/audit/audit.h"
#include "depgraph/audit/audit_gate.h"
#include "depgraph/audit/audit_report.h"
#include "depgraph/graph/task_label.h"
#include "unsigned_option.h"

namespace depgraph {

CLI::App* AddAuditCommand(CLI::App* app, AuditArgs* args) {
  CLI::App* cmd = app->add_subcommand(
      "audit", "Races, false serialization, redundancy and a summary of one deps.json. "
               "Exit 0: no race, 3: races found (or what --strict and --warnings-as-errors "
               "add), 1: bad input.");
  cmd->add_option("deps_json", args->input, "deps.json to audit")->required();
  AddGateFlags(cmd, &args->gate, "schema depgraph-audit/1");
  AddFuncNamesOption(cmd, &args->func_names);
  cmd->add_option("-o,--output", args->output, "write the report here (atomically)");
  cmd->add_option("--max-findings", args->max_findings,
                  "race groups and false serialization findings listed in the text report "
                  "(default 20; 0 = all; --json always has every finding)")
      ->check(cli::UnsignedAtMost(SIZE_MAX));
  AddThreadsOption(cmd, &args->threads);
  return cmd;
}

int RunAuditCommand(const AuditArgs& args, std::ostream& out, std::ostream& err) {
  const std::string format = args.gate.Format();
  // The name map found beside the input counts as an input too.
  const std::vector<std::string> inputs{args.input, NamesPathFor(args.input, args.func_names)};
  if (!OutputIsNotAnInputOrReport(args.output, inputs, err) ||
      !OutputIsNotAnInputOrReport(args.gate.summary, inputs, err)) {
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
  // A gate that passes on nothing hides a broken capture step: a capture without a single
  // task (no tasks[] row and no edge naming one) is an error. A cycle is reported first.
  if (CaptureIsEmpty(graph) && !args.gate.allow_empty) {
    err << "error: " << args.input
        << ": the capture has no tasks; nothing to audit (--allow-empty to pass anyway)\n";
    return 1;
  }
  const std::vector<TaskLabel> labels = ResolveTaskLabels(graph, names);
  const GateReport gate =
      AuditGateReport(graph, result, labels, args.input, args.gate.Options());
  WarnCoverageGaps(gate, args.input, err);
  const AuditReportInput input{graph, result, labels, args.input, args.max_findings};
  const bool ok = EmitReport(args.output, out, err, [&](std::ostream& stream) {
    if (format == "json") {
      WriteAuditJson(input, stream);
    } else if (args.gate.CiFormat()) {
      WriteGateCiFormat(format, gate, stream);
    } else {
      WriteAuditText(input, stream);
    }
  });
  if (!ok) return 1;
  if (!WriteGateStepSummary(args.gate, gate, out, err)) return 1;
  const int code = gate.exit_code;
  if (code != AuditExitCode(result)) {
    err << "error: " << args.input << ": the audit fails under "
        << (args.gate.strict && !gate.coverage_gaps.empty() ? "--strict (coverage gaps)"
                                                       : "--warnings-as-errors")
        << ": exit " << code << "\n";
  }
  if (!args.output.empty()) {
    out << "Wrote " << args.output << " (" << result.races.total << " race(s), "
        << result.serialization.findings.size() << " false serialization finding(s), exit "
        << code << ")\n";
  }
  return code;
}

}  // namespace depgraph
