#include "depgraph/audit/gate_github.h"
#include "depgraph/support/printable_text.h"

#include <algorithm>
#include <vector>

#include "depgraph/audit/gate_groups.h"

namespace depgraph {

namespace {

struct Annotation {
  GateLevel level;
  std::string properties;  // already escaped
  std::string message;     // already escaped
};

const char* CommandName(GateLevel level) {
  switch (level) {
    case GateLevel::kError: return "error";
    case GateLevel::kWarning: return "warning";
    case GateLevel::kNote: return "notice";
  }
  return "notice";
}

// A markdown table cell: one line, pipes and HTML-significant characters escaped.
std::string Cell(std::string_view text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '|': out += "\\|"; break;
      case '\\': out += "\\\\"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '&': out += "&amp;"; break;
      case '\n': case '\r': out += ' '; break;
      default: out += c;
    }
  }
  return out;
}

bool CoverageFailed(const GateReport& report) {
  for (const GateCheck& check : report.checks) {
    if (check.rule_id.empty() && check.name == "coverage" && check.failed) return true;
  }
  return false;
}

}  // namespace

std::string GithubEscapeData(std::string_view text) {
  std::string out;
  for (char c : text) {
    if (c == '%') {
      out += "%25";
    } else if (c == '\r') {
      out += "%0D";
    } else if (c == '\n') {
      out += "%0A";
    } else {
      out += c;
    }
  }
  return out;
}

std::string GithubEscapeProperty(std::string_view text) {
  std::string out;
  for (char c : GithubEscapeData(text)) {
    if (c == ':') {
      out += "%3A";
    } else if (c == ',') {
      out += "%2C";
    } else {
      out += c;
    }
  }
  return out;
}

void WriteGateAnnotations(const GateReport& report, std::ostream& out) {
  const std::string file =
      report.inputs.empty() ? "" : "file=" + GithubEscapeProperty(report.inputs.front()) + ",";
  std::vector<Annotation> lines;
  for (const GateFindingGroup& group : GroupGateFindings(report)) {
    const GateRule& rule = report.rules[group.rule];
    lines.push_back({group.level, file + "title=" + GithubEscapeProperty(rule.id + " " + rule.name),
                     GithubEscapeData(GateGroupMessage(report, group))});
  }
  const GateLevel gap_level = CoverageFailed(report) ? GateLevel::kError : GateLevel::kWarning;
  for (const std::string& gap : report.coverage_gaps) {
    lines.push_back({gap_level, file + "title=" + GithubEscapeProperty("coverage gap"),
                     GithubEscapeData(gap)});
  }
  std::stable_sort(lines.begin(), lines.end(),
                   [](const Annotation& a, const Annotation& b) { return a.level < b.level; });
  const size_t shown =
      lines.size() <= kGithubAnnotations ? lines.size() : kGithubAnnotations - 1;
  for (size_t i = 0; i < shown; ++i) {
    out << "::" << CommandName(lines[i].level) << " " << lines[i].properties
        << "::" << lines[i].message << "\n";
  }
  if (shown < lines.size()) {
    out << "::notice title=depgraph " << GithubEscapeProperty(report.command) << "::"
        << GithubEscapeData(std::to_string(lines.size() - shown) +
                            " more annotation(s) not shown; the SARIF or JUnit report lists "
                            "every finding")
        << "\n";
  }
}

void WriteGateMarkdownSummary(const GateReport& report, std::ostream& out) {
  out << "## depgraph " << Cell(report.command) << ": "
      << (report.exit_code == 0 ? "passed" : "failed (exit " + std::to_string(report.exit_code) + ")")
      << "\n\n";
  if (!report.summary.empty()) out << Cell(report.summary) << "\n\n";
  out << "| check | findings | result |\n|---|---:|---|\n";
  for (const GateCheck& check : report.checks) {
    out << "| " << Cell(check.name) << " | " << check.findings << " | "
        << (check.failed ? "**failed**" : "passed") << " |\n";
  }
  if (!report.coverage_gaps.empty()) {
    out << "\n### Coverage gaps\n\n";
    for (const std::string& gap : report.coverage_gaps) out << "- " << Cell(gap) << "\n";
  }
  const std::vector<GateFindingGroup> groups = GroupGateFindings(report);
  if (groups.empty()) return;
  out << "\n### Findings by rule and kernel pair\n\n"
      << "| level | rule | kernels | count | example |\n|---|---|---|---:|---|\n";
  for (size_t i = 0; i < groups.size() && i < kGithubSummaryRows; ++i) {
    const GateFindingGroup& group = groups[i];
    const GateRule& rule = report.rules[group.rule];
    out << "| " << GateLevelName(group.level) << " | " << Cell(rule.id + " " + rule.name)
        << " | " << Cell(PrintableText(group.first_kernel + " -> " + group.second_kernel)) << " | "
        << group.members.size() << " | " << Cell(report.findings[group.members.front()].message)
        << " |\n";
  }
  if (groups.size() > kGithubSummaryRows) {
    size_t rest = 0;
    for (size_t i = kGithubSummaryRows; i < groups.size(); ++i) rest += groups[i].members.size();
    out << "\n" << groups.size() - kGithubSummaryRows << " more group(s) (" << rest
        << " finding(s)) not shown; the SARIF or JUnit report lists them.\n";
  }
}

}  // namespace depgraph
