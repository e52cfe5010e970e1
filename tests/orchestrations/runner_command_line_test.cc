// orch_runner's command line (apps/orch_runner/main.cc): --version, suggestions for misspelled
// options, and usage errors in the user's words.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include <sys/stat.h>

#include "runner_test_util.h"

namespace depgraph::testing {
namespace {

class RunnerCommandLineTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = FreshDir(::testing::UnitTest::GetInstance()->current_test_info()->name());
    ASSERT_FALSE(dir_.empty());
  }
  std::string dir_;
};

TEST_F(RunnerCommandLineTest, VersionPrintsAndExitsZero) {
  const RunnerRun r = RunRunner({"--version"}, dir_);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.rfind("orch_runner 0.", 0), 0u) << r.out;
  EXPECT_EQ(r.err, "");
}

TEST_F(RunnerCommandLineTest, MisspelledOptionSuggestsTheRightOne) {
  RunnerRun r = RunRunner({Module("orch_runner_probe"), "--outptu", dir_ + "/deps.json"}, dir_);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("unknown option '--outptu' (did you mean '--output'?)"), std::string::npos)
      << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  r = RunRunner({Module("orch_runner_probe"), "--platfrom=a5"}, dir_);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("(did you mean '--platform'?)"), std::string::npos) << r.err;
  r = RunRunner({Module("orch_runner_probe"), "--zzzzzzzz"}, dir_);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("unknown option '--zzzzzzzz' (see --help)"), std::string::npos) << r.err;
}

TEST_F(RunnerCommandLineTest, UsageErrorsUseTheUserFacingNames) {
  RunnerRun r = RunRunner({"-o", dir_ + "/deps.json"}, dir_);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("missing argument: orchestration shared object (.so) to run"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(r.err.find("is required"), std::string::npos) << r.err;
  r = RunRunner({Module("orch_runner_probe"), "extra.so"}, dir_);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("unexpected argument 'extra.so'"), std::string::npos) << r.err;
  // An argument with a line break or an escape sequence is echoed escaped, on one line.
  r = RunRunner({Module("orch_runner_probe"), "--ring-heap-size", "1\n\x1b[2J"}, dir_);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_EQ(r.err.find('\x1b'), std::string::npos) << r.err;
}

// Issue 25 item 5: a FIFO given as the orchestration library blocked forever in dlopen; it is
// refused like every other input (one line naming it, exit 1). A directory too.
TEST_F(RunnerCommandLineTest, FifoOrDirectoryAsTheLibraryIsRefused) {
  const std::string fifo = dir_ + "/orch.so";
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  for (const std::string& library : {fifo, dir_}) {
    const RunnerRun r = RunRunner({library, "-o", dir_ + "/deps.json"}, dir_);
    EXPECT_EQ(r.exit_code, 1) << r.err;
    EXPECT_NE(r.err.find(library + ": "), std::string::npos) << r.err;
    EXPECT_NE(r.err.find(library == fifo ? "FIFO" : "directory"), std::string::npos) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_EQ(ReadFile(dir_ + "/deps.json"), "");
  }
}

}  // namespace
}  // namespace depgraph::testing
