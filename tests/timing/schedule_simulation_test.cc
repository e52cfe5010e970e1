#include "depgraph/timing/schedule_simulation.h"

#include <gtest/gtest.h>

#include <cstdlib>

#include "depgraph/graph/load_deps.h"
#include "depgraph/timing/simulation_inputs.h"
#include "depgraph/timing/timing_records.h"
#include "test_util.h"

namespace depgraph {
namespace {

using testing::LoadText;
using testing::PairOf;

struct TaskSpec {
  uint64_t id;
  std::string kernels;  // e.g. "[-1,0,-1]"
  int blocks = 1;
};

std::string Capture(const std::vector<TaskSpec>& tasks,
                    const std::vector<std::pair<uint64_t, uint64_t>>& edges) {
  std::string out = "{\"tasks\":[";
  for (size_t i = 0; i < tasks.size(); ++i) {
    out += (i ? "," : "") + std::string("{\"task_id\":\"") + std::to_string(tasks[i].id) +
           "\",\"kernel_ids\":" + tasks[i].kernels +
           ",\"block_num\":" + std::to_string(tasks[i].blocks) + "}";
  }
  out += "],\"edges\":[";
  for (size_t i = 0; i < edges.size(); ++i) {
    out += (i ? "," : "") + std::string("{\"pred\":\"") + std::to_string(edges[i].first) +
           "\",\"succ\":\"" + std::to_string(edges[i].second) + "\",\"source\":\"tensormap\"}";
  }
  return out + "]}";
}

// Every task's runs: `per_task[t]` (tasks[] order).
TaskWork Work(const std::vector<std::vector<int64_t>>& per_task) {
  TaskWork work;
  for (const auto& runs : per_task) {
    work.first.push_back(work.ticks.size());
    work.ticks.insert(work.ticks.end(), runs.begin(), runs.end());
  }
  work.first.push_back(work.ticks.size());
  return work;
}

SimulationResult Simulate(const DepGraph& graph, const MachineModel& machine, const TaskWork& work,
                          const std::vector<uint8_t>* keep = nullptr) {
  SimulationOptions options;
  options.record_runs = true;
  options.keep = keep;
  SimulationResult result;
  std::string err;
  EXPECT_TRUE(SimulateSchedule(graph, machine, work, options, &result, &err)) << err;
  return result;
}

std::string SimulateError(const DepGraph& graph, const MachineModel& machine,
                          const TaskWork& work) {
  SimulationResult result;
  std::string err;
  EXPECT_FALSE(SimulateSchedule(graph, machine, work, {}, &result, &err));
  return err;
}

MachineModel Machine(uint32_t aic, uint32_t aiv) {
  MachineModel m;
  m.aic = aic;
  m.aiv = aiv;
  return m;
}

// Fork: 0 -> 1, 0 -> 2, three AIV tasks of 100 ticks; AIC core 0, AIV cores 1 and 2.
// orch 10, dispatch 5, launch 2, finish 3:
//   releases 10, 20, 30;
//   0: ready 10, D 10 (scheduler free until 15), idle AIV cores at 10: 1 and 2, lowest 1:
//      start 12, end 112, done 115;
//   1: ready max(20, 115) = 115, D 115 (free until 120), both AIV idle: core 1, start 117,
//      end 217, done 220;
//   2: ready 115, D max(115, 120) = 120 (until 125), idle: core 2 only, start 122, end 222.
// Makespan 222 - 12 = 210; last done 225.
TEST(ScheduleSimulation, ForkOnTwoCoresByHand) {
  const DepGraph g =
      LoadText(Capture({{0, "[-1,0,-1]"}, {1, "[-1,0,-1]"}, {2, "[-1,0,-1]"}}, {{0, 1}, {0, 2}}));
  MachineModel m = Machine(1, 2);
  m.orch = 10;
  m.dispatch = 5;
  m.launch = 2;
  m.finish = 3;
  const SimulationResult r = Simulate(g, m, Work({{100}, {100}, {100}}));
  EXPECT_EQ(r.tasks[0].release, 10);
  EXPECT_EQ(r.tasks[1].release, 20);
  EXPECT_EQ(r.tasks[2].release, 30);
  EXPECT_EQ(r.tasks[1].ready, 115);
  EXPECT_EQ(r.tasks[2].ready, 115);
  ASSERT_EQ(r.runs.size(), 3u);
  EXPECT_EQ(r.runs[0].core, 1u);
  EXPECT_EQ(r.runs[0].start, 12);
  EXPECT_EQ(r.runs[1].task, 1u);
  EXPECT_EQ(r.runs[1].core, 1u);
  EXPECT_EQ(r.runs[1].dispatch, 115);
  EXPECT_EQ(r.runs[1].start, 117);
  EXPECT_EQ(r.runs[2].core, 2u);
  EXPECT_EQ(r.runs[2].dispatch, 120);
  EXPECT_EQ(r.runs[2].end, 222);
  EXPECT_EQ(r.makespan, 210);
  EXPECT_EQ(r.last_done, 225);
  EXPECT_EQ(r.scheduler_busy, 15);
  EXPECT_EQ(r.core_busy, (std::vector<int64_t>{0, 200, 100}));

  // spread: the core that frees first. 1 takes core 2 (free since 0), 2 takes core 1 (free
  // since 112); the times stay the same.
  m.policy = CorePolicy::kSpread;
  const SimulationResult s = Simulate(g, m, Work({{100}, {100}, {100}}));
  EXPECT_EQ(s.runs[1].core, 2u);
  EXPECT_EQ(s.runs[2].core, 1u);
  EXPECT_EQ(s.makespan, 210);

  // Without the edges the three overlap: 0 on core 1 at 12, 1 on core 2 at 22 (D 20),
  // 2 waits for core 1: D 30, dispatched at 112, starts 114, ends 214: makespan 202.
  std::vector<uint8_t> none(g.pairs.size(), 0);
  m.policy = CorePolicy::kLowest;
  const SimulationResult free_run = Simulate(g, m, Work({{100}, {100}, {100}}), &none);
  EXPECT_EQ(free_run.runs[2].dispatch, 112);
  EXPECT_EQ(free_run.makespan, 214 - 12);
  EXPECT_EQ(free_run.edges, 0u);
}

// SPMD: 3 blocks of 50 ticks on 2 AIV cores, dispatch 5: blocks dispatched at D = 0, 5, 10;
// the third finds no idle core and waits for the first (free at 50): runs 0-50, 5-55, 50-100.
TEST(ScheduleSimulation, SpmdBlocksQueueForCores) {
  const DepGraph g = LoadText(Capture({{7, "[-1,3,-1]", 3}}, {}));
  MachineModel m = Machine(0, 2);
  m.dispatch = 5;
  const SimulationResult r = Simulate(g, m, Work({{50}}));
  ASSERT_EQ(r.runs.size(), 3u);
  EXPECT_EQ(r.runs[0].start, 0);
  EXPECT_EQ(r.runs[1].start, 5);
  EXPECT_EQ(r.runs[1].core, 1u);
  EXPECT_EQ(r.runs[2].core, 0u);
  EXPECT_EQ(r.runs[2].start, 50);
  EXPECT_EQ(r.makespan, 100);
  EXPECT_EQ(r.blocks, 3u);
  // Per-block times (block-major): 50, 20, 10 -> runs 0-50, 5-25, then the third block
  // takes core 1 (free at 25 first): 25-35. Makespan 50.
  const SimulationResult p = Simulate(g, m, Work({{50, 20, 10}}));
  EXPECT_EQ(p.runs[2].core, 1u);
  EXPECT_EQ(p.runs[2].start, 25);
  EXPECT_EQ(p.makespan, 50);
}

// MIX: clusters of a 2 AIC + 4 AIV machine are {0, 2, 3} and {1, 4, 5}. Task 1 (AIC only,
// 100 ticks) takes core 0; MIX task 2 [aic, aiv0, aiv1] with runs 30, 20, 25 finds cluster 0
// busy until 100 and cluster 1 idle: cores 1, 4, 5 start together at 0.
TEST(ScheduleSimulation, MixBlockTakesAWholeCluster) {
  const DepGraph g = LoadText(Capture({{1, "[0,-1,-1]"}, {2, "[1,2,2]"}}, {}));
  const SimulationResult r = Simulate(g, Machine(2, 4), Work({{100}, {30, 20, 25}}));
  ASSERT_EQ(r.runs.size(), 4u);
  EXPECT_EQ(r.runs[1].core, 1u);
  EXPECT_EQ(r.runs[2].core, 4u);
  EXPECT_EQ(r.runs[3].core, 5u);
  EXPECT_EQ(r.runs[3].end, 25);
  EXPECT_EQ(r.tasks[1].end, 30);
  EXPECT_EQ(r.makespan, 100);
  // Only aiv0 + aiv1 (no AIC): still a cluster's two AIV cores, here cluster 0's 2 and 3.
  const DepGraph v = LoadText(Capture({{1, "[-1,2,2]"}}, {}));
  const SimulationResult rv = Simulate(v, Machine(2, 4), Work({{20, 25}}));
  EXPECT_EQ(rv.runs[0].core, 2u);
  EXPECT_EQ(rv.runs[1].core, 3u);
  EXPECT_EQ(rv.makespan, 25);
}

// Ring capacity 2 on 2 AIV cores, four independent 10-tick tasks, orch 1.
// Unbounded: releases 1, 2, 3, 4; 0 on core A 1-11, 1 on B 2-12, 2 waits for A: 11-21,
// 3 for B: 12-22. Makespan 21.
// Capacity 2: task 2 is submitted after task 0 is done (11): release 12, runs 12-22; task 3
// after task 1 (done 12): release max(12, 12) + 1 = 13, runs 13-23. Makespan 22.
TEST(ScheduleSimulation, RingCapacityHoldsBackSubmissions) {
  const DepGraph g = LoadText(
      Capture({{0, "[-1,0,-1]"}, {1, "[-1,0,-1]"}, {2, "[-1,0,-1]"}, {3, "[-1,0,-1]"}}, {}));
  MachineModel m = Machine(0, 2);
  m.orch = 1;
  const TaskWork work = Work({{10}, {10}, {10}, {10}});
  EXPECT_EQ(Simulate(g, m, work).makespan, 21);
  m.ring_capacity = 2;
  const SimulationResult r = Simulate(g, m, work);
  EXPECT_EQ(r.tasks[2].release, 12);
  EXPECT_EQ(r.tasks[3].release, 13);
  EXPECT_EQ(r.makespan, 22);
}

// Dummy task between two kernels: 1 -> 2 (dummy) -> 3, dummy_cost 7, finish 1, 1 AIV core,
// 10-tick kernels: 1 runs 0-10 (done 11); the dummy takes the scheduler 11-18 (done 18);
// 3 runs 18-28. A delay of 5 on task 3 makes it 23-33. Edge cost 4 delays each release by
// 4 per wired edge: releases 0, 4, 8: no change here (all gated by predecessors).
TEST(ScheduleSimulation, DummyDelayAndEdgeCost) {
  const DepGraph g =
      LoadText(Capture({{1, "[-1,0,-1]"}, {2, "[-1,-1,-1]"}, {3, "[-1,0,-1]"}}, {{1, 2}, {2, 3}}));
  MachineModel m = Machine(0, 1);
  m.dummy_cost = 7;
  m.finish = 1;
  TaskWork work = Work({{10}, {}, {10}});
  SimulationResult r = Simulate(g, m, work);
  EXPECT_EQ(r.tasks[1].start, 11);
  EXPECT_EQ(r.tasks[1].done, 18);
  EXPECT_EQ(r.tasks[2].start, 18);
  EXPECT_EQ(r.makespan, 28);
  EXPECT_EQ(r.core_runs, 2u);
  work.delay = {0, 0, 5};
  m.edge_cost = 4;
  r = Simulate(g, m, work);
  EXPECT_EQ(r.tasks[2].release, 8);
  EXPECT_EQ(r.tasks[2].start, 23);
  EXPECT_EQ(r.makespan, 33);
}

// Reserved cores and an allocation predecessor (done at base).
TEST(ScheduleSimulation, ReservationsAndAllocations) {
  const DepGraph g = LoadText(Capture({{1, "[-1,0,-1]"}}, {{99, 1}}));
  MachineModel m = Machine(0, 2);
  m.base = 1000;
  m.reserved = {{0, 0, 50}};
  const SimulationResult r = Simulate(g, m, Work({{10}}));
  EXPECT_EQ(r.runs[0].core, 1u);  // core 0 is busy until base + 50
  EXPECT_EQ(r.runs[0].start, 1000);
  EXPECT_EQ(r.makespan, 10);
  m.aiv = 1;
  EXPECT_EQ(Simulate(g, m, Work({{10}})).runs[0].start, 1050);
}

TEST(ScheduleSimulation, Errors) {
  const DepGraph cyc = LoadText(
      Capture({{1, "[-1,0,-1]"}, {2, "[-1,0,-1]"}, {3, "[-1,0,-1]"}}, {{1, 2}, {2, 3}, {3, 2}}));
  EXPECT_EQ(SimulateError(cyc, Machine(0, 1), Work({{1}, {1}, {1}})),
            "the simulated graph has a cycle: 2 -> 3 -> 2");
  const DepGraph aic = LoadText(Capture({{4, "[0,-1,-1]"}}, {}));
  EXPECT_EQ(SimulateError(aic, Machine(0, 2), Work({{1}})),
            "task 4 needs an AIC core but the machine has none");
  const DepGraph mix = LoadText(Capture({{5, "[0,1,-1]"}}, {}));
  EXPECT_EQ(SimulateError(mix, Machine(1, 1), Work({{1, 1}})),
            "task 5 is a MIX task (aic+aiv0) but the machine has no cluster (needs an AIC core "
            "and two AIV cores)");
  EXPECT_EQ(SimulateError(aic, Machine(1, 0), Work({{}})), "task 4 has no kernel run time");
  // Task 2 is submitted before its predecessor 3; with one task in flight, 3 cannot be
  // submitted before 2 is done.
  const DepGraph back = LoadText(Capture({{2, "[-1,0,-1]"}, {3, "[-1,0,-1]"}}, {{3, 2}}));
  MachineModel m = Machine(0, 1);
  EXPECT_EQ(Simulate(back, m, Work({{1}, {1}})).makespan, 2);
  m.ring_capacity = 1;
  EXPECT_EQ(SimulateError(back, m, Work({{1}, {1}})),
            "ring capacity 1 deadlocks: task 3 cannot be submitted before task 2 is done, "
            "which waits for it or a later task");
}

// A long chain against a closed form: n tasks of t ticks in a chain, launch l, finish f,
// dispatch d, orch 0: each starts (l + f + t) after the previous, and the first at l.
TEST(ScheduleSimulation, ChainClosedForm) {
  std::vector<TaskSpec> tasks;
  std::vector<std::pair<uint64_t, uint64_t>> edges;
  std::vector<std::vector<int64_t>> runs;
  for (uint64_t i = 0; i < 200; ++i) {
    tasks.push_back({i, "[0,-1,-1]"});
    runs.push_back({7});
    if (i) edges.emplace_back(i - 1, i);
  }
  const DepGraph g = LoadText(Capture(tasks, edges));
  MachineModel m = Machine(3, 0);
  m.launch = 2;
  m.finish = 3;
  m.dispatch = 4;
  const SimulationResult r = Simulate(g, m, Work(runs));
  // start(i) = 2 + i * (2 + 3 + 7); makespan = start(199) + 7 - 2.
  EXPECT_EQ(r.tasks[199].start, 2 + 199 * 12);
  EXPECT_EQ(r.makespan, 199 * 12 + 7);
  EXPECT_EQ(r.edges, 199u);
}

// The golden timing cases (data/timing_sim/, copied from the critical-path cases): their
// records were made by a list-scheduling simulation with the parameters in simulation.json.
// With those parameters and the recorded run times, the simulated makespan is within 5% of
// the recorded one (docs/simulate.md lists the errors); the exact values are pinned too.
struct GoldenCase {
  const char* dir;      // under data/timing_sim/
  const char* records;  // file name in dir
  size_t rank;          // in the case's simulation.json
  const char* machine;  // simulation.json, relative to dir
  int64_t recorded;     // the records' makespan over the graph's tasks
  int64_t simulated;    // pinned
};

TEST(ScheduleSimulationGolden, RecordedMakespansWithinFivePercent) {
  const GoldenCase cases[] = {
      {"pa_small1_basic", "chip_swimlane_records.json", 0, "simulation.json", 1847, 1847},
      {"bgemm_core_bound", "chip_swimlane_records.json", 0, "simulation.json", 53162, 53162},
      {"dep_probe_spmd", "chip_swimlane_records.json", 0, "simulation.json", 3124, 3123},
      {"dep_probe_ties", "chip_swimlane_records.json", 0, "simulation.json", 600, 600},
      {"pa_varseq2_front_gap", "chip_swimlane_records.json", 0, "simulation.json", 5573, 5573},
      {"chain_tol0_a5", "chip_swimlane_records.json", 0, "simulation.json", 149130, 149132},
      {"err_missing_critical", "chip_swimlane_records.json", 0, "simulation.json", 20193, 20193},
      {"err_merged_bad_events", "chip_swimlane_records.json", 0, "simulation.json", 1249, 1249},
      {"multi_rank_l2/dev.1", "chip_swimlane_records.json", 0, "../simulation.json", 18286, 18286},
      {"multi_rank_l2/dev", "l2_perf_records.json", 1, "../simulation.json", 1712, 1712},
  };
  for (const GoldenCase& c : cases) {
    SCOPED_TRACE(c.dir);
    const std::string dir = testing::SourceDir() + "/data/timing_sim/" + c.dir + "/";
    DepGraph graph;
    TimingRecords records;
    MachineDescription machine;
    std::string err;
    ASSERT_TRUE(LoadDepsJson(dir + "deps.json", &graph, &err)) << err;
    ASSERT_TRUE(LoadTimingRecords(dir + c.records, &records, &err)) << err;
    ASSERT_TRUE(LoadMachineDescription(dir + c.machine, RankChoice{static_cast<int64_t>(c.rank), ""}, &machine, &err))
        << err;
    const std::vector<RecordedRun> runs = RecordedRuns(records);
    TaskWork work;
    WorkSources sources;
    ASSERT_TRUE(
        BuildTaskWork(graph, NameMap(), DurationTable(), runs, machine, &work, &sources, &err))
        << err;
    EXPECT_EQ(sources.from_kernels + sources.from_default + sources.from_task_overrides, 0u);
    SimulationResult result;
    ASSERT_TRUE(SimulateSchedule(graph, machine.machine, work, {}, &result, &err)) << err;
    const int64_t recorded = MeasureRecordedSpan(graph, runs).makespan();
    EXPECT_EQ(recorded, c.recorded);
    EXPECT_LE(std::abs(result.makespan - recorded) * 20, recorded);
    EXPECT_EQ(result.makespan, c.simulated);
  }
}

}  // namespace
}  // namespace depgraph
