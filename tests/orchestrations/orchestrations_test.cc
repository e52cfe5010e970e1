// Our orchestrations, built against the runtime shim and run through orch_runner, reproduce
// the real captures in data/real; and the runner's own behaviour (errors, flags, outputs).
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <ostream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "deps_equivalence.h"
#include "runner_test_util.h"

namespace depgraph::testing {
namespace {

namespace fs = std::filesystem;

const std::string kSource = DEPGRAPH_SOURCE_DIR;
const std::string kCases = kSource + "/tests/orchestrations/cases/";

// ---------------------------------------------------------------------------------------------
// Real captures.

/// One real capture and how we reproduce it.
struct RealCase {
  const char* name;     // test name
  const char* module;   // orchestration target
  const char* args;     // run description in tests/orchestrations/cases
  const char* capture;  // data/real/<example>/<case>
};

const RealCase kRealCases[] = {
    {"vector_example", "orch_vector_example", "vector_example", "vector_example/default"},
    {"dep_gen_vector_example", "orch_vector_example", "vector_example",
     "dep_gen_vector_example/default"},
    {"hbg_vector_example", "orch_hbg_vector_example", "hbg_vector_example",
     "hbg_vector_example/default"},
    {"hbg_dep_gen_vector_example", "orch_vector_example_hbg", "hbg_vector_example",
     "hbg_dep_gen_vector_example/default"},
    {"dep_gen_chain_n_64_no_chain", "orch_dep_gen_chain", "dep_gen_chain_n64",
     "dep_gen_chain/n_64_no_chain"},
    {"dep_gen_chain_n_65_single_overflow", "orch_dep_gen_chain", "dep_gen_chain_n65",
     "dep_gen_chain/n_65_single_overflow"},
    {"benchmark_bgemm_Bgemm64", "orch_benchmark_bgemm", "benchmark_bgemm_Bgemm64",
     "benchmark_bgemm/Bgemm64"},
    {"benchmark_bgemm_Case1", "orch_benchmark_bgemm", "benchmark_bgemm_Case1",
     "benchmark_bgemm/Case1"},
    {"benchmark_bgemm_Case2", "orch_benchmark_bgemm", "benchmark_bgemm_Case2",
     "benchmark_bgemm/Case2"},
    {"benchmark_bgemm_Case3", "orch_benchmark_bgemm", "benchmark_bgemm_Case3",
     "benchmark_bgemm/Case3"},
    {"benchmark_bgemm_Case4", "orch_benchmark_bgemm", "benchmark_bgemm_Case4",
     "benchmark_bgemm/Case4"},
    {"paged_attention_CaseSmall1", "orch_paged_attention", "paged_attention_CaseSmall1",
     "paged_attention/CaseSmall1"},
    {"paged_attention_CaseVarSeq2", "orch_paged_attention", "paged_attention_CaseVarSeq2",
     "paged_attention/CaseVarSeq2"},
    {"paged_attention_manual_scope_CaseSmall1", "orch_paged_attention_manual_scope",
     "paged_attention_manual_scope_CaseSmall1", "paged_attention_manual_scope/CaseSmall1"},
    {"mixed_example_case2", "orch_mixed_example", "mixed_example_case2", "mixed_example/case2"},
    {"spmd_basic_Case1", "orch_spmd_basic", "spmd_basic_Case1", "spmd_basic/Case1"},
    {"dep_probe", "orch_dep_probe", "dep_probe", "dep_probe/default"},
};

/// Names the case in test listings (instead of a byte dump).
void PrintTo(const RealCase& c, std::ostream* os) { *os << c.capture; }

/// Runs one real case and compares the outputs with the capture.
class RealCaptureTest : public ::testing::TestWithParam<RealCase> {};

TEST_P(RealCaptureTest, ReproducesTheRealGraph) {
  const RealCase& c = GetParam();
  const std::string capture = kSource + "/data/real/" + c.capture;
  const std::string dir = FreshDir(c.name);
  ASSERT_FALSE(dir.empty());
  RunnerRun r = RunRunner({Module(c.module), "-a", kCases + c.args + ".json", "-o", dir + "/deps.json",
                     "--name-map", dir + "/name_map.json"},
                    dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find(" tasks, "), std::string::npos) << r.out;

  std::string diff;
  EXPECT_TRUE(DepsFilesEquivalent(capture + "/deps.json", dir + "/deps.json", &diff)) << diff;

  // The name map, where the real case has one, byte for byte.
  std::string real_name_map;
  for (const auto& entry : fs::directory_iterator(capture)) {
    if (entry.path().filename().string().rfind("name_map", 0) == 0) {
      real_name_map = entry.path().string();
    }
  }
  if (real_name_map.empty()) {
    EXPECT_FALSE(fs::exists(dir + "/name_map.json"));
  } else {
    EXPECT_EQ(ReadFile(dir + "/name_map.json"), ReadFile(real_name_map));
  }
}

INSTANTIATE_TEST_SUITE_P(Real, RealCaptureTest, ::testing::ValuesIn(kRealCases),
                         [](const ::testing::TestParamInfo<RealCase>& info) {
                           return std::string(info.param.name);
                         });

// ---------------------------------------------------------------------------------------------
// The runner.

/// Runner behaviour; each test gets a fresh directory.
class RunnerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = FreshDir(::testing::UnitTest::GetInstance()->current_test_info()->name());
    ASSERT_FALSE(dir_.empty());
  }
  std::string deps() const { return dir_ + "/deps.json"; }
  std::string dir_;
};

TEST_F(RunnerTest, FatalErrorExitsOneWithTheMessageAndWritesNothing) {
  RunnerRun r = RunRunner({Module("orch_runner_probe"), "-t", "f32:16", "-s", "1", "-o", deps(),
                     "--kernel-names", "A"},
                    dir_);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("requested failure 42"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << "one line: " << r.err;
  EXPECT_FALSE(fs::exists(deps()));
  EXPECT_FALSE(fs::exists(dir_ + "/name_map_orch_runner_probe.json"));
}

TEST_F(RunnerTest, FailureLeavesAnExistingOutputUntouched) {
  { std::ofstream(deps()) << "old"; }
  RunnerRun r = RunRunner({Module("orch_runner_probe"), "-t", "f32:16", "-s", "1", "-o", deps()}, dir_);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(ReadFile(deps()), "old");
  for (const auto& entry : fs::directory_iterator(dir_)) {
    EXPECT_EQ(entry.path().string().find(".tmp."), std::string::npos) << entry.path();
  }
}

TEST_F(RunnerTest, FailedAssertionExitsOne) {
  RunnerRun r = RunRunner({Module("orch_runner_probe"), "-t", "f32:16", "-s", "2", "-o", deps()}, dir_);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("mode == 0"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(deps()));
}

TEST_F(RunnerTest, ConfigArgCountIsALowerBoundCheckedForTmrbOnly) {
  RunnerRun tmrb = RunRunner({Module("orch_runner_probe"), "-t", "f32:16", "-o", deps()}, dir_);
  EXPECT_EQ(tmrb.exit_code, 1);
  EXPECT_NE(tmrb.err.find("expects at least 2 entry arguments, got 1"), std::string::npos)
      << tmrb.err;
  RunnerRun more = RunRunner(
      {Module("orch_runner_probe"), "-t", "f32:16", "-t", "i32:2=1,2", "-s", "0", "-o", deps()},
      dir_);
  EXPECT_EQ(more.exit_code, 0) << more.err;
  RunnerRun hbg = RunRunner({Module("orch_runner_probe_hbg"), "--runtime", "host_build_graph", "-t",
                       "f32:16", "-o", deps()},
                      dir_);
  EXPECT_EQ(hbg.exit_code, 0) << hbg.err;
  nlohmann::json doc = nlohmann::json::parse(ReadFile(deps()));
  ASSERT_EQ(doc["tasks"].size(), 1u);
}

TEST_F(RunnerTest, EntryAndConfigSymbolsCanBeNamed) {
  RunnerRun r = RunRunner({Module("orch_runner_probe"), "--entry", "probe_alt_entry", "-s", "0", "-s",
                     "0", "-o", deps()},
                    dir_);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  nlohmann::json doc = nlohmann::json::parse(ReadFile(deps()));
  ASSERT_EQ(doc["tasks"].size(), 1u);
  EXPECT_EQ(doc["tasks"][0]["kernel_ids"], nlohmann::json::parse("[-1,-1,-1]"));

  RunnerRun missing = RunRunner({Module("orch_runner_probe"), "--entry", "no_such_entry", "-o", deps()},
                          dir_);
  EXPECT_EQ(missing.exit_code, 1);
  EXPECT_NE(missing.err.find("no_such_entry"), std::string::npos) << missing.err;
  RunnerRun no_config = RunRunner({Module("orch_runner_probe"), "--config", "no_such_config", "-s", "0",
                             "-s", "0", "-o", deps()},
                            dir_);
  EXPECT_EQ(no_config.exit_code, 1);
  EXPECT_NE(no_config.err.find("no_such_config"), std::string::npos) << no_config.err;
}

TEST_F(RunnerTest, ArchSetsTheAvailableCoreCounts) {
  for (const auto& [arch, clusters] : {std::pair("a2a3", 24u), std::pair("a5", 36u)}) {
    RunnerRun r = RunRunner({Module("orch_runner_probe"), "--arch", arch, "-s", "3", "-s", "0",
                             "-o", deps()},
                            dir_);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(nlohmann::json::parse(ReadFile(deps()))["tasks"].size(), clusters) << arch;
  }
}

TEST_F(RunnerTest, BadDescriptionNamesFileAndJsonPath) {
  const std::string desc = dir_ + "/bad.json";
  std::ofstream(desc) << R"({"tensors":[{"shape":[4],"dtype":"FLOAT32"},)"
                      << R"({"shape":[4],"dtype":"FLOAT33"}]})";
  RunnerRun r = RunRunner({Module("orch_runner_probe"), "-a", desc, "-o", deps()}, dir_);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find(desc + ": tensors[1].dtype"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(deps()));

  std::ofstream(desc) << R"({"tensors":[{"shape":[2],"dtype":"INT8","values":[1,300]}]})";
  r = RunRunner({Module("orch_runner_probe"), "-a", desc, "-o", deps()}, dir_);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("tensors[0].values[1]: 300 does not fit INT8"), std::string::npos)
      << r.err;

  std::ofstream(desc) << "{\"tensors\": [}";
  r = RunRunner({Module("orch_runner_probe"), "-a", desc, "-o", deps()}, dir_);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find(desc + ": line 1:column 14: invalid JSON value"), std::string::npos)
      << r.err;

  r = RunRunner({Module("orch_runner_probe"), "-a", dir_ + "/missing.json"}, dir_);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("missing.json: cannot read"), std::string::npos) << r.err;

  r = RunRunner({Module("orch_runner_probe"), "-t", "f32:4x0"}, dir_);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--tensor f32:4x0"), std::string::npos) << r.err;
}

TEST_F(RunnerTest, UnloadableLibraryExitsOne) {
  // A missing library is refused before dlopen, like every other input (issue 25).
  RunnerRun r = RunRunner({dir_ + "/libnothing.so", "-o", deps()}, dir_);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("libnothing.so: No such file or directory"), std::string::npos) << r.err;
  // A regular file that is no shared library fails in dlopen, with its reason.
  testing::WriteFile(dir_ + "/libjunk.so", "not an ELF file");
  r = RunRunner({dir_ + "/libjunk.so", "-o", deps()}, dir_);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("cannot load orchestration"), std::string::npos) << r.err;
}

TEST_F(RunnerTest, ReadingATensorWithoutDataIsAFatalError) {
  // paged_attention reads context_lens; without values the shim cannot serve the read.
  RunnerRun r = RunRunner({Module("orch_paged_attention"), "-t", "bf16:16x16", "-t", "bf16:48x16",
                     "-t", "bf16:48x16", "-t", "i32:1x3=2,2,0", "-t", "i32:1", "-t",
                     "f32:16x16", "-s", "16", "-o", deps()},
                    dir_);
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.err.find("orchestration failed"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("= entry tensor 4 '--tensor i32:1'"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(deps()));
}

TEST_F(RunnerTest, CommandLineTensorsMatchTheDescriptionFile) {
  RunnerRun r = RunRunner({Module("orch_paged_attention"), "-t", "bf16:16x16", "-t", "bf16:48x16",
                     "-t", "bf16:48x16", "-t", "i32:1x3=2,2,0", "-t", "i32:1=33", "-t",
                     "f32:16x16", "-s", "16", "--kernel-names", "QK,SF,PV,UP", "-o", deps()},
                    dir_);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::string diff;
  EXPECT_TRUE(DepsFilesEquivalent(kSource + "/data/real/paged_attention/CaseSmall1/deps.json",
                                  deps(), &diff))
      << diff;
  // Default name map: beside the output, named after the library.
  EXPECT_EQ(ReadFile(dir_ + "/name_map_orch_paged_attention.json"),
            ReadFile(kSource + "/data/real/paged_attention/CaseSmall1/"
                               "name_map_TestPagedAttention_CaseSmall1.json"));
}

TEST_F(RunnerTest, DecodeShapedOrchestrationOfTenThousandTasks) {
  RunnerRun r = RunRunner({Module("orch_decode_like"), "-a", kCases + "decode_like.json", "-o", deps()},
                    dir_);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  nlohmann::json doc = nlohmann::json::parse(ReadFile(deps()));
  EXPECT_EQ(doc["tasks"].size(), 10560u);
  EXPECT_NE(r.out.find("10560 tasks"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace depgraph::testing
