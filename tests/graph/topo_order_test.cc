#include "depgraph/graph/topo_order.h"

#include <gtest/gtest.h>

#include "test_util.h"

namespace depgraph {
namespace {

using testing::EdgesJson;
using testing::LoadText;

std::vector<TaskId> CycleIds(const DepGraph& g, const std::vector<uint32_t>& cycle) {
  std::vector<TaskId> ids;
  for (uint32_t n : cycle) ids.push_back(g.nodes[n]);
  return ids;
}

TEST(TopoOrder, OrdersADag) {
  DepGraph g = LoadText(EdgesJson({{3, 1, "x"}, {1, 2, "x"}, {3, 2, "x"}}));
  std::vector<uint32_t> order, cycle;
  ASSERT_TRUE(TopologicalOrder(g, &order, &cycle));
  EXPECT_EQ(CycleIds(g, order), (std::vector<TaskId>{3, 1, 2}));
  EXPECT_TRUE(cycle.empty());
}

TEST(TopoOrder, ReturnsAnActualCycle) {
  DepGraph g = LoadText(EdgesJson({{1, 2, "x"}, {2, 3, "x"}, {3, 7, "x"}, {7, 3, "x"}, {0, 1, "x"}}));
  std::vector<uint32_t> order, cycle;
  ASSERT_FALSE(TopologicalOrder(g, &order, &cycle));
  std::vector<TaskId> ids = CycleIds(g, cycle);
  ASSERT_EQ(ids.size(), 3u);
  EXPECT_EQ(ids.front(), ids.back());
  // Every consecutive pair is an edge of the graph.
  for (size_t i = 0; i + 1 < ids.size(); ++i) {
    EXPECT_GE(testing::PairOf(g, ids[i], ids[i + 1]), 0) << ids[i] << "->" << ids[i + 1];
  }
}

TEST(TopoOrder, SelfLoopIsACycle) {
  DepGraph g = LoadText(EdgesJson({{1, 2, "x"}, {2, 2, "x"}}));
  std::vector<uint32_t> order, cycle;
  ASSERT_FALSE(TopologicalOrder(g, &order, &cycle));
  EXPECT_EQ(CycleIds(g, cycle), (std::vector<TaskId>{2, 2}));
}

}  // namespace
}  // namespace depgraph
