#include "depgraph/atomic_file.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "test_util.h"

namespace depgraph {
namespace {

size_t EntryCount(const std::string& dir) {
  size_t n = 0;
  for (auto it = std::filesystem::directory_iterator(dir); it != std::filesystem::directory_iterator(); ++it) ++n;
  return n;
}

TEST(AtomicFile, CommitReplacesTheTarget) {
  testing::TempDir dir;
  testing::WriteFile(dir.File("out.txt"), "old");
  AtomicFile file;
  std::string err;
  ASSERT_TRUE(file.Open(dir.File("out.txt"), &err)) << err;
  file.stream() << "new";
  EXPECT_EQ(testing::ReadFile(dir.File("out.txt")), "old");  // untouched until commit
  ASSERT_TRUE(file.Commit(&err)) << err;
  EXPECT_EQ(testing::ReadFile(dir.File("out.txt")), "new");
  EXPECT_EQ(EntryCount(dir.path()), 1u);
}

TEST(AtomicFile, AbandonedWriteLeavesNothing) {
  testing::TempDir dir;
  {
    AtomicFile file;
    std::string err;
    ASSERT_TRUE(file.Open(dir.File("out.txt"), &err));
    file.stream() << "partial";
  }
  EXPECT_EQ(EntryCount(dir.path()), 0u);
}

TEST(AtomicFile, UnwritablePlacesFailWithAMessage) {
  AtomicFile file;
  std::string err;
  EXPECT_FALSE(file.Open("/nonexistent/dir/out.txt", &err));
  EXPECT_NE(err.find("/nonexistent/dir/out.txt"), std::string::npos);
  testing::TempDir dir;
  AtomicFile onto_dir;
  EXPECT_FALSE(onto_dir.Open(dir.path(), &err));
  EXPECT_EQ(err, dir.path() + ": is a directory");
}

}  // namespace
}  // namespace depgraph
