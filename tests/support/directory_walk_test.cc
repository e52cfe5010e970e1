// WalkDirectoryTree (depgraph/support/directory_walk.h): every entry to the depth bound,
// symlinked directories seen but not entered, and what could not be read said, not skipped.
#include "depgraph/support/directory_walk.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <algorithm>
#include <set>

#include "test_util.h"

namespace depgraph {
namespace {

namespace fs = std::filesystem;

// The entries visited under `root`, relative to it, and the warnings.
std::set<std::string> Walk(const fs::path& root, int max_depth, std::vector<std::string>* warnings) {
  std::set<std::string> seen;
  DirectoryWalkOptions options;
  options.max_depth = max_depth;
  options.skipped_what = "things";
  WalkDirectoryTree(
      root, options,
      [&](const fs::path&, const fs::directory_entry& entry) {
        seen.insert(entry.path().lexically_relative(root).string());
      },
      warnings);
  return seen;
}

TEST(DirectoryWalk, VisitsEveryEntryButDoesNotEnterSymlinkedDirectories) {
  testing::TempDir dir;
  fs::create_directories(dir.File("root/a/b"));
  testing::WriteFile(dir.File("root/a/b/deps.json"), "{}");
  testing::WriteFile(dir.File("root/top.txt"), "");
  fs::create_directories(dir.File("elsewhere/hidden"));
  fs::create_directory_symlink(dir.File("elsewhere"), dir.File("root/link"));
  std::vector<std::string> warnings;
  EXPECT_EQ(Walk(dir.File("root"), 256, &warnings),
            (std::set<std::string>{"a", "a/b", "a/b/deps.json", "top.txt", "link"}));
  EXPECT_TRUE(warnings.empty());
}

TEST(DirectoryWalk, TheDepthBoundWarnsOnceAndSkipsWhatIsDeeper) {
  testing::TempDir dir;
  fs::create_directories(dir.File("root/1/2/3/4"));
  fs::create_directories(dir.File("root/x/y/z"));
  std::vector<std::string> warnings;
  const std::set<std::string> seen = Walk(dir.File("root"), 2, &warnings);
  EXPECT_EQ(seen, (std::set<std::string>{"1", "1/2", "1/2/3", "x", "x/y", "x/y/z"}));
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find(": more than 2 levels below " + dir.File("root") +
                             ": not searched for things"),
            std::string::npos)
      << warnings[0];
}

// Unreadable directories are reported. Root reads any directory, so the walk runs unprivileged.
TEST(DirectoryWalk, AnUnreadableDirectoryIsAWarningNamingIt) {
  testing::TempDir dir;
  fs::create_directories(dir.File("root/closed/inside"));
  fs::create_directories(dir.File("root/open"));
  ASSERT_EQ(chmod(dir.path().c_str(), 0755), 0);
  ASSERT_EQ(chmod(dir.File("root").c_str(), 0755), 0);
  ASSERT_EQ(chmod(dir.File("root/open").c_str(), 0755), 0);
  ASSERT_EQ(chmod(dir.File("root/closed").c_str(), 0), 0);
  const int status = testing::RunUnprivileged([&] {
    std::vector<std::string> warnings;
    const std::set<std::string> seen = Walk(dir.File("root"), 256, &warnings);
    if (seen != std::set<std::string>{"closed", "open"}) return 11;
    if (warnings.size() != 1) return 12;
    if (warnings[0] != dir.File("root/closed") + ": cannot read the directory (Permission "
                                                  "denied): things under it are skipped") {
      return 13;
    }
    return 0;
  });
  chmod(dir.File("root/closed").c_str(), 0700);
  EXPECT_EQ(status, 0) << "11: entries, 12: warning count, 13: warning text";
}

}  // namespace
}  // namespace depgraph
