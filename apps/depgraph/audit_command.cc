#include "audit_command.h"

#include <CLI/CLI.hpp>

#include "cli_inputs.h"
#include "cli_output.h"
#include "depgraph/audit/audit.h"
#include "depgraph/audit/audit_report.h"
#include "depgraph/graph/task_label.h"

namespace depgraph {

CLI::App* AddAuditCommand(CLI::App* app, AuditArgs* args) {
  CLI::App* cmd = app->add_subcommand(
      "audit", "Races, false serialization, redundancy and a summary of one deps.json. "
               "Exit 0: no race, 3: races found, 1: bad input.");
  cmd->add_option("deps_json", args->input, "deps.json to audit")->required();
  cmd->add_flag("--json", args->json, "write JSON (schema depgraph-audit/1)");
  AddFuncNamesOption(cmd, &args->func_names);
  cmd->add_option("-o,--output", args->output, "write the report here (atomically)");
  cmd->add_option("--max-findings", args->max_findings,
                  "race groups and false serialization findings listed in the text report "
                  "(default 20; 0 = all; --json always has every finding)");
  AddThreadsOption(cmd, &args->threads);
  return cmd;
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
  const bool ok = EmitReport(args.output, out, err, [&](std::ostream& stream) {
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

}  // namespace depgraph
