// `depgraph wait-sim` (apps/depgraph/wait_sim_command.h): the report on real captures, the JSON
// file, and one-line errors with exit 1 and no file written.
#include "wait_sim_command.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <chrono>
#include <set>
#include <sstream>

#include "depgraph_cli.h"
#include "test_util.h"

namespace depgraph {
namespace {

using testing::ReadFile;
using testing::TempDir;
using testing::WriteFile;

struct Answer {
  int code = -1;
  std::string out;
  std::string err;
};

Answer WaitSim(const std::vector<std::string>& args) {
  std::ostringstream out, err;
  std::vector<std::string> argv = {"wait-sim"};
  argv.insert(argv.end(), args.begin(), args.end());
  Answer a;
  a.code = DepgraphMain(argv, out, err);
  a.out = out.str();
  a.err = err.str();
  return a;
}

std::string Real(const std::string& capture) {
  return testing::SourceDir() + "/data/real/" + capture + "/deps.json";
}

bool OneErrorLine(const std::string& err) {
  return err.rfind("error: ", 0) == 0 && err.find('\n') == err.size() - 1;
}

// Numbers checked against an independent implementation of spec/viewer.md §9.
TEST(WaitSimCommand, TextReportOnARealCapture) {
  const std::string input = Real("paged_attention/CaseVarSeq2");
  const Answer a = WaitSim({input, "--bl", "2,8,64"});
  EXPECT_EQ(a.code, 0) << a.err;
  EXPECT_EQ(a.err, "");
  EXPECT_EQ(a.out,
            "== " + input +
                "\n"
                "tasks 22 (2 allocation(s) placed before their first consumer), 28 WAIT pairs\n"
                "exact reduction (upper bound): 8 redundant: 8 demote to RETAIN, 0 drop\n"
                "seq distance: p50 1, p90 5, p99 9, max 9\n"
                "cross-scope (id>>32): 5 WAIT pairs, 3 redundant\n"
                "    BL  removed  of bound  demote    drop  window misses  bitmap misses  "
                "cross-scope misses  in window\n"
                "     2        3    37.50%       3       0              5              0"
                "                   3      71.4%\n"
                "     8        7    87.50%       7       0              1              0"
                "                   1      96.4%\n"
                "    64        8   100.00%       8       0              0              0"
                "                   0     100.0%\n");
}

TEST(WaitSimCommand, JsonFileForSeveralCaptures) {
  TempDir dir;
  const std::string a_in = Real("dep_probe/default"),
                    b_in = Real("dep_gen_chain/n_65_single_overflow");
  const Answer a = WaitSim({a_in, b_in, "--json", dir.File("w.json"), "--bl", "8,64"});
  ASSERT_EQ(a.code, 0) << a.err;
  EXPECT_NE(a.out.find("== " + b_in + "\n"), std::string::npos);
  EXPECT_EQ(a.out.substr(a.out.size() - 7 - dir.File("w.json").size()),
            "Wrote " + dir.File("w.json") + "\n");
  const nlohmann::json doc = nlohmann::json::parse(ReadFile(dir.File("w.json")));
  EXPECT_EQ(doc["schema"], "depgraph-wait-sim/1");
  ASSERT_EQ(doc["captures"].size(), 2u);
  const nlohmann::json& probe = doc["captures"][0];
  EXPECT_EQ(probe["file"], a_in);
  EXPECT_EQ(probe["tasks"], 30);
  EXPECT_EQ(probe["wait_pairs"], 31);
  EXPECT_EQ(probe["full_reduction_upper_bound"], 3);
  EXPECT_EQ(probe["seq_distance"]["p90"], 20);
  EXPECT_EQ(probe["windows"]["64"]["removed"], 3);
  EXPECT_EQ(probe["windows"]["64"]["pure_drop"], 1);
  const nlohmann::json& chain = doc["captures"][1];
  EXPECT_EQ(chain["full_reduction_upper_bound"], 65);
  EXPECT_EQ(chain["full_retain_classification_uncertain"], 64);
  EXPECT_EQ(chain["windows"]["8"]["removed"], 8);
  EXPECT_EQ(chain["windows"]["8"]["redundant_window_misses"], 57);
  EXPECT_EQ(chain["windows"]["64"]["pct_of_upper_bound"], 98.46);
}

TEST(WaitSimCommand, JsonDashPrintsOnlyJson) {
  const Answer a = WaitSim({Real("vector_example/default"), "--json", "-", "--bl", "4"});
  ASSERT_EQ(a.code, 0) << a.err;
  const nlohmann::json doc = nlohmann::json::parse(a.out);
  EXPECT_EQ(doc["captures"][0]["windows"].size(), 1u);
  EXPECT_TRUE(doc["captures"][0]["windows"].contains("4"));
}

TEST(WaitSimCommand, BadInputIsOneLineExitOneAndNoFile) {
  TempDir dir;
  WriteFile(
      dir.File("cycle.json"),
      R"({"tasks":[{"task_id":"1","kernel_ids":[0,-1,-1]},{"task_id":"2","kernel_ids":[0,-1,-1]}],
                "edges":[{"pred":"1","succ":"2","source":"tensormap"},{"pred":"2","succ":"1","source":"tensormap"}]})");
  WriteFile(dir.File("bad.json"), "{\"edges\": [");
  const std::string good = Real("dep_probe/default");
  struct Case {
    std::vector<std::string> args;
    std::string err;  // exact, or "" for any one error line
  };
  const Case cases[] = {
      {{good, "--bl", "0"},
       "error: --bl: expected bitmap lengths from 1 to 4096 separated by commas, got \"0\"\n"},
      {{good, "--bl", "64,x"},
       "error: --bl: expected bitmap lengths from 1 to 4096 separated by commas, got \"x\"\n"},
      {{good, "--bl", "64,"},
       "error: --bl: expected bitmap lengths from 1 to 4096 separated by commas, got \"64,\"\n"},
      {{good, "--bl", "5000"}, ""},
      {{good, dir.File("cycle.json"), "--json", dir.File("out.json")},
       "error: " + dir.File("cycle.json") + ": the WAIT graph has a cycle: 1 -> 2 -> 1\n"},
      {{good, dir.File("bad.json"), "--json", dir.File("out.json")}, ""},
      {{dir.File("missing.json")}, ""},
      {{good, "--json", good}, ""},
  };
  for (const Case& c : cases) {
    const Answer a = WaitSim(c.args);
    EXPECT_EQ(a.code, 1) << c.args[1];
    EXPECT_TRUE(OneErrorLine(a.err)) << a.err;
    if (!c.err.empty()) {
      EXPECT_EQ(a.err, c.err);
    }
    EXPECT_EQ(a.out, "");
  }
  EXPECT_FALSE(testing::Exists(dir.File("out.json")));
  const Answer usage = WaitSim({});
  EXPECT_EQ(usage.code, 2);
}

TEST(WaitSimCommand, BinaryExitCodes) {
  TempDir dir;
  testing::CommandResult r = testing::RunCommand(
      testing::BoundedCommand(testing::CliBinary()) + " wait-sim missing.json", dir.path());
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(OneErrorLine(r.err)) << r.err;
  r = testing::RunCommand(testing::BoundedCommand(testing::CliBinary()) + " wait-sim " +
                              Real("dep_probe/default") + " --bl 8",
                          dir.path());
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("     8        2    66.67%"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace depgraph

namespace depgraph {
namespace {

// The README's worked example prints what the README shows.
TEST(WaitSimCommand, ReadmeExampleIsCurrent) {
  const std::string readme = testing::ReadFile(testing::SourceDir() + "/README.md");
  const std::string head = "```text\n== data/real/dep_gen_chain/n_65_single_overflow/deps.json\n";
  const size_t start = readme.find(head);
  ASSERT_NE(start, std::string::npos);
  const std::string expected = readme.substr(start + 8, readme.find("```", start + 8) - start - 8);
  const testing::CommandResult r = testing::RunCommand(
      testing::BoundedCommand(testing::CliBinary()) +
          " wait-sim data/real/dep_gen_chain/n_65_single_overflow/deps.json --bl 8,64",
      testing::SourceDir());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, expected);
}

}  // namespace
}  // namespace depgraph

namespace depgraph {
namespace {

// Parses `text`, failing on an object with a key twice (nlohmann keeps the last silently).
bool HasDuplicateKey(const std::string& text) {
  std::vector<std::set<std::string>> keys;
  bool duplicate = false;
  nlohmann::json::parser_callback_t check = [&](int, nlohmann::json::parse_event_t event,
                                                nlohmann::json& parsed) {
    if (event == nlohmann::json::parse_event_t::object_start) keys.emplace_back();
    if (event == nlohmann::json::parse_event_t::object_end) keys.pop_back();
    if (event == nlohmann::json::parse_event_t::key &&
        !keys.back().insert(parsed.get<std::string>()).second) {
      duplicate = true;
    }
    return true;
  };
  (void)nlohmann::json::parse(text, check);
  return duplicate;
}

// Issue 25 item 3: `--bl 8,8` (or 8,08) wrote the window "8" twice in one JSON object.
TEST(WaitSimCommand, JsonHasNoDuplicateKeys) {
  const Answer a =
      WaitSim({Real("vector_example/default"), "--json", "-", "--bl", "8,4,8,08,4"});
  ASSERT_EQ(a.code, 0) << a.err;
  EXPECT_FALSE(HasDuplicateKey(a.out)) << a.out;
  EXPECT_TRUE(HasDuplicateKey(R"({"a": {"b": 1, "b": 2}})"));  // the checker works
  const nlohmann::json doc = nlohmann::json::parse(a.out);
  EXPECT_EQ(doc["captures"][0]["windows"].size(), 2u);
  std::vector<uint32_t> windows;
  std::string error;
  ASSERT_TRUE(ParseWindowList("8,4,8,08,4", &windows, &error)) << error;
  EXPECT_EQ(windows, (std::vector<uint32_t>{8, 4}));
}

}  // namespace
}  // namespace depgraph

namespace depgraph {
namespace {

// Issue 25 item 4: a 200k-task WAIT cycle took 17.6 s (the id display was recomputed, O(V), for
// every node of the cycle message). 300k tasks, bounded to 20 s, must answer well within it.
TEST(WaitSimCommand, LargeCycleIsReportedInLinearTime) {
  TempDir dir;
  constexpr int kTasks = 300000;
  std::string deps = R"({"tasks":[)";
  for (int i = 0; i < kTasks; ++i) {
    deps += (i ? ",{\"task_id\":\"" : "{\"task_id\":\"") + std::to_string(i) +
            R"(","kernel_ids":[-1,0,-1]})";
  }
  deps += R"(],"edges":[)";
  for (int i = 0; i < kTasks; ++i) {
    deps += (i ? ",{\"pred\":\"" : "{\"pred\":\"") + std::to_string(i) + R"(","succ":")" +
            std::to_string((i + 1) % kTasks) + R"(","source":"tensormap"})";
  }
  deps += "]}";
  WriteFile(dir.File("deps.json"), deps);
  const testing::CommandResult r = testing::RunCommand(
      testing::BoundedCommand(testing::CliBinary()) + " wait-sim deps.json", dir.path());
  EXPECT_EQ(r.exit_code, 1) << r.err.substr(0, 300);
  EXPECT_EQ(r.err,
            "error: deps.json: the WAIT graph has a cycle of 300000 tasks: 0 -> 1 -> 2 -> ... -> "
            "299998 -> 299999 -> 0\n");
  EXPECT_EQ(r.err.find('\n'), r.err.size() - 1);
  EXPECT_EQ(r.out, "");
  // Bounded by BoundedCommand's timeout (20 s): the quadratic walk took 17.6 s at 200k.
}

}  // namespace
}  // namespace depgraph
