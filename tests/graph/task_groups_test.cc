// task_groups.h: repeated structure as nested series of identical instances.
#include "depgraph/graph/task_groups.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "depgraph/graph/load_deps.h"
#include "depgraph/graph/name_map.h"
#include "graph_generator.h"
#include "test_util.h"

namespace depgraph {
namespace {

// A deps.json built task by task: tasks in submit order with one AIC kernel id (-1: a dummy),
// edges by id (an id that is no task is an allocation node).
class GraphText {
 public:
  uint64_t Task(int kernel) {
    const uint64_t id = next_++;
    tasks_ += (tasks_.empty() ? "" : ",") + std::string("{\"task_id\":") + std::to_string(id) +
              ",\"kernel_ids\":[" + std::to_string(kernel) + ",-1,-1]}";
    return id;
  }
  uint64_t Alloc() { return alloc_next_++; }
  void Edge(uint64_t pred, uint64_t succ) {
    edges_ += (edges_.empty() ? "" : ",") + std::string("{\"pred\":") + std::to_string(pred) +
              ",\"succ\":" + std::to_string(succ) + ",\"source\":\"tensormap\"}";
  }
  std::string Json() const { return "{\"tasks\":[" + tasks_ + "],\"edges\":[" + edges_ + "]}"; }
  DepGraph Load() const { return testing::LoadText(Json()); }

 private:
  uint64_t next_ = 1;
  uint64_t alloc_next_ = 1000000;
  std::string tasks_, edges_;
};

// `order` is a permutation of the nodes, `position` its inverse, series ranges are inside it
// and disjoint, and `covered` is what the root series hold.
void ExpectValidGrouping(const DepGraph& graph, const TaskGrouping& g) {
  const size_t v = graph.nodes.size();
  ASSERT_EQ(g.order.size(), v);
  std::vector<uint32_t> sorted = g.order;
  std::sort(sorted.begin(), sorted.end());
  for (uint32_t i = 0; i < v; ++i) ASSERT_EQ(sorted[i], i) << "order is no permutation";
  ASSERT_EQ(g.position.size(), v);
  for (uint32_t i = 0; i < v; ++i) EXPECT_EQ(g.position[g.order[i]], i);
  uint64_t end = 0;
  for (const GroupSeries& s : g.series) {
    EXPECT_GE(s.begin, end);
    EXPECT_GE(s.count, 2u);
    end = s.begin + uint64_t{s.count} * g.kinds[s.kind].size;
    EXPECT_LE(end, v);
  }
  EXPECT_EQ(g.covered, SeriesNodes(g, g.series));
  for (const GroupKind& k : g.kinds) {
    uint64_t child_end = 0;
    for (const GroupSeries& c : k.children) {
      EXPECT_GE(c.begin, child_end);
      child_end = c.begin + uint64_t{c.count} * g.kinds[c.kind].size;
      EXPECT_LE(child_end, k.size);
    }
  }
}

TEST(TaskGroups, SubmitOrderPutsAllocationsBeforeTheirEarliestSuccessor) {
  // Tasks submitted 5, 3, 4 (not in id order); alloc 100 feeds 4 and 3, so it goes before 3;
  // 300 -> 301 touch no task: both at the end, in id order.
  const DepGraph graph = testing::LoadText(R"({"tasks":[
    {"task_id":5,"kernel_ids":[0,-1,-1]},{"task_id":3,"kernel_ids":[1,-1,-1]},
    {"task_id":4,"kernel_ids":[2,-1,-1]}],
    "edges":[{"pred":100,"succ":4},{"pred":100,"succ":3},{"pred":5,"succ":3},
             {"pred":301,"succ":300},{"pred":3,"succ":4}]})");
  std::vector<TaskId> ids;
  for (uint32_t n : SubmitOrder(graph)) ids.push_back(graph.nodes[n]);
  EXPECT_EQ(ids, (std::vector<TaskId>{5, 100, 3, 4, 300, 301}));
}

TEST(TaskGroups, IdenticalComponentsAreOneKindWithOneInstanceEach) {
  GraphText t;
  for (int c = 0; c < 5; ++c) {  // alloc -> QK -> SF -> PV
    const uint64_t a = t.Alloc(), qk = t.Task(0), sf = t.Task(1), pv = t.Task(2);
    t.Edge(a, sf);
    t.Edge(qk, sf);
    t.Edge(sf, pv);
  }
  const uint64_t odd = t.Task(7);  // one component of another shape
  t.Edge(odd, t.Task(8));
  const DepGraph graph = t.Load();
  const TaskGrouping g = ComputeTaskGroups(graph, {});
  ExpectValidGrouping(graph, g);
  ASSERT_EQ(g.series.size(), 1u);
  EXPECT_EQ(g.series[0].count, 5u);
  EXPECT_EQ(g.series[0].begin, 0u);
  const GroupKind& kind = g.kinds[g.series[0].kind];
  EXPECT_EQ(kind.size, 4u);
  EXPECT_EQ(kind.tasks, 3u);
  EXPECT_EQ(kind.label, "f0, f1, f2");
  EXPECT_EQ(kind.instances, 5u);
  EXPECT_EQ(g.covered, 20u);
  // Each instance is one component, the allocation before its SF: QK, alloc, SF, PV.
  EXPECT_EQ(graph.nodes[g.order[4]], 4u);  // the second component's QK
  EXPECT_EQ(graph.nodes[g.order[5]], 1000001u);   // its alloc
  // The odd component's two tasks are ungrouped after the series.
  EXPECT_TRUE(LocateNode(g, g.order[20]).empty());
  const std::vector<GroupPlace> chain = LocateNode(g, g.order[13]);
  ASSERT_EQ(chain.size(), 1u);
  EXPECT_EQ(chain[0].instance, 3u);
}

// prologue P, L layers M -> N -> R -> M2 (M2 the same kernel as M), each layer's M after the
// previous layer's last task, epilogue E.
GraphText Layers(int layers, bool prologue_like_layer_end = false) {
  GraphText t;
  uint64_t prev = t.Task(prologue_like_layer_end ? 5 : 9);
  for (int l = 0; l < layers; ++l) {
    const uint64_t m = t.Task(5), n = t.Task(6), r = t.Task(7), m2 = t.Task(5);
    t.Edge(prev, m);
    t.Edge(m, n);
    t.Edge(n, r);
    t.Edge(r, m2);
    prev = m2;
  }
  t.Edge(prev, t.Task(8));
  return t;
}

TEST(TaskGroups, ChainOfLayersIsOneSeriesAlignedAtTheFirstKernel) {
  const DepGraph graph = Layers(6).Load();
  const TaskGrouping g = ComputeTaskGroups(graph, {});
  ExpectValidGrouping(graph, g);
  ASSERT_EQ(g.series.size(), 1u);
  EXPECT_EQ(g.series[0].count, 6u);
  EXPECT_EQ(g.series[0].begin, 1u);  // after the prologue, at the layer's M (task 2)
  EXPECT_EQ(graph.nodes[g.order[1]], 2u);
  EXPECT_EQ(g.kinds[g.series[0].kind].size, 4u);
  EXPECT_EQ(g.kinds[g.series[0].kind].label, "f5, f6, f7");
  EXPECT_EQ(g.covered, 24u);
  EXPECT_EQ(graph.nodes[g.order.back()], 26u);  // the epilogue, ungrouped
  EXPECT_TRUE(LocateNode(g, g.order.back()).empty());
}

TEST(TaskGroups, KernelNamesComeFromTheLabels) {
  const DepGraph graph = Layers(3).Load();
  NameMap names;
  names.names["5"] = "MM";
  names.names["6"] = "NORM";
  const TaskGrouping g = ComputeTaskGroups(graph, ResolveTaskLabels(graph, names));
  ASSERT_EQ(g.series.size(), 1u);
  EXPECT_EQ(g.kinds[g.series[0].kind].label, "MM, NORM, f7");
}

TEST(TaskGroups, ARunBreaksWhereTheConnectionToThePreviousInstanceChanges) {
  // P -> A_i -> B_i for 8 instances; instances 4..7 also hang on the previous one's B.
  GraphText t;
  const uint64_t p = t.Task(9);
  uint64_t prev_b = 0;
  for (int i = 0; i < 8; ++i) {
    const uint64_t a = t.Task(1), b = t.Task(2);
    t.Edge(p, a);
    t.Edge(a, b);
    if (i >= 4) t.Edge(prev_b, a);
    prev_b = b;
  }
  const DepGraph graph = t.Load();
  const TaskGrouping g = ComputeTaskGroups(graph, {});
  ExpectValidGrouping(graph, g);
  ASSERT_EQ(g.series.size(), 2u);
  EXPECT_EQ(g.series[0].count, 4u);
  EXPECT_EQ(g.series[1].count, 4u);
  EXPECT_EQ(g.series[1].begin, 9u);
  EXPECT_EQ(g.series[0].kind, g.series[1].kind);  // same instances, only the link differs
}

TEST(TaskGroups, AnInstanceWithOtherInternalPairsIsLeftOut) {
  // P -> A_i, P -> B_i, A_i -> B_i except for i == 3.
  GraphText t;
  const uint64_t p = t.Task(9);
  for (int i = 0; i < 6; ++i) {
    const uint64_t a = t.Task(1), b = t.Task(2);
    t.Edge(p, a);
    t.Edge(p, b);
    if (i != 3) t.Edge(a, b);
  }
  const DepGraph graph = t.Load();
  const TaskGrouping g = ComputeTaskGroups(graph, {});
  ExpectValidGrouping(graph, g);
  ASSERT_EQ(g.series.size(), 2u);
  EXPECT_EQ(g.series[0].count, 3u);  // instances 0..2
  EXPECT_EQ(g.series[0].begin, 1u);
  EXPECT_EQ(g.series[1].count, 2u);  // instances 4..5, after the odd one
  EXPECT_EQ(g.series[1].begin, 9u);
  EXPECT_EQ(g.covered, 10u);
}

TEST(TaskGroups, ComponentsHoldNestedRunsAndAllocationsMoveBeforeThem) {
  // 3 requests: alloc -> the first UP; QK -> SF -> PV -> UP per block, UPs chained; 4 blocks.
  GraphText t;
  for (int r = 0; r < 3; ++r) {
    const uint64_t acc = t.Alloc();
    uint64_t prev_up = 0;
    for (int b = 0; b < 4; ++b) {
      const uint64_t qk = t.Task(0), sf = t.Task(1), pv = t.Task(2), up = t.Task(3);
      t.Edge(qk, sf);
      t.Edge(sf, pv);
      t.Edge(pv, up);
      if (b == 0) t.Edge(acc, up);
      if (b > 0) t.Edge(prev_up, up);
      prev_up = up;
    }
  }
  const DepGraph graph = t.Load();
  const TaskGrouping g = ComputeTaskGroups(graph, {});
  ExpectValidGrouping(graph, g);
  ASSERT_EQ(g.series.size(), 1u);
  EXPECT_EQ(g.series[0].count, 3u);
  const GroupKind& request = g.kinds[g.series[0].kind];
  EXPECT_EQ(request.size, 17u);
  ASSERT_EQ(request.children.size(), 1u);
  EXPECT_EQ(request.children[0].count, 4u);
  EXPECT_EQ(request.children[0].begin, 1u);  // after the allocation
  const GroupKind& block = g.kinds[request.children[0].kind];
  EXPECT_EQ(block.size, 4u);
  EXPECT_EQ(block.label, "f0, f1, f2, f3");
  EXPECT_EQ(block.depth, 2u);
  EXPECT_EQ(block.instances, 12u);
  EXPECT_EQ(graph.nodes[g.order[17]], 1000001u);  // request 1 opens with its allocation
  // The third block of the second request: its UP is task 1 + 16 + 8 + 3 = 28.
  const std::vector<GroupPlace> chain =
      LocateNode(g, static_cast<uint32_t>(graph.FindNode(28)));
  ASSERT_EQ(chain.size(), 2u);
  EXPECT_EQ(chain[0].instance, 1u);
  EXPECT_EQ(chain[1].instance, 2u);
  EXPECT_EQ(chain[1].begin, 17u + 1u);
  EXPECT_EQ(chain[1].kind, request.children[0].kind);
  // The allocation is directly in its request, no deeper.
  EXPECT_EQ(LocateNode(g, g.order[17]).size(), 1u);
}

TEST(TaskGroups, AdjacentIndependentRunsBecomeOuterInstances) {
  // Inside one layer (a head task feeding everything): 3 requests of 5 chained blocks, the
  // requests independent of each other; then a tail task after all.
  GraphText t;
  const uint64_t head = t.Task(9);
  std::vector<uint64_t> lasts;
  for (int r = 0; r < 3; ++r) {
    uint64_t prev = 0;
    for (int b = 0; b < 5; ++b) {
      const uint64_t x = t.Task(1), y = t.Task(2);
      t.Edge(head, x);
      t.Edge(x, y);
      if (b > 0) t.Edge(prev, y);
      prev = y;
    }
    lasts.push_back(prev);
  }
  const uint64_t tail = t.Task(8);
  for (uint64_t l : lasts) t.Edge(l, tail);
  const DepGraph graph = t.Load();
  const TaskGrouping g = ComputeTaskGroups(graph, {});
  ExpectValidGrouping(graph, g);
  ASSERT_EQ(g.series.size(), 1u);
  EXPECT_EQ(g.series[0].count, 3u);
  const GroupKind& request = g.kinds[g.series[0].kind];
  EXPECT_EQ(request.size, 10u);
  ASSERT_EQ(request.children.size(), 1u);
  EXPECT_EQ(request.children[0].count, 5u);
  EXPECT_EQ(g.kinds[request.children[0].kind].size, 2u);
}

TEST(TaskGroups, NoRepetitionMeansNoGroups) {
  GraphText t;
  uint64_t prev = t.Task(0);
  for (int k = 1; k < 12; ++k) {
    const uint64_t next = t.Task(k);
    t.Edge(prev, next);
    prev = next;
  }
  const DepGraph graph = t.Load();
  const TaskGrouping g = ComputeTaskGroups(graph, {});
  ExpectValidGrouping(graph, g);
  EXPECT_TRUE(g.series.empty());
  EXPECT_TRUE(g.kinds.empty());
  EXPECT_EQ(g.covered, 0u);
  EXPECT_EQ(g.order, SubmitOrder(graph));
  for (uint32_t n = 0; n < graph.nodes.size(); ++n) EXPECT_TRUE(LocateNode(g, n).empty());
}

TEST(TaskGroups, DepthLimitStopsTheNesting) {
  GraphText t;
  for (int r = 0; r < 3; ++r) {
    uint64_t prev = 0;
    for (int b = 0; b < 5; ++b) {
      const uint64_t x = t.Task(1), y = t.Task(2);
      t.Edge(x, y);
      if (b > 0) t.Edge(prev, x);
      prev = y;
    }
  }
  const DepGraph graph = t.Load();
  TaskGroupOptions flat;
  flat.max_depth = 1;
  const TaskGrouping g = ComputeTaskGroups(graph, {}, flat);
  ASSERT_EQ(g.series.size(), 1u);
  EXPECT_TRUE(g.kinds[g.series[0].kind].children.empty());
  EXPECT_EQ(ComputeTaskGroups(graph, {}).kinds[0].children.size(), 1u);
}

TEST(TaskGroups, LongSeriesAreCutIntoSectionsOfAtMostTheLimit) {
  const std::vector<SeriesSection> s = SeriesSections(2500, 1000);
  ASSERT_EQ(s.size(), 3u);
  EXPECT_EQ(s[0].first, 0u);
  EXPECT_EQ(s[0].count, 834u);
  EXPECT_EQ(s[1].first, 834u);
  EXPECT_EQ(s[2].first + s[2].count, 2500u);
  EXPECT_EQ(SeriesSections(1000, 1000).size(), 1u);
  EXPECT_EQ(SeriesSections(1001, 1000).size(), 2u);
  EXPECT_TRUE(SeriesSections(0).empty());
}

// gen_graph's decode shape (what bench.sh times): 17 decode steps of chained layers (35 tasks
// and 2 allocations each). A layer's pairs vary at random (a partial down-projection adds a
// pair inside it), so runs of identical layers are cut where one differs: recorded below, the
// method's answer on this graph. The steps are no series (no two are alike).
TEST(TaskGroups, GeneratedDecodeGraphFindsItsLayers) {
  testing::TempDir dir;
  gen_graph::GenOptions gen;
  gen.shape = gen_graph::Shape::kDecode;
  gen.tasks = 20000;
  gen.seed = 1;
  gen_graph::GenStats stats;
  std::string err;
  ASSERT_TRUE(gen_graph::WriteGraphFile(gen, dir.File("deps.json"), &stats, &err)) << err;
  DepGraph graph;
  ASSERT_TRUE(LoadDepsJson(dir.File("deps.json"), &graph, &err)) << err;
  const TaskGrouping g = ComputeTaskGroups(graph, {});
  ExpectValidGrouping(graph, g);
  ASSERT_FALSE(g.series.empty());
  const uint32_t layer = g.series[0].kind;
  const GroupKind& kind = g.kinds[layer];
  EXPECT_EQ(kind.tasks, 35u);  // norm, 4 qkv, kv write, 8 attention, 4 o_proj, norm, 8 + 8
  EXPECT_EQ(kind.size, 37u);   // and the layer's two allocations
  EXPECT_EQ(kind.label, "f0 \u2026 f8, 7 kernels");
  std::vector<uint32_t> inside;
  for (const GroupSeries& c : kind.children) inside.push_back(c.count);
  EXPECT_EQ(inside, (std::vector<uint32_t>{4, 8, 4, 8, 8}));  // qkv, attention, o, gate/up, down
  uint32_t layers = 0, layer_series = 0;
  for (const GroupSeries& s : g.series) {
    if (s.kind != layer) continue;
    layers += s.count;
    ++layer_series;
  }
  EXPECT_EQ(layers, 478u);  // the other layers differ from their neighbours
  EXPECT_EQ(layer_series, 66u);
  EXPECT_EQ(kind.instances, 478u);
  EXPECT_EQ(g.covered, 20648u);  // of 21,150 nodes: the odd layers' runs are grouped too
  EXPECT_EQ(graph.nodes.size(), 21150u);
}

}  // namespace
}  // namespace depgraph
