#include "depgraph/graph/graph_metrics.h"

#include <gtest/gtest.h>

#include "test_util.h"

namespace depgraph {
namespace {

using testing::EdgesJson;
using testing::LoadText;

TEST(GraphMetrics, DepthAndWidth) {
  DepGraph g = LoadText(EdgesJson({{1, 2, "x"}, {1, 3, "x"}, {1, 4, "x"}, {2, 5, "x"},
                                   {3, 5, "x"}, {5, 6, "x"}, {1, 6, "x"}}));
  GraphMetrics m = ComputeGraphMetrics(g);
  EXPECT_TRUE(m.is_dag);
  EXPECT_EQ(m.depth, 3u);
  EXPECT_EQ(m.width, 3u);  // 2, 3, 4 on level 1
}

TEST(GraphMetrics, RespectsSelectionAndCycles) {
  DepGraph g = LoadText(EdgesJson({{1, 2, "x"}, {2, 3, "x"}}));
  std::vector<uint8_t> only_first(g.pairs.size(), 0);
  only_first[testing::PairOf(g, 1, 2)] = 1;
  EXPECT_EQ(ComputeGraphMetrics(g, only_first).depth, 1u);
  EXPECT_EQ(ComputeGraphMetrics(LoadText("{}")).depth, 0u);
  EXPECT_FALSE(ComputeGraphMetrics(LoadText(EdgesJson({{1, 1, "x"}}))).is_dag);
}

}  // namespace
}  // namespace depgraph
