#include "depgraph/timing/schedule_what_if.h"

#include <gtest/gtest.h>

#include "audit/audit_graph_builder.h"
#include "test_util.h"

namespace depgraph {
namespace {

using testing::GraphBuilder;
using testing::LoadText;
using testing::PairOf;
using testing::Rows;

// Every task one run of `ticks`.
TaskWork Uniform(const DepGraph& graph, int64_t ticks) {
  TaskWork work;
  for (size_t t = 0; t < graph.tasks.size(); ++t) {
    work.first.push_back(work.ticks.size());
    work.ticks.push_back(ticks);
  }
  work.first.push_back(work.ticks.size());
  return work;
}

int64_t Makespan(const DepGraph& graph, const MachineModel& m, const TaskWork& work,
                 const std::vector<uint8_t>* keep = nullptr) {
  SimulationOptions options;
  options.keep = keep;
  SimulationResult r;
  std::string err;
  EXPECT_TRUE(SimulateSchedule(graph, m, work, options, &r, &err)) << err;
  return r.makespan;
}

MachineModel Aiv(uint32_t cores) {
  MachineModel m;
  m.aiv = cores;
  return m;
}

// Tasks 1, 2, 3 write disjoint rows of tensor 7 and wait for each other through tensormap rows
// (finding A, two pairs); tasks 4 and 5 likewise on tensor 8 (finding B, one pair). Every task
// is one AIV kernel of 100 ticks on 8 cores, no overheads.
// Baseline: chain 1-2-3 ends at 300, 4-5 at 200: makespan 300.
// Without A: 1, 2, 3 run side by side (100), 4-5 still 200: makespan 200, saving 100.
// Without B: 300, saving 0. Without both: 100.
std::string TwoFindings() {
  GraphBuilder b;
  b.Tensor(7, 0, 64 * 16).Tensor(8, 1 << 20, 64 * 16);
  for (int i = 0; i < 3; ++i) b.Task(1 + i, {Rows("INOUT", 7, 16 * i, 16, 16)});
  for (int i = 0; i < 2; ++i) b.Task(4 + i, {Rows("INOUT", 8, 16 * i, 16, 16)});
  for (int i = 0; i < 2; ++i) {
    b.Edge(1 + i, 2 + i, "tensormap", 0, 7, "other", Rows("", 7, 16 * i, 16, 16));
  }
  b.Edge(4, 5, "tensormap", 0, 8, "other", Rows("", 8, 0, 16, 16));
  return b.Json();
}

TEST(ScheduleWhatIf, FalseEdgesRankedByTheMakespanTheyCost) {
  const DepGraph g = LoadText(TwoFindings());
  SerializationReport report;
  std::string err;
  ASSERT_TRUE(FindFalseEdges(g, &report, &err)) << err;
  ASSERT_EQ(report.findings.size(), 2u);
  ASSERT_EQ(report.findings[0].pairs.size(), 2u);  // A, first in submit order
  ASSERT_EQ(report.findings[1].pairs.size(), 1u);  // B
  const MachineModel m = Aiv(8);
  const TaskWork work = Uniform(g, 100);
  EXPECT_EQ(Makespan(g, m, work), 300);
  const std::vector<uint8_t> none = KeepWithoutFalseEdges(g, report.findings);
  EXPECT_EQ(none[PairOf(g, 1, 2)], 0);
  EXPECT_EQ(none[PairOf(g, 4, 5)], 0);
  EXPECT_EQ(Makespan(g, m, work, &none), 100);
  const std::vector<uint8_t> only_b = KeepWithoutFalseEdges(g, report.findings, 1);
  EXPECT_EQ(only_b[PairOf(g, 1, 2)], 1);
  EXPECT_EQ(only_b[PairOf(g, 4, 5)], 0);

  std::vector<FalseEdgeCost> ranked;
  ASSERT_TRUE(RankFalseEdges(g, m, work, report.findings, 300, 0, &ranked, &err)) << err;
  ASSERT_EQ(ranked.size(), 2u);
  EXPECT_EQ(ranked[0].finding, 0u);
  EXPECT_EQ(ranked[0].makespan, 200);
  EXPECT_EQ(ranked[0].saving, 100);
  EXPECT_EQ(ranked[1].finding, 1u);
  EXPECT_EQ(ranked[1].saving, 0);
  // With a limit of one, the finding that shortens the depth (A: depth 2 -> 1; B is off the
  // longest path, gain 0) is the one simulated.
  EXPECT_EQ(report.findings[0].depth_gain, 1);
  EXPECT_EQ(report.findings[1].depth_gain, 0);
  ASSERT_TRUE(RankFalseEdges(g, m, work, report.findings, 300, 1, &ranked, &err)) << err;
  ASSERT_EQ(ranked.size(), 1u);
  EXPECT_EQ(ranked[0].finding, 0u);
  // Two cores: A alone leaves 1, 2, 3 and 4-5 competing: 1 and 2 at 0-100 (4 waits), then 3
  // and 4 at 100-200, 5 at 200-300: makespan 300, no saving. B alone: 1 and 4 at 0-100, 5
  // (ready since 0) before 2 (ready at 100) at 100-200 beside 2, then 3 at 200-300: 300.
  ASSERT_TRUE(RankFalseEdges(g, Aiv(2), work, report.findings, 300, 0, &ranked, &err)) << err;
  EXPECT_EQ(ranked[0].saving, 0);
  EXPECT_EQ(ranked[1].saving, 0);
}

// 1 -> 2 -> 3 with the shortcut 1 -> 3, all tensormap: reduced_dataflow drops the shortcut.
// With an orchestrator cost of 10 ticks per wired dependency on 2 AIV cores and 100-tick
// kernels, plus an independent 1000-tick task 4 submitted last: releases 0, 10, 30 and 30
// (task 3 wires two dependencies), so 4 runs 30-1030: makespan 1030. Without the shortcut
// task 3 wires one: releases 0, 10, 20, 20 and the makespan is 1020.
TEST(ScheduleWhatIf, ReducedDataflowDropsShortcutsAndSavesWiring) {
  const DepGraph g = LoadText(R"({"tasks":[
      {"task_id":"1","kernel_ids":[-1,0,-1]},{"task_id":"2","kernel_ids":[-1,0,-1]},
      {"task_id":"3","kernel_ids":[-1,0,-1]},{"task_id":"4","kernel_ids":[-1,1,-1]}],
      "edges":[{"pred":"1","succ":"2","source":"tensormap"},{"pred":"2","succ":"3","source":"tensormap"},
               {"pred":"1","succ":"3","source":"tensormap"}]})");
  std::vector<uint8_t> keep;
  std::string err;
  ASSERT_TRUE(KeepReducedDataflow(g, &keep, &err)) << err;
  EXPECT_EQ(keep, (std::vector<uint8_t>{1, 0, 1}));  // pairs (1,2), (1,3), (2,3)
  MachineModel m = Aiv(2);
  m.edge_cost = 10;
  TaskWork work = Uniform(g, 100);
  work.ticks[3] = 1000;
  EXPECT_EQ(Makespan(g, m, work), 1030);
  EXPECT_EQ(Makespan(g, m, work, &keep), 1020);
  m.edge_cost = 0;
  EXPECT_EQ(Makespan(g, m, work, &keep), Makespan(g, m, work));  // no cost: no change
}

TEST(ScheduleWhatIf, CyclesAreErrors) {
  const DepGraph g = LoadText(testing::EdgesJson({{1, 2, "tensormap"}, {2, 1, "tensormap"}}));
  std::vector<uint8_t> keep;
  SerializationReport report;
  std::string err;
  EXPECT_FALSE(KeepReducedDataflow(g, &keep, &err));
  EXPECT_EQ(err, "dependency graph has a cycle: 1 -> 2 -> 1");
  EXPECT_FALSE(FindFalseEdges(g, &report, &err));
  EXPECT_EQ(err, "dependency graph has a cycle: 1 -> 2 -> 1");
}

}  // namespace
}  // namespace depgraph
