// GitHub Actions output of a gate report (libdepgraph/audit/gate_github.cc): annotation lines
// (at most 10, errors first, escaped) and the markdown step summary, with goldens of a racy
// real capture.
#include "depgraph/audit/gate_github.h"

#include <gtest/gtest.h>

#include <sstream>
#include <vector>

#include "audit/gate_test_support.h"

namespace depgraph {
namespace {

std::string Annotations(const GateReport& report) {
  std::ostringstream out;
  WriteGateAnnotations(report, out);
  return out.str();
}

std::string Markdown(const GateReport& report) {
  std::ostringstream out;
  WriteGateMarkdownSummary(report, out);
  return out.str();
}

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

GateReport ManyRaces(int tasks, int kernels) {
  auto c = testing::AuditForGate(testing::ManyRacesJson(tasks, kernels));
  return AuditGateReport(c->graph, c->result, c->labels, "gen/deps.json", GateOptions{});
}

TEST(GateGithubGolden, RacyRealCaptureAnnotations) {
  testing::ExpectGolden("dep_probe.annotations.txt", Annotations(testing::ProbeGateReport()));
}

TEST(GateGithubGolden, RacyRealCaptureSummary) {
  testing::ExpectGolden("dep_probe.summary.md", Markdown(testing::ProbeGateReport()));
}

TEST(GateGithub, AtMostTenLinesErrorsFirst) {
  const GateReport report = ManyRaces(400, 12);
  const std::vector<std::string> lines = Lines(Annotations(report));
  ASSERT_EQ(lines.size(), kGithubAnnotations);
  for (size_t i = 0; i + 1 < lines.size(); ++i) {
    EXPECT_EQ(lines[i].rfind("::error file=gen/deps.json,title=DG10", 0), 0u) << lines[i];
  }
  EXPECT_EQ(lines.back().rfind("::notice title=depgraph audit::", 0), 0u) << lines.back();
  EXPECT_NE(lines.back().find(" more annotation(s) not shown"), std::string::npos);
}

TEST(GateGithub, WarningsAndNoticesComeAfterErrors) {
  GateReport report = testing::ProbeGateReport();
  report.coverage_gaps.push_back("a gap, with: punctuation");
  const std::vector<std::string> lines = Lines(Annotations(report));
  ASSERT_LE(lines.size(), kGithubAnnotations);
  size_t last_error = 0, first_warning = lines.size();
  for (size_t i = 0; i < lines.size(); ++i) {
    if (lines[i].rfind("::error ", 0) == 0) last_error = i;
    if (lines[i].rfind("::warning ", 0) == 0 && first_warning == lines.size()) first_warning = i;
  }
  EXPECT_LT(last_error, first_warning);
  EXPECT_NE(Annotations(report).find("::warning file=" + std::string(testing::kProbeName) +
                                     ",title=coverage gap::a gap, with: punctuation\n"),
            std::string::npos);
}

TEST(GateGithub, Escaping) {
  EXPECT_EQ(GithubEscapeData("50% done\r\nnext: a,b"), "50%25 done%0D%0Anext: a,b");
  EXPECT_EQ(GithubEscapeProperty("C:\\a,b%\n"), "C%3A\\a%2Cb%25%0A");
  GateReport report;
  report.command = "audit";
  report.inputs = {"dir,x/a:b.json"};
  report.rules.push_back({"DG101", "RaceReadAfterWrite", "s", "c", GateLevel::kError, ""});
  GateFinding f;
  f.message = "line1\nline2 100%";
  f.first.kernel = "k1";
  f.second.kernel = "k2";
  report.findings.push_back(f);
  EXPECT_EQ(Annotations(report),
            "::error file=dir%2Cx/a%3Ab.json,title=DG101 RaceReadAfterWrite::line1%0Aline2 "
            "100%25\n");
}

TEST(GateGithub, SummaryIsCapped) {
  const GateReport report = ManyRaces(2000, 60);
  const std::string md = Markdown(report);
  EXPECT_EQ(md.rfind("## depgraph audit: failed (exit 3)\n", 0), 0u);
  size_t rows = 0;
  for (const std::string& line : Lines(md)) rows += line.rfind("| error | DG", 0) == 0 ? 1 : 0;
  EXPECT_EQ(rows, kGithubSummaryRows);
  EXPECT_NE(md.find(" more group(s) ("), std::string::npos);
}

TEST(GateGithub, PassingSummary) {
  GateReport report;
  report.command = "audit";
  report.summary = "audit: no race | none";
  report.checks.push_back({"races (RAW)", "DG101", 0, false, "no RAW race"});
  EXPECT_EQ(Markdown(report),
            "## depgraph audit: passed\n\naudit: no race \\| none\n\n"
            "| check | findings | result |\n|---|---:|---|\n| races (RAW) | 0 | passed |\n");
}

}  // namespace
}  // namespace depgraph
