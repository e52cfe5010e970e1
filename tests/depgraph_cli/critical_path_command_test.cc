// `depgraph critical-path` (apps/depgraph/critical_path_command.cc) beyond the golden cases:
// rank discovery and order, file selection by mtime, argument handling, exit codes and streams.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "test_util.h"

namespace depgraph {
namespace {

namespace fs = std::filesystem;
using testing::CommandResult;
using testing::ReadFile;
using testing::TempDir;
using testing::WriteFile;

// Example A of spec/timing.md §3.16.
constexpr const char* kRecords = R"({"metadata": {"clock_freq_hz": 1000000}, "aicore_tasks": [
  [0,1,1,10,50,0], [0,4,2,51,75,0], [0,5,3,81,100,0], [2,2,1,0,20,0], [2,3,2,49,80,0]]})";
constexpr const char* kDeps = R"({"tasks": [
  {"task_id": "1", "kernel_ids": [0,-1,-1]}, {"task_id": "2", "kernel_ids": [-1,1,-1]},
  {"task_id": "3", "kernel_ids": [-1,1,1]}, {"task_id": "4", "kernel_ids": [2,-1,-1]},
  {"task_id": "5", "kernel_ids": [-1,-1,3]}], "edges": [
  {"pred": "1", "succ": "3"}, {"pred": "1", "succ": "4"}, {"pred": "2", "succ": "4"},
  {"pred": "3", "succ": "5"}, {"pred": "4", "succ": "5"}, {"pred": "4", "succ": "5"}]})";
constexpr const char* kNames =
    R"({"callable_id_to_name": {"0": "qk_0_aic", "1": "softmax", "2": "pv_1"}})";
constexpr const char* kSummaryA =
    "makespan=0.100ms  CPM=0.09ms(90%)  compute=89.0%  stall=11.0% (front-gap 10.0%, data-wait "
    "1.0%)";

void MakeRank(const fs::path& dir, const std::string& records = kRecords) {
  fs::create_directories(dir);
  WriteFile((dir / "chip_swimlane_records.json").string(), records);
  WriteFile((dir / "deps.json").string(), kDeps);
  WriteFile((dir / "name_map_Example_A.json").string(), kNames);
}

void SetMtime(const fs::path& path, time_t seconds) {
  timespec times[2] = {{seconds, 0}, {seconds, 0}};
  ASSERT_EQ(utimensat(AT_FDCWD, path.c_str(), times, 0), 0);
}

class CriticalPathCommand : public ::testing::Test {
 protected:
  CommandResult Run(const std::string& args) {
    return testing::RunCommand(
        testing::BoundedCommand(testing::CliBinary()) + " critical-path " + args, root_.string());
  }
  TempDir dir_;
  const fs::path root_ = fs::canonical(dir_.path());
};

TEST_F(CriticalPathCommand, ExampleAEndToEnd) {
  MakeRank(root_ / "exA");
  const CommandResult r = Run("exA");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "Warning: no merged_swimlane*.json in " + (root_ / "exA").string() +
                       "; skipped Perfetto critical-path traces\n");
  EXPECT_EQ(r.out, "Analyzed 1 rank(s) under " + (root_ / "exA").string() + "\n[exA] " + kSummaryA +
                       "\nReport written to: " +
                       (root_ / "exA" / "critical_path_report.md").string() + "\n");
  // A file given instead of the directory means its directory.
  EXPECT_EQ(Run("exA/deps.json").out, r.out);
  // --tol 0 (and argparse's spellings: unique prefixes, --opt=value).
  for (const char* args : {"exA --tol 0", "exA --tol=0", "exA --to=0 --tol 0", "--tol 0 exA"}) {
    const CommandResult t = Run(args);
    if (std::string(args).find("--to=") != std::string::npos) {
      EXPECT_EQ(t.exit_code, 2) << args;  // --to is ambiguous (--top, --tol)
      continue;
    }
    EXPECT_NE(t.out.find("CPM=0.08ms(83%)  compute=70.0%"), std::string::npos) << args;
  }
  EXPECT_NE(Run("exA --std").out.find("\n# Critical-path report (chip swimlane)\n"),
            std::string::npos);
  EXPECT_EQ(ReadFile((root_ / "exA" / "critical_path_report.md").string()).rfind("# Critical", 0),
            0u);
}

TEST_F(CriticalPathCommand, UsageAndRootErrors) {
  MakeRank(root_ / "exA");
  EXPECT_EQ(Run("").exit_code, 2);
  EXPECT_EQ(Run("exA extra").exit_code, 2);
  EXPECT_EQ(Run("exA --top x").exit_code, 2);
  EXPECT_EQ(Run("exA --tol").exit_code, 2);
  EXPECT_EQ(Run("--help").exit_code, 0);
  CommandResult r = Run("missing/dir");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "error: path not found: " + (root_ / "missing/dir").string() + "\n");
  EXPECT_EQ(r.out, "");
  for (const char* report : {"sub/x.md", "./x.md", "x.md/", ".", "/abs.md"}) {
    r = Run(std::string("exA --report '") + report + "'");
    EXPECT_EQ(r.exit_code, 2) << report;
    EXPECT_EQ(r.err, "error: --report must be a filename, not a path\n");
  }
  // "" and ".." pass the check and then cannot be written (the reference crashes there).
  for (const char* report : {"''", ".."}) {
    r = Run(std::string("exA --report ") + report);
    EXPECT_EQ(r.exit_code, 1) << report;
    EXPECT_EQ(r.out, "");
  }
  fs::create_directories(root_ / "empty" / "sub");
  WriteFile((root_ / "empty" / "sub" / "chip_swimlane_records.json").string(), kRecords);
  r = Run("empty");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "error: no chip_swimlane_records.json (+deps.json+name_map*.json) found under " +
                       (root_ / "empty").string() + ". Did the run use --enable-chip-swimlane?\n");
}

TEST_F(CriticalPathCommand, RanksInComponentOrderLabelledRelativeToTheRoot) {
  MakeRank(root_ / "run" / "dev.1" / "rank0");
  MakeRank(root_ / "run" / "dev" / "rank0");
  MakeRank(root_ / "run" / ".hidden");
  // A directory reached through a symlink is not entered.
  fs::create_directory_symlink(root_ / "run" / "dev", root_ / "run" / "link");
  const CommandResult r = Run("run");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.substr(0, r.out.find("Report written")),
            "Analyzed 3 rank(s) under " + (root_ / "run").string() + "\n[.hidden] " + kSummaryA +
                "\n[dev/rank0] " + kSummaryA + "\n[dev.1/rank0] " + kSummaryA + "\n");
}

TEST_F(CriticalPathCommand, NewestNameMapAndMergedTraceAreUsed) {
  const fs::path rank = root_ / "r";
  MakeRank(rank);
  WriteFile((rank / "name_map_old.json").string(), R"({"callable_id_to_name": {"0": "OLD"}})");
  WriteFile((rank / "name_map_new.json").string(), R"({"callable_id_to_name": {"0": "NEW_0"}})");
  SetMtime(rank / "name_map_Example_A.json", 1000);
  SetMtime(rank / "name_map_old.json", 1000);
  SetMtime(rank / "name_map_new.json", 2000);
  const std::string bars = R"({"ph": "X", "pid": 4, "name": "b1", "args": {"taskId": 1}},
      {"ph": "X", "pid": 4, "name": "b3", "args": {"taskId": 3}},
      {"ph": "X", "pid": 4, "name": "b5", "args": {"taskId": 5}},
      {"ph": "X", "pid": 4, "name": "b2", "args": {"taskId": 2}})";
  WriteFile((rank / "merged_swimlane.json").string(), "{\"traceEvents\": [" + bars + "]}");
  WriteFile((rank / "merged_swimlane_20260101_000000.json").string(), "{\"traceEvents\": []}");
  SetMtime(rank / "merged_swimlane.json", 3000);
  SetMtime(rank / "merged_swimlane_20260101_000000.json", 1000);
  CommandResult r = Run("r");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "");
  EXPECT_NE(ReadFile((rank / "critical_path_report.md").string()).find("| 0 | NEW_0 |"),
            std::string::npos);
  const std::string cpm = ReadFile((rank / "CPM_static.json").string());
  EXPECT_NE(cpm.find("\"name\": \"b1\""), std::string::npos);
  EXPECT_NE(cpm.find("\"name\": \"\xC2\xB7(t2)\""), std::string::npos);

  // Equal times: the greatest name wins (name_map_old > name_map_new > name_map_Example_A).
  SetMtime(rank / "name_map_new.json", 1000);
  Run("r");
  EXPECT_NE(ReadFile((rank / "critical_path_report.md").string()).find("| 0 | OLD |"),
            std::string::npos);
  // The newest merged trace lacks the critical bars: invalid, neither CPM file rewritten.
  SetMtime(rank / "merged_swimlane_20260101_000000.json", 4000);
  fs::remove(rank / "CPM_static.json");
  fs::remove(rank / "CPM_observed.json");
  r = Run("r");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "error: invalid merged_swimlane*.json in " + rank.string() +
                       ": merged Worker View is missing 3 critical task(s): 1, 3, 5\n");
  EXPECT_FALSE(fs::exists(rank / "CPM_static.json"));
  EXPECT_FALSE(fs::exists(rank / "CPM_observed.json"));
  EXPECT_NE(r.out.find("Report written to:"), std::string::npos);
  EXPECT_EQ(r.out.find("Perfetto"), std::string::npos);
  // Decided before any output is opened: with a directory in CPM_static.json's place the trace
  // is still reported invalid (exit 2), not the output (exit 1), as the reference does.
  fs::create_directory(rank / "CPM_static.json");
  r = Run("r");
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_EQ(r.err, "error: invalid merged_swimlane*.json in " + rank.string() +
                       ": merged Worker View is missing 3 critical task(s): 1, 3, 5\n");
  EXPECT_TRUE(fs::is_directory(rank / "CPM_static.json"));
  fs::remove(rank / "CPM_static.json");
  // A repeated top-level key (Python's dict: first place, last value) cannot be rewritten in
  // one pass: the two-pass route writes it, the bars of the last traceEvents renamed.
  WriteFile((rank / "merged_swimlane_20260101_000000.json").string(),
            "{\"traceEvents\": [], \"unit\": \"ns\", \"traceEvents\": [" + bars +
                "], \"unit\": \"us\"}");
  r = Run("r");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  const std::string repeated = ReadFile((rank / "CPM_static.json").string());
  EXPECT_EQ(repeated.rfind("{\n  \"traceEvents\": [\n", 0), 0u) << repeated;
  EXPECT_NE(repeated.find("\"name\": \"\xC2\xB7(t2)\""), std::string::npos);
  EXPECT_NE(repeated.find("\n  ],\n  \"unit\": \"us\"\n}\n"), std::string::npos) << repeated;
}

TEST_F(CriticalPathCommand, LegacyRecordsOnlyWithoutTheCurrentName) {
  const fs::path rank = root_ / "r";
  MakeRank(rank);
  // Both names: the legacy file (whose rows would fail) is ignored.
  WriteFile((rank / "l2_perf_records.json").string(), "not json");
  EXPECT_EQ(Run("r").exit_code, 0);
  fs::remove(rank / "chip_swimlane_records.json");
  const CommandResult r = Run("r");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err.rfind("error: " + (rank / "l2_perf_records.json").string() + ": line 1:", 0), 0u)
      << r.err;
  WriteFile((rank / "l2_perf_records.json").string(), kRecords);
  EXPECT_EQ(Run("r").exit_code, 0);
}

TEST_F(CriticalPathCommand, ABadRankStopsTheRunButKeepsEarlierReports) {
  MakeRank(root_ / "a");
  MakeRank(root_ / "b", R"({"metadata": {}, "aicore_tasks": [[0,1,1,10,50,0]]})");
  MakeRank(root_ / "c");
  const CommandResult r = Run(".");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, "Warning: no merged_swimlane*.json in " + (root_ / "a").string() +
                       "; skipped Perfetto critical-path traces\nerror: " +
                       (root_ / "b" / "chip_swimlane_records.json").string() +
                       ": metadata.clock_freq_hz: missing\n");
  EXPECT_TRUE(fs::exists(root_ / "a" / "critical_path_report.md"));
  EXPECT_FALSE(fs::exists(root_ / "b" / "critical_path_report.md"));
  EXPECT_FALSE(fs::exists(root_ / "c" / "critical_path_report.md"));
}

TEST_F(CriticalPathCommand, LegacyRowsAndCpmWeightFlags) {
  MakeRank(root_ / "r", R"({"metadata": {"clock_freq_hz": 1000000}, "aicore_tasks": [
      [0,1,1,0,10], [0,1,2,10,20], [0,2,3,20,25]]})");
  WriteFile((root_ / "r" / "deps.json").string(),
            R"({"tasks": [], "edges": [{"pred": 1, "succ": 2}]})");
  EXPECT_EQ(Run("r").exit_code, 1);
  CommandResult r = Run("r --accept-v2-rows");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("CPM=0.03ms(100%)"), std::string::npos) << r.out;
  r = Run("r --accept-v2-rows --cpm-weight longest-block");
  EXPECT_NE(r.out.find("CPM=0.01ms(60%)"), std::string::npos) << r.out;
  EXPECT_EQ(Run("r --accept-v2-rows --cpm-weight x").exit_code, 2);
}

TEST_F(CriticalPathCommand, JsonResults) {
  MakeRank(root_ / "exA");
  const CommandResult r = Run("exA --json out.json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json doc = nlohmann::json::parse(ReadFile((root_ / "out.json").string()));
  EXPECT_EQ(doc["schema"], "depgraph-critical-path/1");
  ASSERT_EQ(doc["ranks"].size(), 1u);
  const nlohmann::json& rank = doc["ranks"][0];
  EXPECT_EQ(rank["label"], "exA");
  EXPECT_EQ(rank["makespan_ticks"], 100);
  EXPECT_EQ(rank["static_path"]["length_ticks"], 90);
  ASSERT_EQ(rank["static_path"]["tasks"].size(), 3u);
  EXPECT_EQ(rank["static_path"]["tasks"][1]["task_id"], "3");
  const nlohmann::json& observed = rank["observed_path"];
  EXPECT_EQ(observed["compute_ticks"], 89);
  EXPECT_EQ(observed["stall_by_kind"]["front-gap"], 10);
  EXPECT_EQ(observed["tasks"][2]["kind"], "data-wait");
  EXPECT_EQ(observed["tasks"][2]["name"], "cid3");
  EXPECT_EQ(rank["traces"], "none");
}

// Issue 25 item 1: an output naming a file the run reads (or another output) is refused up
// front, exit 1, one line, nothing written and every input intact.
TEST_F(CriticalPathCommand, OutputsThatAreInputsAreRefused) {
  MakeRank(root_ / "r0");
  MakeRank(root_ / "r1");
  WriteFile((root_ / "r1" / "merged_swimlane_1.json").string(), "{}");
  const std::string deps = ReadFile((root_ / "r0" / "deps.json").string());
  for (const char* args :
       {". --json r0/deps.json", ". --json r1/chip_swimlane_records.json",
        ". --json r1/name_map_Example_A.json", ". --json r1/merged_swimlane_1.json",
        ". --json r0/critical_path_report.md", ". --json r1/CPM_static.json",
        ". --json ./r0/../r1/CPM_observed.json", ". --report deps.json",
        ". --report name_map_Example_A.json", ". --report chip_swimlane_records.json",
        ". --report CPM_observed.json", ". --report merged_swimlane_1.json"}) {
    const CommandResult r = Run(args);
    EXPECT_EQ(r.exit_code, 1) << args << r.err;
    EXPECT_EQ(r.out, "") << args;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << args << r.err;
    EXPECT_EQ(r.err.rfind("error: ", 0), 0u) << args << r.err;
    EXPECT_FALSE(fs::exists(root_ / "r0" / "critical_path_report.md")) << args;
    EXPECT_EQ(ReadFile((root_ / "r0" / "deps.json").string()), deps) << args;
    EXPECT_EQ(ReadFile((root_ / "r1" / "name_map_Example_A.json").string()), kNames) << args;
    EXPECT_EQ(ReadFile((root_ / "r1" / "merged_swimlane_1.json").string()), "{}") << args;
  }
  // A symlink to an input is the input.
  fs::create_symlink(root_ / "r0" / "deps.json", root_ / "link.json");
  EXPECT_EQ(Run(". --json link.json").exit_code, 1);
  EXPECT_EQ(ReadFile((root_ / "r0" / "deps.json").string()), deps);
  EXPECT_EQ(Run(". --json out.json").exit_code, 2);  // the invalid merged trace of r1
  EXPECT_TRUE(fs::exists(root_ / "out.json"));
}

// Hostile flags pass (round 3): a --json FILE that cannot be written (a missing directory, a
// directory, a FIFO, under a regular file) is refused before any rank's report or trace is
// written: exit 1, one line, nothing written.
TEST_F(CriticalPathCommand, UnwritableJsonWritesNothing) {
  MakeRank(root_ / "r0");
  fs::create_directories(root_ / "adir");
  ASSERT_EQ(mkfifo((root_ / "fifo").c_str(), 0600), 0);
  WriteFile((root_ / "afile").string(), "x");
  for (const char* args : {"r0 --json missing/out.json", "r0 --json adir", "r0 --json fifo",
                           "r0 --json afile/out.json"}) {
    const CommandResult r = Run(args);
    EXPECT_EQ(r.exit_code, 1) << args << r.err;
    EXPECT_EQ(r.out, "") << args;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << args << r.err;
    EXPECT_EQ(r.err.rfind("error: ", 0), 0u) << args << r.err;
    EXPECT_FALSE(fs::exists(root_ / "r0" / "critical_path_report.md")) << args;
  }
  EXPECT_EQ(std::distance(fs::directory_iterator(root_ / "r0"), fs::directory_iterator()), 3);
}

TEST_F(CriticalPathCommand, OnGenGraphSyntheticTiming) {
  // gen_graph sits beside the depgraph binary's directory (build/apps/gen_graph).
  const fs::path gen_graph =
      fs::path(testing::CliBinary()).parent_path().parent_path() / "gen_graph";
  if (!fs::exists(gen_graph)) GTEST_SKIP() << gen_graph << " is not built";
  fs::create_directory(root_ / "g");
  const CommandResult gen = testing::RunCommand(
      "'" + gen_graph.string() +
          "' --shape decode --tasks 3000 --seed 2 --timing-records -q -o g/deps.json",
      root_.string());
  ASSERT_EQ(gen.exit_code, 0) << gen.err;
  EXPECT_TRUE(fs::exists(root_ / "g" / "chip_swimlane_records.json"));
  EXPECT_TRUE(fs::exists(root_ / "g" / "name_map_gen_graph.json"));
  const CommandResult r = Run("g --json g.json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json doc = nlohmann::json::parse(ReadFile((root_ / "g.json").string()));
  const nlohmann::json& rank = doc["ranks"][0];
  EXPECT_EQ(rank["tasks"].get<int>() > 2000, true) << rank["tasks"];
  // The observed path tiles the makespan; the static CPM is no longer than it.
  EXPECT_EQ(rank["observed_path"]["compute_ticks"].get<int64_t>() +
                rank["observed_path"]["stall_ticks"].get<int64_t>(),
            rank["makespan_ticks"].get<int64_t>());
  EXPECT_LE(rank["static_path"]["length_ticks"].get<int64_t>(),
            rank["makespan_ticks"].get<int64_t>());
  EXPECT_GT(rank["static_path"]["tasks"].size(), 10u);
}

}  // namespace
}  // namespace depgraph
