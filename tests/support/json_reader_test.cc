#include "depgraph/support/json_reader.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <optional>
#include <random>
#include <string>
#include <vector>

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

// What TryReadPlainDecimal should do with `token` at the start of `doc`, by a digit loop:
// the value, or nullopt when the general readers must take it.
std::optional<uint64_t> ReferencePlainDecimal(const std::string& token) {
  const bool quoted = !token.empty() && token.front() == '"';
  const std::string digits = quoted ? token.substr(1, token.size() - 2) : token;
  if (digits.empty() || digits.size() > 20) return std::nullopt;
  if (!quoted && digits.size() > 1 && digits[0] == '0') return std::nullopt;
  unsigned __int128 v = 0;
  for (char c : digits) {
    if (c < '0' || c > '9') return std::nullopt;
    v = v * 10 + static_cast<unsigned>(c - '0');
  }
  if (v > UINT64_MAX) return std::nullopt;
  return static_cast<uint64_t>(v);
}

TEST(JsonReader, PlainDecimalsAtEveryLengthAndOffset) {
  std::mt19937_64 rng(5);
  const std::vector<std::string> fixed = {
      "0", "7", "01", "\"01\"", "18446744073709551615", "18446744073709551616",
      "\"18446744073709551615\"", "\"99999999999999999999\"", "123456789012345678901",
      "\"\"", "\"12a\"", "\" 1\"", "\"1 \"", "-1", "1.5", "1e3", "12E1", "\"\\u0031\""};
  for (int round = 0; round < 4000; ++round) {
    std::string token;
    if (round < static_cast<int>(fixed.size())) {
      token = fixed[round];
    } else {
      const size_t length = 1 + rng() % 22;
      for (size_t i = 0; i < length; ++i) token += static_cast<char>('0' + rng() % 10);
      if (rng() % 2) token = "\"" + token + "\"";
    }
    // Every offset from the buffer's end (the word steps need 24 bytes), then a separator.
    for (size_t tail = 0; tail < 30; tail += 1 + rng() % 4) {
      const std::string doc = " " + token + (tail == 0 ? "" : "," + std::string(tail - 1, ' '));
      JsonReader reader;
      reader.OpenBuffer(doc);
      uint64_t value = 0;
      std::string_view digits;
      const std::optional<uint64_t> expected = ReferencePlainDecimal(token);
      const bool read = reader.TryReadPlainDecimal(&value, &digits);
      ASSERT_EQ(read, expected.has_value()) << token << " tail " << tail;
      if (read) {
        EXPECT_EQ(value, *expected) << token;
        EXPECT_EQ(reader.position(), 1 + token.size()) << token;
        EXPECT_EQ(digits, token.front() == '"' ? token.substr(1, token.size() - 2) : token);
      } else {
        EXPECT_EQ(reader.position(), 1u) << token;  // whitespace only
        EXPECT_FALSE(reader.failed());
      }
    }
  }
}

// The error of reading `text` as one document ("" if it reads).
std::string ReadError(const std::string& text) {
  JsonReader r;
  r.OpenBuffer(text);
  if (r.SkipValue() && r.ExpectEnd()) return "";
  return r.error();
}

// RFC 8259 section 8.1: JSON text is UTF-8. Ill-formed sequences are errors where they start,
// in values and keys, with or without escapes before them in the string.
TEST(JsonReader, StringsMustBeWellFormedUtf8) {
  const std::string bad[] = {
      "\xff",              // never in UTF-8
      "\x80",              // stray continuation byte
      "\xc0\xaf",          // overlong '/'
      "\xe0\x80\xaf",      // overlong, three bytes
      "\xf0\x80\x80\xaf",  // overlong, four bytes
      "\xed\xa0\x80",      // raw UTF-16 surrogate U+D800
      "\xf4\x90\x80\x80",  // above U+10FFFF
      "\xe2\x82",          // cut short
  };
  for (const std::string& b : bad) {
    EXPECT_EQ(ReadError("[\"ab" + b + "\"]"), "line 1:column 5: invalid UTF-8 in string") << b;
    EXPECT_EQ(ReadError("{\"k" + b + "\": 1}"), "line 1:column 4: invalid UTF-8 in string") << b;
    EXPECT_EQ(ReadError("[\"\\n" + b + "\"]"), "line 1:column 5: invalid UTF-8 in string") << b;
    EXPECT_EQ(ReadError("[\"0123456789abcdef" + b + "\"]"),
              "line 1:column 19: invalid UTF-8 in string")
        << b;
  }
  JsonReader r;
  r.OpenBuffer(
      "[\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9d\x84\x9e and a long ASCII tail\", \"\\t\xc3\xa9\"]");
  std::string_view s;
  ASSERT_TRUE(r.BeginArray() && r.NextElement() && r.ReadString(&s)) << r.error();
  EXPECT_EQ(s, "caf\xc3\xa9 \xe2\x82\xac \xf0\x9d\x84\x9e and a long ASCII tail");
  ASSERT_TRUE(r.NextElement() && r.ReadString(&s)) << r.error();
  EXPECT_EQ(s, "\t\xc3\xa9");
}

// A \u escape of a UTF-16 surrogate encodes nothing unless a high one is followed by an
// escaped low one.
TEST(JsonReader, LoneSurrogateEscapesAreErrors) {
  for (const char* bad : {"[\"ab\\ud800\"]", "[\"ab\\udc00\"]", "[\"ab\\ud800\\u0041\"]",
                          "[\"ab\\ud800x\"]", "[\"ab\\udbff\\ud800\"]"}) {
    EXPECT_EQ(ReadError(bad), "line 1:column 5: lone UTF-16 surrogate in \\u escape") << bad;
  }
  JsonReader r;
  r.OpenBuffer("\"\\ud83d\\ude00\"");
  std::string_view s;
  ASSERT_TRUE(r.ReadString(&s)) << r.error();
  EXPECT_EQ(s, "\xf0\x9f\x98\x80");
}

// A word that only starts like a literal is a syntax error, not "null".
TEST(JsonReader, WordsThatOnlyStartLikeLiteralsAreInvalid) {
  EXPECT_EQ(ReadError("not json"), "line 1:column 1: invalid JSON value");
  EXPECT_EQ(ReadError("[nul]"), "line 1:column 2: invalid JSON value");
  EXPECT_EQ(ReadError("[tru, 1]"), "line 1:column 2: invalid JSON value");
  EXPECT_EQ(ReadError("nullx"), "line 1:column 5: extra data after the JSON document");
}

// Every token of the value at the reader's position, one string each ("K" key, "S" string,
// "N" number, "L" literal, brackets), read through NextKey, NextElement and ReadString: the
// calls with fast paths for compact JSON. False on an error.
bool WalkTokens(JsonReader& r, std::vector<std::string>* out) {
  std::string_view text;
  switch (r.Peek()) {
    case JsonKind::kObject:
      if (!r.BeginObject()) return false;
      out->push_back("{");
      while (r.NextKey(&text)) {
        out->push_back("K" + std::string(text));
        if (!WalkTokens(r, out)) return false;
      }
      out->push_back("}");
      return !r.failed();
    case JsonKind::kArray:
      if (!r.BeginArray()) return false;
      out->push_back("[");
      while (r.NextElement()) {
        if (!WalkTokens(r, out)) return false;
      }
      out->push_back("]");
      return !r.failed();
    case JsonKind::kString:
      if (!r.ReadString(&text)) return false;
      out->push_back("S" + std::string(text));
      return true;
    case JsonKind::kNumber:
      if (!r.ReadNumber(&text)) return false;
      out->push_back("N" + std::string(text));
      return true;
    default:
      out->push_back("L");
      return r.SkipValue();
  }
}

// A random string of 0 to 40 characters, mostly plain ASCII, sometimes escapes and raw
// UTF-8: its JSON text in *json, its value in *value.
void RandomString(std::mt19937_64& rng, std::string* json, std::string* value) {
  const size_t length = rng() % 41;
  *json = "\"";
  value->clear();
  for (size_t i = 0; i < length; ++i) {
    switch (rng() % 24) {
      case 0: *json += "\\\""; *value += '"'; break;
      case 1: *json += "\\\\"; *value += '\\'; break;
      case 2: *json += "\\n"; *value += '\n'; break;
      case 3: *json += "\\u00e9"; *value += "\xc3\xa9"; break;
      case 4: *json += "\xc3\xa9"; *value += "\xc3\xa9"; break;
      case 5: *json += "\xe2\x82\xac"; *value += "\xe2\x82\xac"; break;
      default: {
        const char c = static_cast<char>('a' + rng() % 26);
        *json += c;
        *value += c;
      }
    }
  }
  *json += '"';
}

// Compact JSON takes the fast paths of NextKey and ReadString (a key or string of under 32
// plain bytes right at the reader's position, 36 bytes or more before the end); the same
// document with spaces around every token takes the general ones. Both must read every key
// and string of random documents as written, escapes, UTF-8 and lengths around 32 included.
TEST(JsonReader, CompactKeysAndStringsReadAsWritten) {
  std::mt19937_64 rng(11);
  for (int doc = 0; doc < 200; ++doc) {
    std::string compact = "{", spaced = "{ ";
    std::vector<std::string> expected{"{"};
    const int members = 1 + static_cast<int>(rng() % 12);
    for (int m = 0; m < members; ++m) {
      std::string key_json, key, value_json, value;
      RandomString(rng, &key_json, &key);
      // Distinct keys: a member's index ends each one (after any escape).
      key_json.insert(key_json.size() - 1, std::to_string(m));
      key += std::to_string(m);
      const std::string sep = m > 0 ? "," : "";
      compact += sep + key_json + ":";
      spaced += (m > 0 ? " , " : "") + key_json + " : ";
      expected.push_back("K" + key);
      if (rng() % 3 == 0) {  // an array of strings and a number
        compact += "[";
        spaced += "[ ";
        expected.push_back("[");
        const int n = static_cast<int>(rng() % 4);
        for (int k = 0; k < n; ++k) {
          RandomString(rng, &value_json, &value);
          compact += value_json + ",";
          spaced += value_json + " , ";
          expected.push_back("S" + value);
        }
        compact += "12]";
        spaced += "12 ]";
        expected.insert(expected.end(), {"N12", "]"});
      } else {
        RandomString(rng, &value_json, &value);
        compact += value_json;
        spaced += value_json;
        expected.push_back("S" + value);
      }
    }
    compact += "}";
    spaced += " }";
    expected.push_back("}");
    for (const std::string& text : {compact, spaced}) {
      JsonReader r;
      r.OpenBuffer(text);
      std::vector<std::string> tokens;
      ASSERT_TRUE(WalkTokens(r, &tokens)) << r.error() << "\n" << text;
      EXPECT_TRUE(r.ExpectEnd()) << text;
      EXPECT_EQ(tokens, expected) << text;
    }
  }
}

// What is wrong near a key or a string is reported the same, at the same place, whether the
// fast paths apply (36 bytes or more follow) or not.
TEST(JsonReader, CompactFastPathsReportWhatTheGeneralPathsReport) {
  const std::string cases[] = {
      R"({"a":1"b":2})",         // no ',' between members
      R"({,"a":1})",             // ',' before the first member
      R"({"a":1,,"b":2})",       // two commas
      R"({"abc"x:1})",           // no ':' after the key
      R"({"abc" :1,"d"})",       // a key without a value (general path for "abc")
      "{\"a\x01" "b\":1}",       // control character in a key
      "{\"k\xff\":1}",           // invalid UTF-8 in a key
      "{\"k\":\"a\x01\"}",       // control character in a string
      "{\"k\":\"a\xc0\xaf\"}",   // overlong UTF-8 in a string
      "{\"k\":[\"abc\"\"d\"]}",  // no ',' between elements
  };
  for (const std::string& bad : cases) {
    auto walk_error = [](const std::string& text) {
      JsonReader r;
      r.OpenBuffer(text);
      std::vector<std::string> tokens;
      if (WalkTokens(r, &tokens) && r.ExpectEnd()) return std::string();
      return r.error();
    };
    const std::string short_error = walk_error(bad);
    ASSERT_FALSE(short_error.empty()) << bad;
    EXPECT_EQ(walk_error(bad + std::string(64, ' ')), short_error) << bad;
  }
}

// TryReadPlainNumberArray takes exactly the compact arrays of plain numbers of 1 to 18 digits
// (at most `max` of them) and leaves everything else, consuming nothing, to the general
// readers.
TEST(JsonReader, PlainNumberArrays) {
  struct Case {
    const char* text;
    std::vector<int64_t> values;  // empty with taken false: declined
    bool taken;
  };
  const Case cases[] = {
      {"[1,4096]", {1, 4096}, true},
      {"[]", {}, true},
      {"[0]", {0}, true},
      {"[123456789012345678]", {123456789012345678}, true},
      {"[1,2,3,4]", {1, 2, 3, 4}, true},
      {"[1,2,3,4,5]", {}, false},  // more than max (4)
      {"[1234567890123456789]", {}, false},
      {"[01]", {}, false},
      {"[-1]", {}, false},
      {"[1.5]", {}, false},
      {"[1e2]", {}, false},
      {"[\"1\"]", {}, false},
      {"[ 1]", {}, false},
      {"[1 ]", {}, false},
      {"[1,]", {}, false},
      {"[,1]", {}, false},
      {"[[1]]", {}, false},
      {"[1", {}, false},
      {"[1,2", {}, false},
      {"{}", {}, false},
  };
  for (const Case& c : cases) {
    JsonReader r;
    const std::string text = std::string(c.text) + " ";
    r.OpenBuffer(text);
    int64_t out[4] = {-7, -7, -7, -7};
    size_t count = 99;
    EXPECT_EQ(r.TryReadPlainNumberArray(out, 4, &count), c.taken) << c.text;
    if (c.taken) {
      EXPECT_EQ(std::vector<int64_t>(out, out + count), c.values) << c.text;
      EXPECT_EQ(r.position(), std::string(c.text).size()) << c.text;
    } else {
      EXPECT_EQ(r.position(), 0u) << c.text;  // nothing consumed
    }
    EXPECT_FALSE(r.failed()) << c.text;
  }
}

// A FIFO put where the caller checked a regular file (the window between CheckRegularInput
// and Open) is refused at once: the open does not wait for a writer. Before, this test hung.
TEST(JsonReader, OpenRefusesAFifoWithoutBlocking) {
  const std::string fifo = (std::filesystem::temp_directory_path() /
                            ("depgraph_json_reader_fifo_" + std::to_string(getpid())))
                               .string();
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  JsonReader r;
  std::string err;
  EXPECT_FALSE(r.Open(fifo, &err));
  EXPECT_EQ(err, "not a regular file");
  unlink(fifo.c_str());
}

}  // namespace
}  // namespace depgraph
