#include "depgraph/timing/wait_reduction.h"

#include <gtest/gtest.h>

#include <random>
#include <set>

#include "test_util.h"

namespace depgraph {
namespace {

using testing::LoadText;
using testing::PairOf;

struct Row {
  uint64_t pred;
  uint64_t succ;
  std::string source;
  std::string flags;  // JSON array text, or "" for no `flags` key
};

// A capture with `tasks` in this submission order (one AIV kernel each) and these rows.
std::string Capture(const std::vector<uint64_t>& tasks, const std::vector<Row>& rows,
                    const std::string& runtime = "") {
  std::string out = "{";
  if (!runtime.empty()) out += "\"runtime\":\"" + runtime + "\",";
  out += "\"tasks\":[";
  for (size_t i = 0; i < tasks.size(); ++i) {
    out += (i ? "," : "") + std::string("{\"task_id\":\"") + std::to_string(tasks[i]) +
           "\",\"kernel_ids\":[-1,0,-1]}";
  }
  out += "],\"edges\":[";
  for (size_t i = 0; i < rows.size(); ++i) {
    const Row& r = rows[i];
    out += (i ? "," : "") + std::string("{\"pred\":\"") + std::to_string(r.pred) +
           "\",\"succ\":\"" + std::to_string(r.succ) + "\",\"source\":\"" + r.source + "\"";
    if (!r.flags.empty()) out += ",\"flags\":" + r.flags;
    out += "}";
  }
  return out + "]}";
}

WaitReductionReport Simulate(const DepGraph& graph, const std::vector<uint32_t>& windows) {
  WaitReductionReport report;
  std::string err;
  EXPECT_TRUE(SimulateWaitReduction(graph, windows, &report, &err)) << err;
  return report;
}

std::string SimulateError(const std::string& doc) {
  const DepGraph graph = LoadText(doc);
  WaitReductionReport report;
  std::string err;
  EXPECT_FALSE(SimulateWaitReduction(graph, {64}, &report, &err));
  return err;
}

constexpr uint64_t kRing1 = uint64_t{1} << 32;

// Tasks 0, (1,0), (1,1), 3 in that order, all rows wait|retain by source:
// 0->b creator, b->c creator, 0->c explicit, c->3 creator, 0->3 creator.
TEST(WaitReduction, ReportOnAFourTaskChainWithTwoShortcuts) {
  const uint64_t b = kRing1, c = kRing1 + 1;
  const DepGraph g = LoadText(Capture({0, b, c, 3}, {{0, b, "creator", ""},
                                                     {b, c, "creator", ""},
                                                     {0, c, "explicit", ""},
                                                     {c, 3, "creator", ""},
                                                     {0, 3, "creator", ""}}));
  const WaitReductionReport r = Simulate(g, {2});
  // seq: 0 -> 0, b -> 1, c -> 2, 3 -> 3. The WAIT graph is the chain 0-b-c-3 plus 0->c
  // (implied by 0-b-c) and 0->3 (implied by 0-b-c-3): upper bound 2, both retain (creator or
  // explicit), and 0->c is retain-uncertain (its only row is explicit).
  EXPECT_EQ(r.tasks, 4u);
  EXPECT_EQ(r.wait_pairs, 5u);
  EXPECT_EQ(r.upper_bound, 2u);
  EXPECT_EQ(r.full_demote_to_retain, 2u);
  EXPECT_EQ(r.full_pure_drop, 0u);
  EXPECT_EQ(r.full_retain_uncertain, 1u);
  // Distances: 1, 1, 2, 1, 3 -> sorted 1 1 1 2 3: p50 = [2] = 1, p90 = [4] = 3, max 3.
  EXPECT_EQ(r.distance_p50, 1);
  EXPECT_EQ(r.distance_p90, 3);
  EXPECT_EQ(r.distance_p99, 3);
  EXPECT_EQ(r.distance_max, 3);
  // Scope = id >> 32 (no runtime key): 0->b and 0->c and c->3 cross (0 vs 1); of the
  // redundant pairs only 0->c crosses.
  EXPECT_EQ(r.scope_key, WaitScopeKey::kHighWord);
  EXPECT_EQ(r.cross_scope_wait_pairs, 3u);
  EXPECT_EQ(r.cross_scope_redundant, 1u);
  // BL = 2. R[0] = 0; R[b] = {0 at d1} = 0b01; at c: b (d1) direct bit0, via R[b] << 1 = 0b10;
  // 0 (d2 = BL) direct bit1, no via. via has bit1 -> 0->c removed, b->c kept. At 3: c (d1),
  // 0 at d3 > BL: window miss. So 1 removed, 1 window miss, no bitmap miss.
  ASSERT_EQ(r.windows.size(), 1u);
  const WaitWindowStats& w = r.windows[0];
  EXPECT_EQ(w.removed_pairs, (std::vector<uint32_t>{static_cast<uint32_t>(PairOf(g, 0, c))}));
  EXPECT_EQ(w.demote_to_retain, 1u);
  EXPECT_EQ(w.pure_drop, 0u);
  EXPECT_EQ(w.retain_uncertain, 1u);
  EXPECT_EQ(w.redundant_window_misses, 1u);
  EXPECT_EQ(w.window_miss_pairs, 1u);
  EXPECT_EQ(w.bitmap_misses, 0u);
  EXPECT_EQ(w.pairs_within_window, 4u);
  EXPECT_EQ(w.cross_scope_removed, 1u);
  EXPECT_EQ(w.cross_scope_misses, 0u);
}

TEST(WaitReduction, WiderWindowReachesTheLongShortcut) {
  // Same graph, BL = 3: at 3, 0 is at d3 = BL (direct only) and via from c (d1) is
  // R[c] << 1 where R[c] = {b d1, 0 d2} | via {0 d2} -> bits {1, 2} after the shift: bit 2 set,
  // so 0->3 goes too.
  const uint64_t b = kRing1, c = kRing1 + 1;
  const DepGraph g = LoadText(Capture({0, b, c, 3}, {{0, b, "creator", ""},
                                                     {b, c, "creator", ""},
                                                     {0, c, "explicit", ""},
                                                     {c, 3, "creator", ""},
                                                     {0, 3, "creator", ""}}));
  const WaitReductionReport r = Simulate(g, {3, 1});
  EXPECT_EQ(r.windows[0].window, 3u);
  EXPECT_EQ(r.windows[0].removed_pairs.size(), 2u);
  EXPECT_EQ(r.windows[0].redundant_window_misses, 0u);
  // BL = 1: only distance-1 pairs are tracked and none has via (d < BL never holds).
  EXPECT_EQ(r.windows[1].window, 1u);
  EXPECT_TRUE(r.windows[1].removed_pairs.empty());
  EXPECT_EQ(r.windows[1].redundant_window_misses, 2u);  // 0->c at d2, 0->3 at d3
}

TEST(WaitReduction, AllocationGoesJustBeforeItsFirstConsumer) {
  // tasks [1, 2]; 99 is only an edge predecessor: order [99, 1, 2].
  const DepGraph g = LoadText(Capture({1, 2}, {{99, 1, "creator", ""}, {1, 2, "tensormap", ""}}));
  const WaitReductionReport r = Simulate(g, {64});
  EXPECT_EQ(r.tasks, 3u);
  EXPECT_EQ(r.inserted, 1u);
  EXPECT_EQ(r.pair_class[PairOf(g, 99, 1)], kWaitPair | kWaitRetain);
  EXPECT_EQ(r.pair_class[PairOf(g, 1, 2)], kWaitPair);
  EXPECT_EQ(r.full_retain_uncertain, 0u);
  EXPECT_EQ(r.distance_max, 1);  // 99->1 and 1->2 both at distance 1
}

TEST(WaitReduction, AllocationsBeforeOneTaskKeepTheirFirstSeenOrder) {
  // tasks [5, 6]; allocations 70 (seen first) and 60 both feed 6, 80 feeds nothing placed
  // except 5: order [80, 5, 70, 60, 6], so 70->6 is at distance 2 and 60->6 at 1.
  const DepGraph g = LoadText(Capture({5, 6}, {{70, 6, "creator", ""},
                                               {60, 6, "creator", ""},
                                               {80, 5, "creator", ""},
                                               {5, 6, "tensormap", ""}}));
  const WaitReductionReport r = Simulate(g, {1});
  EXPECT_EQ(r.tasks, 5u);
  EXPECT_EQ(r.inserted, 3u);
  // distances: 70->6: 4-2 = 2, 60->6: 1, 80->5: 1, 5->6: 4-1 = 3.
  EXPECT_EQ(r.distance_max, 3);
  EXPECT_EQ(r.windows[0].window_miss_pairs, 2u);
}

TEST(WaitReduction, FlagsAreOrAccumulatedPerPair) {
  const DepGraph g = LoadText(Capture({1, 2, 3}, {{1, 2, "tensormap", "[\"retain\"]"},
                                                  {1, 2, "tensormap", "[\"wait\"]"},
                                                  {2, 3, "creator", "[\"retain\"]"}}));
  const WaitReductionReport r = Simulate(g, {64});
  EXPECT_EQ(r.pair_class[PairOf(g, 1, 2)], kWaitPair | kWaitRetain);
  EXPECT_EQ(r.pair_class[PairOf(g, 2, 3)], 0);  // retain only: not a WAIT edge
  EXPECT_EQ(r.wait_pairs, 1u);
}

TEST(WaitReduction, ExplicitRetainIsUncertainUnlessAnotherRowRetains) {
  const DepGraph g = LoadText(Capture({1, 2, 3}, {{1, 2, "explicit", ""},
                                                  {1, 3, "explicit", ""},
                                                  {1, 3, "creator", ""},
                                                  {2, 3, "tensormap", ""}}));
  const WaitReductionReport r = Simulate(g, {64});
  EXPECT_EQ(r.pair_class[PairOf(g, 1, 2)], kWaitPair | kWaitRetain | kWaitRetainUncertain);
  // 1->3 is implied by 1-2-3 and its creator row makes the retain certain.
  EXPECT_EQ(r.pair_class[PairOf(g, 1, 3)], kWaitPair | kWaitRetain | kWaitRedundant);
  EXPECT_EQ(r.windows[0].removed_pairs.size(), 1u);
  EXPECT_EQ(r.windows[0].demote_to_retain, 1u);
}

TEST(WaitReduction, TensormapShortcutIsAPureDrop) {
  const DepGraph g = LoadText(Capture(
      {1, 2, 3}, {{1, 2, "tensormap", ""}, {2, 3, "tensormap", ""}, {1, 3, "tensormap", ""}}));
  const WaitReductionReport r = Simulate(g, {2});
  EXPECT_EQ(r.upper_bound, 1u);
  EXPECT_EQ(r.full_pure_drop, 1u);
  EXPECT_EQ(r.windows[0].pure_drop, 1u);
  EXPECT_EQ(r.windows[0].demote_to_retain, 0u);
}

TEST(WaitReduction, ScopeKeyFollowsTheRuntime) {
  // Ids 2^32 (ring 1) and 2^40 + 1 (ring 0 in bits 32..39, but another high word).
  const uint64_t a = kRing1, b = (uint64_t{1} << 40) + 1;
  const std::vector<Row> rows = {{a, b, "tensormap", ""}};
  EXPECT_EQ(Simulate(LoadText(Capture({a, b}, rows)), {8}).cross_scope_wait_pairs, 1u);
  const WaitReductionReport tmr =
      Simulate(LoadText(Capture({a, b}, rows, "tensormap_and_ringbuffer")), {8});
  EXPECT_EQ(tmr.scope_key, WaitScopeKey::kRing);
  EXPECT_EQ(tmr.cross_scope_wait_pairs, 1u);  // ring 1 vs ring 0
  // host_build_graph: same space (0) and parents 1 and 256: different scopes.
  const WaitReductionReport hbg =
      Simulate(LoadText(Capture({a, b}, rows, "host_build_graph")), {8});
  EXPECT_EQ(hbg.scope_key, WaitScopeKey::kHbgScope);
  EXPECT_EQ(hbg.cross_scope_wait_pairs, 1u);
  const uint64_t c = (uint64_t{1} << 40) + kRing1;  // ring 1 again in bits 32..39
  EXPECT_EQ(
      Simulate(LoadText(Capture({a, c}, {{a, c, "tensormap", ""}}, "tensormap_and_ringbuffer")),
               {8})
          .cross_scope_wait_pairs,
      0u);
}

TEST(WaitReduction, Errors) {
  EXPECT_EQ(SimulateError(Capture({1, 2}, {{1, 2, "x", ""}}, "other_runtime")),
            "runtime: \"other_runtime\" is not a runtime whose task ids wait-sim can decode "
            "(tensormap_and_ringbuffer, host_build_graph)");
  EXPECT_EQ(SimulateError(Capture({1, 2}, {{1, 2, "tensormap", ""}, {2, 1, "tensormap", ""}})),
            "the WAIT graph has a cycle: 1 -> 2 -> 1");
  EXPECT_EQ(SimulateError(Capture({1}, {{1, 7, "tensormap", ""}})),
            "task 7 waits on a WAIT edge but has no place in the submission order (it is not in "
            "tasks[] and precedes nothing)");
  // A cycle through retain-only rows is no WAIT cycle.
  WaitReductionReport report;
  std::string err;
  const DepGraph g =
      LoadText(Capture({1, 2}, {{1, 2, "tensormap", ""}, {2, 1, "creator", "[\"retain\"]"}}));
  EXPECT_TRUE(SimulateWaitReduction(g, {4}, &report, &err)) << err;
  EXPECT_FALSE(SimulateWaitReduction(g, {0}, &report, &err));
}

// In submission order every path runs forward, so the bitmap removes exactly the redundant
// pairs whose distance is at most BL: every 5-task forward DAG (all 2^10 edge sets), BL 1..4.
TEST(WaitReduction, ExhaustiveFiveTaskForwardDags) {
  std::vector<std::pair<int, int>> all;
  for (int i = 0; i < 5; ++i) {
    for (int j = i + 1; j < 5; ++j) all.emplace_back(i, j);
  }
  for (uint32_t mask = 0; mask < (1u << all.size()); ++mask) {
    std::vector<Row> rows;
    for (size_t e = 0; e < all.size(); ++e) {
      if (mask >> e & 1)
        rows.push_back({uint64_t(all[e].first), uint64_t(all[e].second), "tensormap", ""});
    }
    const DepGraph g = LoadText(Capture({0, 1, 2, 3, 4}, rows));
    const WaitReductionReport r = Simulate(g, {1, 2, 3, 4});
    for (const WaitWindowStats& w : r.windows) {
      std::vector<uint32_t> expected;
      for (uint32_t p = 0; p < g.pairs.size(); ++p) {
        const int64_t d = static_cast<int64_t>(g.nodes[g.pairs[p].succ] - g.nodes[g.pairs[p].pred]);
        if ((r.pair_class[p] & kWaitRedundant) && d <= w.window) expected.push_back(p);
      }
      ASSERT_EQ(w.removed_pairs, expected) << "mask " << mask << " BL " << w.window;
      ASSERT_EQ(w.bitmap_misses, 0u);
    }
  }
}

// The same property on random DAGs of 60 tasks submitted in a random topological order, with
// windows that cut paths; and the upper bound against a brute-force closure.
TEST(WaitReduction, RandomDagsMatchBruteForce) {
  std::mt19937 rng(7);
  for (int round = 0; round < 60; ++round) {
    const int n = 60;
    std::vector<uint64_t> order(n);
    for (int i = 0; i < n; ++i) order[i] = 1000 + i * 7 % n;  // ids differ from positions
    std::shuffle(order.begin(), order.end(), rng);
    std::vector<Row> rows;
    std::set<std::pair<int, int>> edges;
    for (int k = 0; k < 150; ++k) {
      int i = rng() % n, j = rng() % n;
      if (i == j) continue;
      if (i > j) std::swap(i, j);
      if (j - i > 12) j = i + 1 + rng() % 12;
      if (j >= n || !edges.insert({i, j}).second) continue;
      rows.push_back({order[i], order[j], rng() % 2 ? "tensormap" : "creator", ""});
    }
    const DepGraph g = LoadText(Capture(order, rows));
    const WaitReductionReport r = Simulate(g, {3, 8});
    std::vector<int> pos(g.nodes.size());
    for (int i = 0; i < n; ++i) pos[g.FindNode(order[i])] = i;
    // reach[i][j]: j reachable from i by >= 1 edge (positions).
    std::vector<std::vector<uint8_t>> reach(n, std::vector<uint8_t>(n, 0));
    for (int i = n - 1; i >= 0; --i) {
      for (const auto& [a, b] : edges) {
        if (a != i) continue;
        reach[i][b] = 1;
        for (int k = 0; k < n; ++k) reach[i][k] |= reach[b][k];
      }
    }
    for (const WaitWindowStats& w : r.windows) {
      std::vector<uint32_t> expected;
      for (uint32_t p = 0; p < g.pairs.size(); ++p) {
        const int a = pos[g.pairs[p].pred], b = pos[g.pairs[p].succ];
        bool redundant = false;
        for (const auto& [x, y] : edges) redundant |= x == a && y != b && reach[y][b];
        ASSERT_EQ(redundant, (r.pair_class[p] & kWaitRedundant) != 0);
        if (redundant && b - a <= static_cast<int>(w.window)) expected.push_back(p);
      }
      ASSERT_EQ(w.removed_pairs, expected) << "round " << round << " BL " << w.window;
    }
  }
}

}  // namespace
}  // namespace depgraph
