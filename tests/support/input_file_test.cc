// Input files (depgraph/support/input_file.h): special files refused before anything can block on
// them, bounded reads, and "is this output the input?" by device and inode.
#include "depgraph/support/input_file.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <filesystem>

#include "test_util.h"

namespace depgraph {
namespace {

TEST(InputFile, ReadsARegularFileAndASymlinkToOne) {
  testing::TempDir dir;
  testing::WriteFile(dir.File("a.json"), "{\"1\": \"x\"}");
  std::filesystem::create_symlink("a.json", dir.File("link.json"));
  for (const char* name : {"a.json", "link.json"}) {
    std::string content;
    InputFileError error;
    ASSERT_TRUE(ReadInputFile(dir.File(name), 100, &content, &error)) << error.message;
    EXPECT_EQ(content, "{\"1\": \"x\"}");
    EXPECT_EQ(error.status, InputFileStatus::kOk);
  }
}

TEST(InputFile, RefusesAFifoWithoutOpeningIt) {
  testing::TempDir dir;
  const std::string fifo = dir.File("deps.json");
  testing::MakeFifo(fifo);
  testing::FifoUnblocker unblocker(fifo);  // only matters if the code under test opened it
  std::string content;
  InputFileError error;
  EXPECT_FALSE(ReadInputFile(fifo, 100, &content, &error));
  EXPECT_EQ(error.status, InputFileStatus::kNotRegular);
  EXPECT_EQ(error.message, fifo + ": is a FIFO, not a regular file");
  EXPECT_FALSE(CheckRegularInput(fifo, nullptr, &error));
  EXPECT_EQ(error.message, fifo + ": is a FIFO, not a regular file");
  // Through a symlink too.
  std::filesystem::create_symlink(fifo, dir.File("link"));
  EXPECT_FALSE(ReadInputFile(dir.File("link"), 100, &content, &error));
  EXPECT_EQ(error.message, dir.File("link") + ": is a FIFO, not a regular file");
}

TEST(InputFile, RefusesDevicesAndDirectories) {
  std::string content;
  InputFileError error;
  EXPECT_FALSE(ReadInputFile("/dev/zero", 100, &content, &error));
  EXPECT_EQ(error.status, InputFileStatus::kNotRegular);
  EXPECT_EQ(error.message, "/dev/zero: is a character device, not a regular file");
  testing::TempDir dir;
  EXPECT_FALSE(ReadInputFile(dir.path(), 100, &content, &error));
  EXPECT_EQ(error.status, InputFileStatus::kDirectory);
  EXPECT_EQ(error.message, dir.path() + ": is a directory");
}

TEST(InputFile, MissingFilesCarryErrno) {
  std::string content;
  InputFileError error;
  EXPECT_FALSE(ReadInputFile("/nonexistent/x.json", 100, &content, &error));
  EXPECT_EQ(error.status, InputFileStatus::kCannotOpen);
  EXPECT_EQ(error.sys_errno, ENOENT);
  EXPECT_EQ(error.message, "/nonexistent/x.json: No such file or directory");
}

TEST(InputFile, BoundsWhatIsRead) {
  testing::TempDir dir;
  testing::WriteFile(dir.File("big"), std::string(11, 'x'));
  std::string content;
  InputFileError error;
  EXPECT_TRUE(ReadInputFile(dir.File("big"), 11, &content, &error));
  EXPECT_EQ(content.size(), 11u);
  EXPECT_FALSE(ReadInputFile(dir.File("big"), 10, &content, &error));
  EXPECT_EQ(error.status, InputFileStatus::kTooLarge);
  EXPECT_EQ(error.message, dir.File("big") + ": is larger than the limit of 10 bytes");
  EXPECT_TRUE(content.empty());
}

TEST(InputFile, SameFileComparesDeviceAndInodeNotNames) {
  testing::TempDir dir;
  std::filesystem::create_directory(dir.File("sub"));
  testing::WriteFile(dir.File("deps.json"), "{}");
  testing::WriteFile(dir.File("other.json"), "{}");
  std::filesystem::create_symlink("deps.json", dir.File("link.json"));
  std::filesystem::create_hard_link(dir.File("deps.json"), dir.File("hard.json"));
  const std::string deps = dir.File("deps.json");
  EXPECT_TRUE(SameFile(deps, deps));
  EXPECT_TRUE(SameFile(deps, dir.File("sub/../deps.json")));
  EXPECT_TRUE(SameFile(deps, dir.File("./deps.json")));
  EXPECT_TRUE(SameFile(deps, dir.File("link.json")));
  EXPECT_TRUE(SameFile(deps, dir.File("hard.json")));
  EXPECT_FALSE(SameFile(deps, dir.File("other.json")));  // same content, another file
  EXPECT_FALSE(SameFile(deps, dir.File("missing.json")));
  EXPECT_FALSE(SameFile(dir.File("missing.json"), dir.File("missing.json")));
}

TEST(InputFile, CheckOutputIsNotAnInputNamesBothPaths) {
  testing::TempDir dir;
  std::filesystem::create_directory(dir.File("sub"));
  testing::WriteFile(dir.File("deps.json"), "{}");
  std::string err;
  EXPECT_TRUE(CheckOutputIsNotAnInput(dir.File("out.txt"), {dir.File("deps.json"), ""}, &err));
  EXPECT_FALSE(
      CheckOutputIsNotAnInput(dir.File("sub/../deps.json"), {"", dir.File("deps.json")}, &err));
  EXPECT_EQ(err, dir.File("sub/../deps.json") + ": is the input file " + dir.File("deps.json") +
                     "; refusing to overwrite it");
}

}  // namespace
}  // namespace depgraph
