#include "depgraph/graph.h"

#include <gtest/gtest.h>

#include "test_util.h"

namespace depgraph {
namespace {

using testing::LoadText;

// Edges 1 -> 3 -> 5 and 1 -> 5, task 4 an isolated dummy (so no node), task 5 a kernel.
constexpr const char* kGraph = R"({"tasks":[{"task_id":4,"kernel_ids":[-1,-1,-1]},
  {"task_id":5,"kernel_ids":[0,-1,-1]}],
  "edges":[{"pred":1,"succ":3},{"pred":3,"succ":5},{"pred":1,"succ":5},{"pred":3,"succ":5}]})";

TEST(Graph, AddIsolatedNodesKeepsPairsAndRowsOnTheirTasks) {
  DepGraph g = LoadText(kGraph);
  ASSERT_EQ(g.nodes, (std::vector<TaskId>{1, 3, 5}));
  AddIsolatedNodes(&g, {10, 4, 3, 2, 4, 0});
  EXPECT_EQ(g.nodes, (std::vector<TaskId>{0, 1, 2, 3, 4, 5, 10}));
  // Pairs name the same tasks as before, still sorted; rows still point at their pairs.
  ASSERT_EQ(g.pairs.size(), 3u);
  auto ids = [&](const Pair& p) { return std::make_pair(g.nodes[p.pred], g.nodes[p.succ]); };
  EXPECT_EQ(ids(g.pairs[0]), std::make_pair(TaskId{1}, TaskId{3}));
  EXPECT_EQ(ids(g.pairs[1]), std::make_pair(TaskId{1}, TaskId{5}));
  EXPECT_EQ(ids(g.pairs[2]), std::make_pair(TaskId{3}, TaskId{5}));
  EXPECT_EQ(ids(g.pairs[g.rows[1].pair]), std::make_pair(TaskId{3}, TaskId{5}));
  EXPECT_EQ(ids(g.pairs[g.rows[2].pair]), std::make_pair(TaskId{1}, TaskId{5}));
  EXPECT_EQ(g.FindPair(1, 3), 0);
  // The dummy task 4 is now a node with its task; 0, 2 and 10 are alloc nodes.
  ASSERT_NE(g.TaskOfNode(4), nullptr);
  EXPECT_EQ(g.TaskOfNode(4)->id, 4u);
  EXPECT_EQ(g.TaskOfNode(5)->id, 5u);
  EXPECT_EQ(g.TaskOfNode(0), nullptr);
  EXPECT_EQ(g.TaskOfNode(2), nullptr);
  EXPECT_EQ(g.TaskOfNode(6), nullptr);
  // The CSR graph covers every node.
  EXPECT_EQ(boost::num_vertices(g.graph), 7u);
  EXPECT_EQ(boost::num_edges(g.graph), 3u);
  EXPECT_EQ(boost::out_degree(3u, g.graph), 1u);
  EXPECT_EQ(boost::in_degree(5u, g.graph), 2u);
  EXPECT_EQ(boost::out_degree(4u, g.graph), 0u);
}

TEST(Graph, AddIsolatedNodesOfKnownNodesChangesNothing) {
  DepGraph g = LoadText(kGraph);
  AddIsolatedNodes(&g, {1, 5});
  EXPECT_EQ(g.nodes, (std::vector<TaskId>{1, 3, 5}));
  EXPECT_EQ(g.pairs[0].succ, 1u);
  EXPECT_FALSE(g.UsesRings());
  AddIsolatedNodes(&g, {(TaskId{1} << 32) | 7});  // a ring-1 id switches the display
  EXPECT_EQ(g.Display(), IdDisplay::kRing);
}

}  // namespace
}  // namespace depgraph
