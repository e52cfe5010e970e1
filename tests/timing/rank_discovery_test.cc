// Rank discovery (depgraph/timing/rank_discovery.h): which directories of a run are ranks, and
// the newest file of a kind.
#include "depgraph/timing/rank_discovery.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>

#include "test_util.h"

namespace depgraph {
namespace {

namespace fs = std::filesystem;
using testing::TempDir;
using testing::WriteFile;

void Touch(const fs::path& path, double mtime_seconds) {
  fs::create_directories(path.parent_path());
  WriteFile(path.string(), "{}");
  const timespec times[2] = {{static_cast<time_t>(mtime_seconds), 0},
                             {static_cast<time_t>(mtime_seconds), 0}};
  ASSERT_EQ(utimensat(AT_FDCWD, path.c_str(), times, 0), 0);
}

TEST(RankDiscoveryTest, RanksHoldRecordsDepsAndANameMapInComponentOrder) {
  TempDir dir;
  const fs::path root = dir.path();
  for (const char* rank : {"dev/rank_10", "dev/rank_2", "host"}) {
    Touch(root / rank / kRecordsName, 1);
    Touch(root / rank / "deps.json", 1);
    Touch(root / rank / "name_map_x.json", 1);
  }
  Touch(root / "legacy" / kLegacyRecordsName, 1);  // the older records name counts too
  Touch(root / "legacy" / "deps.json", 1);
  Touch(root / "legacy" / "name_map.json", 1);
  Touch(root / "no_names" / kRecordsName, 1);  // no name map: not a rank
  Touch(root / "no_names" / "deps.json", 1);
  Touch(root / "no_deps" / kRecordsName, 1);  // no deps.json: not a rank
  Touch(root / "no_deps" / "name_map.json", 1);
  fs::create_directories(root / "no_names" / "name_map_dir.json");  // a directory is no map

  std::vector<std::string> labels;
  for (const fs::path& rank : DiscoverRanks(root)) labels.push_back(RankLabel(root, rank));
  // Component-wise order: "dev/rank_10" < "dev/rank_2" as strings, "dev" < "host" < "legacy".
  EXPECT_EQ(labels, (std::vector<std::string>{"dev/rank_10", "dev/rank_2", "host", "legacy"}));
}

TEST(RankDiscoveryTest, TheRootItselfIsLabelledByItsName) {
  TempDir dir;
  const fs::path root = fs::path(dir.path()) / "run";
  Touch(root / kRecordsName, 1);
  Touch(root / "deps.json", 1);
  Touch(root / "name_map.json", 1);
  const std::vector<fs::path> ranks = DiscoverRanks(root);
  ASSERT_EQ(ranks.size(), 1u);
  EXPECT_EQ(RankLabel(root, ranks[0]), "run");
}

TEST(RankDiscoveryTest, NewestMatchingTakesTheLatestMtimeThenTheGreatestName) {
  TempDir dir;
  const fs::path root = dir.path();
  Touch(root / "name_map_a.json", 100);
  Touch(root / "name_map_b.json", 200);
  Touch(root / "name_map_c.json", 200);
  Touch(root / "name_map_d.txt", 900);  // wrong suffix
  Touch(root / "other_z.json", 900);    // wrong prefix
  EXPECT_EQ(NewestMatching(root, "name_map", ".json").filename(), "name_map_c.json");
  EXPECT_TRUE(NewestMatching(root, "merged_swimlane", ".json").empty());
  EXPECT_DOUBLE_EQ(PythonMtime(root / "name_map_a.json"), 100.0);
  EXPECT_EQ(PythonMtime(root / "missing"), 0.0);
}

TEST(RankDiscoveryTest, ExpandUserAndResolvePathFollowPython) {
  const char* home = std::getenv("HOME");
  ASSERT_NE(home, nullptr);
  EXPECT_EQ(ExpandUser("~/x"), std::string(home) + "/x");
  EXPECT_EQ(ExpandUser("a/~"), "a/~");
  EXPECT_EQ(ExpandUser("~no_such_user_here/x"), "~no_such_user_here/x");
  TempDir dir;
  const fs::path canonical = fs::canonical(dir.path());
  EXPECT_EQ(ResolvePath(dir.path() + "/./sub/../missing/"), canonical / "missing");
}

}  // namespace
}  // namespace depgraph

namespace depgraph {
namespace {

// Issue 25 item 7: rank discovery used memory quadratic in the depth (depth 6,000: 2 GB). Now
// an explicit stack, searched to kMaxRankSearchDepth levels with a one-line warning beyond.
TEST(DiscoverRanksWalk, DeepTreeIsBoundedWithAWarning) {
  testing::TempDir dir;
  // 3,000 levels: deeper than PATH_MAX allows to name at once.
  fs::create_directory(dir.File("deep"));
  testing::MakeDeepDirectory(dir.File("deep"), 3000);
  const testing::CommandResult r = testing::RunCommand(
      testing::BoundedCommand(testing::CliBinary()) + " critical-path deep", dir.path());
  EXPECT_EQ(r.exit_code, 2) << r.err.substr(0, 400);  // no rank found
  EXPECT_NE(r.err.find("warning: " + dir.File("deep/d/d/")), std::string::npos) << r.err.substr(0, 400);
  EXPECT_NE(r.err.find(": more than 256 levels below " + dir.File("deep") + ": not searched for ranks\n"),
            std::string::npos)
      << r.err.substr(0, 400);
  EXPECT_NE(r.err.find("error: no "), std::string::npos) << r.err.substr(0, 400);
  (void)testing::RunCommand("rm -rf deep", dir.path());
}

// A rank directory that cannot be read was skipped silently: now a warning names it. Root
// reads any directory, so as root the discovery runs in a child that drops to "nobody".
TEST(DiscoverRanksWalk, UnreadableDirectoryIsWarnedAbout) {
  testing::TempDir dir;
  fs::create_directories(dir.File("run/closed"));
  ASSERT_EQ(chmod(dir.path().c_str(), 0755), 0);
  ASSERT_EQ(chmod(dir.File("run").c_str(), 0755), 0);
  ASSERT_EQ(chmod(dir.File("run/closed").c_str(), 0), 0);
  const int status = testing::RunUnprivileged([&] {
    std::vector<std::string> warnings;
    if (!DiscoverRanks(dir.File("run"), &warnings).empty()) return 11;
    if (warnings.size() != 1) return 12;
    if (warnings[0].rfind(dir.File("run/closed") + ": cannot read the directory (", 0) != 0) {
      return 13;
    }
    return 0;
  });
  chmod(dir.File("run/closed").c_str(), 0700);
  EXPECT_EQ(status, 0) << "11: a rank found, 12: warning count, 13: warning text";
}

}  // namespace
}  // namespace depgraph
