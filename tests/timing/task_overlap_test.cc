// task_overlap.h: did two tasks overlap, and if not, why not.
#include "depgraph/timing/task_overlap.h"

#include <gtest/gtest.h>

#include "test_util.h"

namespace depgraph {
namespace {

// Tasks 1-9 (one block each) and their records: core, start, end in ticks; 3 after 1; 5 after
// 4 after 2; task 8 has an AICPU dispatch row.
struct ProfiledRun {
  DepGraph graph = testing::LoadText(R"j({"tasks":[
      {"task_id":"1","kernel_ids":[0,-1,-1]},{"task_id":"2","kernel_ids":[0,-1,-1]},
      {"task_id":"3","kernel_ids":[0,-1,-1]},{"task_id":"4","kernel_ids":[0,-1,-1]},
      {"task_id":"5","kernel_ids":[0,-1,-1]},{"task_id":"6","kernel_ids":[0,-1,-1]},
      {"task_id":"7","kernel_ids":[0,-1,-1]},{"task_id":"8","kernel_ids":[0,-1,-1]},
      {"task_id":"9","kernel_ids":[0,-1,-1]},{"task_id":"10","kernel_ids":[0,-1,-1]}],
    "edges":[{"pred":"1","succ":"3"},{"pred":"2","succ":"4"},{"pred":"4","succ":"5"}]})j");
  TimingRecords records;
  TaskTimings timings;
  ProfiledRun() {
    std::string err;
    EXPECT_TRUE(LoadTimingRecordsText(R"j({"chip_swimlane_level": 2,
        "metadata": {"clock_freq_hz": 1000000, "core_types": ["aic","aic","aic","aic","aic","aic"]},
        "aicore_tasks": [[0,1,1,0,10,0],[1,2,1,5,15,0],[1,3,2,20,30,0],[2,4,1,16,20,0],
                         [2,5,2,21,25,0],[0,6,2,12,14,0],[3,7,1,0,4,0],[4,8,1,30,32,0],
                         [5,9,1,30,31,0]],
        "aicpu_tasks": [[4,1,29,33]]})j", "r.json", &records, &err)) << err;
    timings = ReduceTaskTimings(records);
  }
  OverlapAnswer Ask(TaskId a, TaskId b) {
    OverlapAnswer answer;
    std::string err;
    EXPECT_TRUE(AnswerOverlap(graph, records, timings, a, b, &answer, &err)) << err;
    return answer;
  }
};

TEST(TaskOverlap, EachVerdict) {
  ProfiledRun run;
  const OverlapAnswer both = run.Ask(2, 1);
  EXPECT_EQ(both.verdict, OverlapVerdict::kOverlapped);
  EXPECT_EQ(both.first.id, 1u) << "the one that started first";
  EXPECT_EQ(both.overlap, 5);
  const OverlapAnswer ordered = run.Ask(3, 1);
  EXPECT_EQ(ordered.verdict, OverlapVerdict::kOrdered);
  EXPECT_EQ(ordered.path, (std::vector<TaskId>{1, 3}));
  const OverlapAnswer waited = run.Ask(1, 5);
  EXPECT_EQ(waited.verdict, OverlapVerdict::kWaitedForOther);
  EXPECT_EQ(waited.gate, 4u);
  EXPECT_EQ(waited.gate_end, 20);
  const OverlapAnswer busy = run.Ask(7, 6);
  EXPECT_EQ(busy.verdict, OverlapVerdict::kCoreBusy);
  EXPECT_EQ(busy.gate, 1u) << "core 0 ran task 1 until 10, after task 7 ended at 4";
  EXPECT_EQ(busy.gate_end, 10);
  const OverlapAnswer late = run.Ask(7, 8);
  EXPECT_EQ(late.verdict, OverlapVerdict::kLateDispatch);
  EXPECT_EQ(late.dispatch, 29);
  EXPECT_EQ(run.Ask(9, 7).verdict, OverlapVerdict::kUnexplained);
  EXPECT_STREQ(OverlapVerdictName(OverlapVerdict::kCoreBusy), "core-busy");
}

TEST(TaskOverlap, TasksWithoutRecordsOrNotInTheGraphAreErrors) {
  ProfiledRun run;
  OverlapAnswer answer;
  std::string err;
  EXPECT_FALSE(AnswerOverlap(run.graph, run.records, run.timings, 1, 10, &answer, &err));
  EXPECT_EQ(err, "task 10 has no timing records");
  EXPECT_FALSE(AnswerOverlap(run.graph, run.records, run.timings, 1, 77, &answer, &err));
  EXPECT_EQ(err, "task 77 is not in the graph");
  EXPECT_FALSE(AnswerOverlap(run.graph, run.records, run.timings, 3, 3, &answer, &err));
  EXPECT_EQ(err, "task 3 was given twice: name two different tasks");
}

}  // namespace
}  // namespace depgraph
