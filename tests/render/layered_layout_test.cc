#include "depgraph/render/layered_layout.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <random>
#include <string>

#include "depgraph/graph/load_deps.h"

#include "test_util.h"

namespace depgraph {
namespace {

using testing::EdgesJson;
using testing::LoadText;
using testing::PairOf;

// A deps.json with `edges` as (pred, succ) ids and extra tasks (with an active kernel) that
// have no edges at all.
std::string Json(const std::vector<std::pair<uint64_t, uint64_t>>& edges,
                 const std::vector<uint64_t>& lone_tasks = {}) {
  std::string out = "{\"tasks\":[";
  for (size_t i = 0; i < lone_tasks.size(); ++i) {
    if (i) out += ",";
    out += "{\"task_id\":\"" + std::to_string(lone_tasks[i]) + "\",\"kernel_ids\":[0,-1,-1]}";
  }
  out += "],\"edges\":[";
  for (size_t i = 0; i < edges.size(); ++i) {
    if (i) out += ",";
    out += "{\"pred\":\"" + std::to_string(edges[i].first) + "\",\"succ\":\"" +
           std::to_string(edges[i].second) + "\",\"arg\":-1,\"source\":\"tensormap\"}";
  }
  return out + "]}";
}

// Every structural property a layout must have, whatever the graph.
void ExpectWellFormed(const DepGraph& g, const LayeredLayout& l, const LayeredLayoutOptions& o) {
  const size_t n = g.nodes.size();
  ASSERT_EQ(l.layer.size(), n);
  ASSERT_EQ(l.order.size(), n);
  ASSERT_EQ(l.x.size(), n);
  ASSERT_EQ(l.y.size(), n);
  if (n == 0) {
    EXPECT_EQ(l.num_layers, 0u);
    EXPECT_EQ(l.width, 0.0f);
    return;
  }
  // Per layer: `order` is a permutation of 0..size-1 and y grows with it, node_gap apart.
  std::vector<std::vector<uint32_t>> by_layer(l.num_layers);
  for (uint32_t v = 0; v < n; ++v) {
    ASSERT_LT(l.layer[v], l.num_layers);
    by_layer[l.layer[v]].push_back(v);
  }
  uint32_t widest = 0;
  for (uint32_t layer = 0; layer < l.num_layers; ++layer) {
    std::vector<uint32_t>& nodes = by_layer[layer];
    EXPECT_FALSE(nodes.empty()) << "empty layer " << layer;
    widest = std::max<uint32_t>(widest, static_cast<uint32_t>(nodes.size()));
    std::sort(nodes.begin(), nodes.end(),
              [&](uint32_t a, uint32_t b) { return l.order[a] < l.order[b]; });
    for (size_t i = 0; i < nodes.size(); ++i) {
      ASSERT_EQ(l.order[nodes[i]], i) << "layer " << layer << " order is not a permutation";
      EXPECT_FLOAT_EQ(l.x[nodes[i]], layer * o.layer_gap + o.layer_gap / 2);
      if (i > 0) {
        EXPECT_GE(l.y[nodes[i]] - l.y[nodes[i - 1]], o.node_gap - 1e-3f) << "layer " << layer;
      }
    }
  }
  EXPECT_EQ(l.max_layer_size, widest);
  for (uint32_t v = 0; v < n; ++v) {
    EXPECT_GE(l.x[v], 0.0f);
    EXPECT_GE(l.y[v], 0.0f);
    EXPECT_LE(l.x[v] + o.layer_gap / 2, l.width + 1e-3f);
    EXPECT_LE(l.y[v] + o.node_gap / 2, l.height + 1e-3f);
  }
  EXPECT_FLOAT_EQ(l.width, l.num_layers * o.layer_gap);
  // Every pair that takes part and is not reversed goes from a lower layer to a higher one;
  // a reversed one (not a self loop) from a higher to a lower one.
  std::vector<uint8_t> rev(g.pairs.size(), 0);
  for (uint32_t p : l.reversed_pairs) rev.at(p) = 1;
  EXPECT_TRUE(std::is_sorted(l.reversed_pairs.begin(), l.reversed_pairs.end()));
  for (size_t p = 0; p < g.pairs.size(); ++p) {
    if (o.include && !o.include->empty() && !(*o.include)[p]) {
      EXPECT_FALSE(rev[p]) << "excluded pair " << p << " reported reversed";
      continue;
    }
    const Pair& pr = g.pairs[p];
    if (pr.pred == pr.succ) {
      EXPECT_TRUE(rev[p]) << "self loop " << p << " not reported";
    } else if (rev[p]) {
      EXPECT_GT(l.layer[pr.pred], l.layer[pr.succ]) << "reversed pair " << p;
    } else {
      EXPECT_LT(l.layer[pr.pred], l.layer[pr.succ]) << "pair " << p;
    }
  }
}

// Crossings among pairs that join adjacent layers, by brute force over all pairs of them.
int64_t AdjacentCrossings(const DepGraph& g, const LayeredLayout& l) {
  std::vector<std::pair<uint32_t, uint32_t>> spans;  // (from node, to node), from in layer k
  for (const Pair& p : g.pairs) {
    if (l.layer[p.succ] == l.layer[p.pred] + 1) spans.emplace_back(p.pred, p.succ);
  }
  int64_t crossings = 0;
  for (size_t i = 0; i < spans.size(); ++i) {
    for (size_t j = i + 1; j < spans.size(); ++j) {
      const auto [a, b] = spans[i];
      const auto [c, d] = spans[j];
      if (l.layer[a] != l.layer[c]) continue;
      const int64_t top = int64_t{l.order[a]} - l.order[c];
      const int64_t bottom = int64_t{l.order[b]} - l.order[d];
      if ((top < 0 && bottom > 0) || (top > 0 && bottom < 0)) ++crossings;
    }
  }
  return crossings;
}

LayeredLayout Layout(const DepGraph& g, const LayeredLayoutOptions& o = {}) {
  LayeredLayout l = ComputeLayeredLayout(g, o);
  ExpectWellFormed(g, l, o);
  return l;
}

TEST(LayeredLayout, EmptyGraph) {
  DepGraph g = LoadText("{\"edges\":[]}");
  LayeredLayout l = Layout(g);
  EXPECT_EQ(l.num_layers, 0u);
  EXPECT_EQ(l.height, 0.0f);
  EXPECT_TRUE(l.reversed_pairs.empty());
}

TEST(LayeredLayout, SingleNode) {
  DepGraph g = LoadText(Json({}, {7}));
  ASSERT_EQ(g.nodes.size(), 1u);
  LayeredLayoutOptions o;
  LayeredLayout l = Layout(g, o);
  EXPECT_EQ(l.num_layers, 1u);
  EXPECT_EQ(l.max_layer_size, 1u);
  EXPECT_FLOAT_EQ(l.x[0], o.layer_gap / 2);
  EXPECT_FLOAT_EQ(l.y[0], o.node_gap / 2);
  EXPECT_FLOAT_EQ(l.width, o.layer_gap);
  EXPECT_FLOAT_EQ(l.height, o.node_gap);
}

TEST(LayeredLayout, ChainGoesLeftToRight) {
  DepGraph g = LoadText(Json({{1, 2}, {2, 3}, {3, 4}}));
  LayeredLayout l = Layout(g);
  EXPECT_EQ(l.layer, (std::vector<uint32_t>{0, 1, 2, 3}));
  EXPECT_EQ(l.num_layers, 4u);
  // One node per layer: all on one line.
  for (float y : l.y) EXPECT_FLOAT_EQ(y, l.y[0]);
}

TEST(LayeredLayout, LongestPathLayers) {
  // 1->2->3->4 and the shortcut 1->4: 4 is on layer 3, not 1.
  DepGraph g = LoadText(Json({{1, 2}, {2, 3}, {3, 4}, {1, 4}, {2, 5}}));
  LayeredLayout l = Layout(g);
  EXPECT_EQ(l.layer[g.FindNode(4)], 3u);
  EXPECT_EQ(l.layer[g.FindNode(5)], 2u);
}

TEST(LayeredLayout, SourcesArePulledNextToTheirEarliestSuccessor) {
  // 10 and 11 are pure sources (allocation-like) feeding the end of a chain.
  DepGraph g = LoadText(Json({{1, 2}, {2, 3}, {3, 4}, {10, 4}, {11, 3}, {11, 4}}));
  LayeredLayout l = Layout(g);
  EXPECT_EQ(l.layer[g.FindNode(1)], 0u);
  EXPECT_EQ(l.layer[g.FindNode(10)], 2u);  // just before 4 (layer 3)
  EXPECT_EQ(l.layer[g.FindNode(11)], 1u);  // just before 3 (layer 2), its earliest successor
}

TEST(LayeredLayout, SideBranchesSitJustBeforeTheirFirstConsumer) {
  // The spine 1->2->3->4->5; a side branch 6->7 feeds only 5, and the blocks of an attention
  // request (20->21->22 feeding the accumulation 30, 23->24->25 feeding 31, 30->31) feed
  // a chain one after another. Longest path alone puts 6, 20 and 23 in layer 0.
  DepGraph g = LoadText(Json({{1, 2}, {2, 3}, {3, 4}, {4, 5}, {6, 7}, {7, 5},
                              {20, 21}, {21, 22}, {22, 30}, {23, 24}, {24, 25}, {25, 31},
                              {30, 31}}));
  LayeredLayout l = Layout(g);
  auto layer = [&](TaskId id) { return l.layer[g.FindNode(id)]; };
  EXPECT_EQ(layer(5), 4u);
  EXPECT_EQ(layer(7), 3u);
  EXPECT_EQ(layer(6), 2u);
  EXPECT_EQ(layer(30), 3u);
  EXPECT_EQ(layer(31), 4u);
  EXPECT_EQ((std::vector<uint32_t>{layer(20), layer(21), layer(22)}),
            (std::vector<uint32_t>{0, 1, 2}));
  EXPECT_EQ((std::vector<uint32_t>{layer(23), layer(24), layer(25)}),
            (std::vector<uint32_t>{1, 2, 3}));  // the second block beside the second step
}

TEST(LayeredLayout, IsolatedNodesArePlaced) {
  DepGraph g = LoadText(Json({{1, 2}, {2, 3}}, {5, 6, 7}));
  ASSERT_EQ(g.nodes.size(), 6u);
  LayeredLayout l = Layout(g);
  for (uint64_t id : {5, 6, 7}) EXPECT_EQ(l.layer[g.FindNode(id)], 0u) << id;
  EXPECT_EQ(l.max_layer_size, 4u);
}

TEST(LayeredLayout, CyclesAreBrokenAndReported) {
  // A 3-cycle 1->2->3->1 with a tail 3->4, and a self loop on 5 which also feeds 4.
  DepGraph g = LoadText(Json({{1, 2}, {2, 3}, {3, 1}, {3, 4}, {5, 5}, {5, 4}}));
  LayeredLayout l = Layout(g);
  const int64_t back = PairOf(g, 3, 1);
  const int64_t self = PairOf(g, 5, 5);
  ASSERT_GE(back, 0);
  ASSERT_GE(self, 0);
  std::vector<uint32_t> expected = {static_cast<uint32_t>(back), static_cast<uint32_t>(self)};
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(l.reversed_pairs, expected);
  EXPECT_EQ(l.layer[g.FindNode(1)], 0u);
  EXPECT_EQ(l.layer[g.FindNode(3)], 2u);
  EXPECT_EQ(l.layer[g.FindNode(4)], 3u);
}

TEST(LayeredLayout, DagHasNoReversedPairs) {
  DepGraph g = LoadText(Json({{1, 3}, {2, 3}, {3, 4}, {1, 4}}));
  EXPECT_TRUE(Layout(g).reversed_pairs.empty());
}

TEST(LayeredLayout, IncludeMaskIsRespected) {
  // Without 2->3 (excluded), 3 is a source of its own; the excluded cycle pair 3->1 is not
  // reversed because it does not take part.
  DepGraph g = LoadText(Json({{1, 2}, {2, 3}, {3, 1}, {3, 4}}));
  std::vector<uint8_t> include(g.pairs.size(), 1);
  include[PairOf(g, 2, 3)] = 0;
  include[PairOf(g, 3, 1)] = 0;
  LayeredLayoutOptions o;
  o.include = &include;
  LayeredLayout l = Layout(g, o);
  EXPECT_TRUE(l.reversed_pairs.empty());
  EXPECT_EQ(l.layer[g.FindNode(2)], 1u);
  EXPECT_EQ(l.layer[g.FindNode(4)], 1u);
  EXPECT_EQ(l.num_layers, 2u);
  // All pairs included: the cycle is back.
  std::fill(include.begin(), include.end(), 1);
  EXPECT_EQ(Layout(g, o).reversed_pairs.size(), 1u);
}

TEST(LayeredLayout, SweepsReduceCrossings) {
  // Two layers wired in reverse by index (1->13, 2->12, 3->11) plus a crossing pair into a
  // third layer: index order crosses everywhere, barycentre order nowhere.
  DepGraph g = LoadText(Json({{1, 13}, {2, 12}, {3, 11}, {11, 22}, {12, 21}, {13, 20}}));
  LayeredLayoutOptions none;
  none.sweeps = 0;
  LayeredLayout before = Layout(g, none);
  LayeredLayout after = Layout(g);
  const int64_t crossings_before = AdjacentCrossings(g, before);
  const int64_t crossings_after = AdjacentCrossings(g, after);
  EXPECT_EQ(crossings_before, 6);
  EXPECT_LT(crossings_after, crossings_before);
  EXPECT_EQ(crossings_after, 0);
}

TEST(LayeredLayout, NarrowLayerSitsNextToItsNeighbours) {
  // A wide fan: 1 -> {10..19}, the 10 nodes each to 30; 30 -> 40. Node 1, 30 and 40 belong
  // in the middle of the fan, not at its top.
  std::vector<std::pair<uint64_t, uint64_t>> edges;
  for (uint64_t k = 10; k < 20; ++k) {
    edges.emplace_back(1, k);
    edges.emplace_back(k, 30);
  }
  edges.emplace_back(30, 40);
  DepGraph g = LoadText(Json(edges));
  LayeredLayout l = Layout(g);
  float lo = 1e30f, hi = -1e30f;
  for (uint64_t k = 10; k < 20; ++k) {
    lo = std::min(lo, l.y[g.FindNode(k)]);
    hi = std::max(hi, l.y[g.FindNode(k)]);
  }
  const float middle = (lo + hi) / 2;
  for (uint64_t id : {1, 30, 40}) EXPECT_NEAR(l.y[g.FindNode(id)], middle, 1.0f) << id;
}

// A random graph with edges forward in id order (a DAG) plus, if `cycles`, some backward.
DepGraph RandomGraph(uint64_t seed, int n, bool cycles) {
  std::mt19937_64 rng(seed);
  std::vector<std::pair<uint64_t, uint64_t>> edges;
  for (int v = 1; v < n; ++v) {
    const int k = static_cast<int>(rng() % 4);
    for (int i = 0; i < k; ++i) {
      const uint64_t u = rng() % v;
      edges.emplace_back(u, v);
      if (cycles && rng() % 10 == 0) edges.emplace_back(v, u);
    }
  }
  std::vector<uint64_t> lone;
  for (int i = 0; i < 5; ++i) lone.push_back(static_cast<uint64_t>(n + i));
  return LoadText(Json(edges, lone));
}

TEST(LayeredLayout, RandomGraphsAreWellFormed) {
  for (uint64_t seed = 1; seed <= 30; ++seed) {
    DepGraph g = RandomGraph(seed, 20 + static_cast<int>(seed * 7), seed % 2 == 0);
    LayeredLayoutOptions o;
    o.sweeps = static_cast<int>(seed % 5);
    LayeredLayout l = Layout(g, o);
    if (seed % 2 == 1) {
      EXPECT_TRUE(l.reversed_pairs.empty()) << seed;
    }
  }
}

TEST(LayeredLayout, RealCapturesAreWellFormedAndSweepsDoNotAddCrossings) {
  namespace fs = std::filesystem;
  int captures = 0;
  for (const auto& entry : fs::recursive_directory_iterator(testing::SourceDir() + "/data/real")) {
    if (entry.path().filename() != "deps.json") continue;
    DepGraph g;
    std::string err;
    ASSERT_TRUE(LoadDepsJson(entry.path().string(), &g, &err)) << err;
    ++captures;
    LayeredLayoutOptions none;
    none.sweeps = 0;
    const int64_t before = AdjacentCrossings(g, Layout(g, none));
    const int64_t after = AdjacentCrossings(g, Layout(g));
    EXPECT_LE(after, before) << entry.path();
    ::testing::Test::RecordProperty(entry.path().parent_path().filename().string() + "_crossings",
                                    std::to_string(before) + "->" + std::to_string(after));
  }
  EXPECT_GE(captures, 17);
}

TEST(LayeredLayout, SweepsReduceCrossingsOnRandomGraphs) {
  // Barycentre sweeps are a heuristic (one layer may get worse), but over many graphs the
  // total must drop clearly.
  int64_t before = 0, after = 0;
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    DepGraph g = RandomGraph(seed, 200, false);
    LayeredLayoutOptions none;
    none.sweeps = 0;
    before += AdjacentCrossings(g, Layout(g, none));
    after += AdjacentCrossings(g, Layout(g));
  }
  ::testing::Test::RecordProperty("crossings", std::to_string(before) + "->" + std::to_string(after));
  EXPECT_LT(after * 10, before * 8) << before << " -> " << after;
}

TEST(LayeredLayout, Deterministic) {
  DepGraph g = RandomGraph(99, 400, true);
  LayeredLayout a = Layout(g);
  LayeredLayout b = Layout(g);
  EXPECT_EQ(a.layer, b.layer);
  EXPECT_EQ(a.order, b.order);
  EXPECT_EQ(a.x, b.x);
  EXPECT_EQ(a.y, b.y);
  EXPECT_EQ(a.reversed_pairs, b.reversed_pairs);
  EXPECT_EQ(a.width, b.width);
  EXPECT_EQ(a.height, b.height);
}

}  // namespace
}  // namespace depgraph
