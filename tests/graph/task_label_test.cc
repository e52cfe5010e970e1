#include "depgraph/graph/task_label.h"
#include "depgraph/timing/perf_sidecar.h"  // the overload that merges a sidecar

#include <gtest/gtest.h>

#include "test_util.h"

namespace depgraph {
namespace {

// Task 1 aic by its slots, 2 mix by its slots, 3 aiv, 4 a dummy; edges make them all nodes.
constexpr const char* kGraph = R"({"tasks":[{"task_id":1,"kernel_ids":[0,-1,-1]},
  {"task_id":2,"kernel_ids":[0,1,-1]},{"task_id":3,"kernel_ids":[-1,1,1]},
  {"task_id":4,"kernel_ids":[-1,-1,-1]}],
  "edges":[{"pred":9,"succ":1},{"pred":1,"succ":2},{"pred":2,"succ":3},{"pred":3,"succ":4}]})";

PerfTask Timed(TaskId id, const char* core_type) {
  PerfTask t;
  t.id = id;
  t.core_type = core_type;
  t.blocks = 1;
  return t;
}

TEST(TaskLabel, KindsCoresAndNamesFromKernelSlots) {
  DepGraph g = testing::LoadText(kGraph);  // nodes 1 2 3 4 9
  NameMap names;
  names.names["0"] = "QK";
  const std::vector<TaskLabel> labels = ResolveTaskLabels(g, names);
  EXPECT_EQ(labels[0].kind, TaskKind::kSubmit);
  EXPECT_EQ(labels[0].core, CoreType::kAic);
  EXPECT_EQ(labels[0].func_name, "QK");
  EXPECT_EQ(labels[1].core, CoreType::kMix);
  EXPECT_EQ(labels[1].func_name, "QK + f1");
  EXPECT_EQ(labels[2].core, CoreType::kAiv);
  EXPECT_EQ(labels[3].kind, TaskKind::kDummy);
  EXPECT_EQ(labels[4].kind, TaskKind::kAlloc);
  for (const TaskLabel& label : labels) EXPECT_FALSE(label.perf);
}

TEST(TaskLabel, PerfSidecarCoreTypeWinsOverTheSlots) {  // spec/timing.md §5
  DepGraph g = testing::LoadText(kGraph);
  PerfSidecar perf;
  // 1 ran on AIV cores only, 2 (MIX by its slots) only on AIC cores, 3's type is empty (the
  // slots decide), 4 is a dummy with records, 9 an alloc node with records.
  perf.tasks = {Timed(1, "aiv"), Timed(2, "aic"), Timed(3, ""), Timed(4, "aic"),
                Timed(9, "aiv")};
  const std::vector<TaskLabel> labels = ResolveTaskLabels(g, NameMap(), &perf);
  EXPECT_EQ(labels[0].core, CoreType::kAiv);
  EXPECT_EQ(labels[1].core, CoreType::kAic);
  EXPECT_EQ(labels[2].core, CoreType::kAiv);
  EXPECT_EQ(labels[3].kind, TaskKind::kDummy);
  EXPECT_EQ(labels[4].kind, TaskKind::kAlloc);
  for (const TaskLabel& label : labels) {
    EXPECT_TRUE(label.perf);
    EXPECT_EQ(label.func_name, "");
  }
  // A type other than aic/aiv/mix is kept as no type (grey), not replaced by the slots'.
  perf.tasks = {Timed(2, "aicpu")};
  EXPECT_EQ(ResolveTaskLabels(g, NameMap(), &perf)[1].core, CoreType::kNone);
}

TEST(TaskLabel, NameOfMinusOneNamesEverySidecarTask) {  // spec/timing.md §5 text rule 4
  DepGraph g = testing::LoadText(kGraph);
  PerfSidecar perf;
  perf.tasks = {Timed(2, "aic"), Timed(4, "aic"), Timed(9, "aiv")};
  NameMap names;
  names.names["0"] = "QK";
  names.names["-1"] = "timed";
  const std::vector<TaskLabel> labels = ResolveTaskLabels(g, names, &perf);
  EXPECT_EQ(labels[0].func_name, "QK");     // no records: the slots' names
  EXPECT_EQ(labels[1].func_name, "timed");  // records: "-1" instead of "QK + f1"
  EXPECT_EQ(labels[3].func_name, "timed");  // also on a dummy and an alloc node
  EXPECT_EQ(labels[4].func_name, "timed");
  names.names.erase("-1");
  EXPECT_EQ(ResolveTaskLabels(g, names, &perf)[1].func_name, "QK + f1");
  EXPECT_EQ(ResolveTaskLabels(g, names, &perf)[4].func_name, "");
}

TEST(TaskLabel, KernelSlotNamesFallBackToIdsAndDisplayNamesEverySubmit) {
  const DepGraph g = testing::LoadText(kGraph);  // nodes 1 2 3 4 9
  NameMap names;
  names.names["1"] = "SF";
  EXPECT_EQ(KernelSlotNames(*g.TaskOfNode(g.FindNode(2)), names), "f0 + SF");
  EXPECT_EQ(KernelSlotNames(*g.TaskOfNode(g.FindNode(3)), names), "SF");  // slots 1 and 2 alike
  EXPECT_EQ(KernelSlotNames(*g.TaskOfNode(g.FindNode(4)), names), "");     // no active slot

  std::vector<TaskLabel> labels = ResolveTaskLabels(g, NameMap());
  EXPECT_EQ(labels[g.FindNode(2)].func_name, "");  // the text report's labels stay as they were
  EXPECT_EQ(DisplayKernelName(g, labels, g.FindNode(2)), "f0 + f1");
  EXPECT_EQ(DisplayKernelName(g, labels, g.FindNode(9)), "");  // an allocation
  EXPECT_EQ(DisplayKernelName(g, labels, g.FindNode(4)), "");  // a dummy
  NameKernelsById(g, &labels);
  EXPECT_EQ(labels[g.FindNode(1)].func_name, "f0");
  EXPECT_EQ(labels[g.FindNode(3)].func_name, "f1");
  EXPECT_EQ(labels[g.FindNode(9)].func_name, "");

  labels = ResolveTaskLabels(g, names);  // named tasks keep their names
  NameKernelsById(g, &labels);
  EXPECT_EQ(labels[g.FindNode(2)].func_name, "f0 + SF");
}

}  // namespace
}  // namespace depgraph
