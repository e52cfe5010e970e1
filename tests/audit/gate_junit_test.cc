// JUnit XML of a gate report (libdepgraph/audit/gate_junit.cc): the golden of a racy real
// capture, one test case per check, failures capped, coverage under --strict, escaping.
#include "depgraph/audit/gate_junit.h"

#include <gtest/gtest.h>

#include <sstream>

#include "audit/gate_test_support.h"

namespace depgraph {
namespace {

std::string Junit(const GateReport& report) {
  std::ostringstream out;
  WriteGateJunit(report, out);
  return out.str();
}

size_t Count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

TEST(GateJunitGolden, RacyRealCapture) {
  testing::ExpectGolden("dep_probe.junit.xml", Junit(testing::ProbeGateReport()));
}

TEST(GateJunit, OneTestCasePerCheckAndAFailurePerFailedCheck) {
  const std::string xml = Junit(testing::ProbeGateReport());
  EXPECT_EQ(xml.rfind("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites", 0), 0u);
  EXPECT_NE(xml.find("<testsuite name=\"depgraph audit\" tests=\"5\" failures=\"3\""),
            std::string::npos);
  EXPECT_EQ(Count(xml, "<testcase classname=\"depgraph.audit\""), 5u);
  EXPECT_EQ(Count(xml, "<failure "), 3u);
  EXPECT_NE(xml.find("type=\"DG103\""), std::string::npos);
  EXPECT_EQ(xml.find("<system-err>"), std::string::npos);  // no coverage gap
}

TEST(GateJunit, FailureTextIsCapped) {
  auto c = testing::AuditForGate(testing::ManyRacesJson(1000, 2));
  const GateReport report = AuditGateReport(c->graph, c->result, c->labels, "g.json", {});
  ASSERT_GT(report.checks[0].findings, kJunitFindingLines);
  const std::string xml = Junit(report);
  const std::string more =
      "... " + std::to_string(report.checks[0].findings - kJunitFindingLines) + " more\n";
  EXPECT_NE(xml.find(more), std::string::npos) << more;
  EXPECT_LE(Count(xml, "race RAW: "), kJunitFindingLines);
}

TEST(GateJunit, CoverageGapsInSystemErrAndAFailureUnderStrict) {
  testing::GraphBuilder b;
  b.Task(1, {testing::Output()});
  auto c = testing::AuditForGate(b.Json());
  const GateReport plain = AuditGateReport(c->graph, c->result, c->labels, "g.json", {});
  std::string xml = Junit(plain);
  EXPECT_NE(xml.find("<system-err>coverage gap: 1 of 1 output slot cannot be placed"),
            std::string::npos);
  EXPECT_EQ(Count(xml, "<failure "), 0u);
  GateOptions strict;
  strict.strict = true;
  xml = Junit(AuditGateReport(c->graph, c->result, c->labels, "g.json", strict));
  EXPECT_EQ(Count(xml, "<failure "), 1u);
  EXPECT_NE(xml.find("type=\"coverage\">1 of 1 output slot"), std::string::npos);
}

TEST(GateJunit, EscapesEverythingAndDropsWhatXmlCannotCarry) {
  EXPECT_EQ(XmlEscape("a<b>&\"c'", false), "a&lt;b&gt;&amp;&quot;c&apos;");
  EXPECT_EQ(XmlEscape("l1\nl2\tx\r", true), "l1&#10;l2&#9;x&#13;");
  EXPECT_EQ(XmlEscape("l1\nl2", false), "l1\nl2");
  EXPECT_EQ(XmlEscape(std::string("a\x01" "b\x1b" "c", 5), false),
            "a\xEF\xBF\xBD" "b\xEF\xBF\xBD" "c");
  EXPECT_EQ(XmlEscape(std::string("nul\0!", 5), false), "nul\xEF\xBF\xBD!");
  EXPECT_EQ(XmlEscape("bad \xff\xfe", false), "bad \xEF\xBF\xBD\xEF\xBF\xBD");
  EXPECT_EQ(XmlEscape("\xEF\xBF\xBF", false), "\xEF\xBF\xBD");  // U+FFFF
  EXPECT_EQ(XmlEscape("caf\xC3\xA9", false), "caf\xC3\xA9");
  GateReport report = testing::ProbeGateReport();
  report.checks[0].detail = "<&>\x02";
  const std::string xml = Junit(report);
  EXPECT_NE(xml.find("message=\"&lt;&amp;&gt;\xEF\xBF\xBD\""), std::string::npos);
}

}  // namespace
}  // namespace depgraph
