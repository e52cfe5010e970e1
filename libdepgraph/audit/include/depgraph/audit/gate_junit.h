// A gate's verdict as JUnit XML (the test report format of GitLab, Jenkins, Azure DevOps and
// most CI dashboards).
#pragma once

#include <ostream>
#include <cstddef>
#include <string>
#include <string_view>

#include "depgraph/audit/gate_report.h"

namespace depgraph {

/// Findings listed in a failed test case's text before "... N more".
constexpr size_t kJunitFindingLines = 100;

/// Writes `report` as JUnit XML: <testsuites> holding one <testsuite name="depgraph <command>">
/// with one <testcase classname="depgraph.<command>" name="<check>"> per GateCheck. A failed
/// check gets <failure message="<detail>" type="<rule id>"> listing its rule's kept findings,
/// one message a line, at most kJunitFindingLines then "... N more"; a failed check without a
/// rule (the coverage check, failed only under --strict) has type "coverage" and lists the
/// coverage gaps. The suite's <system-out> holds the summary line, its <system-err> the
/// coverage gaps (present whenever there are gaps, failing or not). Everything is escaped;
/// characters XML 1.0 cannot carry (control characters, ill-formed UTF-8) become U+FFFD.
/// O(findings + output).
void WriteGateJunit(const GateReport& report, std::ostream& out);

/// `text` escaped for XML character data and attribute values (& < > " ' and, in attributes,
/// tab, LF and CR as character references); characters XML 1.0 forbids become U+FFFD.
/// O(|text|).
std::string XmlEscape(std::string_view text, bool attribute);

}  // namespace depgraph
