#include "depgraph/render/text_report.h"
#include "depgraph/timing/perf_sidecar.h"  // labels with a sidecar's facts

#include <gtest/gtest.h>

#include <sstream>

#include "test_util.h"

namespace depgraph {
namespace {

using testing::LoadText;

std::string Report(const std::string& json, EdgeMode mode = EdgeMode::kFull,
                   const NameMap& names = {}) {
  DepGraph g = LoadText(json);
  EdgeSelection s = SelectEdges(g, ReduceStructurally(g), mode);
  std::ostringstream out;
  WriteTextReport(g, s, ResolveTaskLabels(g, names), "deps.json", out);
  return out.str();
}

bool Contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

TEST(TextReport, WorkedExampleFullIsByteExact) {
  const std::string dir = testing::SourceDir() + "/data/samples/worked_example";
  EXPECT_EQ(Report(testing::ReadFile(dir + "/deps.json")),
            testing::ReadFile(dir + "/expected/deps_viewer.txt"));
}

TEST(TextReport, WorkedExampleReducedDataflowCounts) {
  std::string r = Report(testing::ReadFile(testing::SourceDir() +
                                           "/data/samples/worked_example/deps.json"),
                         EdgeMode::kReducedDataflow);
  EXPECT_TRUE(Contains(r, "  unique_task_edges: 5\n  annotated_edges: 5\n"));
  EXPECT_TRUE(Contains(r, "TASK 0 kind=alloc func_id=none fanin=0 fanout=2\n"));
  EXPECT_TRUE(Contains(r, "TASK 3 kind=submit func_id=[3,5,5] fanin=2 fanout=1\n"));
  EXPECT_TRUE(Contains(r, "=== TASK 2 kind=submit func_id=[3,-1,-1] SPMD block num = 4 ===\n"
                          "FANIN 1\n  <- 1\nFANOUT 1\n  -> 3\n"));
}

TEST(TextReport, EmptyGraph) {
  EXPECT_EQ(Report("{}"),
            "SUMMARY\n  source_deps_json: deps.json\n  tasks: 0\n  unique_task_edges: 0\n"
            "  annotated_edges: 0\n  tensors: 0\n  perf_sidecar: no\n  func_name_map: no\n\n"
            "TASK INDEX\n");
}

TEST(TextReport, KindsAndSlots) {  // reference tests 2, 3, 5, 6, 7
  std::string r = Report(R"({"tasks":[{"task_id":2,"kernel_ids":[-1,-1,-1]},
    {"task_id":3,"kernel_ids":[-1,2,-1],"block_num":4},{"task_id":4,"kernel_ids":[0,1,2]},
    {"task_id":5,"kernel_ids":[-1,3,4]}],"edges":[{"pred":1,"succ":2}]})");
  EXPECT_TRUE(Contains(r, "TASK 1 kind=alloc func_id=none fanin=0 fanout=1\n"));
  EXPECT_TRUE(Contains(r, "TASK 2 kind=dummy func_id=none fanin=1 fanout=0\n"));
  EXPECT_TRUE(Contains(r, "TASK 3 kind=submit func_id=[-1,2,-1] SPMD block num = 4 fanin=0 fanout=0\n"));
  EXPECT_TRUE(Contains(r, "=== TASK 3 kind=submit func_id=[-1,2,-1] SPMD block num = 4 ===\n"));
  EXPECT_TRUE(Contains(r, "func_id=[0,1,2]"));
  EXPECT_TRUE(Contains(r, "func_id=[-1,3,4]"));
  EXPECT_TRUE(Contains(r, "  perf_sidecar: yes\n  func_name_map: no\n"));
}

TEST(TextReport, FuncNameMapFlag) {  // reference tests 4, 9, 10 and spec §6.2 D
  const std::string json = R"({"tasks":[{"task_id":1,"kernel_ids":[7,-1,-1]}]})";
  EXPECT_TRUE(Contains(Report(json), "func_name_map: no"));
  NameMap unrelated;
  unrelated.names["99"] = "zzz";  // any non-empty map says yes (reference quirk)
  EXPECT_TRUE(Contains(Report(json, EdgeMode::kFull, unrelated), "func_name_map: yes"));
  EXPECT_TRUE(Contains(Report(json, EdgeMode::kFull, unrelated), "func_id=[7,-1,-1]"));
}

TEST(TextReport, IsolatedDummiesAreNotRendered) {
  std::string r = Report(R"({"tasks":[{"task_id":5,"kernel_ids":[-1,-1,-1]},
    {"task_id":6,"kernel_ids":[2,-1,-1]}]})");
  EXPECT_TRUE(Contains(r, "  tasks: 1\n"));
  EXPECT_FALSE(Contains(r, "TASK 5"));
}

TEST(TextReport, RingIdsSwitchEveryIdToPairs) {  // acceptance case 7
  const uint64_t r1 = 1ull << 32;
  std::string r = Report(testing::EdgesJson({{r1 + 1, r1 + 2, "explicit"},
                                             {r1 + 2, r1 + 3, "explicit"},
                                             {r1 + 1, r1 + 3, "explicit"}}),
                         EdgeMode::kOmitted);
  EXPECT_TRUE(Contains(r, "  unique_task_edges: 1\n  annotated_edges: 1\n"));
  EXPECT_TRUE(Contains(r, "TASK (1, 2) kind=alloc func_id=none fanin=0 fanout=0\n"));
  EXPECT_TRUE(Contains(r, "=== TASK (1, 1) kind=alloc func_id=none ===\nFANIN 0\nFANOUT 1\n  -> (1, 3)\n"));
  EXPECT_FALSE(Contains(r, "  -> (1, 2)"));
}

// What a perf sidecar changes (spec/timing.md §5): its tasks become nodes, isolated ones
// included (an unknown id as alloc, a dummy as dummy), counted in tasks:, switching the ids to
// (ring, local) when one is on another ring, and `perf_sidecar: yes` without any kernel slot.
TEST(TextReport, PerfSidecarTasksBecomeNodes) {
  DepGraph g = LoadText(R"({"tasks":[{"task_id":5,"kernel_ids":[-1,-1,-1]},
    {"task_id":6,"kernel_ids":[-1,-1,-1]}],"edges":[{"pred":1,"succ":2}]})");
  const TaskId ring1 = (TaskId{1} << 32) | 7;
  PerfSidecar perf;
  for (TaskId id : {TaskId{5}, ring1}) {
    PerfTask t;
    t.id = id;
    t.core_type = "aiv";
    perf.tasks.push_back(t);
  }
  AddIsolatedNodes(&g, perf.TaskIds());
  EdgeSelection s = SelectEdges(g, ReduceStructurally(g), EdgeMode::kFull);
  std::ostringstream out;
  WriteTextReport(g, s, ResolveTaskLabels(g, NameMap(), &perf), "deps.json", out);
  EXPECT_EQ(out.str(),
            "SUMMARY\n  source_deps_json: deps.json\n  tasks: 4\n  unique_task_edges: 1\n"
            "  annotated_edges: 1\n  tensors: 0\n  perf_sidecar: yes\n  func_name_map: no\n\n"
            "TASK INDEX\n"
            "TASK (0, 1) kind=alloc func_id=none fanin=0 fanout=1\n"
            "TASK (0, 2) kind=alloc func_id=none fanin=1 fanout=0\n"
            "TASK (0, 5) kind=dummy func_id=none fanin=0 fanout=0\n"
            "TASK (1, 7) kind=alloc func_id=none fanin=0 fanout=0\n"
            "\n=== TASK (0, 1) kind=alloc func_id=none ===\nFANIN 0\nFANOUT 1\n  -> (0, 2)\n"
            "\n=== TASK (0, 2) kind=alloc func_id=none ===\nFANIN 1\n  <- (0, 1)\nFANOUT 0\n"
            "\n=== TASK (0, 5) kind=dummy func_id=none ===\nFANIN 0\nFANOUT 0\n"
            "\n=== TASK (1, 7) kind=alloc func_id=none ===\nFANIN 0\nFANOUT 0\n");
  // Without the sidecar the same graph says perf_sidecar: no (no kernel slot anywhere).
  EXPECT_TRUE(Contains(Report(R"({"tasks":[{"task_id":5,"kernel_ids":[-1,-1,-1]}],
    "edges":[{"pred":1,"succ":2}]})"), "  perf_sidecar: no\n"));
}

}  // namespace
}  // namespace depgraph
