#include "depgraph/audit/gate_junit.h"

#include <algorithm>
#include <cstdint>

#include "depgraph/support/utf8.h"

namespace depgraph {

namespace {

constexpr const char* kReplacement = "\xEF\xBF\xBD";  // U+FFFD

// XML 1.0 Char production: #x9 | #xA | #xD | [#x20-#xD7FF] | [#xE000-#xFFFD] |
// [#x10000-#x10FFFF] (DecodeUtf8 already refuses surrogates).
bool XmlChar(uint32_t c) {
  if (c < 0x20) return c == 0x9 || c == 0xA || c == 0xD;
  return c != 0xFFFE && c != 0xFFFF;
}

}  // namespace

std::string XmlEscape(std::string_view text, bool attribute) {
  std::string out;
  out.reserve(text.size());
  size_t i = 0;
  while (i < text.size()) {
    uint32_t c = 0;
    const size_t n = DecodeUtf8(text.substr(i), &c);
    if (n == 0) {  // ill-formed byte: replace it and resynchronise on the next byte
      out += kReplacement;
      ++i;
      continue;
    }
    if (!XmlChar(c)) {
      out += kReplacement;
    } else if (c == '&') {
      out += "&amp;";
    } else if (c == '<') {
      out += "&lt;";
    } else if (c == '>') {
      out += "&gt;";
    } else if (c == '"') {
      out += "&quot;";
    } else if (c == '\'') {
      out += "&apos;";
    } else if (attribute && c == '\t') {
      out += "&#9;";
    } else if (attribute && c == '\n') {
      out += "&#10;";
    } else if (attribute && c == '\r') {
      out += "&#13;";
    } else {
      out.append(text.substr(i, n));
    }
    i += n;
  }
  return out;
}

void WriteGateJunit(const GateReport& report, std::ostream& out) {
  size_t failures = 0;
  for (const GateCheck& check : report.checks) failures += check.failed ? 1 : 0;
  const std::string suite = XmlEscape("depgraph " + report.command, true);
  const std::string tests = std::to_string(report.checks.size());
  const std::string failed = std::to_string(failures);
  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  out << "<testsuites name=\"depgraph\" tests=\"" << tests << "\" failures=\"" << failed
      << "\" errors=\"0\">\n";
  out << "  <testsuite name=\"" << suite << "\" tests=\"" << tests << "\" failures=\"" << failed
      << "\" errors=\"0\" skipped=\"0\">\n";
  if (!report.inputs.empty()) {
    out << "    <properties>\n";
    for (const std::string& input : report.inputs) {
      out << "      <property name=\"input\" value=\"" << XmlEscape(input, true) << "\"/>\n";
    }
    out << "    </properties>\n";
  }
  const std::string classname = XmlEscape("depgraph." + report.command, true);
  for (const GateCheck& check : report.checks) {
    out << "    <testcase classname=\"" << classname << "\" name=\""
        << XmlEscape(check.name, true) << "\"";
    if (!check.failed) {
      out << "/>\n";
      continue;
    }
    out << ">\n      <failure message=\"" << XmlEscape(check.detail, true) << "\" type=\""
        << XmlEscape(check.rule_id.empty() ? "coverage" : check.rule_id, true) << "\">";
    std::string body;
    size_t listed = 0, total = 0;
    if (check.rule_id.empty()) {
      for (const std::string& gap : report.coverage_gaps) {
        body += gap + "\n";
      }
    } else {
      for (const GateFinding& finding : report.findings) {
        if (report.rules[finding.rule].id != check.rule_id) continue;
        ++total;
        if (listed < kJunitFindingLines) {
          body += finding.message + "\n";
          ++listed;
        }
      }
      // The check counts every finding, also those the gate did not keep.
      total = std::max<uint64_t>(total, check.findings);
      if (total > listed) body += "... " + std::to_string(total - listed) + " more\n";
    }
    out << XmlEscape(body, false) << "</failure>\n    </testcase>\n";
  }
  out << "    <system-out>" << XmlEscape(report.summary + "\n", false) << "</system-out>\n";
  if (!report.coverage_gaps.empty()) {
    std::string gaps;
    for (const std::string& gap : report.coverage_gaps) gaps += "coverage gap: " + gap + "\n";
    out << "    <system-err>" << XmlEscape(gaps, false) << "</system-err>\n";
  }
  out << "  </testsuite>\n</testsuites>\n";
}

}  // namespace depgraph
