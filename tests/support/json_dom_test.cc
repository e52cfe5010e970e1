#include "depgraph/support/json_dom.h"

#include <gtest/gtest.h>

#include <string>

#include "depgraph/support/json_reader.h"

namespace depgraph {
namespace {

using nlohmann::ordered_json;

std::string ParseError(const std::string& text) {
  ordered_json doc;
  std::string err;
  EXPECT_FALSE(ParseJsonDocument(text, &doc, &err)) << text;
  return err;
}

TEST(JsonDom, ParsesEveryKindInOrder) {
  ordered_json doc;
  std::string err;
  ASSERT_TRUE(ParseJsonDocument(
      R"({"z": [1, -2, 18446744073709551615, 1.5, 1e-400, "s\u00e9", true, null], "a": {}})", &doc,
      &err))
      << err;
  EXPECT_EQ(doc.begin().key(), "z");  // file order, not sorted
  const ordered_json& z = doc["z"];
  EXPECT_TRUE(z[0].is_number_unsigned());
  EXPECT_EQ(z[1].get<int64_t>(), -2);
  EXPECT_EQ(z[2].get<uint64_t>(), UINT64_MAX);
  EXPECT_EQ(z[3].get<double>(), 1.5);
  EXPECT_EQ(z[4].get<double>(), 0.0);  // underflow is zero, as everywhere
  EXPECT_EQ(z[5].get<std::string>(), "s\xc3\xa9");
  EXPECT_TRUE(z[6].get<bool>());
  EXPECT_TRUE(z[7].is_null());
  EXPECT_TRUE(doc["a"].is_object());
  // An integer beyond 64 bits is a double, as nlohmann's own parser makes it.
  ASSERT_TRUE(ParseJsonDocument("[123456789012345678901234567890]", &doc, &err));
  EXPECT_TRUE(doc[0].is_number_float());
}

TEST(JsonDom, RepeatedKeyKeepsFirstPlaceLastValue) {
  ordered_json doc;
  std::string err;
  ASSERT_TRUE(ParseJsonDocument(R"({"b": 1, "a": 2, "b": 3})", &doc, &err)) << err;
  EXPECT_EQ(doc.dump(), R"({"b":3,"a":2})");
}

// A number beyond a double was nlohmann's out_of_range.406, an exception nobody caught.
TEST(JsonDom, NumberBeyondADoubleNamesItsPath) {
  EXPECT_EQ(ParseError(R"({"t": [{"v": [1, 1e400]}]})"),
            "t[0].v[1]: number 1e400 is out of range (beyond a double)");
  EXPECT_EQ(ParseError(R"({"a b": -1E+999})"),
            "[\"a b\"]: number -1E+999 is out of range (beyond a double)");
  EXPECT_EQ(ParseError("1e400"), "line 1:column 6: number 1e400 is out of range (beyond a double)");
  EXPECT_EQ(ParseError("[1" + std::string(400, '0') + "]"),
            "[0]: number 1" + std::string(39, '0') + "... is out of range (beyond a double)");
}

TEST(JsonDom, SyntaxAndEncodingErrorsHaveLineAndColumn) {
  EXPECT_EQ(ParseError("not json"), "line 1:column 1: invalid JSON value");
  EXPECT_EQ(ParseError("{\"a\": 1,\n}"), "line 2:column 1: expected a string key");
  EXPECT_EQ(ParseError("[\"\xff\"]"), "line 1:column 3: invalid UTF-8 in string");
  EXPECT_EQ(ParseError("[\"\\udc00\"]"), "line 1:column 3: lone UTF-16 surrogate in \\u escape");
  EXPECT_EQ(ParseError("[1] [2]"), "line 1:column 5: extra data after the JSON document");
  EXPECT_EQ(ParseError(""), "line 1:column 1: unexpected end of file, expected a value");
  EXPECT_NE(ParseError(std::string(100000, '[')).find("nested too deeply"), std::string::npos);
}

// A streaming reader keeps the bulk of a document out of the DOM and reads single values.
TEST(JsonDom, ReadJsonValueReadsOneValueAtTheReadersPosition) {
  JsonReader reader;
  reader.OpenBuffer(R"({"rows": [1, 2], "meta": {"k": [true, "x"]}, "bad": [1, 1e400]})");
  ASSERT_TRUE(reader.BeginObject());
  std::string_view key;
  ASSERT_TRUE(reader.NextKey(&key));
  ASSERT_TRUE(reader.SkipValue());
  ASSERT_TRUE(reader.NextKey(&key));
  ordered_json value;
  std::string err;
  ASSERT_TRUE(ReadJsonValue(&reader, "meta", &value, &err)) << err;
  EXPECT_EQ(value.dump(), R"({"k":[true,"x"]})");
  ASSERT_TRUE(reader.NextKey(&key));
  EXPECT_FALSE(ReadJsonValue(&reader, "bad", &value, &err));
  EXPECT_EQ(err, "bad[1]: number 1e400 is out of range (beyond a double)");
}

// Issue 25 item 4: a document whose tree would cost far more than its text (8 MB of empty
// arrays: ~19 estimated bytes per text byte) is refused at the place the budget runs out,
// before it can exhaust memory; an ordinary document of the same size still loads.
TEST(JsonDom, ATreeFarLargerThanItsTextIsRefusedAtItsPlace) {
  std::string empties = "[";
  while (empties.size() < (8u << 20)) empties += "[],[],[],[],[],[],[],[],";
  empties += "[]]";
  const std::string err = ParseError(empties);
  EXPECT_EQ(err.rfind("line 1:column ", 0), 0u) << err;
  EXPECT_NE(err.find(": too large to read: its JSON tree would need more than 128 MiB"),
            std::string::npos)
      << err;

  std::string events = "[";
  while (events.size() < (8u << 20)) {
    events += R"({"name": "kernel_17", "ph": "X", "ts": 1234.5, "dur": 2.25, "tid": 3},)";
  }
  events += "{}]";
  ordered_json doc;
  std::string parse_err;
  EXPECT_TRUE(ParseJsonDocument(events, &doc, &parse_err)) << parse_err;
}

// Error messages show a value bounded, never the whole of a huge one.
TEST(JsonDom, JsonValueForMessageIsCompactJsonCutAtItsBound) {
  EXPECT_EQ(JsonValueForMessage(ordered_json::parse(R"({"a": [1, 2.5, "x"], "b": null})")),
            R"({"a":[1,2.5,"x"],"b":null})");
  EXPECT_EQ(JsonValueForMessage(ordered_json::parse("[]")), "[]");
  EXPECT_EQ(JsonValueForMessage(ordered_json("tab\there")), "\"tab\\there\"");

  ordered_json big = ordered_json::array();
  for (int i = 0; i < 1000000; ++i) big.push_back(ordered_json::array());
  EXPECT_EQ(JsonValueForMessage(big, 10), "[[],[],[],...");
  EXPECT_EQ(JsonValueForMessage(ordered_json(std::string(1u << 20, 'z')), 6), "\"zzzzz...");
  // A cut never splits a UTF-8 sequence.
  EXPECT_EQ(JsonValueForMessage(ordered_json("\xc3\xa9\xc3\xa9\xc3\xa9"), 4), "\"\xc3\xa9...");
}

}  // namespace
}  // namespace depgraph
