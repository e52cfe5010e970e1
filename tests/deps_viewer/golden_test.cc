// Byte-for-byte comparison with the reference viewer's outputs on every real capture in
// data/real/<example>/<case>/expected, for all five edge modes, with the default, one and two
// threads.
#include <gtest/gtest.h>

#include <filesystem>

#include "test_util.h"

namespace depgraph {
namespace {

namespace fs = std::filesystem;
using testing::ReadFile;

struct GoldenCase {
  std::string dir;   // data/real/<example>/<case>
  std::string mode;
};

std::vector<GoldenCase> AllCases() {
  std::vector<GoldenCase> cases;
  std::vector<std::string> dirs;
  for (const auto& example : fs::directory_iterator(testing::SourceDir() + "/data/real")) {
    for (const auto& c : fs::directory_iterator(example.path())) {
      if (fs::exists(c.path() / "expected")) dirs.push_back(c.path().string());
    }
  }
  std::sort(dirs.begin(), dirs.end());
  for (const std::string& dir : dirs) {
    for (const char* mode : {"full", "reduced", "omitted", "reduced_dataflow", "omitted_dataflow"}) {
      cases.push_back({dir, mode});
    }
  }
  return cases;
}

// Names the case in test output instead of a byte dump.
void PrintTo(const GoldenCase& c, std::ostream* os) { *os << c.dir << " --edge-mode " << c.mode; }

class GoldenTest : public ::testing::TestWithParam<GoldenCase> {};

TEST_P(GoldenTest, MatchesReferenceByteForByte) {
  const GoldenCase& c = GetParam();
  testing::TempDir work;
  // A copy of the case directory without the expected outputs, as the reference was run.
  for (const auto& entry : fs::directory_iterator(c.dir)) {
    if (entry.is_regular_file()) fs::copy_file(entry.path(), work.File(entry.path().filename()));
  }
  fs::create_directory(work.File("expected"));
  const std::string expected = c.dir + "/expected/" + c.mode;
  // The default thread count, then one and two threads explicitly: with an explicit count the
  // reduction and the dataflow proof split even these small graphs, and nothing may change.
  for (const char* threads : {"", " --threads 1", " --threads 2"}) {
    SCOPED_TRACE(threads);
    testing::CommandResult run = testing::RunCommand(
        "'" + testing::ViewerBinary() + "' deps.json --edge-mode " + c.mode + threads +
            " -o expected/" + c.mode + ".txt",
        work.path());
    EXPECT_EQ(std::to_string(run.exit_code) + "\n", ReadFile(expected + ".rc"));
    EXPECT_EQ(run.out, ReadFile(expected + ".stdout"));
    EXPECT_EQ(run.err, ReadFile(expected + ".stderr"));
    EXPECT_EQ(ReadFile(work.File("expected/" + c.mode + ".txt")), ReadFile(expected + ".txt"));
    fs::remove(work.File("expected/" + c.mode + ".txt"));
  }
}

std::string CaseName(const ::testing::TestParamInfo<GoldenCase>& info) {
  fs::path dir(info.param.dir);
  std::string name = dir.parent_path().filename().string() + "_" + dir.filename().string() +
                     "_" + info.param.mode;
  for (char& ch : name) {
    if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
  }
  return name;
}

INSTANTIATE_TEST_SUITE_P(RealCaptures, GoldenTest, ::testing::ValuesIn(AllCases()), CaseName);

TEST(GoldenCorpus, EveryShippedCaseIsCovered) {
  // 17 real captures ship in data/real; a missing copy would silently shrink the suite.
  EXPECT_EQ(AllCases().size(), 17u * 5u);
}

}  // namespace
}  // namespace depgraph
