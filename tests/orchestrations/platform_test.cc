// The platform of a run (apps/orch_runner/platform.h): what rt_available_cluster_count and
// rt_available_aiv_count return, from --platform or the description's `platform`.
#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "runner_test_util.h"

namespace depgraph::testing {
namespace {

class PlatformTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = FreshDir(::testing::UnitTest::GetInstance()->current_test_info()->name());
    ASSERT_FALSE(dir_.empty());
  }
  /// Tasks the probe submits in `mode` (3: one per cluster, 4: one per AIV core) under the
  /// extra arguments `args`; -1 when the run fails.
  int Count(int mode, std::vector<std::string> args) {
    std::vector<std::string> all = {
        Module("orch_runner_probe"), "-s", std::to_string(mode), "-s", "0", "-o",
        dir_ + "/deps.json"};
    all.insert(all.end(), args.begin(), args.end());
    last_ = RunRunner(all, dir_);
    if (last_.exit_code != 0) return -1;
    return static_cast<int>(nlohmann::json::parse(ReadFile(dir_ + "/deps.json"))["tasks"].size());
  }
  std::string Describe(const std::string& text) {
    WriteFile(dir_ + "/run.json", text);
    return dir_ + "/run.json";
  }
  std::string dir_;
  RunnerRun last_;
};

// Captures made on the runtime's simulator see 8 clusters; the full a2a3 chip 24 (the default).
TEST_F(PlatformTest, PresetsSetTheAvailableCounts) {
  EXPECT_EQ(Count(3, {}), 24) << last_.err;
  EXPECT_EQ(Count(4, {}), 48) << last_.err;
  EXPECT_EQ(Count(3, {"--platform", "a2a3sim"}), 8) << last_.err;
  EXPECT_EQ(Count(4, {"--platform", "a2a3sim"}), 16) << last_.err;
  EXPECT_EQ(Count(3, {"--platform", "a5"}), 36) << last_.err;
  EXPECT_EQ(Count(4, {"--platform", "a5"}), 72) << last_.err;
  EXPECT_EQ(Count(3, {"--arch", "a5"}), 36) << last_.err;  // the arch's full chip, as before
}

TEST_F(PlatformTest, DescriptionPlatform) {
  EXPECT_EQ(Count(3, {"-a", Describe(R"({"platform": "a2a3sim"})")}), 8) << last_.err;
  EXPECT_EQ(Count(3, {"-a", Describe(R"({"platform": {"name": "a2a3sim"}})")}), 8) << last_.err;
  const std::string custom = Describe(R"({"platform": {"clusters": 5, "aiv_per_cluster": 1}})");
  EXPECT_EQ(Count(3, {"-a", custom}), 5) << last_.err;
  EXPECT_EQ(Count(4, {"-a", custom}), 5) << last_.err;
  // The command line wins over the description.
  EXPECT_EQ(Count(3, {"-a", custom, "--platform", "a5"}), 36) << last_.err;
}

TEST_F(PlatformTest, BadPlatformsAreUsageErrors) {
  const std::string run = dir_ + "/run.json";
  struct Case {
    std::string text;
    std::string message;
  };
  const Case cases[] = {
      {R"({"platform": "a3"})", run + ": platform: \"a3\": expected a platform name"},
      {R"({"platform": {"clusters": 0}})", run + ": platform.clusters: expected an integer in 1.."},
      {R"({"platform": {"cores": 2}})", run + ": platform.cores: unknown key"},
      {R"({"platform": 8})", run + ": platform: expected a platform name"},
      {R"({"arch": "a5", "platform": "a2a3sim"})",
       "platform a2a3sim is an a2a3 platform, but the arch is a5"},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(Count(3, {"-a", Describe(c.text)}), -1) << c.text;
    EXPECT_EQ(last_.exit_code, 2) << last_.err;
    EXPECT_NE(last_.err.find(c.message), std::string::npos) << last_.err;
    EXPECT_EQ(std::count(last_.err.begin(), last_.err.end(), '\n'), 1) << last_.err;
  }
  EXPECT_EQ(Count(3, {"--platform", "a2a3sim", "--arch", "a5"}), -1);
  EXPECT_EQ(last_.exit_code, 2) << last_.err;
  EXPECT_EQ(Count(3, {"--platform", "a6"}), -1);
  EXPECT_EQ(last_.exit_code, 2) << last_.err;
}

}  // namespace
}  // namespace depgraph::testing
