#include "depgraph/timing/merged_trace.h"

#include <gtest/gtest.h>

#include <string>

#include "depgraph/support/json_dom.h"
#include "test_util.h"

namespace depgraph {
namespace {

using nlohmann::ordered_json;

MergedTrace Load(const std::string& text) {
  MergedTrace trace;
  std::string err;
  EXPECT_EQ(LoadMergedTraceText(text, &trace, &err), MergedTraceStatus::kOk) << err;
  return trace;
}

std::string Rewrite(const MergedTrace& trace, std::unordered_set<std::string> critical) {
  std::string out, err;
  EXPECT_EQ(RewriteMergedTrace(trace, critical, &out, &err), MergedTraceStatus::kOk) << err;
  return out;
}

/// Names of the events of a rewritten trace, in order.
std::vector<std::string> Names(const std::string& text) {
  ordered_json doc;
  std::string err;
  EXPECT_TRUE(ParseJsonDocument(text, &doc, &err)) << err;
  std::vector<std::string> names;
  for (const ordered_json& event : doc.is_array() ? doc : doc["traceEvents"]) {
    names.push_back(event.contains("name") ? event["name"].get<std::string>() : "-");
  }
  return names;
}

// spec/timing.md §3.16 Example B: bars of 9, 10, 11, 12; a Scheduler View bar of 12 and a
// dummy marker (args.task_id) are never renamed.
const char* const kExampleB = R"json({"traceEvents": [
  {"name": "A(t9)", "ph": "X", "pid": 4, "args": {"taskId": 9}},
  {"name": "A(t10)", "ph": "X", "pid": 4.0, "args": {"taskId": 10}},
  {"name": "A(t11)", "ph": "X", "pid": 4, "args": {"taskId": "11"}},
  {"name": "A(t12)", "ph": "X", "pid": 4, "args": {"taskId": 12}},
  {"name": "S(t12)", "ph": "X", "pid": 3, "args": {"taskId": 12}},
  {"name": "dummy(t13)", "ph": "X", "pid": 4, "args": {"task_id": 13}},
  {"name": "M", "ph": "M", "pid": 4}
], "displayTimeUnit": "ns"})json";

TEST(MergedTrace, ExampleBRenamesEveryBarOffThePath) {
  const MergedTrace trace = Load(kExampleB);
  EXPECT_EQ(trace.bar_keys, (std::unordered_set<std::string>{"9", "10", "11", "12"}));
  EXPECT_EQ(Names(Rewrite(trace, {"10", "11"})),
            (std::vector<std::string>{"\xC2\xB7(t9)", "A(t10)", "A(t11)", "\xC2\xB7(t12)", "S(t12)",
                                      "dummy(t13)", "M"}));
  EXPECT_EQ(Names(Rewrite(trace, {"9", "11"})),
            (std::vector<std::string>{"A(t9)", "\xC2\xB7(t10)", "A(t11)", "\xC2\xB7(t12)", "S(t12)",
                                      "dummy(t13)", "M"}));
}

TEST(MergedTrace, BarsAreXEventsOfPid4WithATaskId) {
  const MergedTrace trace = Load(R"([
    {"ph": "X", "pid": "4", "args": {"taskId": 1}},
    {"ph": "X", "pid": true, "args": {"taskId": 2}},
    {"ph": "B", "pid": 4, "args": {"taskId": 3}},
    {"ph": "X", "pid": 4, "args": {"taskId": null}},
    {"ph": "X", "pid": 4},
    {"ph": "X", "pid": 4, "args": {"taskId": 5.0}},
    {"ph": "X", "pid": 4, "args": {"taskId": 8589934596}}])");
  EXPECT_EQ(trace.bar_keys, (std::unordered_set<std::string>{"5.0", "8589934596"}));
  // A bar without a name gets one, at the end of the object.
  const std::string out = Rewrite(trace, {});
  EXPECT_NE(out.find("\"taskId\": 5.0\n    },\n    \"name\": \"\xC2\xB7(t5)\"\n"),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("\"name\": \"\xC2\xB7(r2t4)\""), std::string::npos);
}

TEST(MergedTrace, DisplayIdsFollowPythonInt) {
  EXPECT_EQ(TraceDisplayId(ordered_json(9)), "t9");
  EXPECT_EQ(TraceDisplayId(ordered_json(8589934596ull)), "r2t4");
  EXPECT_EQ(TraceDisplayId(ordered_json(" +1_0 ")), "t10");
  EXPECT_EQ(TraceDisplayId(ordered_json(7.9)), "t7");
  EXPECT_EQ(TraceDisplayId(ordered_json(-1)), "r255t4294967295");  // masked to 64 bits
  EXPECT_EQ(TraceDisplayId(ordered_json("abc")), "abc");
  EXPECT_EQ(TraceDisplayId(ordered_json(true)), "t1");
}

TEST(MergedTrace, MissingCriticalTasksAreListedInStringOrder) {
  const MergedTrace trace = Load(kExampleB);
  std::string out, err;
  EXPECT_EQ(RewriteMergedTrace(trace, {"5", "10", "20", "30", "40", "50", "11"}, &out, &err),
            MergedTraceStatus::kInvalid);
  EXPECT_EQ(err, "merged Worker View is missing 5 critical task(s): 20, 30, 40, 5, 50");
}

TEST(MergedTrace, WrongShapesAreInvalidAndNonObjectArgsFatal) {
  MergedTrace trace;
  std::string err;
  for (const char* text : {R"({"traceEvents": [1]})", R"({"traceEvents": {}})", R"({"x": []})",
                           "[[]]", "5", "\"s\""}) {
    EXPECT_EQ(LoadMergedTraceText(text, &trace, &err), MergedTraceStatus::kInvalid) << text;
    EXPECT_EQ(err, "merged swimlane JSON must contain a traceEvents list");
  }
  EXPECT_EQ(LoadMergedTraceText(R"({"traceEvents": [{"ph": "X",)", &trace, &err),
            MergedTraceStatus::kInvalid);
  EXPECT_EQ(err.rfind("line 1:", 0), 0u) << err;
  EXPECT_EQ(LoadMergedTraceText(R"({"traceEvents": [{"ph": "M"}, {"args": null}]})", &trace, &err),
            MergedTraceStatus::kFatal);
  EXPECT_EQ(err, "traceEvents[1].args: expected an object, got null");
  EXPECT_EQ(LoadMergedTrace("/nonexistent/merged_swimlane.json", &trace, &err),
            MergedTraceStatus::kInvalid);
}

// The hand-written event of the pa_small1_basic case pins Python's re-serialisation.
TEST(MergedTrace, SerialisesLikePythonJsonDumps) {
  const MergedTrace trace =
      Load(R"({"traceEvents": [{"args": {"note": "sched \u00b5s \u2014 \u00b7\t\"q\" \\ \u0001",)"
           R"( "ratio": 1E+2, "tiny": 0.00001,)"
           R"( "third": 0.333333333333333314829616256247390992939472198486328125,)"
           R"( "u64": 18446744073709551615, "neg0": -0.0, "milli": 2.50e-3, "big": 1e16,)"
           R"( "list": [], "obj": {}, "i": -0, "dup": 1, "dup": 2}, "ph": "M", "pid": 4}],)"
           R"( "metadata": {"a": [1, {"b": null}]}})");
  EXPECT_EQ(
      Rewrite(trace, {}),
      "{\n"
      "  \"traceEvents\": [\n"
      "    {\n"
      "      \"args\": {\n"
      "        \"note\": \"sched \xC2\xB5s \xE2\x80\x94 \xC2\xB7\\t\\\"q\\\" \\\\ \\u0001\",\n"
      "        \"ratio\": 100.0,\n"
      "        \"tiny\": 1e-05,\n"
      "        \"third\": 0.3333333333333333,\n"
      "        \"u64\": 18446744073709551615,\n"
      "        \"neg0\": -0.0,\n"
      "        \"milli\": 0.0025,\n"
      "        \"big\": 1e+16,\n"
      "        \"list\": [],\n"
      "        \"obj\": {},\n"
      "        \"i\": 0,\n"
      "        \"dup\": 2\n"
      "      },\n"
      "      \"ph\": \"M\",\n"
      "      \"pid\": 4\n"
      "    }\n"
      "  ],\n"
      "  \"metadata\": {\n"
      "    \"a\": [\n"
      "      1,\n"
      "      {\n"
      "        \"b\": null\n"
      "      }\n"
      "    ]\n"
      "  }\n"
      "}\n");
  EXPECT_EQ(Rewrite(Load("[]"), {}), "[]\n");
  EXPECT_EQ(Rewrite(Load(R"({"traceEvents": []})"), {}), "{\n  \"traceEvents\": []\n}\n");
}

// Found by the timing_inputs fuzzer: a syntax error left the part of the document parsed before
// it in the trace.
TEST(MergedTrace, ASyntaxErrorLeavesTheTraceEmpty) {
  MergedTrace trace;
  std::string err;
  for (const char* text :
       {"{", R"({"traceEvents": [{"ph": "X", "pid": 4, "args": {"taskId": 1}},)"}) {
    EXPECT_EQ(LoadMergedTraceText(text, &trace, &err), MergedTraceStatus::kInvalid) << text;
    EXPECT_EQ(err.rfind("line 1:", 0), 0u) << err;
    EXPECT_TRUE(trace.doc.is_null()) << text;
    EXPECT_TRUE(trace.bar_keys.empty()) << text;
  }
}

}  // namespace
}  // namespace depgraph
