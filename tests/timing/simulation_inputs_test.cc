#include "depgraph/timing/simulation_inputs.h"

#include <gtest/gtest.h>

#include "test_util.h"

namespace depgraph {
namespace {

using testing::LoadText;

DurationTable Durations(const std::string& text) {
  DurationTable table;
  std::string err;
  EXPECT_TRUE(ParseDurationTable(text, "d.json", &table, &err)) << err;
  return table;
}

std::string DurationsError(const std::string& text) {
  DurationTable table;
  std::string err;
  EXPECT_FALSE(ParseDurationTable(text, "d.json", &table, &err));
  return err;
}

// A machine description's rank `rank` (-1: by the capture directory `dir`).
MachineDescription Machine(const std::string& text, int64_t rank = -1,
                           const std::string& dir = "") {
  MachineDescription m;
  std::string err;
  EXPECT_TRUE(ParseMachineDescription(text, "m.json", RankChoice{rank, dir}, &m, &err)) << err;
  return m;
}

std::string MachineError(const std::string& text, int64_t rank = -1, const std::string& dir = "") {
  MachineDescription m;
  std::string err;
  EXPECT_FALSE(ParseMachineDescription(text, "m.json", RankChoice{rank, dir}, &m, &err));
  return err;
}

TEST(SimulationInputs, DurationTable) {
  const DurationTable t = Durations(
      R"j({"default": 7, "kernels": {"3": 100, "QK": 250}, "tasks": {"12": 5, "(1, 2)": [1, 2, 3]}})j");
  EXPECT_EQ(t.fallback, 7);
  EXPECT_EQ(t.kernel_ids.at(3), 100);
  EXPECT_EQ(t.kernel_names.at("QK"), 250);
  EXPECT_EQ(t.tasks.at(12), (std::vector<int64_t>{5}));
  EXPECT_EQ(t.tasks.at((uint64_t{1} << 32) | 2), (std::vector<int64_t>{1, 2, 3}));
  EXPECT_TRUE(Durations("{}").empty());
  EXPECT_EQ(DurationsError(R"j({"kernel": {}})j"),
            "d.json: kernel: unknown key (expected default, kernels, tasks)");
  EXPECT_EQ(DurationsError(R"j({"kernels": {"qk": 1.5}})j"),
            "d.json: kernels.qk: expected a non-negative integer number of ticks, got \"1.5\"");
  EXPECT_EQ(DurationsError(R"j({"tasks": {"x1": 3}})j"),
            "d.json: tasks.x1: expected a task id (decimal or \"(ring, local)\")");
  EXPECT_EQ(DurationsError(R"j({"tasks": {"3": []}})j"),
            "d.json: tasks.3: expected at least one run time");
  EXPECT_EQ(DurationsError(R"j({"default": 1099511627777})j"),  // 2^40 + 1
            "d.json: default: expected a non-negative integer number of ticks, got "
            "\"1099511627777\"");
  EXPECT_EQ(DurationsError("[1]"), "d.json: (top level): expected an object, got \"[1]\"");
  EXPECT_EQ(DurationsError("{"),
            "d.json: line 1:column 2: unexpected end of file inside an object");
}

TEST(SimulationInputs, MachineDescription) {
  const MachineDescription m = Machine(R"j({"model": "x", "src": "a/b", "aic": 2, "aiv": 4,
      "base": 1000, "orch": 15, "disp": 10, "lat": 8, "fin": 5, "dummy_cost": 20,
      "edge_cost": 3, "ring_capacity": 64, "policy": "spread", "freq": 50000000,
      "dur": {"0": 300, "1": 520}, "task_dur": {"16": 500, "(2, 3)": 9},
      "delay": {"7": 2500, "8589934596": 1}, "warmup": [[2, 21474836487, 0, 90]],
      "jitter": 60, "seed": 3, "skew": {"1": 1}, "level": 2})j");
  EXPECT_TRUE(m.has_cores);
  EXPECT_EQ(m.machine.aic, 2u);
  EXPECT_EQ(m.machine.aiv, 4u);
  EXPECT_EQ(m.machine.base, 1000);
  EXPECT_EQ(m.machine.orch, 15);
  EXPECT_EQ(m.machine.dispatch, 10);
  EXPECT_EQ(m.machine.launch, 8);
  EXPECT_EQ(m.machine.finish, 5);
  EXPECT_EQ(m.machine.dummy_cost, 20);
  EXPECT_EQ(m.machine.edge_cost, 3);
  EXPECT_EQ(m.machine.ring_capacity, 64u);
  EXPECT_EQ(m.machine.policy, CorePolicy::kSpread);
  EXPECT_EQ(m.freq_hz, 50000000);
  EXPECT_EQ(m.nominal.kernel_ids.at(1), 520);
  EXPECT_EQ(m.nominal.local_tasks.at(16), (std::vector<int64_t>{500}));
  EXPECT_EQ(m.nominal.tasks.at((uint64_t{2} << 32) | 3), (std::vector<int64_t>{9}));
  EXPECT_EQ(m.local_delay.at(7), 2500);  // a local index: every ring's task 7
  EXPECT_EQ(m.delay.at(8589934596), 1);  // a full id
  ASSERT_EQ(m.machine.reserved.size(), 1u);
  EXPECT_EQ(m.machine.reserved[0].core, 2u);
  EXPECT_EQ(m.machine.reserved[0].to, 90);
  // A simulation.json: its ranks.
  const MachineDescription r1 =
      Machine(R"j({"model": "m", "ranks": [{"aic": 1}, {"aic": 3}]})j", 1);
  EXPECT_EQ(r1.machine.aic, 3u);
  EXPECT_FALSE(Machine("{}").has_cores);
  EXPECT_EQ(MachineError(R"j({"ranks": [{"aic": 1}]})j", 2),
            "m.json: ranks: has 1 rank(s); rank 2 asked for");
  EXPECT_EQ(MachineError(R"j({"aic": 1, "cores": 2})j"), "m.json: cores: unknown key");
  EXPECT_EQ(MachineError(R"j({"ranks": [{"policy": "random"}]})j"),
            "m.json: ranks[0].policy: expected \"lowest\" or \"spread\", got \"\\\"random\\\"\"");
  EXPECT_EQ(MachineError(R"j({"aiv": -1})j"),
            "m.json: aiv: expected a core count from 0 to 1048576, got \"-1\"");
  EXPECT_EQ(MachineError(R"j({"warmup": [[1, 2, 3]]})j"),
            "m.json: warmup[0]: expected [core, task id, offset, length], got \"[1,2,3]\"");
  EXPECT_EQ(MachineError(R"j({"dur": {"qk": 3}})j"),
            "m.json: dur.qk: expected a callable id (a decimal integer) as the key");
  EXPECT_EQ(MachineError("{}", 1), "m.json: (top level): has no ranks; rank 1 asked for");
}

// Found by the timing_inputs fuzzer: a document rejected after some keys were read left them in
// the table (or the machine description).
TEST(SimulationInputs, AFailedParseLeavesNothing) {
  DurationTable table;
  std::string err;
  EXPECT_FALSE(ParseDurationTable(R"j({"default": 10, "tasks": {"(2,592": 7}})j", "d.json", &table,
                                  &err));
  EXPECT_EQ(err, "d.json: tasks[\"(2,592\"]: expected a task id (decimal or \"(ring, local)\")");
  EXPECT_TRUE(table.empty());
  MachineDescription m;
  EXPECT_FALSE(ParseMachineDescription(R"j({"aic": 4, "dur": {"0": 5}, "policy": 1})j", "m.json",
                                       RankChoice{}, &m, &err));
  EXPECT_EQ(m.machine.aic, 0u);
  EXPECT_FALSE(m.has_cores);
  EXPECT_TRUE(m.nominal.empty());
}

// With several ranks, a capture takes the rank whose `sub` names its directory; never rank 0
// silently (multi_rank_l2: rank 0's machine put the dev capture at +489%).
TEST(SimulationInputs, TheRankFollowsTheCapturesDirectory) {
  const std::string two = R"j({"ranks": [
      {"sub": "build_output/dev.1/dfx_outputs", "aic": 2},
      {"sub": "build_output/dev/dfx_outputs", "aic": 3}]})j";
  const MachineDescription dev = Machine(two, -1, "/x/case/build_output/dev/dfx_outputs");
  EXPECT_EQ(dev.machine.aic, 3u);
  EXPECT_EQ(dev.rank, 1);
  EXPECT_EQ(dev.rank_sub, "build_output/dev/dfx_outputs");
  EXPECT_TRUE(dev.rank_matches_capture);
  EXPECT_EQ(Machine(two, -1, "case/build_output/./dev.1/dfx_outputs/").machine.aic, 2u);
  // "dev" is no suffix match of "dev.1", nor the other way round.
  EXPECT_EQ(MachineError(two, -1, "/x/elsewhere"),
            "m.json: ranks: has 2 ranks and none of their `sub` names the capture's directory "
            "\"/x/elsewhere\": give --rank");
  // --rank wins, and says when it names another directory.
  const MachineDescription forced = Machine(two, 0, "/x/case/build_output/dev/dfx_outputs");
  EXPECT_EQ(forced.machine.aic, 2u);
  EXPECT_FALSE(forced.rank_matches_capture);
  EXPECT_TRUE(Machine(two, 0, "/nowhere").rank_matches_capture) << "no rank names it: no claim";
  // One rank: taken whatever its sub.
  EXPECT_EQ(Machine(R"j({"ranks": [{"sub": "a", "aic": 5}]})j", -1, "/b").machine.aic, 5u);
}

// Tasks: 1 AIC kernel 0; 2 AIV kernel 1 with 2 blocks; 3 MIX [0, 1, 1]; 4 AIC kernel 2 (no
// record); 5 a dummy; 6 AIV kernel 1 (no record). Records: task 1 one AIC run of 30; task 2
// AIV runs of 20 (start 0) and 25 (start 5); task 3 an AIC run of 50 and AIV runs of 30 (core
// 4) and 40 (core 5), starting together.
TEST(SimulationInputs, RunTimesByPrecedence) {
  const DepGraph g = LoadText(R"j({"tasks":[
      {"task_id":"1","kernel_ids":[0,-1,-1]},{"task_id":"2","kernel_ids":[-1,1,-1],"block_num":2},
      {"task_id":"3","kernel_ids":[0,1,1]},{"task_id":"4","kernel_ids":[2,-1,-1]},
      {"task_id":"5","kernel_ids":[-1,-1,-1]},{"task_id":"6","kernel_ids":[-1,1,-1]}],"edges":[]})j");
  const std::vector<RecordedRun> runs = {{3, 5, false, 100, 140}, {1, 0, true, 10, 40},
                                         {2, 3, false, 5, 30},    {2, 2, false, 0, 20},
                                         {3, 1, true, 100, 150},  {3, 4, false, 100, 130}};
  MachineDescription machine;
  machine.nominal.kernel_ids = {{0, 999}, {2, 888}};
  machine.local_delay = {{6, 4}};
  TaskWork work;
  WorkSources sources;
  std::string err;
  ASSERT_TRUE(BuildTaskWork(g, NameMap(), DurationTable(), runs, machine, &work, &sources, &err))
      << err;
  auto runs_of = [&](size_t t) {
    return std::vector<int64_t>(work.ticks.begin() + work.first[t],
                                work.ticks.begin() + work.first[t + 1]);
  };
  EXPECT_EQ(runs_of(0), (std::vector<int64_t>{30}));
  EXPECT_EQ(runs_of(1), (std::vector<int64_t>{20, 25}));      // block 0, block 1
  EXPECT_EQ(runs_of(2), (std::vector<int64_t>{50, 30, 40}));  // aic, aiv0, aiv1
  EXPECT_EQ(runs_of(3), (std::vector<int64_t>{888}));         // nominal kernel 2
  EXPECT_EQ(runs_of(4), (std::vector<int64_t>{}));
  // Task 6: the mean AIV run of kernel 1: (20 + 25 + 30 + 40) / 4 = 28 (integer ticks).
  EXPECT_EQ(runs_of(5), (std::vector<int64_t>{28}));
  EXPECT_EQ(work.delay, (std::vector<int64_t>{0, 0, 0, 0, 0, 4}));
  EXPECT_EQ(sources.from_records, 3u);
  EXPECT_EQ(sources.from_kernels, 2u);
  EXPECT_EQ(sources.without_kernel, 1u);

  // Overrides come first: kernel 0 by id, kernel 1 by name, task 3 by id.
  NameMap names;
  names.names = {{"1", "SF"}};
  const DurationTable overrides =
      Durations(R"j({"kernels": {"0": 5, "SF": 6}, "tasks": {"3": [1, 2, 3]}})j");
  ASSERT_TRUE(BuildTaskWork(g, names, overrides, runs, machine, &work, &sources, &err)) << err;
  EXPECT_EQ(runs_of(0), (std::vector<int64_t>{5}));
  EXPECT_EQ(runs_of(1), (std::vector<int64_t>{6, 6}));
  EXPECT_EQ(runs_of(2), (std::vector<int64_t>{1, 2, 3}));
  EXPECT_EQ(sources.from_task_overrides, 1u);
  EXPECT_EQ(sources.from_records, 0u);

  // Nothing for kernel 2 without the nominal times: an error naming the task and slot, unless
  // a default is given.
  machine.nominal = DurationTable();
  EXPECT_FALSE(BuildTaskWork(g, NameMap(), DurationTable(), runs, machine, &work, &sources, &err));
  EXPECT_EQ(err,
            "task 4: no run time for its aic kernel 2 (no recorded run, no kernel time, "
            "no default)");
  ASSERT_TRUE(BuildTaskWork(g, NameMap(), Durations(R"j({"default": 11})j"), runs, machine, &work,
                            &sources, &err));
  EXPECT_EQ(runs_of(3), (std::vector<int64_t>{11}));
  EXPECT_EQ(sources.from_default, 1u);
  // A recorded run that ends before it starts is an error for a task of the graph only.
  std::vector<RecordedRun> bad = runs;
  bad.push_back({77, 0, true, 50, 40});
  const DurationTable fallback = Durations(R"j({"default": 11})j");
  EXPECT_TRUE(BuildTaskWork(g, NameMap(), fallback, bad, machine, &work, &sources, &err)) << err;
  bad.push_back({2, 3, false, 50, 40});
  EXPECT_FALSE(BuildTaskWork(g, NameMap(), DurationTable(), bad, machine, &work, &sources, &err));
  EXPECT_EQ(err,
            "records: task 2 has a run on core 3 from 50 to 40 ticks (it must end after it "
            "starts, within 2^40 ticks)");
}

// A MIX task whose records hold one row per block, on its AIC core only: every slot of a
// block takes that block's row.
TEST(SimulationInputs, MixTaskRecordedOnOneCoreType) {
  const DepGraph g =
      LoadText(R"j({"tasks":[{"task_id":"1","kernel_ids":[3,4,4],"block_num":2}],"edges":[]})j");
  const std::vector<RecordedRun> runs = {{1, 0, true, 0, 30}, {1, 1, true, 2, 22}};
  TaskWork work;
  WorkSources sources;
  std::string err;
  ASSERT_TRUE(BuildTaskWork(g, NameMap(), DurationTable(), runs, MachineDescription(), &work,
                            &sources, &err))
      << err;
  EXPECT_EQ(work.ticks, (std::vector<int64_t>{30, 30, 30, 20, 20, 20}));
  EXPECT_EQ(sources.from_records, 1u);
}

TEST(SimulationInputs, RecordedSpanAndCores) {
  const DepGraph g = LoadText(R"j({"tasks":[{"task_id":"1","kernel_ids":[0,-1,-1]},
      {"task_id":"2","kernel_ids":[0,-1,-1]}],"edges":[]})j");
  // A warm-up run of task 99 (not in the graph) at 0 is left out: span 10 .. 70.
  const std::vector<RecordedRun> runs = {
      {99, 0, true, 0, 5}, {1, 0, true, 10, 40}, {2, 1, true, 30, 70}, {2, 1, true, 20, 25}};
  const RecordedSpan span = MeasureRecordedSpan(g, runs);
  EXPECT_EQ(span.tasks, 2u);
  EXPECT_EQ(span.runs, 3u);
  EXPECT_EQ(span.makespan(), 60);
  TimingRecords records;
  std::string err;
  ASSERT_TRUE(LoadTimingRecordsText(
      R"j({"chip_swimlane_level": 1, "metadata": {"clock_freq_hz": 50000000,
          "core_types": ["aic", "aiv", "aiv"]}, "aicore_tasks": [[2, 7, 1, 100, 150, 0],
          [0, "8", 1, 10, 20, 0], [5, 9, 1, 1, 2, 0]]})j",
      "r.json", &records, &err))
      << err;
  uint32_t aic = 0, aiv = 0;
  RecordedCores(records, &aic, &aiv);
  EXPECT_EQ(aic, 1u);
  EXPECT_EQ(aiv, 2u);
  const std::vector<RecordedRun> rr = RecordedRuns(records);
  ASSERT_EQ(rr.size(), 3u);
  EXPECT_EQ(rr[0].task, 7u);
  EXPECT_FALSE(rr[0].aic);
  EXPECT_EQ(rr[1].task, 8u);
  EXPECT_TRUE(rr[1].aic);
  EXPECT_FALSE(rr[2].aic);  // core 5 is beyond core_types: "aiv"
}

}  // namespace
}  // namespace depgraph
