#include "depgraph/timing/merged_trace.h"

#include <gtest/gtest.h>

#include <functional>
#include <sstream>
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

// Issue 26: the trace is streamed (never a DOM of it), so what a whole-document read decided
// is decided again at the end of one pass: syntax anywhere first, then the shape, then the
// first non-object `args`; Python's dict keeps a repeated key's first place and last value.
TEST(MergedTraceStream, PrecedenceAndRepeatedKeysAsAWholeDocumentRead) {
  MergedTrace trace;
  std::string err;
  // A fatal args, then a syntax error further on: the syntax error wins.
  EXPECT_EQ(LoadMergedTraceText(R"({"traceEvents": [{"args": 1}, {"ph": "X"} x]})", &trace, &err),
            MergedTraceStatus::kInvalid);
  EXPECT_EQ(err.rfind("line 1:column ", 0), 0u) << err;
  // A fatal args, then an event that is not an object: the shape wins.
  EXPECT_EQ(LoadMergedTraceText(R"({"traceEvents": [{"args": 1}, 7]})", &trace, &err),
            MergedTraceStatus::kInvalid);
  EXPECT_EQ(err, "merged swimlane JSON must contain a traceEvents list");
  // A number beyond a double anywhere, at its path.
  EXPECT_EQ(LoadMergedTraceText(R"({"traceEvents": [{}, {"ts": 1e400}], "m": 1})", &trace, &err),
            MergedTraceStatus::kInvalid);
  EXPECT_EQ(err, "traceEvents[1].ts: number 1e400 is out of range (beyond a double)");
  EXPECT_EQ(LoadMergedTraceText(R"({"traceEvents": [], "m": [1e999]})", &trace, &err),
            MergedTraceStatus::kInvalid);
  EXPECT_EQ(err, "m[0]: number 1e999 is out of range (beyond a double)");
  // A repeated traceEvents: the last value counts, in the first one's place; an earlier bad one
  // does not matter once replaced.
  const MergedTrace repeated = Load(
      R"({"a": 1, "traceEvents": [{"args": 3}], "b": {"c": 2}, "a": 5,)"
      R"( "traceEvents": [{"name": "x", "ph": "X", "pid": 4, "args": {"taskId": 1}}]})");
  EXPECT_EQ(repeated.bar_keys, (std::unordered_set<std::string>{"1"}));
  EXPECT_EQ(Rewrite(repeated, {}),
            "{\n  \"a\": 5,\n  \"traceEvents\": [\n    {\n      \"name\": \"\xC2\xB7(t1)\",\n"
            "      \"ph\": \"X\",\n      \"pid\": 4,\n      \"args\": {\n        \"taskId\": 1\n"
            "      }\n    }\n  ],\n  \"b\": {\n    \"c\": 2\n  }\n}\n");
}

// One pass writes every output; each equals the rewrite for its critical set alone, and the
// file loader reads what the text loader reads.
TEST(MergedTraceStream, SeveralOutputsInOnePassEqualSingleRewrites) {
  testing::TempDir dir;
  testing::WriteFile(dir.File("merged_swimlane.json"), kExampleB);
  MergedTrace trace;
  std::string err;
  ASSERT_EQ(LoadMergedTrace(dir.File("merged_swimlane.json"), &trace, &err),
            MergedTraceStatus::kOk)
      << err;
  const std::unordered_set<std::string> first = {"10", "11"}, second = {"9"};
  std::ostringstream a, b;
  ASSERT_EQ(RewriteMergedTraces(trace, {&first, &second}, {&a, &b}, &err),
            MergedTraceStatus::kOk)
      << err;
  EXPECT_EQ(a.str(), Rewrite(Load(kExampleB), first));
  EXPECT_EQ(b.str(), Rewrite(Load(kExampleB), second));
  EXPECT_NE(a.str(), b.str());
}

// A trace already in the rewrite's form (as the swimlane tools write it) is copied, renamed
// bars spliced around their name, and gives the bytes the DOM path gives.
TEST(MergedTraceStream, VerbatimEventsGiveWhatTheDomPathGives) {
  const std::string compact = R"j({"traceEvents": [
    {"name": "A(t9)", "ph": "X", "pid": 4, "ts": 1.25, "args": {"taskId": 9, "x": [1, 2.5]}},
    {"ph": "X", "name": "A(t10)", "pid": 4.0, "args": {"taskId": "10"}, "tid": 3},
    {"name": "A(t11)", "ph": "X", "pid": 4, "args": {"taskId": 8589934596}},
    {"name": "e\t\u00b7", "ph": "X", "pid": 4, "args": {"taskId": 12}},
    {"ph": "X", "pid": 4, "args": {"taskId": 13}},
    {"name": "s", "ph": "s", "pid": 4, "id": 1, "ts": 0.0}
  ], "displayTimeUnit": "ns"})j";
  // Its kept rewrite is in the canonical form; load that and rewrite it again.
  const std::string canonical = Rewrite(Load(compact), {"9", "10", "8589934596", "12", "13"});
  const MergedTrace trace = Load(canonical);
  ASSERT_EQ(trace.events.size(), 6u);
  // Verbatim: all but the name with an escape (event 3) and the bar without a name (event 4).
  for (size_t i : {0u, 1u, 2u, 5u}) EXPECT_TRUE(trace.events[i].verbatim) << i;
  for (size_t i : {3u, 4u}) EXPECT_FALSE(trace.events[i].verbatim) << i;
  EXPECT_EQ(trace.bar_keys,
            (std::unordered_set<std::string>{"9", "10", "8589934596", "12", "13"}));
  for (const std::unordered_set<std::string>& critical :
       std::vector<std::unordered_set<std::string>>{{}, {"10"}, {"9", "12", "13"}}) {
    EXPECT_EQ(Rewrite(trace, critical), Rewrite(Load(compact), critical));
  }
  EXPECT_NE(Rewrite(trace, {}).find("\"name\": \"\xC2\xB7(r2t4)\""), std::string::npos);
}

/// What the two-pass route gives for `text` and the critical sets: LoadMergedTraceText, then
/// CheckCriticalBars, then RewriteMergedTraces; the status, the message and the outputs.
struct Outcome {
  MergedTraceStatus status;
  std::string err;
  std::vector<std::string> outs;
};
Outcome TwoPasses(const std::string& text, const std::vector<std::unordered_set<std::string>>& sets) {
  std::vector<const std::unordered_set<std::string>*> criticals;
  for (const auto& set : sets) criticals.push_back(&set);
  Outcome outcome{MergedTraceStatus::kOk, "", {}};
  MergedTrace trace;
  outcome.status = LoadMergedTraceText(text, &trace, &outcome.err);
  if (outcome.status == MergedTraceStatus::kOk) {
    outcome.status = CheckCriticalBars(trace, criticals, &outcome.err);
  }
  if (outcome.status != MergedTraceStatus::kOk) return outcome;
  std::vector<std::ostringstream> streams(sets.size());
  std::vector<std::ostream*> outs;
  for (auto& stream : streams) outs.push_back(&stream);
  outcome.status = RewriteMergedTraces(trace, criticals, outs, &outcome.err);
  for (auto& stream : streams) outcome.outs.push_back(stream.str());
  return outcome;
}
Outcome OnePass(const std::string& text, const std::vector<std::unordered_set<std::string>>& sets) {
  std::vector<const std::unordered_set<std::string>*> criticals;
  for (const auto& set : sets) criticals.push_back(&set);
  std::vector<std::ostringstream> streams(sets.size());
  std::vector<std::ostream*> outs;
  for (auto& stream : streams) outs.push_back(&stream);
  Outcome outcome{MergedTraceStatus::kOk, "", {}};
  outcome.status = StreamMergedTraceRewritesText(text, criticals, outs, &outcome.err);
  for (auto& stream : streams) outcome.outs.push_back(stream.str());
  return outcome;
}

// Issue 26: critical-path rewrites the trace in one pass, writing each event as it reads it.
// Whatever the document, that pass decides what the two-pass route decides (status, message in
// the same precedence) and writes the same bytes on success; a repeated top-level key, which a
// single pass cannot place, sends the caller to the two-pass route.
TEST(MergedTraceStream, OnePassEqualsTheTwoPassRoute) {
  const std::string canonical = Rewrite(Load(kExampleB), {"9", "10"});
  const std::vector<std::string> documents = {
      kExampleB,
      canonical,
      canonical.substr(0, canonical.size() / 2),  // cut short
      R"([{"ph": "X", "pid": "4", "args": {"taskId": 1}}, {"ph": "X", "pid": 4, "args":)"
      R"( {"taskId": 5.0}}, {"ph": "X", "pid": 4, "args": {"taskId": 8589934596}}])",
      "[]", R"({"traceEvents": []})", R"({"m": {"a": [1]}, "traceEvents": [], "n": 2.50})",
      R"({"traceEvents": [1]})", R"({"traceEvents": {}})", R"({"x": []})", "[[]]", "5",
      R"({"traceEvents": [{"ph": "M"}, {"args": null}]})",
      R"({"traceEvents": [{"args": 1}, {"ph": "X"} x]})",
      R"({"traceEvents": [{"args": 1}, 7]})",
      R"({"traceEvents": [{}, {"ts": 1e400}], "m": 1})",
      R"({"traceEvents": [], "m": [1e999]})",
      "[\n  {\n    \"args\": 3\n  }\n]",              // canonical, args not an object
      "[\n  {\n    \"ts\": 1.5e400\n  }\n]",          // canonical-looking, beyond a double
      "[\n  {\n    \"name\": \"a\x01\"\n  }\n]",   // a control character in a string
      "[\n  {\n    \"name\": \"\xC0\xAF\"\n  }\n]",  // not UTF-8
      R"({"a": 1, "traceEvents": [{"args": 3}], "b": {"c": 2}, "a": 5,)"
      R"( "traceEvents": [{"name": "x", "ph": "X", "pid": 4, "args": {"taskId": 1}}]})",
      R"({"traceEvents": [], "traceEvents": []})",
  };
  const std::vector<std::vector<std::unordered_set<std::string>>> criticals = {
      {{}}, {{"9", "10"}, {"11"}}, {{"10"}, {"404"}}, {{"1"}}};
  for (const std::string& text : documents) {
    for (const auto& sets : criticals) {
      const Outcome two = TwoPasses(text, sets), one = OnePass(text, sets);
      const bool repeated = text.find("\"a\": 5") != std::string::npos ||
                            text == R"({"traceEvents": [], "traceEvents": []})";
      if (repeated) {  // a valid document: the caller takes the two-pass route
        EXPECT_EQ(one.status, MergedTraceStatus::kNeedsTwoPasses) << text;
        continue;
      }
      ASSERT_EQ(one.status, two.status) << text << "\n" << one.err << "\n" << two.err;
      EXPECT_EQ(one.err, two.err) << text;
      if (two.status == MergedTraceStatus::kOk) {
        EXPECT_EQ(one.outs, two.outs) << text;
      }
    }
  }
}

/// A trace of `count` events in the rewrite's form: every third a metadata event, the others
/// task bars of taskId i; `tweak(i, event)` may change event i first. `bare`: the document is
/// the array; otherwise an object whose `after` member, following the events, holds
/// `decoys` objects indented as events are (lines LookAhead may take for events).
std::string ManyEvents(size_t count, bool bare, size_t decoys,
                       const std::function<void(size_t, ordered_json*)>& tweak) {
  ordered_json events = ordered_json::array();
  for (size_t i = 0; i < count; ++i) {
    ordered_json event = {{"args", {{"taskId", i}, {"label", "t" + std::to_string(i)}}},
                          {"name", "task"},
                          {"ph", i % 3 == 0 ? "M" : "X"},
                          {"pid", 4},
                          {"ts", 0.5 * static_cast<double>(i)}};
    tweak(i, &event);
    events.push_back(std::move(event));
  }
  ordered_json doc = events;
  if (!bare) {
    ordered_json after = ordered_json::array();
    for (size_t i = 0; i < decoys; ++i) {
      after.push_back({{"name", "decoy"}, {"ph", "X"}, {"pid", 4}, {"args", {{"taskId", i}}}});
    }
    doc = {{"traceEvents", std::move(events)}, {"after", std::move(after)}};
  }
  std::string text;
  AppendPythonJsonDump(doc, 2, &text, 0);
  return text;
}

// Issue 26: past 16 MiB of events, a second thread locates the second half's events ahead of
// the reader. Whatever the document (events not in the form, errors and non-object `args` on
// either side of the middle, lines of another member that look like events), both routes
// decide and write exactly what they do without it.
TEST(MergedTraceStream, LocatingAheadOnASecondThreadChangesNothing) {
  const auto keep = [](size_t, ordered_json*) {};
  const size_t n = 3000;
  std::vector<std::string> documents = {
      ManyEvents(n, false, 0, keep),
      ManyEvents(n, true, 0, keep),
      ManyEvents(40, false, 3000, keep),  // the middle falls among the decoys
      ManyEvents(n, false, 10, [](size_t i, ordered_json* event) {
        if (i % 97 == 5) (*event)["ts"] = 1e300;  // not its own repr: read as a DOM
        if (i == 2500) (*event)["args"] = 7;      // fatal, past the middle
      }),
      ManyEvents(n, false, 0, [](size_t i, ordered_json* event) {
        if (i == 200 || i == 2700) (*event)["args"] = "x";  // the first one is reported
      }),
      ManyEvents(n, false, 0, [](size_t i, ordered_json* event) {
        if (i == 2200) (*event)["args"] = {{"taskId", ordered_json::array({1})}};  // a DOM bar
      }),
  };
  std::string broken = ManyEvents(n, false, 0, keep);  // a syntax error past the middle
  broken.insert(broken.size() * 3 / 4, "\x01");
  documents.push_back(broken);
  std::string cut = ManyEvents(n, true, 0, keep);  // cut short past the middle
  documents.push_back(cut.substr(0, cut.size() * 4 / 5));
  std::unordered_set<std::string> even, late = {"2999"}, missing = {"2998", "99999"};
  for (size_t i = 1; i < n; i += 3) even.insert(std::to_string(i));
  const std::vector<std::vector<std::unordered_set<std::string>>> criticals = {
      {even, late}, {late, missing}};
  for (const std::string& text : documents) {
    for (const auto& sets : criticals) {
      const size_t threshold = SetMergedTraceLookAheadThreshold(size_t{1} << 62);  // never
      const Outcome two = TwoPasses(text, sets), one = OnePass(text, sets);
      SetMergedTraceLookAheadThreshold(0);  // always
      const Outcome two_ahead = TwoPasses(text, sets), one_ahead = OnePass(text, sets);
      SetMergedTraceLookAheadThreshold(threshold);
      for (const Outcome* ahead : {&two_ahead, &one_ahead}) {
        const Outcome& alone = ahead == &two_ahead ? two : one;
        ASSERT_EQ(ahead->status, alone.status) << ahead->err << "\n" << alone.err;
        EXPECT_EQ(ahead->err, alone.err);
        EXPECT_TRUE(ahead->outs == alone.outs) << text.size();
      }
      EXPECT_EQ(one.err, two.err);
    }
  }
  // The renamed bars of the second half are where they should be.
  const Outcome whole = OnePass(documents[0], {even});
  ASSERT_EQ(whole.status, MergedTraceStatus::kOk) << whole.err;
  const std::vector<std::string> names = Names(whole.outs[0]);
  ASSERT_EQ(names.size(), n);
  EXPECT_EQ(names[2999], "\xC2\xB7(t2999)");
  EXPECT_EQ(names[2998], "task");  // critical
  EXPECT_EQ(names[2997], "task");  // metadata, not a bar
  EXPECT_EQ(names[2996], "\xC2\xB7(t2996)");
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
    EXPECT_TRUE(trace.events.empty() && trace.members.empty()) << text;
    EXPECT_TRUE(trace.bar_keys.empty()) << text;
  }
}

}  // namespace
}  // namespace depgraph
