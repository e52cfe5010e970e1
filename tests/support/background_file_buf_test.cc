// The output buffer behind AtomicFile (libdepgraph/support/background_file_buf.h): every byte
// reaches the file in order whatever the buffer size, and a failed write is reported.
#include "background_file_buf.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <ostream>
#include <random>
#include <string>

#include "test_util.h"

namespace depgraph {
namespace {

TEST(BackgroundFileBuf, BytesArriveInOrderForEveryBufferSize) {
  std::mt19937 rng(3);
  for (size_t buffer : {1, 2, 7, 64, 4096}) {
    testing::TempDir dir;
    const std::string path = dir.File("out.bin");
    BackgroundFileBuf buf(buffer);
    std::string err;
    ASSERT_TRUE(buf.Open(path, &err)) << err;
    std::ostream out(&buf);
    std::string expected;
    for (int piece = 0; piece < 300; ++piece) {
      std::string bytes(rng() % 50, '\0');
      for (char& c : bytes) c = static_cast<char>(rng());
      out << bytes;
      expected += bytes;
      if (piece % 97 == 0) out.flush();  // a flush in the middle waits for the writer
      if (piece % 13 == 0) {
        out.put('!');
        expected += '!';
      }
    }
    out.flush();
    EXPECT_TRUE(out.good());
    ASSERT_TRUE(buf.Close(&err)) << err;
    EXPECT_EQ(testing::ReadFile(path), expected) << "buffer " << buffer;
  }
}

TEST(BackgroundFileBuf, AFailedWriteIsReportedAtClose) {
  BackgroundFileBuf buf(16);
  std::string err;
  ASSERT_TRUE(buf.Open("/dev/full", &err)) << err;
  std::ostream out(&buf);
  out << std::string(1000, 'x');
  out.flush();
  EXPECT_FALSE(out.good());  // the flush saw the failure
  EXPECT_TRUE(buf.failed());
  EXPECT_FALSE(buf.Close(&err));
  EXPECT_NE(err.find("No space left on device"), std::string::npos) << err;
}

TEST(BackgroundFileBuf, OpenNamesWhyItFailed) {
  BackgroundFileBuf buf;
  std::string err;
  EXPECT_FALSE(buf.Open("/nonexistent-dir/out.txt", &err));
  EXPECT_EQ(err, "No such file or directory");
  EXPECT_TRUE(buf.Close(&err));  // nothing was open
}

size_t ThreadCount() {
  size_t count = 0;
  for ([[maybe_unused]] const auto& task : std::filesystem::directory_iterator("/proc/self/task")) {
    ++count;
  }
  return count;
}

// The sanitizer suite hung in deps_viewer's Graphviz page: the page's output was open, so its
// writer thread was running when the layout child was forked, and the child inherited the
// sanitizer allocator's lock held by that thread. No thread runs until a buffer is full, and
// an output that fits one buffer never starts one (a flush writes it on the caller's thread).
TEST(BackgroundFileBuf, NoThreadRunsUntilTheFirstBufferIsFull) {
  testing::TempDir dir;
  const std::string path = dir.File("out.txt");
  const size_t before = ThreadCount();
  BackgroundFileBuf buf(64);
  std::string err;
  ASSERT_TRUE(buf.Open(path, &err)) << err;
  std::ostream out(&buf);
  out << std::string(40, 'a');
  out.flush();
  EXPECT_EQ(ThreadCount(), before);
  EXPECT_EQ(testing::ReadFile(path), std::string(40, 'a'));  // the flush wrote it
  out << std::string(100, 'b');                              // past the buffer
  EXPECT_EQ(ThreadCount(), before + 1);
  ASSERT_TRUE(buf.Close(&err)) << err;
  EXPECT_EQ(ThreadCount(), before);
  EXPECT_EQ(testing::ReadFile(path), std::string(40, 'a') + std::string(100, 'b'));

  BackgroundFileBuf small;
  ASSERT_TRUE(small.Open(path, &err)) << err;
  std::ostream(&small) << "small";
  EXPECT_EQ(ThreadCount(), before);
  ASSERT_TRUE(small.Close(&err)) << err;
  EXPECT_EQ(testing::ReadFile(path), "small");
}

}  // namespace
}  // namespace depgraph
