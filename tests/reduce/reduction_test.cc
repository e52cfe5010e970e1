#include "depgraph/reduce/reduction.h"

#include <gtest/gtest.h>

#include <random>

#include "test_util.h"

namespace depgraph {
namespace {

using testing::EdgesJson;
using testing::LoadText;
using testing::PairOf;

std::vector<std::pair<TaskId, TaskId>> Redundant(const DepGraph& g, const StructuralReduction& r) {
  std::vector<std::pair<TaskId, TaskId>> out;
  for (size_t p = 0; p < g.pairs.size(); ++p) {
    if (r.redundant[p]) out.emplace_back(g.nodes[g.pairs[p].pred], g.nodes[g.pairs[p].succ]);
  }
  return out;
}

TEST(Reduction, KeepsNonRedundantDiamond) {  // reference test 24
  DepGraph g = LoadText(EdgesJson({{1, 2, "x"}, {1, 3, "x"}, {2, 4, "x"}, {3, 4, "x"}}));
  StructuralReduction r = ReduceStructurally(g);
  EXPECT_TRUE(r.is_dag);
  EXPECT_TRUE(Redundant(g, r).empty());
}

TEST(Reduction, DropsMultiHopShortcut) {  // reference test 25
  DepGraph g = LoadText(EdgesJson({{1, 2, "x"}, {2, 3, "x"}, {3, 4, "x"}, {1, 4, "explicit"}}));
  StructuralReduction r = ReduceStructurally(g);
  EXPECT_EQ(Redundant(g, r), (std::vector<std::pair<TaskId, TaskId>>{{1, 4}}));
  EXPECT_EQ(r.redundant_count, 1u);
}

TEST(Reduction, CycleDisablesReduction) {  // reference test 27
  DepGraph g = LoadText(EdgesJson({{1, 2, "x"}, {2, 1, "x"}, {1, 3, "x"}, {2, 3, "x"}}));
  StructuralReduction r = ReduceStructurally(g);
  EXPECT_FALSE(r.is_dag);
  EXPECT_EQ(r.redundant_count, 0u);
  EXPECT_EQ(r.cycle.size(), 3u);
}

// Brute force: (u,v) is redundant iff v is reachable from another successor of u.
std::vector<uint8_t> NaiveRedundant(const DepGraph& g) {
  const size_t n = g.nodes.size();
  std::vector<std::vector<uint8_t>> reach(n, std::vector<uint8_t>(n, 0));
  std::vector<std::vector<uint32_t>> succ(n);
  for (const Pair& p : g.pairs) succ[p.pred].push_back(p.succ);
  for (size_t s = 0; s < n; ++s) {
    std::vector<uint32_t> stack = {static_cast<uint32_t>(s)};
    while (!stack.empty()) {
      uint32_t x = stack.back();
      stack.pop_back();
      for (uint32_t y : succ[x]) {
        if (!reach[s][y]) {
          reach[s][y] = 1;
          stack.push_back(y);
        }
      }
    }
  }
  std::vector<uint8_t> out(g.pairs.size(), 0);
  for (size_t p = 0; p < g.pairs.size(); ++p) {
    for (uint32_t w : succ[g.pairs[p].pred]) {
      if (w != g.pairs[p].succ && reach[w][g.pairs[p].succ]) out[p] = 1;
    }
  }
  return out;
}

TEST(Reduction, MatchesBruteForceOnRandomDags) {
  std::mt19937_64 rng(42);
  for (int trial = 0; trial < 1500; ++trial) {
    const int n = 2 + static_cast<int>(rng() % 60);
    const int window = 1 + static_cast<int>(rng() % n);
    std::string json = "{\"edges\":[";
    bool first = true;
    // Random ids keep the topological order different from the id order.
    std::vector<uint64_t> ids(n);
    for (int i = 0; i < n; ++i) ids[i] = rng() % 1000 + 1000 * i * (rng() % 2);
    std::sort(ids.begin(), ids.end());
    ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
    std::shuffle(ids.begin(), ids.end(), rng);
    for (size_t i = 0; i < ids.size(); ++i) {
      for (size_t j = i + 1; j < ids.size() && j <= i + window; ++j) {
        if (rng() % (trial % 4 == 0 ? 9 : 3) != 0) continue;  // sparse and denser graphs
        json += std::string(first ? "" : ",") + "{\"pred\":" + std::to_string(ids[i]) +
                ",\"succ\":" + std::to_string(ids[j]) + "}";
        first = false;
      }
    }
    DepGraph g = LoadText(json + "]}");
    StructuralReduction r = ReduceStructurally(g);
    ASSERT_TRUE(r.is_dag);
    EXPECT_EQ(r.redundant, NaiveRedundant(g)) << "trial " << trial;
    for (unsigned threads : {2u, 3u, 7u}) {  // ranges split anywhere: the same set
      const StructuralReduction split = ReduceStructurally(g, threads);
      EXPECT_EQ(split.redundant, r.redundant) << "trial " << trial << ", " << threads;
      EXPECT_EQ(split.redundant_count, r.redundant_count);
    }
  }
}

TEST(Reduction, WorkedExampleRedundantSet) {
  DepGraph g = LoadText(testing::ReadFile(testing::SourceDir() +
                                          "/data/samples/worked_example/deps.json"));
  StructuralReduction r = ReduceStructurally(g);
  EXPECT_EQ(Redundant(g, r),
            (std::vector<std::pair<TaskId, TaskId>>{{0, 2}, {0, 3}, {1, 3}, {1, 4}}));
}

// Work, not time: on shapes built against searches bounded by topological windows the searches
// stay linear. Before the level bound and the early stop, a chain plus an edge from every task
// to the last made every search walk the rest of the chain (n^2 / 2 steps).
TEST(Reduction, SearchesStayLinearOnShapesBuiltAgainstWindows) {
  for (int n : {2000, 4000}) {
    std::string chain_to_last = "{\"edges\":[";
    for (int i = 0; i + 1 < n; ++i) {
      chain_to_last += (i ? "," : "") + std::string("{\"pred\":") + std::to_string(i) +
                       ",\"succ\":" + std::to_string(i + 1) + "}";
      if (i + 2 < n) {
        chain_to_last += ",{\"pred\":" + std::to_string(i) + ",\"succ\":" +
                         std::to_string(n - 1) + "}";
      }
    }
    // A ladder: a_i -> a_i+1, a_i -> b_i, b_i -> b_i+1: every pair is kept, and each search
    // is cut by the level bound after a step or two.
    std::string ladder = "{\"edges\":[";
    for (int i = 0; i < n; ++i) {
      const std::string a = std::to_string(i), b = std::to_string(n + i);
      ladder += (i ? "," : "") + std::string("{\"pred\":") + a + ",\"succ\":" + b + "}";
      if (i + 1 < n) {
        ladder += ",{\"pred\":" + a + ",\"succ\":" + std::to_string(i + 1) + "}";
        ladder += ",{\"pred\":" + b + ",\"succ\":" + std::to_string(n + i + 1) + "}";
      }
    }
    const StructuralReduction r1 = ReduceStructurally(LoadText(chain_to_last + "]}"));
    EXPECT_EQ(r1.redundant_count, static_cast<size_t>(n - 2));  // every edge to the last
    EXPECT_LE(r1.search_steps, 4u * n) << "chain to last, n = " << n;
    const StructuralReduction r2 = ReduceStructurally(LoadText(ladder + "]}"));
    EXPECT_EQ(r2.redundant_count, 0u);
    EXPECT_LE(r2.search_steps, 4u * n) << "ladder, n = " << n;
  }
}

}  // namespace
}  // namespace depgraph
