// Tests for reachability queries without a transitive closure (reachability.h).
#include "depgraph/graph/reachability.h"

#include <gtest/gtest.h>

#include <random>

#include "depgraph/graph/graph_metrics.h"
#include "test_util.h"

namespace depgraph {
namespace {

using testing::EdgesJson;
using testing::LoadText;

// closure[u][v] = 1 iff u == v or a path u -> v exists (DFS from every node).
std::vector<std::vector<uint8_t>> BruteClosure(const DepGraph& g) {
  const size_t n = g.nodes.size();
  std::vector<std::vector<uint32_t>> succ(n);
  for (const Pair& p : g.pairs) succ[p.pred].push_back(p.succ);
  std::vector<std::vector<uint8_t>> reach(n, std::vector<uint8_t>(n, 0));
  for (size_t s = 0; s < n; ++s) {
    reach[s][s] = 1;
    std::vector<uint32_t> stack = {static_cast<uint32_t>(s)};
    while (!stack.empty()) {
      const uint32_t x = stack.back();
      stack.pop_back();
      for (uint32_t y : succ[x]) {
        if (!reach[s][y]) {
          reach[s][y] = 1;
          stack.push_back(y);
        }
      }
    }
  }
  return reach;
}

// A random DAG over shuffled ids (so id order is not topological): edges i -> j for i < j
// within `window` positions, each with probability 1/keep.
std::string RandomDag(std::mt19937_64& rng, int n, int window, int keep) {
  std::vector<uint64_t> ids(n);
  for (int i = 0; i < n; ++i) ids[i] = static_cast<uint64_t>(i) * 7 + rng() % 5;
  std::shuffle(ids.begin(), ids.end(), rng);
  std::string json = "{\"edges\":[";
  bool first = true;
  for (int i = 0; i < n; ++i) {
    for (int j = i + 1; j < n && j <= i + window; ++j) {
      if (rng() % keep != 0) continue;
      json += std::string(first ? "" : ",") + "{\"pred\":" + std::to_string(ids[i]) +
              ",\"succ\":" + std::to_string(ids[j]) + "}";
      first = false;
    }
  }
  return json + "]}";
}

TEST(Reachability, MatchesBruteForceOnRandomDags) {
  std::mt19937_64 rng(2024);
  uint64_t searches = 0, queries = 0;
  for (int trial = 0; trial < 300; ++trial) {
    const int n = 2 + static_cast<int>(rng() % 60);
    const int window = 1 + static_cast<int>(rng() % n);
    const int keep = 1 + static_cast<int>(rng() % 6);
    DepGraph g = LoadText(RandomDag(rng, n, window, keep));
    ReachabilityIndex index;
    ASSERT_TRUE(index.Build(g));
    const auto closure = BruteClosure(g);
    for (uint32_t u = 0; u < g.nodes.size(); ++u) {
      for (uint32_t v = 0; v < g.nodes.size(); ++v) {
        ASSERT_EQ(index.Reaches(u, v), closure[u][v] != 0)
            << "trial " << trial << ": " << g.nodes[u] << " -> " << g.nodes[v];
      }
    }
    searches += index.stats().by_search;
    queries += index.stats().queries;
  }
  // The labels decide most queries, but the search path is exercised too.
  EXPECT_GT(searches, 0u);
  EXPECT_LT(searches * 4, queries);
}

TEST(Reachability, StatsAccountForEveryQuery) {
  // Ten layers of five tasks, every task waiting for two of the previous layer.
  std::string json = "{\"edges\":[";
  bool first = true;
  for (int layer = 0; layer + 1 < 10; ++layer) {
    for (int i = 0; i < 5; ++i) {
      for (int k : {i, (i + 1) % 5}) {
        json += std::string(first ? "" : ",") + "{\"pred\":" + std::to_string(layer * 5 + i) +
                ",\"succ\":" + std::to_string((layer + 1) * 5 + k) + "}";
        first = false;
      }
    }
  }
  DepGraph g = LoadText(json + "]}");
  ReachabilityIndex index;
  ASSERT_TRUE(index.Build(g));
  const auto closure = BruteClosure(g);
  for (uint32_t u = 0; u < g.nodes.size(); ++u) {
    for (uint32_t v = 0; v < g.nodes.size(); ++v) {
      ASSERT_EQ(index.Reaches(u, v), closure[u][v] != 0);
    }
  }
  const ReachabilityStats& s = index.stats();
  EXPECT_EQ(s.queries, 2500u);
  EXPECT_EQ(s.by_label + s.by_edge + s.by_chain + s.by_search + 50, s.queries);  // 50 u == v
}

TEST(Reachability, CriticalPathIsALongestPath) {
  std::mt19937_64 rng(5);
  for (int trial = 0; trial < 50; ++trial) {
    DepGraph g = LoadText(RandomDag(rng, 40, 6, 2));
    ReachabilityIndex index;
    ASSERT_TRUE(index.Build(g));
    const GraphMetrics metrics = ComputeGraphMetrics(g);
    const std::vector<uint32_t>& path = index.critical_path();
    if (g.nodes.empty()) continue;
    ASSERT_EQ(path.size(), metrics.depth + 1);
    for (size_t i = 1; i < path.size(); ++i) {
      EXPECT_GE(g.FindPair(path[i - 1], path[i]), 0);
      EXPECT_EQ(index.Level(path[i]), i);
    }
    for (size_t i = 1; i < index.order().size(); ++i) {
      EXPECT_EQ(index.Position(index.order()[i]), i);
    }
  }
}

TEST(Reachability, CycleIsReported) {
  DepGraph g = LoadText(EdgesJson({{1, 2, "x"}, {2, 3, "x"}, {3, 1, "x"}, {3, 4, "x"}}));
  ReachabilityIndex index;
  std::vector<uint32_t> cycle;
  EXPECT_FALSE(index.Build(g, &cycle));
  ASSERT_EQ(cycle.size(), 4u);
  EXPECT_EQ(cycle.front(), cycle.back());
}

TEST(Reachability, EmptyGraph) {
  DepGraph g = LoadText("{}");
  ReachabilityIndex index;
  EXPECT_TRUE(index.Build(g));
  EXPECT_TRUE(index.critical_path().empty());
}

}  // namespace
}  // namespace depgraph
