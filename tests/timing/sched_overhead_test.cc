// AnalyzeSchedOverhead and its report on a small hand-made level-3 run whose every number is
// worked out by hand below (1 tick = 1 µs, times relative to the base tick 100).
//
//   task  core      deps    dispatch start end finish
//   1     0 (aic)   -       0        2     10  11
//   2     1 (aiv)   -       0        1     5   7
//   3     0 (aic)   1, 2    14       16    20  24
//   4     1 (aiv)   -       3        7     9   10
//   5     1 (aiv)   2       6        10    12  13
//
// Window [1, 20]. Task 3 is ready at 10 (task 1's end) and dispatched at 14 while core 0 is
// idle: 4 µs of AIC overhead. Task 5 is ready at 5 and dispatched at 6 while core 1 is idle:
// 1 µs of AIV overhead. Core 1 has two switches (tasks 4 and 5 were dispatched before the
// previous task on it ended): [5, 7] (1 µs of it while task 5 was ready) and [9, 10].
#include "depgraph/timing/sched_overhead.h"

#include <gtest/gtest.h>

#include "depgraph/timing/sched_overhead_report.h"

namespace depgraph {
namespace {

constexpr const char* kRecords = R"({
  "chip_swimlane_level": 3,
  "metadata": {"clock_freq_hz": 1000000, "core_types": ["aic", "aiv"], "core_to_thread": [0, 0]},
  "aicore_tasks": [[0, 1, 1, 102, 110, 0], [1, 2, 1, 101, 105, 0], [0, 3, 2, 116, 120, 0],
                   [1, 4, 2, 107, 109, 0], [1, 5, 3, 110, 112, 0]],
  "aicpu_tasks": [[0, 1, 100, 111], [1, 1, 100, 107], [0, 2, 114, 124], [1, 2, 103, 110],
                  [1, 3, 106, 113]],
  "aicpu_scheduler_phases": [[
      {"kind": "dispatch", "start_cycles": 100, "end_cycles": 101, "loop_iter": 1, "pop_hit": 2, "pop_miss": 1},
      {"kind": "complete", "start_cycles": 105, "end_cycles": 106, "loop_iter": 2, "tasks_processed": 1},
      {"kind": "resolve", "start_cycles": 105, "end_cycles": 106, "loop_iter": 2, "tasks_processed": 7},
      {"kind": "dispatch", "start_cycles": 106, "end_cycles": 107, "loop_iter": 3, "pop_hit": 1, "pop_miss": 0},
      {"kind": "complete", "start_cycles": 110, "end_cycles": 112, "loop_iter": 4, "tasks_processed": 2}
    ], []]
})";

SwimlaneDeps Deps(const std::vector<std::pair<int, int>>& edges) {
  SwimlaneDeps deps;
  deps.has_edges = true;
  for (const auto& [pred, succ] : edges) {
    auto [it, fresh] = deps.pred_index.emplace(pred, static_cast<uint32_t>(deps.preds.size()));
    if (fresh) {
      deps.preds.push_back(pred);
      deps.succs.emplace_back();
    }
    deps.succs[it->second].push_back(succ);
    ++deps.edge_count;
  }
  return deps;
}

SwimlaneRecords Load(const std::string& text) {
  SwimlaneRecords records;
  std::string err;
  EXPECT_TRUE(LoadSwimlaneRecordsText(text, "run.json", &records, &err)) << err;
  return records;
}

std::string Replace(std::string text, const std::string& from, const std::string& to) {
  const size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  return text.replace(at, from.size(), to);
}

TEST(SchedOverhead, VerdictSharesOfTheWindow) {
  SchedOverheadReport r;
  std::string err;
  ASSERT_TRUE(AnalyzeSchedOverhead(Load(kRecords), Deps({{1, 3}, {2, 3}, {2, 5}}), "run.json", &r, &err)) << err;
  EXPECT_EQ(r.task_rows, 5u);
  EXPECT_DOUBLE_EQ(r.window_start_us, 1);
  EXPECT_DOUBLE_EQ(r.window_us, 19);
  ASSERT_EQ(r.engines.size(), 2u);
  EXPECT_EQ(r.engines[0].type, "aic");
  EXPECT_EQ(r.engines[0].cores, 1);
  EXPECT_DOUBLE_EQ(r.engines[0].overhead_us, 4);
  EXPECT_DOUBLE_EQ(r.engines[1].overhead_us, 1);
  EXPECT_DOUBLE_EQ(r.all_overhead_us, 0);  // never both engines at once
  EXPECT_DOUBLE_EQ(r.has_overhead_us, 5);
  const std::string text = RenderSchedOverheadText(r, "run.json", "deps.json");
  EXPECT_NE(text.find("  Per-engine overhead: C (AIC) 21.1%  V (AIV) 5.3%\n"), std::string::npos) << text;
  EXPECT_NE(text.find("has_overhead 26.3% (every working engine starved)"), std::string::npos);
  EXPECT_NE(text.find("-> SCHEDULER-BOUND"), std::string::npos);
}

TEST(SchedOverhead, SwitchGapsPerCoreAndTheirSplit) {
  SchedOverheadReport r;
  std::string err;
  ASSERT_TRUE(AnalyzeSchedOverhead(Load(kRecords), Deps({{1, 3}, {2, 3}, {2, 5}}), "run.json", &r, &err)) << err;
  EXPECT_EQ(r.engines[0].switch_events, 0);
  ASSERT_EQ(r.engines[1].switch_per_core_us.size(), 1u);
  EXPECT_DOUBLE_EQ(r.engines[1].switch_per_core_us[0], 3);
  EXPECT_EQ(r.engines[1].switch_events, 2);
  EXPECT_DOUBLE_EQ(r.engines[1].switch_overhead_us, 1);
  EXPECT_DOUBLE_EQ(r.engines[1].switch_independent_us, 2);
  EXPECT_DOUBLE_EQ(r.switch_lower_us, 0);
  EXPECT_DOUBLE_EQ(r.switch_upper_us, 3);
}

TEST(SchedOverhead, HeadAndTailOverhead) {
  SchedOverheadReport r;
  std::string err;
  ASSERT_TRUE(AnalyzeSchedOverhead(Load(kRecords), Deps({{1, 3}, {2, 3}, {2, 5}}), "run.json", &r, &err)) << err;
  // Heads: task 3 min(16-14, 16-10) = 2, task 4 min(7-3, 7-5) = 2, task 5 min(10-6, 10-9) = 1.
  EXPECT_EQ(r.head.sorted, (std::vector<double>{1, 1, 2, 2, 2}));
  EXPECT_DOUBLE_EQ(r.head.sum, 8);
  EXPECT_DOUBLE_EQ(r.head.Percentile(10), 1);
  EXPECT_DOUBLE_EQ(r.head.Percentile(50), 2);
  EXPECT_EQ(r.tail.sorted, (std::vector<double>{1, 1, 1, 2, 4}));
  EXPECT_DOUBLE_EQ(r.tail.Percentile(99), 4);
  EXPECT_DOUBLE_EQ(r.tail_sum_row_order, 9);
}

TEST(SchedOverhead, SchedulerLoopBreakdownAndPopHitRate) {
  SchedOverheadReport r;
  std::string err;
  ASSERT_TRUE(AnalyzeSchedOverhead(Load(kRecords), Deps({{1, 3}, {2, 3}, {2, 5}}), "run.json", &r, &err)) << err;
  ASSERT_EQ(r.threads.size(), 1u);  // thread 1 has no records
  const SchedulerThreadStats& t = r.threads[0];
  EXPECT_EQ(static_cast<int64_t>(t.loops), 4);
  EXPECT_EQ(static_cast<int64_t>(t.finishes), 3);  // the resolve record does not count
  EXPECT_EQ(t.completed, 5);                       // every task's core maps to thread 0
  EXPECT_DOUBLE_EQ(t.complete_us, 3);
  EXPECT_DOUBLE_EQ(t.dispatch_us, 2);
  EXPECT_DOUBLE_EQ(t.idle_us, 7);  // gaps [1, 5] and [7, 10]
  EXPECT_DOUBLE_EQ(t.total_us, 12);
  EXPECT_EQ(static_cast<int64_t>(t.pop_hit), 3);
  EXPECT_EQ(static_cast<int64_t>(t.pop_miss), 1);
  EXPECT_EQ(t.fanout_edges, 3);
  EXPECT_EQ(t.fanout_max, 2);
  EXPECT_EQ(t.fanin_edges, 3);
  EXPECT_EQ(t.fanin_max, 2);
  const std::string text = RenderSchedOverheadText(r, "run.json", "deps.json");
  EXPECT_NE(text.find("  Pop: hit=3, miss=1, hit_rate=75.0%\n"), std::string::npos) << text;
  EXPECT_NE(text.find("  T0               4          5         3000        12.0\n"), std::string::npos) << text;
}

TEST(SchedOverhead, CriticalPathAttribution) {
  SchedOverheadReport r;
  std::string err;
  ASSERT_TRUE(AnalyzeSchedOverhead(Load(kRecords), Deps({{1, 3}, {2, 3}, {2, 5}}), "run.json", &r, &err)) << err;
  const CriticalPathAttribution& cp = r.critical_path;
  ASSERT_TRUE(cp.found);
  EXPECT_EQ(cp.hops, 1);          // 3 <- 1 (task 1 ended after task 2)
  EXPECT_DOUBLE_EQ(cp.exec_us, 12);  // (20 - 16) + (10 - 2)
  EXPECT_DOUBLE_EQ(cp.sched_us, 8);  // (16 - 10) + task 1's head (2 - 0)
  EXPECT_DOUBLE_EQ(cp.span_us, 22);  // 24 - 2
}

TEST(SchedOverhead, CycleOnThePathStopsTheWalk) {
  SchedOverheadReport r;
  std::string err;
  ASSERT_TRUE(AnalyzeSchedOverhead(Load(kRecords), Deps({{1, 3}, {3, 1}}), "run.json", &r, &err)) << err;
  EXPECT_FALSE(r.critical_path.found);
  EXPECT_TRUE(r.critical_path.cycle);
  EXPECT_EQ(static_cast<int64_t>(r.critical_path.cycle_task), 3);
  EXPECT_NE(RenderSchedOverheadText(r, "a", "b").find("deps.json has a cycle through task 3"), std::string::npos);
}

TEST(SchedOverhead, WithoutEdgesEveryTaskIsReadyAtItsDispatch) {
  SchedOverheadReport r;
  std::string err;
  ASSERT_TRUE(AnalyzeSchedOverhead(Load(kRecords), SwimlaneDeps(), "run.json", &r, &err)) << err;
  EXPECT_DOUBLE_EQ(r.has_overhead_us, 0);
  EXPECT_EQ(r.critical_path.hops, 0);
  EXPECT_EQ(r.threads[0].fanout_edges, 0);
}

TEST(SchedOverhead, RejectsAListOfTasksProcessed) {
  SchedOverheadReport r;
  std::string err;
  const std::string text = Replace(kRecords, R"("tasks_processed": 2})", R"("tasks_processed": [1, 2]})");
  EXPECT_FALSE(AnalyzeSchedOverhead(Load(text), SwimlaneDeps(), "run.json", &r, &err));
  EXPECT_EQ(err,
            "run.json: aicpu_scheduler_phases[0][4].tasks_processed: expected an integer count, got [1, 2] "
            "(the runtime writes one uint32 per record)");
}

TEST(SchedOverhead, RejectsAPopCountThatIsNoInteger) {
  SchedOverheadReport r;
  std::string err;
  const std::string text = Replace(kRecords, R"("pop_miss": 0)", R"("pop_miss": "none")");
  EXPECT_FALSE(AnalyzeSchedOverhead(Load(text), SwimlaneDeps(), "run.json", &r, &err));
  EXPECT_EQ(err, "run.json: aicpu_scheduler_phases[0][3].pop_miss: expected an integer, got none");
}

TEST(SchedOverhead, NeedsWorkRecordsAndTasks) {
  SchedOverheadReport r;
  std::string err;
  const std::string no_phases = Replace(kRecords, R"("aicpu_scheduler_phases": [[)", R"("ignored": [[)");
  EXPECT_FALSE(AnalyzeSchedOverhead(Load(no_phases), SwimlaneDeps(), "run.json", &r, &err));
  EXPECT_NE(err.find("run.json: aicpu_scheduler_phases: no complete, async_poll or dispatch records"),
            std::string::npos)
      << err;
  SwimlaneRecords empty = Load(kRecords);
  empty.tasks.clear();
  EXPECT_FALSE(AnalyzeSchedOverhead(empty, SwimlaneDeps(), "run.json", &r, &err));
  EXPECT_EQ(err.rfind("run.json: no tasks", 0), 0u) << err;
}

}  // namespace
}  // namespace depgraph
