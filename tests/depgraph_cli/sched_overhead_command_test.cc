// `depgraph sched-overhead` (apps/depgraph/sched_overhead_command.cc) beyond the golden cases:
// bad input gives one `error: <file>: ...` line, exit 1 and nothing on stdout; the defaults,
// the argparse-style prefixes and --json.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "test_util.h"

namespace depgraph {
namespace {

namespace fs = std::filesystem;
using testing::CommandResult;
using testing::TempDir;
using testing::WriteFile;

constexpr const char* kRecords = R"({
  "chip_swimlane_level": 3,
  "metadata": {"clock_freq_hz": 1000000, "core_types": ["aic", "aiv"], "core_to_thread": [0, 0]},
  "aicore_tasks": [[0, 1, 1, 102, 110, 0], [1, 2, 1, 101, 105, 0], [0, 3, 2, 116, 120, 0]],
  "aicpu_tasks": [[0, 1, 100, 111], [1, 1, 100, 107], [0, 2, 114, 124]],
  "aicpu_scheduler_phases": [[
      {"kind": "dispatch", "start_cycles": 100, "end_cycles": 101, "loop_iter": 1, "pop_hit": 2},
      {"kind": "complete", "start_cycles": 110, "end_cycles": 112, "loop_iter": 2, "tasks_processed": 2}]]
})";
constexpr const char* kDeps = R"({"edges": [{"pred": 1, "succ": 3}, {"pred": 2, "succ": 3}]})";

CommandResult RunSchedOverhead(const TempDir& dir, const std::string& args) {
  return testing::RunCommand(testing::BoundedCommand(testing::CliBinary()) + " sched-overhead " + args,
                             dir.path());
}

void ExpectError(const CommandResult& r, const std::string& line) {
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, "error: " + line + "\n");
}

TEST(SchedOverheadCommand, ReportsWithTheDefaultSiblingDeps) {
  TempDir dir;
  WriteFile(dir.File("chip_swimlane_records.json"), kRecords);
  WriteFile(dir.File("deps.json"), kDeps);
  const CommandResult r = RunSchedOverhead(dir, "--chip-swimlane-records-json ./chip_swimlane_records.json");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "");
  EXPECT_EQ(r.out.rfind("Perf data:  chip_swimlane_records.json\nDeps JSON:  deps.json\n", 0), 0u) << r.out;
  EXPECT_NE(r.out.find("Part 6: Critical-path latency attribution"), std::string::npos);
  EXPECT_NE(r.out.find("  Makespan-determining path: 1 hops, span 22.0 us\n"), std::string::npos) << r.out;
}

TEST(SchedOverheadCommand, PrefixesAndJson) {
  TempDir dir;
  WriteFile(dir.File("run.json"), kRecords);
  WriteFile(dir.File("graph.json"), kDeps);
  const CommandResult r = RunSchedOverhead(dir, "--chip run.json --deps graph.json --js");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto doc = nlohmann::json::parse(r.out);
  EXPECT_EQ(doc["records"], "run.json");
  EXPECT_EQ(doc["deps"], "graph.json");
  EXPECT_EQ(doc["task_rows"], 3);
  EXPECT_DOUBLE_EQ(doc["overhead"]["per_engine"]["aic"]["overhead_us"].get<double>(), 4);
  EXPECT_EQ(doc["overhead"]["verdict"], "partially_scheduler_limited");
  EXPECT_EQ(doc["scheduler"]["pop_hit"], 2);
  EXPECT_DOUBLE_EQ(doc["scheduler"]["pop_hit_rate_pct"].get<double>(), 100);
  EXPECT_EQ(doc["critical_path"]["hops"], 1);
  EXPECT_DOUBLE_EQ(doc["critical_path"]["sched_us"].get<double>(), 8);
}

TEST(SchedOverheadCommand, MissingRecordsFile) {
  TempDir dir;
  ExpectError(RunSchedOverhead(dir, "--chip-swimlane-records-json nope.json --deps-json deps.json"),
              "nope.json: records file not found");
}

TEST(SchedOverheadCommand, NoRecordsFileToFind) {
  TempDir dir;
  const CommandResult r = RunSchedOverhead(dir, "");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.out, "");
  EXPECT_NE(r.err.find("no outputs/*/chip_swimlane_records.json found"), std::string::npos) << r.err;
}

TEST(SchedOverheadCommand, MissingDeps) {
  TempDir dir;
  WriteFile(dir.File("chip_swimlane_records.json"), kRecords);
  const CommandResult r = RunSchedOverhead(dir, "--chip-swimlane-records-json chip_swimlane_records.json");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err.rfind("error: chip_swimlane_records.json: no deps.json beside it;", 0), 0u) << r.err;
  ExpectError(RunSchedOverhead(dir, "--chip-swimlane-records-json chip_swimlane_records.json --deps-json d.json"),
              "d.json: deps.json not found");
}

TEST(SchedOverheadCommand, DepsThatIsNotJson) {
  TempDir dir;
  WriteFile(dir.File("chip_swimlane_records.json"), kRecords);
  WriteFile(dir.File("deps.json"), "{");
  const CommandResult r = RunSchedOverhead(dir, "--chip-swimlane-records-json chip_swimlane_records.json");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err.rfind("error: deps.json: cannot read deps.json: ", 0), 0u) << r.err;
}

TEST(SchedOverheadCommand, EmptyObjectRecords) {
  TempDir dir;
  WriteFile(dir.File("chip_swimlane_records.json"), "{}");
  WriteFile(dir.File("deps.json"), kDeps);
  const CommandResult r = RunSchedOverhead(dir, "--chip-swimlane-records-json chip_swimlane_records.json");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err.rfind("error: chip_swimlane_records.json: ", 0), 0u) << r.err;
  EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << r.err;
}

TEST(SchedOverheadCommand, RecordsWithoutSchedulerPhases) {
  TempDir dir;
  std::string records = kRecords;
  records.replace(records.find("aicpu_scheduler_phases"), 22, "no_scheduler_phases___");
  WriteFile(dir.File("chip_swimlane_records.json"), records);
  WriteFile(dir.File("deps.json"), kDeps);
  ExpectError(RunSchedOverhead(dir, "--chip-swimlane-records-json chip_swimlane_records.json"),
              "chip_swimlane_records.json: aicpu_scheduler_phases: no complete, async_poll or dispatch "
              "records (capture the run with --enable-chip-swimlane at level 3 or 4)");
}

}  // namespace
}  // namespace depgraph
