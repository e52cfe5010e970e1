// ready_idle_gaps.h: a core's idle time while a task of its type was ready.
#include "depgraph/timing/ready_idle_gaps.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace depgraph {
namespace {

// A records file (1 MHz: a tick is a µs) with its dependency edges given as task keys.
struct RecordedRun {
  TimingRecords records;
  TaskTimings timings;
  HappensBefore hb;
  RecordedRun(const std::string& rows, const std::vector<std::pair<std::string, std::string>>& edges,
      const std::string& core_types = R"(["aic","aic","aiv","aiv"])") {
    std::string err;
    EXPECT_TRUE(LoadTimingRecordsText(
        R"({"chip_swimlane_level": 1, "metadata": {"clock_freq_hz": 1000000, "core_types": )" +
            core_types + R"(}, "aicore_tasks": )" + rows + "}",
        "r.json", &records, &err))
        << err;
    timings = ReduceTaskTimings(records);
    std::vector<TimedEdge> timed;
    for (const auto& [pred, succ] : edges) {
      timed.push_back({static_cast<int32_t>(timings.by_key.at(pred)),
                       static_cast<int32_t>(timings.by_key.at(succ))});
    }
    hb = BuildHappensBefore(records, timings, timed, CriticalPathOptions{});
  }
  std::string Key(uint32_t task) const { return timings.tasks[task].key; }
};

struct Stretch {
  int64_t core, start, end;
  std::string waiting;
  bool operator==(const Stretch&) const = default;
};

std::vector<Stretch> Stretches(const RecordedRun& run, const ReadyIdleGaps& found) {
  std::vector<Stretch> out;
  for (const ReadyIdleGap& g : found.gaps) out.push_back({g.core, g.start, g.end, run.Key(g.waiting)});
  return out;
}

void PrintTo(const Stretch& s, std::ostream* os) {
  *os << "{core " << s.core << " [" << s.start << "," << s.end << ") task " << s.waiting << "}";
}

// Task 2 waits on AIC from 10 (task 1 ended) to 40; both AIC cores idle meanwhile (core 1 from
// 20). Task 5 waits on AIV from 5 to 6: one tick of dispatch latency.
const char* kRows = R"([[0,1,1,0,10,0],[0,2,1,40,50,0],[1,3,1,0,20,0],
                        [2,4,1,0,5,0],[2,5,1,6,8,0]])";

TEST(ReadyIdleGaps, IdleCoresOfTheWaitingTasksType) {
  RecordedRun run(kRows, {{"1", "2"}, {"4", "5"}});
  ReadyIdleOptions all;
  all.skip_dispatch_latency = false;
  const ReadyIdleGaps found = FindReadyIdleGaps(run.records, run.timings, run.hb, all);
  EXPECT_EQ(Stretches(run, found), (std::vector<Stretch>{
                                       {0, 10, 40, "2"}, {1, 20, 40, "2"}, {2, 5, 6, "5"}}));
  EXPECT_EQ(found.skipped, 0u);
}

TEST(ReadyIdleGaps, DispatchLatencyIsLeftOutAndCounted) {
  RecordedRun run(kRows, {{"1", "2"}, {"4", "5"}});
  const ReadyIdleGaps found = FindReadyIdleGaps(run.records, run.timings, run.hb);
  // Waits are 30 and 1: the 10th percentile is 1, the floor twice that.
  EXPECT_EQ(found.floor, 2);
  EXPECT_EQ(Stretches(run, found), (std::vector<Stretch>{{0, 10, 40, "2"}, {1, 20, 40, "2"}}));
  EXPECT_EQ(found.skipped, 1u);
  EXPECT_EQ(found.skipped_ticks, 1);
}

TEST(ReadyIdleGaps, TasksWithoutProducersAreNotCounted) {
  // Task 2 has no recorded producer: when it became ready is unknown, so no idle time is
  // charged to it although core 1 idles from 20 until it starts at 40.
  RecordedRun run(kRows, {});
  EXPECT_TRUE(FindReadyIdleGaps(run.records, run.timings, run.hb).gaps.empty());
}

TEST(ReadyIdleGaps, BusyCoresAndOtherTypesAreNotIdle) {
  // Task 2 (AIC) waits from 10 to 40, but core 0 runs task 6 until 40 and core 1 task 3 until
  // 45: no AIC core idles. The AIV core 2 idles the whole time: it cannot run an AIC task.
  RecordedRun run(R"([[0,1,1,0,10,0],[0,6,1,10,40,0],[0,2,1,40,50,0],[1,3,1,0,45,0],[2,4,1,0,5,0]])",
          {{"1", "2"}});
  ReadyIdleOptions all;
  all.skip_dispatch_latency = false;
  EXPECT_TRUE(FindReadyIdleGaps(run.records, run.timings, run.hb, all).gaps.empty());
}

TEST(ReadyIdleGaps, MixTasksWaitForBothTypes) {
  // Task 7 runs on AIC core 0 and AIV core 2 (MIX) from 30, ready at 10; task 8 (AIV) after it,
  // ready at 35, starts at 50. AIV core 3 never runs: it has no idle time of its own.
  RecordedRun run(R"([[0,1,1,0,10,0],[1,9,1,0,5,0],[2,4,1,0,5,0],[0,7,1,30,35,0],[2,7,2,30,35,0],
              [2,8,1,50,60,0]])",
          {{"1", "7"}, {"7", "8"}});
  ReadyIdleOptions all;
  all.skip_dispatch_latency = false;
  const ReadyIdleGaps found = FindReadyIdleGaps(run.records, run.timings, run.hb, all);
  EXPECT_EQ(Stretches(run, found), (std::vector<Stretch>{{0, 10, 30, "7"},
                                                         {1, 10, 30, "7"},
                                                         {2, 10, 30, "7"},
                                                         {2, 35, 50, "8"}}));
}

TEST(ReadyIdleGaps, TouchingWaitsFormOneStretch) {
  // On AIC, task 7 waits from 10 to 30 and task 8 from 20 (task 12 ended on AIV) to 40: core 1,
  // idle from 5, has one stretch [10, 40), named after the task ready when it began.
  RecordedRun run(R"([[0,1,1,0,10,0],[1,9,1,0,5,0],[2,12,1,0,20,0],[0,7,1,30,35,0],[0,8,1,40,45,0]])",
          {{"1", "7"}, {"12", "8"}});
  ReadyIdleOptions all;
  all.skip_dispatch_latency = false;
  const ReadyIdleGaps found = FindReadyIdleGaps(run.records, run.timings, run.hb, all);
  EXPECT_EQ(Stretches(run, found), (std::vector<Stretch>{{0, 10, 30, "7"},
                                                         {0, 35, 40, "8"},
                                                         {1, 10, 40, "7"}}));
}

TEST(ReadyIdleGaps, EmptyRecords) {
  RecordedRun run("[]", {});
  const ReadyIdleGaps found = FindReadyIdleGaps(run.records, run.timings, run.hb);
  EXPECT_TRUE(found.gaps.empty());
  EXPECT_EQ(found.skipped, 0u);
}

}  // namespace
}  // namespace depgraph
