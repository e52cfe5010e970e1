#include "gate_flags.h"

#include <CLI/CLI.hpp>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>

#include "cli_output.h"
#include "cli_usage.h"
#include "depgraph/audit/gate_github.h"
#include "depgraph/audit/gate_junit.h"
#include "depgraph/audit/gate_sarif.h"

namespace depgraph {

namespace {

// The project version ("0.1") for SARIF's tool.driver.version.
std::string ToolVersion() {
  const std::string line = cli::VersionLine("depgraph");
  const size_t space = line.rfind(' ');
  return space == std::string::npos ? line : line.substr(space + 1);
}

// Appends the markdown step summary to `path`, as GitHub expects of $GITHUB_STEP_SUMMARY.
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

bool GateFlags::CiFormat() const {
  const std::string f = Format();
  return f == "sarif" || f == "junit" || f == "github";
}

void AddGateFlags(CLI::App* cmd, GateFlags* flags, const std::string& json_what) {
  std::vector<std::string> formats = {"text", "sarif", "junit", "github"};
  if (!json_what.empty()) formats.insert(formats.begin() + 1, "json");
  CLI::Option* format = cmd->add_option(
      "--format", flags->format,
      "text (default)" + (json_what.empty() ? std::string() : ", json (" + json_what + ")") +
          ", sarif (SARIF 2.1.0, for code scanning), junit (JUnit XML, one test case per "
          "check) or github (Actions annotations; markdown step summary)");
  format->check(CLI::IsMember(formats));
  if (!json_what.empty()) {
    cmd->add_flag("--json", flags->json, "write JSON (" + json_what + "): --format json")
        ->excludes(format);
  }
  cmd->add_flag("--strict", flags->strict,
                "a coverage gap (what the verdict cannot see) fails the gate: exit 3");
  cmd->add_flag("--warnings-as-errors", flags->warnings_as_errors,
                "a warning finding fails the gate: exit 3");
  cmd->add_flag("--allow-empty", flags->allow_empty,
                "pass on a capture of nothing (default: an error, exit 1)");
  cmd->add_option("--summary", flags->summary,
                  "write the markdown step summary here (default with --format github: append "
                  "to $GITHUB_STEP_SUMMARY when set)");
}

void WarnCoverageGaps(const GateReport& report, const std::string& where, std::ostream& err) {
  for (const std::string& gap : report.coverage_gaps) {
    err << "warning: " << where << ": " << gap << "\n";
  }
}

void WriteGateCiFormat(const std::string& format, const GateReport& report, std::ostream& out) {
  if (format == "sarif") {
    WriteGateSarif(report, out, ToolVersion());
  } else if (format == "junit") {
    WriteGateJunit(report, out);
  } else {
    WriteGateAnnotations(report, out);
  }
}

bool WriteGateStepSummary(const GateFlags& flags, const GateReport& report, std::ostream& out,
                          std::ostream& err) {
  if (!flags.summary.empty()) {
    return EmitReport(flags.summary, out, err,
                      [&](std::ostream& stream) { WriteGateMarkdownSummary(report, stream); });
  }
  if (flags.Format() != "github") return true;
  const char* step_summary = std::getenv("GITHUB_STEP_SUMMARY");
  if (step_summary == nullptr || *step_summary == '\0') return true;
  return AppendSummary(step_summary, report, err);
}

}  // namespace depgraph
