// The output buffer behind AtomicFile (libdepgraph/support/background_file_buf.h): every byte
// reaches the file in order whatever the buffer size, and a failed write is reported.
#include "background_file_buf.h"

#include <gtest/gtest.h>

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

}  // namespace
}  // namespace depgraph
