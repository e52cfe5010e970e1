// SARIF 2.1.0 of a gate report (libdepgraph/audit/gate_sarif.cc): the golden of a racy real
// capture, aggregation per rule and kernel pair (18,000 races stay a handful of results),
// stable fingerprints, and output that survives odd bytes.
#include "depgraph/audit/gate_sarif.h"

#include <gtest/gtest.h>

#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "audit/gate_test_support.h"

namespace depgraph {
namespace {

std::string Sarif(const GateReport& report, const std::string& version = "") {
  std::ostringstream out;
  WriteGateSarif(report, out, version);
  return out.str();
}

GateReport ManyRaces(int tasks, int kernels) {
  auto c = testing::AuditForGate(testing::ManyRacesJson(tasks, kernels));
  return AuditGateReport(c->graph, c->result, c->labels, "gen/deps.json", GateOptions{});
}

TEST(GateSarifGolden, RacyRealCapture) {
  testing::ExpectGolden("dep_probe.sarif", Sarif(testing::ProbeGateReport()));
}

TEST(GateSarif, StructureOfTheProbe) {
  const GateReport report = testing::ProbeGateReport();
  const auto log = nlohmann::json::parse(Sarif(report, "9.9"));
  EXPECT_EQ(log["$schema"], "https://json.schemastore.org/sarif-2.1.0.json");
  EXPECT_EQ(log["version"], "2.1.0");
  ASSERT_EQ(log["runs"].size(), 1u);
  const auto& run = log["runs"][0];
  EXPECT_EQ(run["tool"]["driver"]["name"], "depgraph");
  EXPECT_EQ(run["tool"]["driver"]["version"], "9.9");
  const auto& rules = run["tool"]["driver"]["rules"];
  ASSERT_EQ(rules.size(), 4u);
  EXPECT_EQ(rules[3]["defaultConfiguration"]["level"], "warning");
  EXPECT_EQ(run["artifacts"][0]["location"]["uri"], testing::kProbeName);
  uint64_t occurrences = 0;
  for (const auto& result : run["results"]) {
    const size_t index = result["ruleIndex"];
    ASSERT_LT(index, rules.size());
    EXPECT_EQ(result["ruleId"], rules[index]["id"]);
    EXPECT_EQ(result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
              testing::kProbeName);
    EXPECT_EQ(result["locations"][0]["physicalLocation"]["region"]["startLine"], 1);
    EXPECT_EQ(result["locations"][0]["logicalLocations"].size(), 2u);
    EXPECT_FALSE(result["codeFlows"][0]["threadFlows"][0]["locations"].empty());
    const uint64_t n = result["properties"]["occurrences"];
    occurrences += n;
    const std::string text = result["message"]["text"];
    EXPECT_EQ(text.find(" more between these kernels)") != std::string::npos, n > 1) << text;
  }
  EXPECT_EQ(occurrences, report.findings.size());
  EXPECT_LT(run["results"].size(), report.findings.size());  // dep_probe's races aggregate
}

TEST(GateSarif, EighteenThousandRacesStayFewResults) {
  const GateReport report = ManyRaces(20000, 3);
  uint64_t races = 0;
  for (size_t k = 0; k < 3; ++k) races += report.checks[k].findings;
  ASSERT_GT(races, 18000u);
  ASSERT_EQ(report.findings.size(), races);
  const auto log = nlohmann::json::parse(Sarif(report));
  const auto& results = log["runs"][0]["results"];
  EXPECT_LT(results.size(), 5000u);
  EXPECT_LE(results.size(), 3u * 3u * 3u);  // rules x kernel pairs at most
  uint64_t occurrences = 0;
  std::set<std::string> fingerprints;
  for (const auto& result : results) {
    occurrences += result["properties"]["occurrences"].get<uint64_t>();
    fingerprints.insert(result["partialFingerprints"]["depgraphKernelPair/v1"].get<std::string>());
  }
  EXPECT_EQ(occurrences, races);
  EXPECT_EQ(fingerprints.size(), results.size());
}

TEST(GateSarif, FingerprintsDoNotDependOnTaskIds) {
  // The same rules between the same kernels in a smaller capture (other tasks, other ids):
  // the same fingerprints.
  auto fingerprints = [](const GateReport& report) {
    std::map<std::string, std::string> out;  // ruleId + kernels -> fingerprint
    const auto log = nlohmann::json::parse(Sarif(report));
    for (const auto& result : log["runs"][0]["results"]) {
      const auto& logical = result["locations"][0]["logicalLocations"];
      out[result["ruleId"].get<std::string>() + " " + logical[0]["name"].get<std::string>() +
          " " + logical[1]["name"].get<std::string>()] =
          result["partialFingerprints"]["depgraphKernelPair/v1"];
    }
    return out;
  };
  const auto big = fingerprints(ManyRaces(3000, 3));
  const auto small = fingerprints(ManyRaces(30, 3));
  EXPECT_EQ(big, small);
  EXPECT_FALSE(big.empty());
}

TEST(GateSarif, DeterministicAndSafeWithOddBytes) {
  GateReport report = testing::ProbeGateReport();
  EXPECT_EQ(Sarif(report), Sarif(report));
  report.findings[0].message = "bad \xff byte, \"quoted\"\n\ttab";
  const std::string text = Sarif(report);
  EXPECT_NE(text.find("bad \xEF\xBF\xBD byte, \\\"quoted\\\"\\n\\ttab"), std::string::npos);
  EXPECT_EQ(text.back(), '\n');
  EXPECT_TRUE(nlohmann::json::accept(text));
}

TEST(GateSarif, NoFindingsIsAnEmptyResultList) {
  GateReport report;
  report.command = "audit";
  report.inputs = {"a b%.json"};
  const auto log = nlohmann::json::parse(Sarif(report));
  EXPECT_TRUE(log["runs"][0]["results"].is_array());
  EXPECT_TRUE(log["runs"][0]["results"].empty());
  EXPECT_EQ(log["runs"][0]["artifacts"][0]["location"]["uri"], "a%20b%25.json");
}

}  // namespace
}  // namespace depgraph
