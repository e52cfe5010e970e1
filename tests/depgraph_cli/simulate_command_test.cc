// `depgraph simulate` (apps/depgraph/simulate_command.h): a hand-checked graph through the
// command line, the golden timing cases, what-ifs on a real capture, the trace, and one-line
// errors with exit 1 and no file written.
#include "simulate_command.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>
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

Answer Simulate(const std::vector<std::string>& args) {
  std::ostringstream out, err;
  std::vector<std::string> argv = {"simulate"};
  argv.insert(argv.end(), args.begin(), args.end());
  Answer a;
  a.code = DepgraphMain(argv, out, err);
  a.out = out.str();
  a.err = err.str();
  return a;
}

std::string Source(const std::string& path) { return testing::SourceDir() + "/" + path; }

bool OneErrorLine(const std::string& err) {
  return err.rfind("error: ", 0) == 0 && err.find('\n') == err.size() - 1;
}

// The fork of ScheduleSimulation.ForkOnTwoCoresByHand: 0 -> 1, 0 -> 2, AIV kernel 0 of 100
// ticks; 1 AIC + 2 AIV cores, orch 10, dispatch 5, launch 2, finish 3: makespan 210.
// With one AIV core (--cores aiv=1): 0 runs 12-112 (done 115); 1 is taken at 115 and starts
// at 117 on the free core (117-217); 2 is taken at 120 and waits for the core: dispatched at
// 217, starts 219, ends 319: makespan 307 (+97). With three: 2 takes core 3 at 120, as with
// two: 210.
class SimulateFork : public ::testing::Test {
 protected:
  void SetUp() override {
    WriteFile(
        dir_.File("deps.json"),
        R"({"tasks":[{"task_id":"0","kernel_ids":[-1,0,-1]},{"task_id":"1","kernel_ids":[-1,0,-1]},
                  {"task_id":"2","kernel_ids":[-1,0,-1]}],
                  "edges":[{"pred":"0","succ":"1","source":"tensormap"},{"pred":"0","succ":"2","source":"tensormap"}]})");
    WriteFile(dir_.File("durations.json"), R"({"kernels": {"0": 100}})");
  }
  std::vector<std::string> Args(std::vector<std::string> more) const {
    std::vector<std::string> args = {dir_.File("deps.json"),
                                     "--durations",
                                     dir_.File("durations.json"),
                                     "--aic",
                                     "1",
                                     "--aiv",
                                     "2",
                                     "--orch",
                                     "10",
                                     "--dispatch",
                                     "5",
                                     "--launch",
                                     "2",
                                     "--finish",
                                     "3"};
    args.insert(args.end(), more.begin(), more.end());
    return args;
  }
  TempDir dir_;
};

TEST_F(SimulateFork, TextReport) {
  const Answer a = Simulate(Args({"--cores", "aiv=1", "--cores", "aic=1,aiv=3"}));
  ASSERT_EQ(a.code, 0) << a.err;
  EXPECT_EQ(a.err, "");
  EXPECT_EQ(
      a.out,
      "depgraph simulate of " + dir_.File("deps.json") +
          "\n"
          "machine: 1 AIC + 2 AIV cores, 1 cluster(s), policy lowest; ticks: orch 10, edge 0, "
          "dispatch 5, launch 2, finish 3, dummy 0\n"
          "run times: 0 task(s) from records, 0 from task times, 3 from kernel times, 0 from "
          "the default, 0 without kernel\n"
          "simulated: makespan 210 ticks; 3 tasks, 3 blocks, 3 kernel runs, 2 dependencies\n"
          "busy: AIC 0.0%, AIV 71.4%, scheduler 6.7%\n"
          "what-if cores aic=1,aiv=1: makespan 307 ticks (+97, +46.19%)\n"
          "what-if cores aic=1,aiv=3: makespan 210 ticks (+0, +0.00%)\n");
}

TEST_F(SimulateFork, JsonAndTrace) {
  const Answer a = Simulate(Args(
      {"--json", "-o", dir_.File("r.json"), "--trace", dir_.File("t.json"), "--freq", "50000000"}));
  ASSERT_EQ(a.code, 0) << a.err;
  EXPECT_EQ(a.out, "Wrote " + dir_.File("r.json") + " (makespan 210 ticks)\n");
  const nlohmann::json r = nlohmann::json::parse(ReadFile(dir_.File("r.json")));
  EXPECT_EQ(r["schema"], "depgraph-simulate/1");
  EXPECT_EQ(r["baseline"]["makespan"], 210);
  EXPECT_EQ(r["baseline"]["makespan_us"], 4.2);  // 210 ticks at 50 MHz
  EXPECT_EQ(r["baseline"]["first_start"], 12);
  EXPECT_EQ(r["machine"]["freq_hz"], 50000000);
  EXPECT_TRUE(r["recorded"].is_null());
  EXPECT_EQ(r["trace"], dir_.File("t.json"));
  const nlohmann::json t = nlohmann::json::parse(ReadFile(dir_.File("t.json")));
  int kernels = 0, dispatches = 0;
  std::set<std::string> lanes;
  for (const auto& e : t["traceEvents"]) {
    if (e["ph"] == "M" && e["name"] == "thread_name") lanes.insert(e["args"]["name"]);
    if (e["ph"] != "X") continue;
    if (e["cat"] == "kernel") {
      ++kernels;
      if (e["args"]["task"] == "2") {
        EXPECT_EQ(e["tid"], 3);    // AIV core 2
        EXPECT_EQ(e["ts"], 2.44);  // start 122 ticks = 2.44 us
        EXPECT_EQ(e["dur"], 2.0);  // 100 ticks
        EXPECT_EQ(e["name"], "task(2)");
      }
    } else {
      ++dispatches;
    }
  }
  EXPECT_EQ(kernels, 3);
  EXPECT_EQ(dispatches, 3);
  EXPECT_EQ(lanes, (std::set<std::string>{"scheduler", "AIC_0", "AIV_1", "AIV_2"}));
}

// The golden case pa_small1_basic: its machine and its records reproduce its makespan.
TEST(SimulateCommand, GoldenCaseMatchesItsRecords) {
  const std::string dir = Source("data/timing_sim/pa_small1_basic/");
  const Answer a = Simulate({dir + "deps.json", "--machine", dir + "simulation.json"});
  ASSERT_EQ(a.code, 0) << a.err;
  EXPECT_NE(a.out.find("run times: 12 task(s) from records (" + dir +
                       "chip_swimlane_records.json), 0 from task times, 0 from kernel times"),
            std::string::npos)
      << a.out;
  EXPECT_NE(a.out.find("simulated: makespan 1847 ticks (36.940 us)"), std::string::npos);
  EXPECT_NE(a.out.find("recorded: makespan 1847 ticks over 12 task(s); simulated +0.00%"),
            std::string::npos);
  // Without the records: the nominal kernel times of simulation.json (no jitter).
  const Answer n =
      Simulate({dir + "deps.json", "--machine", dir + "simulation.json", "--no-records"});
  ASSERT_EQ(n.code, 0) << n.err;
  EXPECT_NE(n.out.find("0 task(s) from records, 0 from task times, 12 from kernel times"),
            std::string::npos);
  EXPECT_EQ(n.out.find("recorded:"), std::string::npos);
}

// A simulation.json of two ranks: each rank's capture takes the rank whose `sub` names its
// directory (rank 0's machine made the dev capture +489%), --rank overrides with a warning,
// and a capture no rank names asks for --rank.
TEST(SimulateCommand, EachRankTakesItsOwnMachine) {
  const std::string root = Source("data/timing/multi_rank_l2/");
  const std::string machine = root + "simulation.json";
  const Answer dev =
      Simulate({root + "build_output/dev/dfx_outputs/deps.json", "--machine", machine});
  ASSERT_EQ(dev.code, 0) << dev.err;
  EXPECT_NE(dev.out.find("; rank 1 (build_output/dev/dfx_outputs) of "), std::string::npos)
      << dev.out;
  EXPECT_NE(dev.out.find("simulated +0.00%"), std::string::npos) << dev.out;
  const Answer dev1 =
      Simulate({root + "build_output/dev.1/dfx_outputs/deps.json", "--machine", machine});
  ASSERT_EQ(dev1.code, 0) << dev1.err;
  EXPECT_NE(dev1.out.find("; rank 0 (build_output/dev.1/dfx_outputs) of "), std::string::npos);
  EXPECT_NE(dev1.out.find("simulated +0.00%"), std::string::npos) << dev1.out;
  const Answer forced = Simulate(
      {root + "build_output/dev/dfx_outputs/deps.json", "--machine", machine, "--rank", "0"});
  ASSERT_EQ(forced.code, 0) << forced.err;
  EXPECT_NE(forced.err.find("warning: --rank 0 of "), std::string::npos) << forced.err;
  EXPECT_NE(forced.out.find("simulated +489.19%"), std::string::npos) << forced.out;
  const Answer none =
      Simulate({Source("data/real/dep_probe/default/deps.json"), "--machine", machine});
  EXPECT_EQ(none.code, 1);
  EXPECT_NE(none.err.find("ranks: has 2 ranks and none of their `sub` names the capture's "
                          "directory"),
            std::string::npos)
      << none.err;
  EXPECT_TRUE(none.out.empty());
}

// What-ifs on the real paged-attention capture, timed by the golden case's machine.
TEST(SimulateCommand, WhatIfsOnARealCapture) {
  const Answer a = Simulate({Source("data/real/paged_attention/CaseSmall1/deps.json"), "--machine",
                             Source("data/timing_sim/pa_small1_basic/simulation.json"), "--what-if",
                             "reduced_dataflow", "--what-if", "no-false-edges", "--cores",
                             "aic=4,aiv=4", "--json"});
  ASSERT_EQ(a.code, 0) << a.err;
  const nlohmann::json r = nlohmann::json::parse(a.out);
  ASSERT_EQ(r["what_if"].size(), 3u);
  EXPECT_EQ(r["what_if"][0]["name"], "reduced_dataflow");
  EXPECT_EQ(r["what_if"][1]["name"], "no-false-edges");
  EXPECT_EQ(r["what_if"][2]["aic"], 4);
  // Dropping redundant pairs cannot change a list schedule without edge costs; here the
  // pairs reduced_dataflow drops are an allocation's (done at the base tick), so no
  // dependency between tasks goes, counted as the baseline counts them.
  EXPECT_EQ(r["what_if"][0]["makespan"], r["baseline"]["makespan"]);
  EXPECT_EQ(r["what_if"][0]["dropped_dependencies"], 0);
  EXPECT_EQ(r["what_if"][0]["ready_earlier"], 0);
  EXPECT_EQ(r["what_if"][1]["dropped_dependencies"], 0);  // no false serialization here
  EXPECT_FALSE(r["false_edges"].is_null());
  EXPECT_EQ(r["false_edges"]["simulated"], r["false_edges"]["ranked"].size());
}

TEST(SimulateCommand, BadInputIsOneLineExitOneAndNoFile) {
  TempDir dir;
  const std::string deps = Source("data/real/paged_attention/CaseSmall1/deps.json");
  const std::string machine = Source("data/timing_sim/pa_small1_basic/simulation.json");
  WriteFile(dir.File("unknown_key.json"), R"({"aic": 2, "aiv": 2, "cores": 3})");
  WriteFile(dir.File("neg.json"), R"({"kernels": {"qk": -5}})");
  WriteFile(dir.File("some.json"), R"({"kernels": {"0": 5}})");
  struct Case {
    std::vector<std::string> args;
    std::string err;  // exact, or "" for any one error line
  };
  const Case cases[] = {
      {{deps, "--durations", dir.File("some.json")},
       "error: " + deps +
           ": no cores: give --aic and --aiv, a --machine file with aic and aiv, "
           "or timing records\n"},
      {{deps, "--machine", dir.File("unknown_key.json")},
       "error: " + dir.File("unknown_key.json") + ": cores: unknown key\n"},
      {{deps, "--machine", machine, "--durations", dir.File("neg.json")},
       "error: " + dir.File("neg.json") +
           ": kernels.qk: expected a non-negative integer number of ticks, got \"-5\"\n"},
      {{deps, "--durations", dir.File("some.json"), "--aic", "2", "--aiv", "2"},
       "error: " + deps +
           ": task (2, 1): no run time for its aiv0 kernel 1 (\"SF\") (no recorded "
           "run, no kernel time, no default)\n"},
      {{deps, "--machine", machine, "--aiv", "0"}, ""},
      {{deps, "--machine", machine, "--rank", "3"}, ""},
      {{deps, "--machine", machine, "-o", deps}, ""},
      {{deps, "--machine", machine, "-o", dir.File("r.txt"), "--trace", dir.File("r.txt")}, ""},
      {{dir.File("missing.json"), "--machine", machine, "-o", dir.File("r.txt")}, ""},
      {{deps, "--machine", dir.File("missing.json"), "-o", dir.File("r.txt")}, ""},
  };
  for (const Case& c : cases) {
    const Answer a = Simulate(c.args);
    EXPECT_EQ(a.code, 1) << c.args[1] << " " << c.args.back();
    EXPECT_TRUE(OneErrorLine(a.err)) << a.err;
    if (!c.err.empty()) {
      EXPECT_EQ(a.err, c.err);
    }
    EXPECT_EQ(a.out, "");
  }
  EXPECT_FALSE(testing::Exists(dir.File("r.txt")));
  EXPECT_EQ(Simulate({}).code, 2);
  EXPECT_EQ(Simulate({deps, "--aic", "-1"}).code, 2);
}

TEST(SimulateCommand, BinaryExitCodes) {
  TempDir dir;
  testing::CommandResult r = testing::RunCommand(
      testing::BoundedCommand(testing::CliBinary()) + " simulate missing.json --aic 1", dir.path());
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_TRUE(OneErrorLine(r.err)) << r.err;
}

}  // namespace
}  // namespace depgraph

namespace depgraph {
namespace {

// The text block that follows `first_line` in README.md, up to the closing fence.
std::string ReadmeBlock(const std::string& first_line) {
  const std::string readme = testing::ReadFile(testing::SourceDir() + "/README.md");
  const size_t start = readme.find("```text\n" + first_line);
  if (start == std::string::npos) return "";
  const size_t from = start + 8;
  return readme.substr(from, readme.find("```", from) - from);
}

std::string WithoutLine(std::string text, const std::string& prefix) {
  const size_t at = text.find("\n" + prefix);
  if (at == std::string::npos) return text;
  return text.erase(at + 1, text.find('\n', at + 1) - at);
}

// The README's worked example prints what the README shows.
TEST(SimulateCommand, ReadmeExampleIsCurrent) {
  TempDir dir;
  const std::string expected =
      ReadmeBlock("depgraph simulate of data/real/dep_probe/default/deps.json\n");
  ASSERT_FALSE(expected.empty());
  const testing::CommandResult r = testing::RunCommand(
      testing::BoundedCommand(testing::CliBinary()) +
          " simulate data/real/dep_probe/default/deps.json --machine "
          "data/timing_sim/dep_probe_spmd/simulation.json --aiv 8 --what-if no-false-edges "
          "--cores aiv=16 --trace " +
          dir.File("t.json"),
      testing::SourceDir());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(WithoutLine(r.out, "trace: "), WithoutLine(expected, "trace: "));
  EXPECT_TRUE(testing::Exists(dir.File("t.json")));
}

}  // namespace
}  // namespace depgraph

namespace depgraph {
namespace {

// Issue 25 item 1: a bad --cores, --policy or --what-if value is a usage error (exit 2, one
// line, before any input is read), as simulate.md promises; it was exit 1.
TEST(SimulateCommand, BadOptionValueIsUsageErrorExitTwo) {
  TempDir dir;
  const std::string deps = Source("data/real/paged_attention/CaseSmall1/deps.json");
  const std::string machine = Source("data/timing_sim/pa_small1_basic/simulation.json");
  const std::string cores = "error: --cores: expected aic=N,aiv=M (counts up to 9999999), got ";
  const std::pair<std::vector<std::string>, std::string> cases[] = {
      {{"--cores", "aic=-1"}, cores + "\"aic=-1\"\n"},
      {{"--cores", "aiv=100000000"}, cores + "\"aiv=100000000\"\n"},
      {{"--cores", "foo"}, cores + "\"foo\"\n"},
      {{"--cores", "aic=4,gpu=2"}, cores + "\"aic=4,gpu=2\"\n"},
      {{"--policy", "bogus"}, "error: --policy: expected lowest or spread, got \"bogus\"\n"},
      {{"--what-if", "reduced"},
       "error: --what-if: expected reduced_dataflow or no-false-edges, got \"reduced\"\n"},
  };
  for (const auto& [extra, expected] : cases) {
    std::vector<std::string> args = {deps, "--machine", machine, "-o", dir.File("r.txt")};
    args.insert(args.end(), extra.begin(), extra.end());
    const Answer a = Simulate(args);
    EXPECT_EQ(a.code, 2) << extra.back();
    EXPECT_EQ(a.err, expected);
    EXPECT_EQ(a.out, "");
  }
  EXPECT_FALSE(testing::Exists(dir.File("r.txt")));
}

}  // namespace
}  // namespace depgraph

namespace depgraph {
namespace {

// Issue 25 item 2: a task with block_num 10^12 ran the simulation for time linear in its
// blocks (unbounded); now a one-line error naming the task, exit 1, no output.
TEST(SimulateCommand, HugeBlockNumIsOneLineErrorNamingTheTask) {
  TempDir dir;
  WriteFile(dir.File("deps.json"),
            R"({"tasks":[{"task_id":"0","kernel_ids":[-1,0,-1]},
                {"task_id":"1","kernel_ids":[-1,0,-1],"block_num":1000000000000}],
                "edges":[{"pred":"0","succ":"1","source":"tensormap"}]})");
  WriteFile(dir.File("durations.json"), R"({"kernels": {"0": 100}})");
  const Answer a = Simulate({dir.File("deps.json"), "--durations", dir.File("durations.json"),
                             "--aic", "1", "--aiv", "2", "-o", dir.File("r.txt")});
  EXPECT_EQ(a.code, 1);
  EXPECT_EQ(a.err, "error: " + dir.File("deps.json") +
                       ": task 1: block_num 1000000000000 exceeds the simulation limit of "
                       "1048576 blocks per task\n");
  EXPECT_FALSE(testing::Exists(dir.File("r.txt")));
}

// Issue 25 item 4: a durations file whose tree would dwarf its text (8 MB of empty arrays)
// aborted with std::bad_alloc on a machine with less memory, and the message meant to quote
// it dumped the whole value; now one line with the place, exit 1, nothing written.
TEST(SimulateCommand, ADurationsTreeFarLargerThanItsTextIsOneLineError) {
  TempDir dir;
  std::string empties = "[";
  while (empties.size() < (8u << 20)) empties += "[],[],[],[],[],[],[],[],";
  empties += "[]]";
  WriteFile(dir.File("durations.json"), empties);
  const Answer a = Simulate({Source("data/real/paged_attention/CaseSmall1/deps.json"),
                             "--durations", dir.File("durations.json"), "--aic", "1", "--aiv",
                             "2", "-o", dir.File("r.txt")});
  EXPECT_EQ(a.code, 1);
  EXPECT_EQ(a.err.rfind("error: " + dir.File("durations.json") + ": line 1:column ", 0), 0u)
      << a.err;
  EXPECT_NE(a.err.find("too large to read"), std::string::npos) << a.err;
  EXPECT_EQ(std::count(a.err.begin(), a.err.end(), '\n'), 1) << a.err;
  EXPECT_FALSE(testing::Exists(dir.File("r.txt")));

  // Within the budget but of the wrong kind: the message quotes the value, bounded.
  std::string list = "[";
  for (int i = 0; i < 100000; ++i) list += "[],";
  list += "[]]";
  WriteFile(dir.File("durations.json"), list);
  const Answer b = Simulate({Source("data/real/paged_attention/CaseSmall1/deps.json"),
                             "--durations", dir.File("durations.json"), "--aic", "1", "--aiv",
                             "2"});
  EXPECT_EQ(b.code, 1);
  EXPECT_LT(b.err.size(), 400u) << b.err;
  EXPECT_EQ(std::count(b.err.begin(), b.err.end(), '\n'), 1) << b.err;
}

}  // namespace
}  // namespace depgraph
