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

}  // namespace
}  // namespace depgraph
