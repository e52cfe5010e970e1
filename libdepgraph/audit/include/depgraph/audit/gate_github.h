// A gate's verdict for GitHub Actions: workflow-command annotations on the run, and markdown
// for the job's step summary ($GITHUB_STEP_SUMMARY).
#pragma once

#include <cstddef>
#include <ostream>
#include <string>
#include <string_view>

#include "depgraph/audit/gate_report.h"

namespace depgraph {

/// Annotation lines WriteGateAnnotations writes at most (GitHub shows 10 per step and level).
constexpr size_t kGithubAnnotations = 10;
/// Finding groups the markdown summary lists before "N more".
constexpr size_t kGithubSummaryRows = 50;

/// Writes at most kGithubAnnotations workflow commands, one a line, errors first, then
/// warnings, then notices: one per rule and kernel pair (GroupGateFindings)
/// `::error file=<input>,title=<rule id> <rule name>::<message>`, and one `::warning` per
/// coverage gap (`::error` when the coverage check failed). When more would be written, the
/// last line is a `::notice` counting the rest. O(F log F) for F findings.
void WriteGateAnnotations(const GateReport& report, std::ostream& out);

/// Writes the markdown step summary: a heading with the verdict, the summary line, a table of
/// the checks (check, findings, result), the coverage gaps, and the findings per rule and
/// kernel pair (count, an example message), at most kGithubSummaryRows rows then "N more".
/// O(F log F + output).
void WriteGateMarkdownSummary(const GateReport& report, std::ostream& out);

/// A workflow command's message escaped as GitHub requires (% CR LF). O(|text|).
std::string GithubEscapeData(std::string_view text);
/// A workflow command's property value escaped (% CR LF, and ':' ','). O(|text|).
std::string GithubEscapeProperty(std::string_view text);

}  // namespace depgraph
