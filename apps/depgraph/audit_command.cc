#include "audit_command.h"

#include <CLI/CLI.hpp>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>

#include "cli_inputs.h"
#include "cli_output.h"
#include "cli_usage.h"
#include "depgraph/audit/audit.h"
#include "depgraph/audit/audit_gate.h"
#include "depgraph/audit/audit_report.h"
#include "depgraph/audit/gate_github.h"
#include "depgraph/audit/gate_junit.h"
#include "depgraph/audit/gate_sarif.h"
#include "depgraph/graph/task_label.h"

namespace depgraph {

namespace {

// The project version ("0.1") for SARIF's tool.driver.version.
std::string ToolVersion() {
  const std::string line = cli::VersionLine("depgraph");
  const size_t space = line.rfind(' ');
  return space == std::string::npos ? line : line.substr(space + 1);
}

// Appends the markdown step summary to `path` as GitHub expects of $GITHUB_STEP_SUMMARY.
bool AppendSummary(const std::string& path, const GateReport& report, std::ostream& err) {
  std::ofstream file(path, std::ios::app | std::ios::binary);
  if (file) WriteGateMarkdownSummary(report, file);
  file.flush();
  if (!file) {
    err << "error: " << path << ": cannot append the step summary ($GITHUB_STEP_SUMMARY): "
        << std::strerror(errno) << "\n";
    return false;
  }
  return true;
}

}  // namespace

CLI::App* AddAuditCommand(CLI::App* app, AuditArgs* args) {
  CLI::App* cmd = app->add_subcommand(
      "audit", "Races, false serialization, redundancy and a summary of one deps.json. "
               "Exit 0: no race, 3: races found (or what --strict and --warnings-as-errors "
               "add), 1: bad input.");
  cmd->add_option("deps_json", args->input, "deps.json to audit")->required();
  CLI::Option* format =
      cmd->add_option("--format", args->format,
                      "text (default), json (schema depgraph-audit/1), sarif (SARIF 2.1.0), "
                      "junit (JUnit XML), github (annotations; step summary)")
          ->check(CLI::IsMember({"text", "json", "sarif", "junit", "github"}));
  cmd->add_flag("--json", args->json, "write JSON (schema depgraph-audit/1): --format json")
      ->excludes(format);
  cmd->add_flag("--strict", args->strict,
                "coverage gaps (unplaced OUTPUT slots, arguments without bytes) fail: exit 3");
  cmd->add_flag("--warnings-as-errors", args->warnings_as_errors,
                "false serialization fails too: exit 3");
  cmd->add_flag("--allow-empty", args->allow_empty,
                "a capture without tasks passes (default: an error, exit 1)");
  cmd->add_option("--summary", args->summary,
                  "write the markdown step summary here (default with --format github: "
                  "append to $GITHUB_STEP_SUMMARY when set)");
  AddFuncNamesOption(cmd, &args->func_names);
  cmd->add_option("-o,--output", args->output, "write the report here (atomically)");
  cmd->add_option("--max-findings", args->max_findings,
                  "race groups and false serialization findings listed in the text report "
                  "(default 20; 0 = all; --json always has every finding)");
  AddThreadsOption(cmd, &args->threads);
  return cmd;
}

int RunAuditCommand(const AuditArgs& args, std::ostream& out, std::ostream& err) {
  const std::string format = args.json ? "json" : args.format;
  // The name map found beside the input counts as an input too.
  const std::vector<std::string> inputs{args.input, NamesPathFor(args.input, args.func_names)};
  if (!OutputIsNotAnInputOrReport(args.output, inputs, err) ||
      !OutputIsNotAnInputOrReport(args.summary, inputs, err)) {
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
  if (graph.tasks.empty() && graph.nodes.empty() && !args.allow_empty) {
    err << "error: " << args.input
        << ": the capture has no tasks; nothing to audit (--allow-empty to pass anyway)\n";
    return 1;
  }
  const std::vector<TaskLabel> labels = ResolveTaskLabels(graph, names);
  GateOptions gate_options;
  gate_options.strict = args.strict;
  gate_options.warnings_as_errors = args.warnings_as_errors;
  const GateReport gate = AuditGateReport(graph, result, labels, args.input, gate_options);
  for (const std::string& gap : gate.coverage_gaps) {
    err << "warning: " << args.input << ": " << gap << "\n";
  }
  const AuditReportInput input{graph, result, labels, args.input, args.max_findings};
  const bool ok = EmitReport(args.output, out, err, [&](std::ostream& stream) {
    if (format == "json") {
      WriteAuditJson(input, stream);
    } else if (format == "sarif") {
      WriteGateSarif(gate, stream, ToolVersion());
    } else if (format == "junit") {
      WriteGateJunit(gate, stream);
    } else if (format == "github") {
      WriteGateAnnotations(gate, stream);
    } else {
      WriteAuditText(input, stream);
    }
  });
  if (!ok) return 1;
  if (!args.summary.empty()) {
    if (!EmitReport(args.summary, out, err,
                    [&](std::ostream& stream) { WriteGateMarkdownSummary(gate, stream); })) {
      return 1;
    }
  } else if (format == "github") {
    const char* step_summary = std::getenv("GITHUB_STEP_SUMMARY");
    if (step_summary != nullptr && *step_summary != '\0' &&
        !AppendSummary(step_summary, gate, err)) {
      return 1;
    }
  }
  const int code = gate.exit_code;
  if (code != AuditExitCode(result)) {
    err << "error: " << args.input << ": the audit fails under "
        << (args.strict && !gate.coverage_gaps.empty() ? "--strict (coverage gaps)"
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
