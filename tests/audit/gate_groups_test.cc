// Findings per rule and kernel pair (libdepgraph/audit/gate_groups.cc): every finding in one
// group, errors first, the aggregated message, fingerprints stable and distinct.
#include "depgraph/audit/gate_groups.h"

#include <gtest/gtest.h>

namespace depgraph {
namespace {

GateFinding Finding(size_t rule, GateLevel level, const std::string& k1, const std::string& k2,
                    const std::string& message) {
  GateFinding f;
  f.rule = rule;
  f.level = level;
  f.first.kernel = k1;
  f.second.kernel = k2;
  f.message = message;
  return f;
}

GateReport Report() {
  GateReport report;
  report.rules.push_back({"R1", "One", "", "", GateLevel::kWarning, ""});
  report.rules.push_back({"R2", "Two", "", "", GateLevel::kError, ""});
  report.findings = {Finding(0, GateLevel::kWarning, "a", "b", "w1"),
                     Finding(1, GateLevel::kError, "a", "b", "e1"),
                     Finding(0, GateLevel::kWarning, "a", "b", "w2"),
                     Finding(1, GateLevel::kError, "b", "a", "e2"),
                     Finding(1, GateLevel::kError, "a", "b", "e3")};
  return report;
}

TEST(GateGroups, GroupsByRuleAndKernelPairErrorsFirst) {
  const GateReport report = Report();
  const std::vector<GateFindingGroup> groups = GroupGateFindings(report);
  ASSERT_EQ(groups.size(), 3u);
  EXPECT_EQ(groups[0].rule, 1u);
  EXPECT_EQ(groups[0].members, (std::vector<size_t>{1, 4}));
  EXPECT_EQ(groups[1].members, (std::vector<size_t>{3}));
  EXPECT_EQ(groups[1].first_kernel, "b");
  EXPECT_EQ(groups[2].level, GateLevel::kWarning);
  EXPECT_EQ(groups[2].members, (std::vector<size_t>{0, 2}));
  EXPECT_EQ(GateGroupMessage(report, groups[0]), "e1 (and 1 more between these kernels)");
  EXPECT_EQ(GateGroupMessage(report, groups[1]), "e2");
}

TEST(GateGroups, FingerprintsAreStableAndDistinct) {
  const GateReport report = Report();
  const std::vector<GateFindingGroup> groups = GroupGateFindings(report);
  const std::string a = GateGroupFingerprint(report, groups[0]);
  EXPECT_EQ(a.size(), 16u);
  EXPECT_EQ(a.find_first_not_of("0123456789abcdef"), std::string::npos);
  EXPECT_NE(a, GateGroupFingerprint(report, groups[1]));  // kernels swapped
  EXPECT_NE(a, GateGroupFingerprint(report, groups[2]));  // other rule
  // Pinned: the fingerprint must not change between releases (code scanning matches on it).
  EXPECT_EQ(a, "ca747ab57dd009c9");  // FNV-1a 64 of "R2" 0x1f "a" 0x1f "b" 0x1f
  GateFindingGroup moved = groups[0];
  moved.members = {4};
  EXPECT_EQ(GateGroupFingerprint(report, moved), a);  // not the findings, only rule + kernels
}

}  // namespace
}  // namespace depgraph
