#include "depgraph/support/utf8.h"

#include <gtest/gtest.h>

#include <string>

namespace depgraph {
namespace {

TEST(Utf8, DecodesEveryLength) {
  uint32_t cp = 0;
  EXPECT_EQ(DecodeUtf8("A", &cp), 1u);
  EXPECT_EQ(cp, 0x41u);
  EXPECT_EQ(DecodeUtf8("\xc3\xa9", &cp), 2u);
  EXPECT_EQ(cp, 0xE9u);
  EXPECT_EQ(DecodeUtf8("\xe2\x82\xac", &cp), 3u);
  EXPECT_EQ(cp, 0x20ACu);
  EXPECT_EQ(DecodeUtf8("\xf4\x8f\xbf\xbf", &cp), 4u);
  EXPECT_EQ(cp, 0x10FFFFu);
  EXPECT_EQ(DecodeUtf8("\xed\x9f\xbf", &cp), 3u);  // U+D7FF, just below the surrogates
  EXPECT_EQ(DecodeUtf8("\xee\x80\x80", &cp), 3u);  // U+E000, just above
}

TEST(Utf8, RejectsIllFormedSequences) {
  uint32_t cp = 0;
  for (const std::string bad :
       {"", "\x80", "\xbf", "\xc0\x80", "\xc1\xbf", "\xe0\x9f\xbf", "\xf0\x8f\xbf\xbf",
        "\xed\xa0\x80", "\xed\xbf\xbf", "\xf4\x90\x80\x80", "\xf5\x80\x80\x80", "\xff", "\xc3",
        "\xe2\x82", "\xc3\x41"}) {
    EXPECT_EQ(DecodeUtf8(bad, &cp), 0u) << testing::PrintToString(bad);
  }
}

TEST(Utf8, FindsTheFirstInvalidByte) {
  EXPECT_EQ(FindInvalidUtf8("plain"), 5u);
  EXPECT_EQ(FindInvalidUtf8("caf\xc3\xa9"), 5u);
  EXPECT_EQ(FindInvalidUtf8("ab\xffz"), 2u);
  EXPECT_EQ(FindInvalidUtf8("\xc3\xa9\xed\xa0\x80"), 2u);
}

}  // namespace
}  // namespace depgraph
