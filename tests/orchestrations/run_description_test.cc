// orch_runner's run description (apps/orch_runner/entry_args.h) and entry tensor data: every
// bad input is one line naming the file and the place, exit 2, no output, never a crash.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

#include "runner_test_util.h"

namespace depgraph::testing {
namespace {

namespace fs = std::filesystem;

class RunDescriptionTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = FreshDir(::testing::UnitTest::GetInstance()->current_test_info()->name());
    ASSERT_FALSE(dir_.empty());
  }
  std::string deps() const { return dir_ + "/deps.json"; }
  std::string desc() const { return dir_ + "/run.json"; }
  /// Runs the probe (mode 0: one task per tensor) with `text` as the description.
  RunnerRun RunWith(const std::string& text, std::vector<std::string> extra = {}) {
    WriteFile(desc(), text);
    std::vector<std::string> args = {Module("orch_runner_probe"), "-a", desc(), "-o", deps()};
    args.insert(args.end(), extra.begin(), extra.end());
    return RunRunner(args, dir_);
  }
  /// The run failed as a bad run description: exit 2, one line, nothing written.
  static void ExpectUsageError(const RunnerRun& r, const std::string& needle) {
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_NE(r.err.find(needle), std::string::npos) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_EQ(r.err.find('\x1b'), std::string::npos) << r.err;
  }
  std::string dir_;
};

// Issue item 1: a number beyond a double anywhere in the description aborted the runner
// (out_of_range.406 escaping, exit 134).
TEST_F(RunDescriptionTest, NumberBeyondADoubleIsABadDescription) {
  const std::string f32 = R"({"shape":[2],"dtype":"FLOAT32","values":[1.0, )";
  struct Case {
    std::string text;
    std::string path;
  };
  const Case cases[] = {
      {R"({"tensors":[)" + f32 + "1e400]}], \"scalars\":[0,0]}", "tensors[0].values[1]"},
      {R"({"tensors":[)" + f32 + "-1e400]}], \"scalars\":[0,0]}", "tensors[0].values[1]"},
      {R"({"scalars":[0, 1e400]})", "scalars[1]"},
      {R"({"scalars":[0, {"f64": -1e400}]})", "scalars[1].f64"},
      {R"({"ring_heap_size": 1e400})", "ring_heap_size"},
      {R"({"comment": {"x": [1e999]}})", "comment.x[0]"},
  };
  for (const Case& c : cases) {
    const RunnerRun r = RunWith(c.text);
    ExpectUsageError(r, desc() + ": " + c.path + ": number ");
    EXPECT_NE(r.err.find("is out of range"), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(deps()));
  }
  // A float that fits a double but not FLOAT32 is a value that does not fit.
  ExpectUsageError(RunWith(R"({"tensors":[)" + f32 + "1e300]}], \"scalars\":[0,0]}"),
                   desc() + ": tensors[0].values[1]: 1e+300 does not fit FLOAT32");
  // The same number on the command line.
  RunnerRun r = RunRunner({Module("orch_runner_probe"), "-t", "f32:1=1e400", "-o", deps()}, dir_);
  ExpectUsageError(r, "--tensor f32:1=1e400: bad value \"1e400\"");
  r = RunRunner({Module("orch_runner_probe"), "-s", "f64:1e400", "-o", deps()}, dir_);
  ExpectUsageError(r, "scalar \"f64:1e400\": out of range");
}

// Issue item 2: a data file that is a directory aborted (std::ios failure); /dev/zero was read
// without bound.
TEST_F(RunDescriptionTest, DataFileMustBeARegularFileOfTheRightSize) {
  const auto start = std::chrono::steady_clock::now();
  ExpectUsageError(
      RunWith(
          R"({"tensors":[{"shape":[4],"dtype":"f32","data_file":"/dev/zero"}],"scalars":[0,0]})"),
      desc() +
          ": tensors[0].data_file: data file /dev/zero: is a character device, not a "
          "regular file");
  ExpectUsageError(
      RunWith(R"({"tensors":[{"shape":[4],"dtype":"f32","data_file":"."}],"scalars":[0,0]})"),
      desc() + ": tensors[0].data_file: data file " + dir_ + "/.: is a directory");
  RunnerRun r =
      RunRunner({Module("orch_runner_probe"), "-t", "f32:4@/dev/zero", "-o", deps()}, dir_);
  ExpectUsageError(r, "--tensor f32:4@/dev/zero: data file /dev/zero: is a character device");
  r = RunRunner({Module("orch_runner_probe"), "-t", "f32:4@" + dir_, "-o", deps()}, dir_);
  ExpectUsageError(r, "is a directory");
  const std::string fifo = dir_ + "/fifo";
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  r = RunRunner({Module("orch_runner_probe"), "-t", "f32:4@" + fifo, "-o", deps()}, dir_);
  ExpectUsageError(r, "fifo: is a FIFO, not a regular file");
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(20));

  // A regular file must hold exactly the tensor's bytes.
  WriteFile(dir_ + "/big.bin", std::string(17, 'x'));
  ExpectUsageError(
      RunWith(R"({"tensors":[{"shape":[4],"dtype":"f32","data_file":"big.bin"}],"scalars":[0,0]})"),
      "tensors[0].data_file: data file " + dir_ + "/big.bin has 17 bytes, the tensor needs 16");
  WriteFile(dir_ + "/ok.bin", std::string(16, 'x'));
  r = RunWith(R"({"tensors":[{"shape":[4],"dtype":"f32","data_file":"ok.bin"}],"scalars":[0,0]})");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(fs::exists(deps()));
}

// No output may replace one of the run's inputs, however its path is spelt.
TEST_F(RunDescriptionTest, OutputsNeverReplaceInputs) {
  WriteFile(dir_ + "/ok.bin", std::string(16, 'x'));
  const std::string text =
      R"({"tensors":[{"shape":[4],"dtype":"f32","data_file":"ok.bin"}],"scalars":[0,0]})";
  WriteFile(desc(), text);
  const auto run_to = [&](const std::string& output) {
    return RunRunner({Module("orch_runner_probe"), "-a", desc(), "-o", output}, dir_);
  };
  RunnerRun r = run_to(dir_ + "/./run.json");
  ExpectUsageError(r, "run.json: is the input file " + desc());
  EXPECT_EQ(ReadFile(desc()), text);
  r = run_to(dir_ + "/ok.bin");
  ExpectUsageError(r, "ok.bin: is the input file " + dir_ + "/ok.bin");
  EXPECT_EQ(ReadFile(dir_ + "/ok.bin"), std::string(16, 'x'));
  r = RunWith(text, {"--kernel-names", "A", "--name-map", Module("orch_runner_probe")});
  ExpectUsageError(r, ": is the input file " + Module("orch_runner_probe"));
}

TEST_F(RunDescriptionTest, DescriptionMustBeARegularFile) {
  RunnerRun r = RunRunner({Module("orch_runner_probe"), "-a", "/dev/zero", "-o", deps()}, dir_);
  ExpectUsageError(r, "/dev/zero: is a character device, not a regular file");
  r = RunRunner({Module("orch_runner_probe"), "-a", dir_, "-o", deps()}, dir_);
  ExpectUsageError(r, dir_ + ": is a directory");
}

// A file that is not JSON is a syntax error at its line and column, not "got null".
TEST_F(RunDescriptionTest, SyntaxErrorsHaveLineAndColumn) {
  ExpectUsageError(RunWith("not json"), desc() + ": line 1:column 1: invalid JSON value");
  ExpectUsageError(RunWith("{\"scalars\": [1,\n  2,]}"), desc() + ": line 2:column 5: ");
  ExpectUsageError(RunWith("[1, 2]"),
                   desc() + ": expected a JSON object at the top level, got array");
}

// RFC 8259 input is UTF-8: ill-formed bytes, overlong forms, raw surrogates and lone surrogate
// escapes are rejected where they stand.
TEST_F(RunDescriptionTest, InvalidUtf8IsRejected) {
  const std::string bad[] = {"\xff",    "\xc0\xaf", "\xed\xa0\x80",
                             "\\ud800", "\\udc00x", "\\ud800\\u0041"};
  for (const std::string& b : bad) {
    const RunnerRun r = RunWith("{\"comment\": \"ab" + b + "\"}");
    ExpectUsageError(r, desc() + ": line 1:column 16: ");
    EXPECT_TRUE(r.err.find("UTF-8") != std::string::npos ||
                r.err.find("surrogate") != std::string::npos)
        << r.err;
  }
  EXPECT_EQ(RunWith("{\"comment\": \"caf\xc3\xa9 \\ud83d\\ude00\", \"scalars\": [0, 0]}").exit_code,
            0);
}

// Issue item 9: keys and names echoed into messages are escaped (one line, no raw ESC).
TEST_F(RunDescriptionTest, EchoedUserTextIsEscaped) {
  ExpectUsageError(RunWith("{\"bad\\nkey\\u001b[31m\": 1}"),
                   desc() + ": [\"bad\\nkey\\u001B[31m\"]: unknown key");
  ExpectUsageError(RunWith(R"({"tensors":[{"shape":[1],"dtype":"f32","x\ny":1}]})"),
                   desc() + ": tensors[0][\"x\\ny\"]: unknown key");
  ExpectUsageError(RunWith(R"({"kernel_names":{"1\n":"A"}})"),
                   desc() + ": kernel_names[\"1\\n\"]: expected");
  // A tensor name with a line break, echoed by a run failure (exit 1: paged_attention reads
  // context_lens, which has no data here), stays on one line.
  WriteFile(desc(),
            R"({"tensors":[{"shape":[16,16],"dtype":"bf16"},{"shape":[48,16],"dtype":"bf16"},
    {"shape":[48,16],"dtype":"bf16"},{"shape":[1,3],"dtype":"i32","values":[2,2,0]},
    {"name":"context\nlens\u001b[2J","shape":[1],"dtype":"i32"},{"shape":[16,16],"dtype":"f32"}],
    "scalars":[16]})");
  const RunnerRun r = RunRunner({Module("orch_paged_attention"), "-a", desc(), "-o", deps()}, dir_);
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("= entry tensor 4 'context\\nlens\\u001B[2J')"), std::string::npos) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_EQ(r.err.find('\x1b'), std::string::npos) << r.err;
  RunnerRun cli = RunRunner({Module("orch_runner_probe"), "-s", "1\n2", "-o", deps()}, dir_);
  ExpectUsageError(cli, "scalar \"1\\n2\": ");
  cli = RunRunner({Module("orch_runner_probe"), "--kernel-names", "A,\xff", "-o", deps()}, dir_);
  ExpectUsageError(cli, "--kernel-names: \"\\xFF\" is not valid UTF-8");
}

// Kernel names given as an object keep their order: the name map lists them as written, like
// the runtime's (a sorted map wrote "0","1","3").
TEST_F(RunDescriptionTest, KernelNamesObjectKeepsItsOrder) {
  const RunnerRun r = RunWith(
      R"({"scalars":[0,0],"kernel_names":{"3":"UP","0":"QK","1":"SF"},"orchestrator_name":"o"})",
      {"--name-map", dir_ + "/names.json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(ReadFile(dir_ + "/names.json"),
            "{\n  \"level\": 2,\n  \"orchestrator_name\": \"o\",\n  \"callable_id_to_name\": {\n"
            "    \"3\": \"UP\",\n    \"0\": \"QK\",\n    \"1\": \"SF\"\n  }\n}");
}

}  // namespace
}  // namespace depgraph::testing
