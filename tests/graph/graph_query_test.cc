// graph_query.h: task references, neighbours, bounded reach, shortest paths,
// grep.
#include "depgraph/graph/graph_query.h"

#include <gtest/gtest.h>

#include "test_util.h"

namespace depgraph {
namespace {

using testing::EdgesJson;
using testing::LoadText;

// Node indices of ids, for readable expectations.
std::vector<uint32_t> Nodes(const DepGraph& graph, std::initializer_list<TaskId> ids) {
  std::vector<uint32_t> nodes;
  for (TaskId id : ids) nodes.push_back(static_cast<uint32_t>(graph.FindNode(id)));
  return nodes;
}

TEST(GraphQuery, ParsesDecimalAndRingLocalReferences) {
  TaskId id = 0;
  EXPECT_TRUE(ParseTaskRef("4294967298", &id, nullptr));
  EXPECT_EQ(id, 4294967298u);
  EXPECT_TRUE(ParseTaskRef("(1, 2)", &id, nullptr));
  EXPECT_EQ(id, (1ull << 32) | 2);
  EXPECT_TRUE(ParseTaskRef(" (3,4) ", &id, nullptr));
  EXPECT_EQ(id, (3ull << 32) | 4);
  EXPECT_TRUE(ParseTaskRef("18446744073709551615", &id, nullptr));
  EXPECT_EQ(id, UINT64_MAX);
  std::string err;
  for (const char* bad : {"", "-1", "x", "1x", "(1)", "(1, 2", "(256, 0)", "(0, 4294967296)",
                          "18446744073709551616", "(1, 2) 3"}) {
    EXPECT_FALSE(ParseTaskRef(bad, &id, &err)) << bad;
    EXPECT_NE(err.find("is not a task id"), std::string::npos) << bad;
  }
}

TEST(GraphQuery, NeighboursAreUniqueAndSortedByNumericId) {
  // 10 -> 2 twice (two rows, one pair), 9 -> 2, 2 -> 30, 2 -> 4.
  DepGraph graph = LoadText(EdgesJson({{10, 2, "tensormap"},
                                       {10, 2, "creator"},
                                       {9, 2, "explicit"},
                                       {2, 30, "tensormap"},
                                       {2, 4, "tensormap"}}));
  const uint32_t two = static_cast<uint32_t>(graph.FindNode(2));
  EXPECT_EQ(Predecessors(graph, two), Nodes(graph, {9, 10}));
  EXPECT_EQ(Successors(graph, two), Nodes(graph, {4, 30}));
  EXPECT_TRUE(Predecessors(graph, Nodes(graph, {9})[0]).empty());
}

TEST(GraphQuery, ReachStopsAtTheDepthAndSortsByDepthThenId) {
  // 1 -> 2 -> 3 -> 4, 1 -> 5 -> 4, 6 -> 3.
  DepGraph graph = LoadText(EdgesJson({{1, 2, "tensormap"},
                                       {2, 3, "tensormap"},
                                       {3, 4, "tensormap"},
                                       {1, 5, "tensormap"},
                                       {5, 4, "tensormap"},
                                       {6, 3, "tensormap"}}));
  const uint32_t one = Nodes(graph, {1})[0], four = Nodes(graph, {4})[0];
  std::vector<ReachedNode> down = Reach(graph, one, Direction::kDescendants, 2);
  ASSERT_EQ(down.size(), 4u);
  EXPECT_EQ(down[0].node, Nodes(graph, {2})[0]);
  EXPECT_EQ(down[1].node, Nodes(graph, {5})[0]);
  EXPECT_EQ(down[2].node, Nodes(graph, {3})[0]);  // depth 2 via 2
  EXPECT_EQ(down[3].node, four);                  // depth 2 via 5, not 3 via 2
  EXPECT_EQ(down[3].depth, 2u);
  EXPECT_EQ(Reach(graph, one, Direction::kDescendants, 1).size(), 2u);
  std::vector<ReachedNode> up = Reach(graph, four, Direction::kAncestors, 0);  // unlimited
  ASSERT_EQ(up.size(), 5u);
  EXPECT_EQ(up.back().node, Nodes(graph, {6})[0]);
  EXPECT_EQ(up.back().depth, 2u);
}

TEST(GraphQuery, ShortestPathIsShortestAndDeterministic) {
  // Two shortest routes 1 -> {3, 2} -> 4 and a long one 1 -> 5 -> 6 -> 7 -> 4.
  DepGraph graph = LoadText(EdgesJson({{1, 3, "tensormap"},
                                       {1, 2, "tensormap"},
                                       {3, 4, "tensormap"},
                                       {2, 4, "tensormap"},
                                       {1, 5, "tensormap"},
                                       {5, 6, "tensormap"},
                                       {6, 7, "tensormap"},
                                       {7, 4, "tensormap"}}));
  std::vector<uint32_t> path;
  ASSERT_TRUE(ShortestPath(graph, Nodes(graph, {1})[0], Nodes(graph, {4})[0], &path));
  EXPECT_EQ(path, Nodes(graph, {1, 2, 4}));  // the lower id wins the tie
  ASSERT_TRUE(ShortestPath(graph, Nodes(graph, {6})[0], Nodes(graph, {6})[0], &path));
  EXPECT_EQ(path, Nodes(graph, {6}));
  EXPECT_FALSE(ShortestPath(graph, Nodes(graph, {4})[0], Nodes(graph, {1})[0], &path));
  EXPECT_TRUE(path.empty());
}

TEST(GraphQuery, AllocationsThatAreOnlyEdgeEndpointsAreTasks) {
  // 7 is an allocation: it appears only as a pred, never in tasks[].
  DepGraph graph = LoadText(EdgesJson({{7, 8, "creator"}, {8, 9, "tensormap"}}));
  QueryTask task;
  ASSERT_TRUE(FindQueryTask(graph, 7, &task));
  ASSERT_GE(task.node, 0);
  std::vector<uint32_t> path;
  ASSERT_TRUE(ShortestPath(graph, static_cast<uint32_t>(task.node), Nodes(graph, {9})[0], &path));
  EXPECT_EQ(path, Nodes(graph, {7, 8, 9}));
  EXPECT_FALSE(FindQueryTask(graph, 10, &task));
}

TEST(GraphQuery, IsolatedDummiesAreFoundWithoutANode) {
  DepGraph graph = LoadText(
      R"({"tasks": [{"task_id": "5", "kernel_ids": [-1, -1, -1]}], "tensors": [], "edges": []})");
  QueryTask task;
  ASSERT_TRUE(FindQueryTask(graph, 5, &task));
  EXPECT_EQ(task.node, -1);
}

TEST(GraphQuery, GrepMatchesKernelNamesCaseInsensitively) {
  std::vector<TaskLabel> labels(4);
  labels[0].func_name = "QK";
  labels[1].func_name = "SF + PV";
  labels[2].func_name = "qk_norm";
  EXPECT_EQ(GrepTasks(labels, "qk"), (std::vector<uint32_t>{0, 2}));
  EXPECT_EQ(GrepTasks(labels, "pv"), (std::vector<uint32_t>{1}));
  EXPECT_TRUE(GrepTasks(labels, "softmax").empty());
}

}  // namespace
}  // namespace depgraph
