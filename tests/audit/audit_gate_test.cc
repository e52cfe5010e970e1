// The audit as a gate report (libdepgraph/audit/audit_gate.cc): rules, findings, checks,
// coverage gaps, the summary line and the exit code under --strict / --warnings-as-errors.
#include "depgraph/audit/audit_gate.h"

#include <gtest/gtest.h>

#include "audit/gate_test_support.h"

namespace depgraph {
namespace {

using testing::AuditForGate;
using testing::Flat;
using testing::GraphBuilder;
using testing::Output;
using testing::Strided;

const GateCheck& CheckNamed(const GateReport& report, const std::string& name) {
  for (const GateCheck& check : report.checks) {
    if (check.name == name) return check;
  }
  ADD_FAILURE() << "no check " << name;
  return report.checks.front();
}

GateReport Gate(const std::string& json, const GateOptions& options = {}) {
  auto c = AuditForGate(json);
  return AuditGateReport(c->graph, c->result, c->labels, "in/deps.json", options);
}

// Two tasks on interleaved halves of tensor 7, ordered by a tensormap row: false
// serialization and nothing else.
std::string FalseSerializationOnly() {
  GraphBuilder b;
  b.Tensor(7, 0, 64);
  b.Task(1, {Strided("INOUT", 7, 32, 2, 0)})
      .Task(2, {Strided("INPUT", 7, 32, 2, 1)})
      .Edge(1, 2, "tensormap", 0, 7, "other", Strided("", 7, 32, 2, 0));
  return b.Json();
}

// One task with a runtime-allocated OUTPUT slot no creator row names, one with an argument on
// a tensor that tensors[] lacks.
std::string WithCoverageGaps() {
  GraphBuilder b;
  b.Tensor(7, 0, 64);
  b.Task(1, {Output()}).Task(2, {Flat("INPUT", 99, 4)});
  return b.Json();
}

TEST(AuditGate, TheProbeFailsOnItsRaces) {
  const GateReport report = testing::ProbeGateReport();
  EXPECT_EQ(report.command, "audit");
  ASSERT_EQ(report.inputs.size(), 1u);
  EXPECT_EQ(report.inputs[0], testing::kProbeName);
  ASSERT_EQ(report.rules.size(), 4u);
  EXPECT_EQ(report.rules[0].id, "DG101");
  EXPECT_EQ(report.rules[1].id, "DG102");
  EXPECT_EQ(report.rules[2].id, "DG103");
  EXPECT_EQ(report.rules[3].id, "DG104");
  EXPECT_EQ(report.rules[0].consequence,
            "an intermittent race: the two tasks may run in either order");
  EXPECT_EQ(report.rules[3].level, GateLevel::kWarning);
  // docs/audit.md: 15 races (RAW 5, WAW 1, WAR 9), 2 false serialization findings.
  EXPECT_EQ(report.findings.size(), 17u);
  EXPECT_EQ(CheckNamed(report, "races (RAW)").findings, 5u);
  EXPECT_EQ(CheckNamed(report, "races (WAW)").findings, 1u);
  EXPECT_EQ(CheckNamed(report, "races (WAR)").findings, 9u);
  EXPECT_TRUE(CheckNamed(report, "races (RAW)").failed);
  EXPECT_EQ(CheckNamed(report, "false serialization").findings, 2u);
  EXPECT_FALSE(CheckNamed(report, "false serialization").failed);
  EXPECT_FALSE(CheckNamed(report, "coverage").failed);
  EXPECT_TRUE(report.coverage_gaps.empty());
  EXPECT_EQ(report.exit_code, 3);
  EXPECT_EQ(report.summary,
            "audit: 15 races (5 RAW, 1 WAW, 9 WAR), 2 false serializations; the capture can run "
            "racing tasks in either order");
  for (const GateFinding& f : report.findings) {
    EXPECT_EQ(f.path.size() >= 2, true);
    EXPECT_EQ(f.path.front().id, f.first.id);
    EXPECT_EQ(f.path.back().id, f.second.id);
    EXPECT_FALSE(f.first.kernel.empty());
    EXPECT_EQ(f.message.find('\n'), std::string::npos);
    EXPECT_EQ(f.level, f.rule == 3 ? GateLevel::kWarning : GateLevel::kError);
  }
}

TEST(AuditGate, ARaceFindingNamesBothAccessesTheBytesAndTheCause) {
  GraphBuilder b;
  b.Tensor(7, 0x1000, 64);
  b.Task(1, {Flat("INPUT", 7, 4), Flat("OUTPUT_EXISTING", 7, 8, 16)}, "auto", 3)
      .Task(2, {Flat("UNKNOWN", 7, 4, 16)}, "auto", 5);
  const GateReport report = Gate(b.Json());
  ASSERT_EQ(report.findings.size(), 1u);
  const GateFinding& f = report.findings[0];
  EXPECT_EQ(report.rules[f.rule].id, "DG101");
  EXPECT_EQ(f.first.access, "arg 1 OUTPUT_EXISTING");
  EXPECT_EQ(f.second.access, "arg 0 UNKNOWN");
  EXPECT_EQ(f.first.kernel, "f3");  // no name map: kernels by id
  EXPECT_EQ(f.region, "tensor 7 bytes [0x40, 0x50)");
  EXPECT_EQ(f.message,
            "race RAW: 1 f3 arg 1 OUTPUT_EXISTING -> 2 f5 arg 0 UNKNOWN on tensor 7 bytes "
            "[0x40, 0x50): no path orders them (cause: no_dep_read)");
  EXPECT_EQ(report.exit_code, 3);
}

TEST(AuditGate, FalseSerializationWarnsAndFailsOnlyAsAnError) {
  const GateReport plain = Gate(FalseSerializationOnly());
  ASSERT_EQ(plain.findings.size(), 1u);
  EXPECT_EQ(plain.findings[0].level, GateLevel::kWarning);
  EXPECT_EQ(plain.findings[0].edge_source, "tensormap");
  EXPECT_EQ(plain.exit_code, 0);
  EXPECT_EQ(plain.summary,
            "audit: no race, 1 false serialization; lost parallelism: the runtime orders tasks "
            "whose bytes never meet");
  GateOptions options;
  options.warnings_as_errors = true;
  const GateReport strict = Gate(FalseSerializationOnly(), options);
  EXPECT_EQ(strict.findings[0].level, GateLevel::kError);
  EXPECT_TRUE(CheckNamed(strict, "false serialization").failed);
  EXPECT_EQ(strict.exit_code, 3);
}

TEST(AuditGate, CoverageGapsWarnAndFailUnderStrict) {
  const GateReport plain = Gate(WithCoverageGaps());
  ASSERT_EQ(plain.coverage_gaps.size(), 2u);
  EXPECT_EQ(plain.coverage_gaps[0],
            "1 of 1 output slot cannot be placed (no creator row names them): races on their "
            "bytes cannot be seen");
  EXPECT_EQ(plain.coverage_gaps[1],
            "1 task argument has no byte set (1 no tensor): races on their bytes cannot be "
            "seen");
  EXPECT_EQ(CheckNamed(plain, "coverage").findings, 2u);
  EXPECT_FALSE(CheckNamed(plain, "coverage").failed);
  EXPECT_EQ(plain.exit_code, 0);
  GateOptions options;
  options.strict = true;
  const GateReport strict = Gate(WithCoverageGaps(), options);
  EXPECT_TRUE(CheckNamed(strict, "coverage").failed);
  EXPECT_EQ(strict.exit_code, 3);
}

TEST(AuditGate, ACleanCaptureAndTheManualScopeCapture) {
  auto clean = AuditForGate(testing::ReadFile(testing::SourceDir() +
                                              "/data/real/vector_example/default/deps.json"));
  const GateReport report =
      AuditGateReport(clean->graph, clean->result, clean->labels, "v.json", GateOptions{});
  EXPECT_EQ(report.exit_code, 0);
  EXPECT_TRUE(report.findings.empty());
  EXPECT_EQ(report.summary,
            "audit: no race, no false serialization; every conflicting access is ordered");
  // docs/audit.md: its 15 OUTPUT slots are unplaced (no creator rows in a manual scope).
  auto manual = AuditForGate(testing::ReadFile(
      testing::SourceDir() + "/data/real/paged_attention_manual_scope/CaseSmall1/deps.json"));
  GateOptions strict;
  strict.strict = true;
  const GateReport gaps =
      AuditGateReport(manual->graph, manual->result, manual->labels, "m.json", strict);
  ASSERT_FALSE(gaps.coverage_gaps.empty());
  EXPECT_EQ(gaps.coverage_gaps[0].rfind("15 of ", 0), 0u) << gaps.coverage_gaps[0];
  EXPECT_EQ(gaps.exit_code, 3);
}

}  // namespace
}  // namespace depgraph
