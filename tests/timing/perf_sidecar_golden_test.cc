// Byte-for-byte comparison with the reference viewer's outputs on captures that carry a perf
// sidecar (chip_swimlane_records.json): data/timing/viewer_sidecar/<case>/expected and
// data/timing_viewer/<case>/expected/deps_viewer, each run as `deps_viewer deps.json -o
// full.txt` inside a scratch copy of the case directory.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

#include "test_util.h"

namespace depgraph {
namespace {

namespace fs = std::filesystem;
using testing::ReadFile;

struct SidecarCase {
  std::string dir;       // the case directory
  std::string expected;  // its expected/ (or expected/deps_viewer/) directory
};

std::vector<SidecarCase> AllCases() {
  std::vector<SidecarCase> cases;
  for (const char* root : {"/data/timing/viewer_sidecar", "/data/timing_viewer"}) {
    for (const auto& c : fs::directory_iterator(testing::SourceDir() + root)) {
      const fs::path nested = c.path() / "expected" / "deps_viewer";
      const fs::path expected = fs::exists(nested) ? nested : c.path() / "expected";
      if (fs::exists(expected / "full.txt")) cases.push_back({c.path(), expected});
    }
  }
  std::sort(cases.begin(), cases.end(),
            [](const SidecarCase& a, const SidecarCase& b) { return a.dir < b.dir; });
  return cases;
}

void PrintTo(const SidecarCase& c, std::ostream* os) { *os << c.dir; }

class PerfSidecarGoldenTest : public ::testing::TestWithParam<SidecarCase> {};

TEST_P(PerfSidecarGoldenTest, MatchesReferenceByteForByte) {
  const SidecarCase& c = GetParam();
  testing::TempDir scratch;
  // A copy of the case directory, under its own name, without the expected outputs.
  const std::string work = scratch.File(fs::path(c.dir).filename());
  fs::create_directory(work);
  for (const auto& entry : fs::directory_iterator(c.dir)) {
    if (entry.is_regular_file()) fs::copy_file(entry.path(), work / entry.path().filename());
  }
  ASSERT_TRUE(testing::Exists(work + "/chip_swimlane_records.json"));
  testing::CommandResult run =
      testing::RunCommand("'" + testing::ViewerBinary() + "' deps.json -o full.txt", work);
  EXPECT_EQ(std::to_string(run.exit_code) + "\n", ReadFile(c.expected + "/full.rc"));
  EXPECT_EQ(run.out, ReadFile(c.expected + "/full.stdout"));
  EXPECT_EQ(run.err, ReadFile(c.expected + "/full.stderr"));
  EXPECT_EQ(ReadFile(work + "/full.txt"), ReadFile(c.expected + "/full.txt"));
}

std::string CaseName(const ::testing::TestParamInfo<SidecarCase>& info) {
  std::string name = fs::path(info.param.dir).filename().string();
  for (char& ch : name) {
    if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
  }
  return name;
}

INSTANTIATE_TEST_SUITE_P(SidecarCaptures, PerfSidecarGoldenTest, ::testing::ValuesIn(AllCases()),
                         CaseName);

TEST(PerfSidecarGoldenCorpus, EveryShippedCaseIsCovered) {
  // 5 hand-made sidecars and 9 single-rank timing cases; a missing copy would shrink the suite.
  EXPECT_EQ(AllCases().size(), 14u);
}

// Without its sidecar a timing case prints what the real capture it was copied from prints:
// the sidecar is what changes the output (dep_probe_spmd gains the sidecar-only node (5, 7)).
TEST(PerfSidecarGolden, DepProbeSpmdDiffersFromTheCaptureOnlyByTheSidecarNode) {
  const std::string dir = testing::SourceDir() + "/data/timing_viewer/dep_probe_spmd";
  testing::TempDir work;
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (entry.is_regular_file() && entry.path().filename() != "chip_swimlane_records.json") {
      fs::copy_file(entry.path(), work.File(entry.path().filename()));
    }
  }
  testing::CommandResult run =
      testing::RunCommand("'" + testing::ViewerBinary() + "' deps.json -o full.txt", work.path());
  ASSERT_EQ(run.exit_code, 0) << run.err;
  EXPECT_EQ(ReadFile(work.File("full.txt")),
            ReadFile(testing::SourceDir() + "/data/real/dep_probe/default/expected/full.txt"));
}

// The drawings follow the records' core types (spec/timing.md §5, HTML): a MIX task by its
// kernel slots whose rows all ran on AIC cores is an aic box, an AIV task that ran on an AIC
// core too; a sidecar-only id is an alloc note with a fire; the panel's bucket of a sidecar
// task without a name map is f-1.
TEST(PerfSidecarGolden, DrawingsFollowTheRecordsCoreTypes) {
  testing::TempDir dir;
  testing::WriteFile(dir.File("deps.json"), R"({"tasks":[
    {"task_id":"1","kernel_ids":[0,1,-1]},{"task_id":"2","kernel_ids":[-1,1,-1]},
    {"task_id":"3","kernel_ids":[-1,1,-1]}],
    "edges":[{"pred":"1","succ":"2"},{"pred":"2","succ":"3"}]})");
  testing::WriteFile(dir.File("chip_swimlane_records.json"), R"({"chip_swimlane_level": 1,
    "metadata": {"clock_freq_hz": 50000000, "core_types": ["aic", "aiv"]},
    "aicore_tasks": [[0, 1, 1, 100, 200, 0], [0, 2, 2, 300, 400, 0], [0, 9, 3, 500, 600, 0]],
    "aicpu_tasks": []})");
  testing::CommandResult run = testing::RunCommand(
      "'" + testing::ViewerBinary() + "' deps.json --format dot -o out.dot", dir.path());
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const std::string dot = ReadFile(dir.File("out.dot"));
  auto node = [&](const std::string& id) {
    const size_t at = dot.find("  " + id + " [");
    return at == std::string::npos ? std::string() : dot.substr(at, dot.find('\n', at) - at);
  };
  const std::string aic = R"(shape=box, style="rounded,filled", fillcolor="#66A3FF")";
  EXPECT_NE(node("T0_1").find(aic), std::string::npos) << node("T0_1");  // mix by its slots
  EXPECT_NE(node("T0_2").find(aic), std::string::npos) << node("T0_2");  // aiv by its slots
  EXPECT_NE(node("T0_3").find(R"(shape=ellipse, style="filled", fillcolor="#FFB366")"),
            std::string::npos)
      << node("T0_3");  // no records: its slots decide
  EXPECT_NE(node("T0_9").find("label=\"\xF0\x9F\x94\xA5 9 \xC2\xB7 alloc"), std::string::npos)
      << node("T0_9");
  EXPECT_NE(node("T0_9").find(R"(shape=note, style="filled,dashed")"), std::string::npos);

  run = testing::RunCommand(
      "'" + testing::ViewerBinary() + "' deps.json --format html --layout graphviz -o out.html",
      dir.path());
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const std::string html = ReadFile(dir.File("out.html"));
  EXPECT_NE(html.find(R"("label":"1","name_hint":"f-1")"), std::string::npos);  // quirk
  EXPECT_NE(html.find(R"("label":"3","name_hint":"f1")"), std::string::npos);  // no records
  EXPECT_NE(html.find(R"("label":"9","name_hint":"alloc")"), std::string::npos);
}

}  // namespace
}  // namespace depgraph
