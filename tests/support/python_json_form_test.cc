// MatchPythonIndentedJson (depgraph/support/python_json_form.h): accepts exactly what
// AppendPythonJsonDump writes, and says no to every other spelling of the same value.
#include "depgraph/support/python_json_form.h"

#include <gtest/gtest.h>

#include <string>

#include "depgraph/support/json_dom.h"

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

}  // namespace
}  // namespace depgraph
