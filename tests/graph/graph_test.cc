#include "depgraph/graph/graph.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <set>
#include <string>
#include <vector>

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

// FindTensor through the range index finds exactly what a search of the whole vector finds:
// ids spread out, clustered at one end, every id equal in its high bits, and misses on
// both sides of the range; its prefetch hints take any of those ids.
TEST(Graph, TensorIndexFindsWhatTheWholeSearchFinds) {
  std::mt19937_64 rng(9);
  for (int shape = 0; shape < 4; ++shape) {
    for (size_t n : {1, 63, 64, 65, 1000, 5000}) {
      std::set<TaskId> ids;
      while (ids.size() < n) {
        const uint64_t r = rng();
        switch (shape) {
          case 0: ids.insert(r); break;                                // spread
          case 1: ids.insert(r % 3 ? r % 4096 : r); break;             // clustered low
          case 2: ids.insert(0xABCD000000000000ull | (r % 100000)); break;  // shared top
          default: ids.insert(ids.size() * 7 + 1); break;              // dense
        }
      }
      DepGraph graph;
      for (TaskId id : ids) {
        Tensor t;
        t.id = id;
        graph.tensors.push_back(t);
      }
      graph.BuildTensorIndex();
      if (n >= 64) {
        EXPECT_EQ(graph.tensor_index.starts.back(), n);
      }
      std::vector<TaskId> probes(ids.begin(), ids.end());
      for (int k = 0; k < 2000; ++k) probes.push_back(rng() % 3 ? rng() : rng() % 8192);
      probes.push_back(0);
      probes.push_back(UINT64_MAX);
      for (TaskId probe : probes) {
        // Hints only: any id is safe (the ASan build checks their reads) and changes nothing.
        graph.PrefetchTensorSlot(probe);
        graph.PrefetchTensor(probe);
        const Tensor* found = graph.FindTensor(probe);
        EXPECT_EQ(found != nullptr, ids.count(probe) == 1) << shape << " " << n << " " << probe;
        if (found) {
          EXPECT_EQ(found->id, probe);
        }
      }
    }
  }
}

TEST(Graph, TaskIndexLowerBoundFromAnyHintIsTheLowerBound) {
  // Rings of consecutive ids with holes, where the id difference from the hint is the
  // distance only sometimes: every answer is std::lower_bound's, whatever the hint.
  std::mt19937_64 rng(26);
  DepGraph graph;
  for (TaskId ring : {0ull, 1ull, 3ull}) {
    for (TaskId local = 0; local < 300; ++local) {
      if (rng() % 9 != 0) graph.task_index.push_back({(ring << 32) | local, 0});
    }
  }
  for (uint32_t i = 0; i < graph.task_index.size(); ++i) graph.task_index[i].second = i;
  const auto& index = graph.task_index;
  std::vector<TaskId> probes{0, UINT64_MAX, (TaskId{2} << 32) | 5};
  for (const auto& entry : index) {
    probes.push_back(entry.first);
    probes.push_back(entry.first + 1);
    probes.push_back(entry.first + 300);
  }
  for (size_t start = 0; start <= index.size() + 1; start += 7) {
    size_t hint = start;
    for (TaskId id : probes) {
      const size_t expected = static_cast<size_t>(
          std::lower_bound(index.begin(), index.end(), std::make_pair(id, uint32_t{0})) -
          index.begin());
      ASSERT_EQ(graph.TaskIndexLowerBound(id, &hint), expected) << id << " from " << start;
      EXPECT_LT(hint, index.size());
      if (rng() % 4 == 0) hint = rng() % (index.size() + 2);
    }
  }
}

TEST(Graph, NodesOfTasksIsEachTasksFindNode) {
  // Task 5 twice (both entries name node 5), task 4 an isolated dummy, 1 an alloc node.
  const DepGraph g = LoadText(R"({"tasks":[{"task_id":5,"kernel_ids":[0,-1,-1]},
    {"task_id":4,"kernel_ids":[-1,-1,-1]},{"task_id":3,"kernel_ids":[1,-1,-1]},
    {"task_id":5,"kernel_ids":[2,-1,-1]}],
    "edges":[{"pred":1,"succ":3},{"pred":3,"succ":5}]})");
  ASSERT_EQ(g.nodes, (std::vector<TaskId>{1, 3, 5}));
  const std::vector<uint32_t> nodes = NodesOfTasks(g);
  ASSERT_EQ(nodes.size(), g.tasks.size());
  for (size_t t = 0; t < g.tasks.size(); ++t) {
    const int64_t found = g.FindNode(g.tasks[t].id);
    EXPECT_EQ(nodes[t], found < 0 ? UINT32_MAX : static_cast<uint32_t>(found)) << "task " << t;
  }
  EXPECT_EQ(std::count(nodes.begin(), nodes.end(), 2u), 2);  // both entries of task 5
  EXPECT_EQ(std::count(nodes.begin(), nodes.end(), UINT32_MAX), 1);  // the dummy
}

TEST(Graph, PairLookupsThroughTheCsrAgreeWithTheWholeSearch) {
  std::mt19937_64 rng(37);
  for (int trial = 0; trial < 20; ++trial) {
    const int n = 2 + static_cast<int>(rng() % 40);
    std::string json = "{\"tasks\":[],\"edges\":[";
    bool first = true;
    for (int k = 0; k < 3 * n; ++k) {
      const int pred = static_cast<int>(rng() % n), succ = static_cast<int>(rng() % n);
      json += std::string(first ? "" : ",") + "{\"pred\":" + std::to_string(pred) +
              ",\"succ\":" + std::to_string(succ) + "}";
      first = false;
    }
    const DepGraph loaded = LoadText(json + "]}");
    // The same pairs without the CSR: the lookups search the whole array instead.
    DepGraph bare;
    bare.nodes = loaded.nodes;
    bare.node_task = loaded.node_task;
    bare.pairs = loaded.pairs;
    const uint32_t nodes = static_cast<uint32_t>(loaded.nodes.size());
    for (const DepGraph* g : {&loaded, static_cast<const DepGraph*>(&bare)}) {
      for (uint32_t u = 0; u <= nodes; ++u) {
        uint32_t first_of_u = 0;
        while (first_of_u < g->pairs.size() && g->pairs[first_of_u].pred < u) ++first_of_u;
        EXPECT_EQ(g->FirstPairOf(u), first_of_u) << trial << " node " << u;
        for (uint32_t v = 0; v < nodes; ++v) {
          int64_t expected = -1;
          for (size_t p = 0; p < g->pairs.size(); ++p) {
            if (g->pairs[p].pred == u && g->pairs[p].succ == v) expected = static_cast<int64_t>(p);
          }
          EXPECT_EQ(g->FindPair(u, v), expected) << trial << " " << u << " -> " << v;
        }
      }
    }
  }
}

}  // namespace
}  // namespace depgraph
