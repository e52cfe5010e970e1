#include "depgraph/internal/message_quote.h"

#include <gtest/gtest.h>

#include <string>

namespace depgraph {
namespace {

TEST(MessageQuote, PlainTextIsQuotedAsIs) {
  EXPECT_EQ(QuoteForMessage("QK"), "\"QK\"");
  EXPECT_EQ(QuoteForMessage(""), "\"\"");
  EXPECT_EQ(QuoteForMessage("caf\xc3\xa9"), "\"caf\xc3\xa9\"");
}

// Nothing the user wrote can break the message over lines or reach the terminal raw.
TEST(MessageQuote, ControlsQuotesAndBadBytesAreEscaped) {
  EXPECT_EQ(QuoteForMessage("a\nb\r\tc"), "\"a\\nb\\r\\tc\"");
  EXPECT_EQ(QuoteForMessage("\x1b[31mred"), "\"\\u001B[31mred\"");
  EXPECT_EQ(QuoteForMessage(std::string("nul\0x", 5)), "\"nul\\u0000x\"");
  EXPECT_EQ(QuoteForMessage("q\"b\\s"), "\"q\\\"b\\\\s\"");
  EXPECT_EQ(QuoteForMessage("\x7f"), "\"\\u007F\"");
  EXPECT_EQ(QuoteForMessage("\xc2\x9b"
                            "2J"),
            "\"\\u009B2J\"");  // C1 CSI
  EXPECT_EQ(QuoteForMessage("\xe2\x80\xae"
                            "txt"),
            "\"\\u202Etxt\"");  // right-to-left override
  EXPECT_EQ(QuoteForMessage("\xe2\x80\xa8"), "\"\\u2028\"");
  EXPECT_EQ(QuoteForMessage("a\xff\xc0\xaf"), "\"a\\xFF\\xC0\\xAF\"");
}

TEST(MessageQuote, LongTextIsCutAtACharacterBoundary) {
  EXPECT_EQ(QuoteForMessage(std::string(70, 'x')), "\"" + std::string(64, 'x') + "\"...");
  EXPECT_EQ(QuoteForMessage("abcdef", 4), "\"abcd\"...");
  EXPECT_EQ(QuoteForMessage("abc\xc3\xa9", 4), "\"abc\"...");  // never half a character
  EXPECT_EQ(QuoteForMessage("abcd", 4), "\"abcd\"");
}

TEST(MessageQuote, EscapeKeepsPathsReadable) {
  EXPECT_EQ(EscapeForMessage("out/run 1/deps.json"), "out/run 1/deps.json");
  EXPECT_EQ(EscapeForMessage("a\\b\"c"), "a\\b\"c");
  EXPECT_EQ(EscapeForMessage("a\nb\x1b"), "a\\nb\\u001B");
  EXPECT_EQ(EscapeForMessage("a\xff"), "a\\xFF");
}

TEST(MessageQuote, JsonPathMembers) {
  EXPECT_EQ(JsonPathMember("", "tensors"), "tensors");
  EXPECT_EQ(JsonPathMember("tensors[0]", "data_file"), "tensors[0].data_file");
  EXPECT_EQ(JsonPathMember("kernel_names", "3"), "kernel_names.3");
  EXPECT_EQ(JsonPathMember("tensors[0]", "na me"), "tensors[0][\"na me\"]");
  EXPECT_EQ(JsonPathMember("", "a\nb"), "[\"a\\nb\"]");
  EXPECT_EQ(JsonPathMember("x", ""), "x[\"\"]");
}

}  // namespace
}  // namespace depgraph
