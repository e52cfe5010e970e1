// diff_gate: the diff classified by reachability into error / warning / info findings, each
// naming both tasks, the tensor, the access kinds and the edge's sources.
#include "depgraph/audit/diff_gate.h"

#include <gtest/gtest.h>

#include <memory>
#include <sstream>

#include "audit/gate_test_support.h"
#include "depgraph/audit/gate_github.h"
#include "depgraph/audit/gate_junit.h"
#include "depgraph/audit/gate_sarif.h"
#include "depgraph/graph/load_deps.h"
#include "depgraph/graph/name_map.h"
#include "test_util.h"

namespace depgraph {
namespace {

// Four tasks: fill (0) writes T0, add (1) reads it and writes T1, add (2) reads T1; scale (3)
// reads T0 only.
std::string Capture(const std::string& edges) {
  return R"({"tasks": [
    {"task_id": "0", "kernel_ids": [-1, 0, -1], "args": [{"idx": 0, "type": "OUTPUT", "tensor_id": "100"}]},
    {"task_id": "1", "kernel_ids": [-1, 1, -1], "args": [{"idx": 0, "type": "INPUT", "tensor_id": "100"},
                                                         {"idx": 1, "type": "OUTPUT", "tensor_id": "101"}]},
    {"task_id": "2", "kernel_ids": [-1, 1, -1], "args": [{"idx": 0, "type": "INPUT", "tensor_id": "101"}]},
    {"task_id": "3", "kernel_ids": [-1, 2, -1], "args": [{"idx": 0, "type": "INPUT", "tensor_id": "100"}]}],
  "tensors": [{"tensor_id": "100"}, {"tensor_id": "101"}],
  "edges": [)" + edges + "]}";
}

const char kA[] =
    R"({"pred": "0", "succ": "1", "arg": 0, "source": "creator", "tensor_id": "100"},
       {"pred": "0", "succ": "1", "arg": 0, "source": "tensormap", "tensor_id": "100"},
       {"pred": "1", "succ": "2", "arg": 0, "source": "tensormap", "tensor_id": "101"},
       {"pred": "0", "succ": "3", "arg": 0, "source": "tensormap", "tensor_id": "100"})";
// B loses 1 -> 2, adds 1 -> 3 (A does not order them) and 0 -> 2 (A implies it via 1).
const char kB[] =
    R"({"pred": "0", "succ": "1", "arg": 0, "source": "tensormap", "tensor_id": "100"},
       {"pred": "0", "succ": "2", "arg": -1, "source": "explicit"},
       {"pred": "0", "succ": "3", "arg": 0, "source": "tensormap", "tensor_id": "100"},
       {"pred": "1", "succ": "3", "arg": -1, "source": "explicit"})";

struct Fixture {
  DepGraph a, b;
  GraphDiff diff;
  DiffOptions options;
  std::vector<TaskLabel> labels_a, labels_b;
  Fixture() {
    a = testing::LoadText(Capture(kA));
    b = testing::LoadText(Capture(kB));
    std::string err;
    EXPECT_TRUE(DiffGraphs(a, b, options, "a.json", "b.json", &diff, &err)) << err;
    NameMap names;
    names.names = {{"0", "fill"}, {"1", "add"}, {"2", "scale"}};
    labels_a = ResolveTaskLabels(a, names);
    labels_b = ResolveTaskLabels(b, names);
  }
  GateReport Gate(GateOptions gate_options = {}) {
    report_input = std::make_unique<DiffReportInput>(
        DiffReportInput{a, b, diff, options, "a.json", "b.json"});
    return DiffGateReport(DiffGateInput{*report_input, labels_a, labels_b, gate_options});
  }
  std::unique_ptr<DiffReportInput> report_input;
};

std::vector<std::string> Lines(const GateReport& report) {
  std::vector<std::string> lines;
  for (const GateFinding& f : report.findings) lines.push_back(VerdictLine(f));
  return lines;
}

TEST(DiffGate, ClassifiesEveryEdgeTheGraphsDoNotShareByReachability) {
  Fixture fx;
  const GateReport report = fx.Gate();
  EXPECT_EQ(Lines(report),
            (std::vector<std::string>{
                "error: ordering lost: 1 add (arg 1 OUTPUT) -> 2 add (arg 0 INPUT) on T1, "
                "tensormap edge of A; B has no path between them",
                "warning: edge added: 1 add -> 3 scale, explicit edge of B; no path of A orders "
                "them (lost parallelism)",
                "info: edge implied: 0 fill -> 2 add, explicit edge of B is not an edge of A, "
                "whose path 0 -> 1 -> 2 keeps the order",
            }));
  EXPECT_EQ(report.rules[report.findings[0].rule].id, "DG201");
  EXPECT_EQ(report.rules[report.findings[1].rule].id, "DG202");
  EXPECT_EQ(report.rules[report.findings[2].rule].id, "DG203");
  ASSERT_EQ(report.findings[2].path.size(), 3u);
  EXPECT_EQ(report.findings[2].path[1].kernel, "add");
  EXPECT_EQ(report.exit_code, 3);
  EXPECT_EQ(report.summary,
            "diff: 1 ordering lost (error), 1 edge added that A does not imply (warning), "
            "1 edge implied through a path (info); B may run tasks A orders in either order: "
            "intermittent races");
  EXPECT_TRUE(report.coverage_gaps.empty());
}

TEST(DiffGate, ACreatorAndTensormapEdgeNamesBothSources) {
  Fixture fx;
  // B without 0 -> 1 at all: A's 0 -> 1 (creator + tensormap) is lost.
  fx.b = testing::LoadText(Capture(R"({"pred": "1", "succ": "2", "arg": 0, "source": "tensormap", "tensor_id": "101"})"));
  std::string err;
  fx.diff = GraphDiff{};
  ASSERT_TRUE(DiffGraphs(fx.a, fx.b, fx.options, "a.json", "b.json", &fx.diff, &err)) << err;
  const GateReport report = fx.Gate();
  ASSERT_FALSE(report.findings.empty());
  EXPECT_EQ(VerdictLine(report.findings[0]),
            "error: ordering lost: 0 fill (arg 0 OUTPUT) -> 1 add (arg 0 INPUT) on T0, "
            "creator+tensormap edge of A; B has no path between them");
}

TEST(DiffGate, WarningsFailOnlyWhenAskedAndGapsOnlyUnderStrict) {
  Fixture fx;
  // B keeps every ordering and adds 1 -> 3: a warning, exit 0 unless --warnings-as-errors.
  fx.b = testing::LoadText(Capture(std::string(kA) +
                                   R"(, {"pred": "1", "succ": "3", "arg": -1, "source": "explicit"})"));
  std::string err;
  fx.diff = GraphDiff{};
  ASSERT_TRUE(DiffGraphs(fx.a, fx.b, fx.options, "a.json", "b.json", &fx.diff, &err)) << err;
  EXPECT_EQ(fx.Gate().exit_code, 0);
  const GateReport strict_warnings = fx.Gate(GateOptions{false, true});
  EXPECT_EQ(strict_warnings.exit_code, 3);
  EXPECT_EQ(strict_warnings.findings[0].level, GateLevel::kError);
  // A task only in A is a coverage gap: a warning, a failure under --strict.
  fx.b = testing::LoadText(R"({"tasks": [{"task_id": "0", "kernel_ids": [-1, 0, -1]},
      {"task_id": "1", "kernel_ids": [-1, 1, -1]}, {"task_id": "2", "kernel_ids": [-1, 1, -1]}],
      "edges": [{"pred": "0", "succ": "1", "arg": -1, "source": "explicit"},
                {"pred": "1", "succ": "2", "arg": -1, "source": "explicit"}]})");
  fx.diff = GraphDiff{};
  ASSERT_TRUE(DiffGraphs(fx.a, fx.b, fx.options, "a.json", "b.json", &fx.diff, &err)) << err;
  const GateReport loose = fx.Gate();
  ASSERT_EQ(loose.coverage_gaps.size(), 1u);
  EXPECT_NE(loose.coverage_gaps[0].find("1 task of A and 0 of B have no partner"),
            std::string::npos)
      << loose.coverage_gaps[0];
  EXPECT_EQ(loose.exit_code, 0);
  EXPECT_EQ(fx.Gate(GateOptions{true, false}).exit_code, 3);
}

TEST(DiffGate, TheTextReportPrintsTheVerdictLinesAndTheSummary) {
  Fixture fx;
  const GateReport report = fx.Gate();
  DiffReportInput input{fx.a, fx.b, fx.diff, fx.options, "a.json", "b.json", &report};
  std::ostringstream text;
  WriteDiffText(input, text);
  EXPECT_NE(text.str().find("\nerror: ordering lost: 1 add (arg 1 OUTPUT) -> 2 add"),
            std::string::npos)
      << text.str();
  EXPECT_NE(text.str().find("\nwarning: edge added: 1 add -> 3 scale"), std::string::npos);
  EXPECT_NE(text.str().find("\ninfo: edge implied: 0 fill -> 2 add"), std::string::npos);
  EXPECT_NE(text.str().find("\nsummary: diff: 1 ordering lost (error)"), std::string::npos);
  EXPECT_NE(text.str().find("\nresult: B loses 1 ordering(s) of A: exit 3\n"), std::string::npos);
}

}  // namespace
}  // namespace depgraph

namespace depgraph {
namespace {

// The CI formats of a lost-ordering diff: the runtime's paged attention (A) against its
// manual-scope rewrite (B), which loses two allocation orderings. Goldens in tests/data/gate/
// (DEPGRAPH_UPDATE_GOLDENS=1 rewrites them, as for the audit's: scripts/make_gate_goldens.sh).
struct LostOrderingDiff {
  DepGraph a, b;
  GraphDiff diff;
  DiffOptions options;
  std::vector<TaskLabel> labels_a, labels_b;
  std::unique_ptr<DiffReportInput> input;
  GateReport gate;
  LostOrderingDiff() {
    const std::string real = testing::SourceDir() + "/data/real/";
    const std::string name_a = "data/real/paged_attention/CaseSmall1/deps.json";
    const std::string name_b = "data/real/paged_attention_manual_scope/CaseSmall1/deps.json";
    a = testing::LoadText(testing::ReadFile(testing::SourceDir() + "/" + name_a));
    b = testing::LoadText(testing::ReadFile(testing::SourceDir() + "/" + name_b));
    options.by_order = true;
    std::string err;
    EXPECT_TRUE(DiffGraphs(a, b, options, name_a, name_b, &diff, &err)) << err;
    NameMap names;
    const std::string map = DiscoverNameMap(real + "paged_attention/CaseSmall1");
    EXPECT_EQ(LoadNameMap(map, &names, &err), NameMapStatus::kOk) << err;
    labels_a = ResolveTaskLabels(a, names);
    labels_b = ResolveTaskLabels(b, names);
    input = std::make_unique<DiffReportInput>(DiffReportInput{a, b, diff, options, name_a, name_b});
    gate = DiffGateReport(DiffGateInput{*input, labels_a, labels_b, GateOptions{}});
    input->gate = &gate;
  }
};

TEST(GateDiffGolden, LostOrderingDiffInEveryFormat) {
  LostOrderingDiff d;
  EXPECT_EQ(d.gate.exit_code, 3);
  std::ostringstream text, sarif, junit, annotations, summary;
  WriteDiffText(*d.input, text);
  WriteGateSarif(d.gate, sarif, "");
  WriteGateJunit(d.gate, junit);
  WriteGateAnnotations(d.gate, annotations);
  WriteGateMarkdownSummary(d.gate, summary);
  testing::ExpectGolden("pa_small_vs_manual.diff.txt", text.str());
  testing::ExpectGolden("pa_small_vs_manual.sarif", sarif.str());
  testing::ExpectGolden("pa_small_vs_manual.junit.xml", junit.str());
  testing::ExpectGolden("pa_small_vs_manual.annotations.txt", annotations.str());
  testing::ExpectGolden("pa_small_vs_manual.summary.md", summary.str());
}

}  // namespace
}  // namespace depgraph
