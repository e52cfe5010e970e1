#include "depgraph/timing/critical_path.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "depgraph/timing/critical_path_inputs.h"
#include "depgraph/timing/timing_records.h"

namespace depgraph {
namespace {

/// Records, timings and the analysis of a hand-made run.
struct TimedRun {
  TimingRecords records;
  TaskTimings timings;
  CriticalPathDeps deps;
  HappensBefore hb;
  CriticalPathResult result;

  TimedRun(const std::string& rows, const std::string& edges, int64_t tol,
      CpmWeight weight = CpmWeight::kSpan) {
    std::string err;
    EXPECT_TRUE(LoadTimingRecordsText(
        R"({"metadata": {"clock_freq_hz": 1000000}, "aicore_tasks": [)" + rows + "]}", "r.json",
        &records, &err))
        << err;
    EXPECT_TRUE(LoadCriticalPathDepsText(R"({"tasks": [], "edges": [)" + edges + "]}", "deps.json",
                                         &deps, &err))
        << err;
    timings = ReduceTaskTimings(records);
    CriticalPathOptions options;
    options.tol = tol;
    options.cpm_weight = weight;
    hb = BuildHappensBefore(records, timings, deps.TimedEdges(timings), options);
    result = AnalyzeCriticalPath(timings, hb, options);
  }
  std::vector<std::string> Keys(const std::vector<uint32_t>& tasks) const {
    std::vector<std::string> out;
    for (uint32_t t : tasks) out.push_back(timings.tasks[t].key);
    return out;
  }
  std::vector<std::string> StaticPath() const { return Keys(result.static_path); }
  std::vector<std::string> ObservedPath() const {
    std::vector<std::string> out;
    for (const ObservedStep& step : result.observed_path) {
      out.push_back(timings.tasks[step.task].key + ":" + StallKindName(step.kind));
    }
    return out;
  }
  std::string Key(uint32_t t) const { return timings.tasks[t].key; }
};

std::string Edges(std::initializer_list<std::pair<int, int>> edges) {
  std::string out;
  for (const auto& [p, s] : edges) {
    if (!out.empty()) out += ",";
    out += R"({"pred": ")" + std::to_string(p) + R"(", "succ": ")" + std::to_string(s) + "\"}";
  }
  return out;
}

// spec/timing.md §3.16, Example A (1 tick = 1 µs).
const char* const kExampleARows =
    "[0,1,1,10,50,0], [0,4,2,51,75,0], [0,5,3,81,100,0], [2,2,1,0,20,0], [2,3,2,49,80,0]";
const std::string kExampleAEdges = Edges({{1, 3}, {1, 4}, {2, 4}, {3, 5}, {4, 5}, {4, 5}});

TEST(CriticalPath, ExampleAWithTheDefaultTolerance) {
  const TimedRun run(kExampleARows, kExampleAEdges, 2);
  EXPECT_EQ(run.hb.kept_edges, 5u);  // the duplicate 4->5 counts once
  // hb_pred: 3:[1], 4:[1,2], 5:[3,4]
  EXPECT_EQ(run.Keys(run.hb.preds[run.timings.by_key.at("4")]),
            (std::vector<std::string>{"1", "2"}));
  EXPECT_EQ(run.Keys(run.hb.preds[run.timings.by_key.at("5")]),
            (std::vector<std::string>{"3", "4"}));
  // core_prev: core 0 -> 4:(1,50), 5:(4,75); core 2 -> 3:(2,20)
  const auto& prev4 = run.hb.core_prev[run.timings.by_key.at("4")];
  ASSERT_TRUE(prev4);
  EXPECT_EQ(run.Key(prev4->first), "1");
  EXPECT_EQ(prev4->second, 50);
  const auto& prev3 = run.hb.core_prev[run.timings.by_key.at("3")];
  ASSERT_TRUE(prev3);
  EXPECT_EQ(run.Key(prev3->first), "2");
  EXPECT_EQ(prev3->second, 20);
  EXPECT_FALSE(run.hb.core_prev[run.timings.by_key.at("1")]);

  EXPECT_EQ(run.result.t0, 0);
  EXPECT_EQ(run.result.makespan, 100);
  EXPECT_EQ(run.StaticPath(), (std::vector<std::string>{"1", "3", "5"}));
  EXPECT_EQ(run.result.cpm, 90);
  EXPECT_EQ(run.ObservedPath(),
            (std::vector<std::string>{"1:front-gap", "3:data-wait", "5:data-wait"}));
  ASSERT_EQ(run.result.observed_path.size(), 3u);
  EXPECT_EQ(run.result.observed_path[0].stall, 10);
  EXPECT_EQ(run.result.observed_path[0].compute, 40);
  EXPECT_EQ(run.result.observed_path[1].stall, 0);
  EXPECT_EQ(run.result.observed_path[1].compute, 30);  // one tick overlaps task 1
  EXPECT_EQ(run.result.observed_path[2].stall, 1);
  EXPECT_EQ(run.result.observed_path[2].compute, 19);
  EXPECT_EQ(run.result.compute_total, 89);
  EXPECT_EQ(run.result.stall_total, 11);
  ASSERT_EQ(run.result.stall_by_kind.size(), 2u);
  EXPECT_EQ(run.result.stall_by_kind[0], std::make_pair(StallKind::kFrontGap, int64_t{10}));
  EXPECT_EQ(run.result.stall_by_kind[1], std::make_pair(StallKind::kDataWait, int64_t{1}));
}

TEST(CriticalPath, ExampleAWithZeroToleranceGoesThroughCoreWait) {
  const TimedRun run(kExampleARows, kExampleAEdges, 0);
  EXPECT_EQ(run.hb.kept_edges, 4u);  // 1->3 dropped: 50 > 49 + 0
  EXPECT_EQ(run.StaticPath(), (std::vector<std::string>{"1", "4", "5"}));
  EXPECT_EQ(run.result.cpm, 83);
  EXPECT_EQ(run.ObservedPath(),
            (std::vector<std::string>{"2:front-gap", "3:core-wait", "5:data-wait"}));
  EXPECT_EQ(run.result.compute_total, 70);
  EXPECT_EQ(run.result.stall_total, 30);
}

// Example B: ties. The walk compares task keys as strings ("9" > "10"); the CPM takes the
// first predecessor in edge order; the observed sink is the first in row order.
TEST(CriticalPath, ExampleBTieRulesDiffer) {
  const TimedRun run(
      "[0,9,1,1000,1030,0], [0,11,2,1030,1050,0], [1,10,1,1000,1030,0], "
      "[2,12,1,1020,1050,0]",
      Edges({{10, 11}, {9, 11}}), 2);
  EXPECT_EQ(run.ObservedPath(), (std::vector<std::string>{"9:front-gap", "11:data-wait"}));
  EXPECT_EQ(run.StaticPath(), (std::vector<std::string>{"10", "11"}));
  EXPECT_EQ(run.result.cpm, 50);
  EXPECT_EQ(run.result.makespan, 50);
  EXPECT_EQ(run.result.stall_total, 0);
}

TEST(CriticalPath, DataWaitBeatsCoreWaitOnTheSameTaskAndEnd) {
  // 1 then 2 on core 0, and the edge 1->2: both candidates are (10, "1"); 'd' > 'c'.
  const TimedRun run("[0,1,1,0,10,0], [0,2,2,12,20,0]", Edges({{1, 2}}), 2);
  EXPECT_EQ(run.ObservedPath(), (std::vector<std::string>{"1:front-gap", "2:data-wait"}));
  // Without the edge the same start is explained by the core.
  const TimedRun core("[0,1,1,0,10,0], [0,2,2,12,20,0]", "", 2);
  EXPECT_EQ(core.ObservedPath(), (std::vector<std::string>{"1:front-gap", "2:core-wait"}));
  EXPECT_EQ(core.result.stall_by_kind[1], std::make_pair(StallKind::kCoreWait, int64_t{2}));
}

TEST(CriticalPath, CorePredecessorSliceSortComparesKeysAsStrings) {
  // 9 and 10 start and end together on core 0. Sorted by key as a string, 10 comes first
  // ("10" < "9"), becomes the running best, and 9 (ending no later) does not replace it: the
  // core predecessor of 11 is 10. Sorted numerically it would have been 9.
  const TimedRun run("[0,9,1,0,5,0], [0,10,2,0,5,0], [0,11,3,5,9,0]", "", 0);
  const auto& prev = run.hb.core_prev[run.timings.by_key.at("11")];
  ASSERT_TRUE(prev);
  EXPECT_EQ(run.Key(prev->first), "10");
  // 9 started while 10 still ran on the core: no core predecessor.
  EXPECT_FALSE(run.hb.core_prev[run.timings.by_key.at("9")]);
}

TEST(CriticalPath, CorePredecessorTieAcrossCoresKeepsTheFirstCore) {
  // SPMD task 3 starts on cores 0 and 1 at tick 10; both cores were freed at 8, by 1 and 2.
  const TimedRun run("[0,1,1,0,8,0], [0,3,2,10,20,0], [1,2,1,0,8,0], [1,3,2,10,18,0]", "", 2);
  const auto& prev = run.hb.core_prev[run.timings.by_key.at("3")];
  ASSERT_TRUE(prev);
  EXPECT_EQ(run.Key(prev->first), "1");
}

TEST(CriticalPath, OverlappingSliceOnTheCoreMeansNoCorePredecessor) {
  // 2 starts at 5 while 1 (0..10) still runs on core 0: no core predecessor, front-gap.
  const TimedRun run("[0,1,1,0,10,0], [0,2,2,5,20,0]", "", 2);
  EXPECT_FALSE(run.hb.core_prev[run.timings.by_key.at("2")]);
  EXPECT_EQ(run.ObservedPath(), (std::vector<std::string>{"2:front-gap"}));
  EXPECT_EQ(run.result.observed_path[0].stall, 5);  // all of it before 2 started
  EXPECT_EQ(run.result.compute_total + run.result.stall_total, run.result.makespan);
}

TEST(CriticalPath, StaticCpmNeverChoosesAZeroLengthPredecessor) {
  // 1 takes 0 ticks: its finish is 0, so 2's chosen predecessor stays none.
  const TimedRun run("[0,1,1,0,0,0], [1,2,1,3,10,0]", Edges({{1, 2}}), 2);
  EXPECT_EQ(run.hb.kept_edges, 1u);
  EXPECT_EQ(run.StaticPath(), (std::vector<std::string>{"2"}));
  EXPECT_EQ(run.result.cpm, 7);
}

TEST(CriticalPath, SpansIncludeBlockQueueingUnlessWeighedByLongestBlock) {
  // SPMD task 1: two blocks of 10 ticks on one core, back to back; then 2 after it.
  const std::string rows = "[0,1,1,0,10,0], [0,1,2,10,20,0], [0,2,3,20,25,0]";
  const TimedRun span(rows, Edges({{1, 2}}), 2);
  EXPECT_EQ(span.result.cpm, 25);
  const TimedRun block(rows, Edges({{1, 2}}), 2, CpmWeight::kLongestBlock);
  EXPECT_EQ(block.result.cpm, 15);
  EXPECT_EQ(block.StaticPath(), (std::vector<std::string>{"1", "2"}));
}

// Found while writing the timing_inputs fuzzer: spans just below 2^62 ticks kept overlapping by
// the tolerance summed past int64 in the static CPM (undefined behaviour); the sum saturates.
TEST(CriticalPath, HugeSpansSaturateTheCpm) {
  const TimedRun run(
      "[0,1,1,-4611686018427387903,4611686018427387903,0], "
      "[1,2,1,4611686018427387901,4611686018427387903,0]",
      Edges({{1, 2}}), 2);
  EXPECT_EQ(run.hb.kept_edges, 1u);
  EXPECT_EQ(run.result.cpm, INT64_MAX);
  EXPECT_EQ(run.StaticPath(), (std::vector<std::string>{"1", "2"}));
  EXPECT_EQ(run.result.compute_total + run.result.stall_total, run.result.makespan);
}

TEST(CriticalPath, EdgesThroughUntimedTasksAndSelfLoopsAreIgnored) {
  // 7 has no rows (a dummy): 1->7->2 gives no edge between 1 and 2.
  const TimedRun run("[0,1,1,0,10,0], [1,2,1,20,30,0]", Edges({{1, 7}, {7, 2}, {2, 2}}), 2);
  EXPECT_EQ(run.hb.kept_edges, 0u);
  EXPECT_EQ(run.ObservedPath(), (std::vector<std::string>{"2:front-gap"}));
  EXPECT_EQ(run.result.stall_by_kind[0], std::make_pair(StallKind::kFrontGap, int64_t{20}));
}

TEST(CriticalPath, LongChainsAreWalkedWithoutRecursion) {
  std::string rows, edges;
  const int n = 200000;
  for (int i = 0; i < n; ++i) {
    rows += (i ? "," : "") + std::string("[0,") + std::to_string(i) + ",0," +
            std::to_string(i * 10) + "," + std::to_string(i * 10 + 9) + ",0]";
    if (i) {
      edges += (i > 1 ? "," : "") + std::string(R"({"pred":)") + std::to_string(i - 1) +
               R"(,"succ":)" + std::to_string(i) + "}";
    }
  }
  const TimedRun run(rows, edges, 2);
  EXPECT_EQ(run.result.static_path.size(), static_cast<size_t>(n));
  EXPECT_EQ(run.result.observed_path.size(), static_cast<size_t>(n));
  EXPECT_EQ(run.result.compute_total + run.result.stall_total, run.result.makespan);
}

}  // namespace
}  // namespace depgraph
