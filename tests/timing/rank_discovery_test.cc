// Rank discovery (depgraph/timing/rank_discovery.h): which directories of a run are ranks, and
// the newest file of a kind.
#include "depgraph/timing/rank_discovery.h"

#include <gtest/gtest.h>
#include <fcntl.h>
#include <sys/stat.h>

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
