#include "depgraph/json_reader.h"

#include <gtest/gtest.h>

namespace depgraph {
namespace {

TEST(JsonReader, WalksNestedDocument) {
  JsonReader r;
  r.OpenBuffer(R"( {"a": [1, -2.5e3, "x\"\u00e9"], "b": {"c": null, "d": true}, "e": []} )");
  ASSERT_TRUE(r.BeginObject());
  std::string_view key, s;
  ASSERT_TRUE(r.NextKey(&key));
  EXPECT_EQ(key, "a");
  ASSERT_TRUE(r.BeginArray());
  ASSERT_TRUE(r.NextElement());
  ASSERT_TRUE(r.ReadNumber(&s));
  EXPECT_EQ(s, "1");
  ASSERT_TRUE(r.NextElement());
  ASSERT_TRUE(r.ReadNumber(&s));
  EXPECT_EQ(s, "-2.5e3");
  ASSERT_TRUE(r.NextElement());
  ASSERT_TRUE(r.ReadString(&s));
  EXPECT_EQ(s, "x\"\xc3\xa9");
  EXPECT_FALSE(r.NextElement());
  ASSERT_TRUE(r.NextKey(&key));
  EXPECT_EQ(key, "b");
  ASSERT_TRUE(r.SkipValue());
  ASSERT_TRUE(r.NextKey(&key));
  EXPECT_EQ(r.Peek(), JsonKind::kArray);
  ASSERT_TRUE(r.SkipValue());
  EXPECT_FALSE(r.NextKey(&key));
  EXPECT_FALSE(r.failed());
  EXPECT_TRUE(r.ExpectEnd());
}

TEST(JsonReader, ReportsLineAndColumn) {
  JsonReader r;
  r.OpenBuffer("{\n  \"a\": [1,\n  2,,]\n}");
  EXPECT_FALSE(r.SkipValue());
  EXPECT_EQ(r.error(), "line 3:column 5: invalid JSON value");
}

TEST(JsonReader, RejectsNonStandardTokensAndTruncation) {
  for (const char* bad : {"NaN", "[Infinity]", "{\"a\":1", "[1 2]", "\"abc", "01x", "{'a':1}"}) {
    JsonReader r;
    r.OpenBuffer(bad);
    bool ok = r.SkipValue() && r.ExpectEnd();
    EXPECT_FALSE(ok) << bad;
    EXPECT_FALSE(r.error().empty()) << bad;
  }
}

TEST(JsonReader, DeepNestingIsAnErrorNotACrash) {
  std::string deep(100000, '[');
  JsonReader r;
  r.OpenBuffer(deep);
  EXPECT_FALSE(r.SkipValue());
  EXPECT_NE(r.error().find("nested too deeply"), std::string::npos);
}

}  // namespace
}  // namespace depgraph

namespace depgraph {
namespace {

TEST(JsonReader, LongStringsAcrossWordBoundaries) {
  // Quotes, escapes and control characters at every offset of the 8-byte fast path.
  for (size_t pad = 0; pad < 20; ++pad) {
    std::string body(pad, 'x');
    std::string_view s;
    JsonReader plain;
    std::string doc = "\"" + body + "\xc3\xa9\"";
    plain.OpenBuffer(doc);
    ASSERT_TRUE(plain.ReadString(&s)) << pad;
    EXPECT_EQ(s, body + "\xc3\xa9");
    JsonReader escaped;
    std::string doc2 = "\"" + body + "\\n" + body + "\"";
    escaped.OpenBuffer(doc2);
    ASSERT_TRUE(escaped.ReadString(&s)) << pad;
    EXPECT_EQ(s, body + "\n" + body);
    JsonReader control;
    std::string doc3 = "\"" + body + "\x01" + "\"";
    control.OpenBuffer(doc3);
    EXPECT_FALSE(control.ReadString(&s)) << pad;
  }
}

}  // namespace
}  // namespace depgraph
