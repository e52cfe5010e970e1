// MatchPythonIndentedJson (depgraph/support/python_json_form.h): accepts exactly what
// AppendPythonJsonDump writes, and says no to every other spelling of the same value.
#include "depgraph/support/python_json_form.h"

#include <gtest/gtest.h>

#include <charconv>
#include <random>
#include <string>

#include "depgraph/support/json_dom.h"
#include "depgraph/support/json_writer.h"

namespace depgraph {
namespace {

using nlohmann::ordered_json;

bool Matches(std::string_view text, int level = 0) {
  return MatchPythonIndentedJson(text, level, nullptr, 0, nullptr);
}

// What the dump of `json` writes at `level` is accepted, whatever the value.
TEST(PythonJsonForm, TheDumpOfAValueMatches) {
  for (const char* json :
       {R"j({"name": "k(t1)", "ph": "X", "pid": 4, "ts": 12.5, "dur": 0.001, "args": {"taskId": 7,
           "list": [1, -2, 3.0, true, false, null, "\u00b7", [], {}], "big": 1e+16, "small": 1e-05,
           "neg0": -0.0, "max": 123456789012345678}})j",
        "[]", "{}", "0", "-5", "\"\"", R"([[[1]], {"a": {"b": []}}])"}) {
    ordered_json value;
    std::string err;
    ASSERT_TRUE(ParseJsonDocument(json, &value, &err)) << err;
    for (int level : {0, 2}) {
      std::string text;
      AppendPythonJsonDump(value, 2, &text, level);
      EXPECT_TRUE(Matches(text, level)) << text;
      if (text.find('\n') != std::string::npos) {
        EXPECT_FALSE(Matches(text, level + 1)) << text;  // the indentation must be exact
      }
    }
  }
}

// Every other spelling takes the DOM path.
TEST(PythonJsonForm, OtherSpellingsOfTheSameValueDoNotMatch) {
  for (const char* text : {
           "{\"a\":1}", "{\n  \"a\":1\n}", "{\n  \"a\": 1 \n}", "{\n  \"a\": 1,\n  \"a\": 2\n}",
           "[ ]", "[\n  1\n ]", "1.50", "1.5e0", "1E+16", "1e16", "100.0e0", "-0", "007",
           "0.30000000000000004e0", "1234567890123456789", "\"tab\\t\"", "\"\\u00b7\"",
           "\"\\/\"", "{\n  \"a\": 1\n}\n", " 1"}) {
    EXPECT_FALSE(Matches(text)) << text;
  }
  EXPECT_TRUE(Matches("0.30000000000000004"));
  EXPECT_TRUE(Matches("1e+16"));
}

TEST(PythonJsonForm, SpansOfTheNamedTopLevelMembers) {
  const std::string text = "{\n  \"name\": \"a\",\n  \"args\": {\n    \"name\": 1\n  }\n}";
  const std::string_view keys[] = {"args", "name", "absent"};
  JsonMemberSpan spans[3];
  ASSERT_TRUE(MatchPythonIndentedJson(text, 0, keys, 3, spans));
  ASSERT_TRUE(spans[0].found && spans[1].found);
  EXPECT_FALSE(spans[2].found);
  EXPECT_EQ(text.substr(spans[1].begin, spans[1].end - spans[1].begin), "\"a\"");
  EXPECT_EQ(text.substr(spans[0].begin, spans[0].end - spans[0].begin),
            "{\n    \"name\": 1\n  }");
}

// Issue 26: decimals in fixed notation are decided without converting when they have at most
// 15 significant digits. Whatever is decided must be what converting and writing the repr
// decides: random decimals of 1-18 digits around every accepted magnitude, and their edges.
TEST(PythonJsonForm, FixedDecimalsMatchExactlyWhenTheyAreTheirOwnRepr) {
  std::mt19937_64 random(26);
  const auto is_repr = [](const std::string& token) {
    double value = 0;
    std::from_chars(token.data(), token.data() + token.size(), value);
    std::string repr;
    AppendPythonJsonFloat(&repr, value);
    return repr == token;
  };
  std::vector<std::string> tokens = {"0.0",     "-0.0",   "0.0001", "0.00001", "0.00010",
                                     "5.0",     "5.10",   "00.5",   "123.0",   "-1.5",
                                     "0.1",     "0.10000000000000001",  "999999999999999.0",
                                     "1000000000000000.0", "9999999999999998.0", "0.3",
                                     "0.30000000000000004", "123456789012345.6"};
  for (int i = 0; i < 200000; ++i) {
    const int int_digits = static_cast<int>(random() % 17);  // 0: the integer part is "0"
    const int zeros = int_digits == 0 ? static_cast<int>(random() % 6) : 0;
    const int fraction_digits = 1 + static_cast<int>(random() % 18);
    std::string token = random() % 4 == 0 ? "-" : "";
    if (int_digits == 0) {
      token += "0";
    } else {
      token += static_cast<char>('1' + random() % 9);
      for (int d = 1; d < int_digits; ++d) token += static_cast<char>('0' + random() % 10);
    }
    token += '.';
    token += std::string(static_cast<size_t>(zeros), '0');
    for (int d = 0; d < fraction_digits; ++d) token += static_cast<char>('0' + random() % 10);
    tokens.push_back(token);
  }
  size_t accepted = 0;
  for (const std::string& token : tokens) {
    const bool expected = is_repr(token);
    ASSERT_EQ(Matches(token), expected) << token;
    accepted += expected;
  }
  EXPECT_GT(accepted, tokens.size() / 4);  // the fast path has work to do
}

// The prefix match finds where the value ends, checks the syntax nobody checked before it, and
// leaves anything invalid (or deeper than 64 levels) to a reader.
TEST(PythonJsonForm, PrefixMatchChecksTheSyntaxAndFindsTheEnd) {
  const auto prefix = [](std::string_view text) {
    return MatchPythonIndentedJsonPrefix(text, 0, nullptr, 0, nullptr);
  };
  EXPECT_EQ(prefix("{\n  \"a\": [\n    1\n  ]\n},\n  {"), 22u);
  EXPECT_EQ(prefix("\"\xC2\xB7\"]"), 4u);
  EXPECT_EQ(prefix("12, 3"), 2u);
  for (std::string_view text :
       {std::string_view("\"a\x01\""), std::string_view("\"\xC0\xAF\""),
        std::string_view("\"\xED\xA0\x80\""), std::string_view("\"\xC2\""),
        std::string_view("1-2"), std::string_view("--1"), std::string_view("\"open"),
        std::string_view("{\n  \"a\": 1\n"), std::string_view("1.5e400"),
        std::string_view("\0", 1)}) {
    EXPECT_EQ(prefix(text), 0u) << text;
    EXPECT_FALSE(Matches(text)) << text;
  }
  std::string deep, shallow;
  for (int level = 0; level < 64; ++level) {
    deep += "[\n" + std::string(static_cast<size_t>(2 * (level + 1)), ' ');
  }
  shallow = deep.substr(0, deep.rfind('['));
  const auto close = [](std::string text, int levels) {
    text += "1";
    for (int level = levels - 1; level >= 0; --level) {
      text += "\n" + std::string(static_cast<size_t>(2 * level), ' ') + "]";
    }
    return text;
  };
  EXPECT_TRUE(Matches(close(shallow, 63)));
  EXPECT_FALSE(Matches(close(deep, 64)));
}

}  // namespace
}  // namespace depgraph
