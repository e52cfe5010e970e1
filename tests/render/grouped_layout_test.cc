// grouped_layout.h: every group owns a box holding its inside; siblings never overlap.
#include "depgraph/render/grouped_layout.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "depgraph/graph/load_deps.h"
#include "depgraph/graph/task_groups.h"
#include "test_util.h"

namespace depgraph {
namespace {

using testing::LoadText;

// Tasks in submit order, each with one AIC kernel, and tensormap edges between them.
class Capture {
 public:
  uint64_t Task(int kernel) {
    tasks_ += std::string(tasks_.empty() ? "" : ",") + "{\"task_id\":" + std::to_string(next_) +
              ",\"kernel_ids\":[" + std::to_string(kernel) + ",-1,-1]}";
    return next_++;
  }
  void Edge(uint64_t a, uint64_t b) {
    edges_ += std::string(edges_.empty() ? "" : ",") + "{\"pred\":" + std::to_string(a) +
              ",\"succ\":" + std::to_string(b) + ",\"source\":\"tensormap\"}";
  }
  DepGraph Load() const {
    return LoadText("{\"tasks\":[" + tasks_ + "],\"edges\":[" + edges_ + "]}");
  }

 private:
  uint64_t next_ = 1;
  std::string tasks_, edges_;
};

// `requests` independent requests of `blocks` blocks QK -> SF -> PV -> UP, the UPs chained.
DepGraph Requests(int requests, int blocks) {
  Capture c;
  for (int r = 0; r < requests; ++r) {
    uint64_t up = 0;
    for (int b = 0; b < blocks; ++b) {
      const uint64_t qk = c.Task(1), sf = c.Task(2), pv = c.Task(3), next_up = c.Task(4);
      c.Edge(qk, sf), c.Edge(sf, pv), c.Edge(pv, next_up);
      if (up) c.Edge(up, next_up);
      up = next_up;
    }
  }
  return c.Load();
}

// `layers` chained layers: a norm, `width` parallel matmuls, an add feeding the next norm.
DepGraph Layers(int layers, int width) {
  Capture c;
  uint64_t prev = 0;
  for (int l = 0; l < layers; ++l) {
    const uint64_t norm = c.Task(10);
    if (prev) c.Edge(prev, norm);
    std::vector<uint64_t> mm;
    for (int w = 0; w < width; ++w) mm.push_back(c.Task(11)), c.Edge(norm, mm.back());
    prev = c.Task(12);
    for (uint64_t m : mm) c.Edge(m, prev);
  }
  return c.Load();
}

struct Rect {
  float x0, y0, x1, y1;
  bool Holds(const Rect& r) const { return r.x0 >= x0 && r.x1 <= x1 && r.y0 >= y0 && r.y1 <= y1; }
  bool Meets(const Rect& r) const { return r.x0 < x1 && x0 < r.x1 && r.y0 < y1 && y0 < r.y1; }
};

// Walks the boxes in their documented depth-first order and checks: each box holds the
// boxes of its nodes (so nested boxes too), the boxes and free nodes of one level are
// pairwise apart, and all instances of a kind have one size.
class BoxCheck {
 public:
  BoxCheck(const DepGraph& graph, const TaskGrouping& g, const GroupedLayout& l,
           const GroupedLayoutOptions& o)
      : graph_(graph), g_(g), l_(l), o_(o), size_(g.kinds.size(), Rect{0, 0, -1, -1}) {}

  void Run() {
    Level(g_.series, 0, static_cast<uint32_t>(graph_.nodes.size()));
    EXPECT_EQ(next_ * 4, l_.boxes.size()) << "every box visited once";
    EXPECT_EQ(l_.boxes.size() / 4, GroupBoxCount(g_));
  }

 private:
  Rect NodeRect(uint32_t node) const {
    return {l_.x[node] - o_.node_width / 2, l_.y[node] - o_.node_height / 2,
            l_.x[node] + o_.node_width / 2, l_.y[node] + o_.node_height / 2};
  }
  Rect NextBox() {
    const float* b = &l_.boxes[4 * next_++];
    return {b[0], b[1], b[2], b[3]};
  }
  // The series of one level (positions [begin, end) of `order`, series relative to begin).
  void Level(const std::vector<GroupSeries>& list, uint32_t begin, uint32_t end) {
    std::vector<Rect> items;
    size_t s = 0;
    for (uint32_t pos = begin; pos < end;) {
      if (s < list.size() && begin + list[s].begin == pos) {
        items.push_back(Series(list[s], pos));
        pos += list[s].count * g_.kinds[list[s].kind].size;
        ++s;
      } else {
        items.push_back(NodeRect(g_.order[pos++]));
      }
    }
    for (size_t a = 0; a < items.size(); ++a) {
      for (size_t b = a + 1; b < items.size(); ++b) {
        ASSERT_FALSE(items[a].Meets(items[b])) << "items " << a << " and " << b << " overlap";
      }
    }
  }
  Rect Series(const GroupSeries& s, uint32_t begin) {
    const Rect box = NextBox();
    const uint32_t size = g_.kinds[s.kind].size;
    std::vector<Rect> instances;
    for (uint32_t i = 0; i < s.count; ++i) {
      const Rect inst = NextBox();
      const uint32_t start = begin + i * size;
      EXPECT_TRUE(box.Holds(inst)) << "series box holds instance " << i;
      Rect& first = size_[s.kind];
      if (first.x1 < first.x0) first = inst;
      // Equal up to float rounding of x0 + w at different places.
      EXPECT_NEAR(inst.x1 - inst.x0, first.x1 - first.x0, 0.01) << "kind " << s.kind;
      EXPECT_NEAR(inst.y1 - inst.y0, first.y1 - first.y0, 0.01) << "kind " << s.kind;
      for (uint32_t p = start; p < start + size; ++p) {
        EXPECT_TRUE(inst.Holds(NodeRect(g_.order[p]))) << "instance " << i << " holds its nodes";
      }
      Level(g_.kinds[s.kind].children, start, start + size);
      instances.push_back(inst);
    }
    for (size_t a = 0; a < instances.size(); ++a) {
      for (size_t b = a + 1; b < instances.size(); ++b) {
        EXPECT_FALSE(instances[a].Meets(instances[b])) << "instances " << a << ", " << b;
      }
    }
    return box;
  }

  const DepGraph& graph_;
  const TaskGrouping& g_;
  const GroupedLayout& l_;
  const GroupedLayoutOptions& o_;
  std::vector<Rect> size_;
  size_t next_ = 0;
};

void ExpectWellFormed(const DepGraph& graph) {
  const TaskGrouping g = ComputeTaskGroups(graph, {});
  const GroupedLayoutOptions o;
  const GroupedLayout l = ComputeGroupedLayout(graph, g, o);
  ASSERT_EQ(l.x.size(), graph.nodes.size());
  ASSERT_EQ(l.y.size(), graph.nodes.size());
  for (size_t i = 0; i < l.x.size(); ++i) {
    EXPECT_GE(l.x[i] - o.node_width / 2, 0) << i;
    EXPECT_GE(l.y[i] - o.node_height / 2, 0) << i;
    EXPECT_LE(l.x[i] + o.node_width / 2, l.width) << i;
    EXPECT_LE(l.y[i] + o.node_height / 2, l.height) << i;
  }
  BoxCheck(graph, g, l, o).Run();
}

TEST(GroupedLayout, RequestsOfChainedBlocksNestAndNeverOverlap) {
  const DepGraph graph = Requests(12, 16);
  const TaskGrouping g = ComputeTaskGroups(graph, {});
  ASSERT_EQ(g.series.size(), 1u);
  ASSERT_EQ(g.series[0].count, 12u);
  ASSERT_FALSE(g.kinds[g.series[0].kind].children.empty()) << "blocks inside a request";
  ExpectWellFormed(graph);
}

TEST(GroupedLayout, ChainedLayersWrapIntoRowsAndIndependentRequestsIntoAGrid) {
  for (const DepGraph& graph : {Layers(40, 6), Requests(64, 2)}) {
    const TaskGrouping g = ComputeTaskGroups(graph, {});
    ASSERT_EQ(g.series.size(), 1u);
    const GroupedLayout l = ComputeGroupedLayout(graph, g);
    std::set<float> xs, ys;
    for (uint32_t i = 0; i < g.series[0].count; ++i) {
      const size_t box = 4 * (1 + i * (GroupBoxCount(g) - 1) / g.series[0].count);
      xs.insert(l.boxes[box]);
      ys.insert(l.boxes[box + 1]);
    }
    EXPECT_GT(xs.size(), 2u) << "several columns";
    EXPECT_GT(ys.size(), 2u) << "several rows: not one long line";
    EXPECT_LT(l.width / l.height, 4.0f);
    EXPECT_GT(l.width / l.height, 0.25f);
    ExpectWellFormed(graph);
  }
}

TEST(GroupedLayout, AGraphWithoutRepetitionHasNoBoxesAndNoOverlap) {
  Capture c;
  const uint64_t a = c.Task(1), b = c.Task(2), d = c.Task(3), e = c.Task(4);
  c.Edge(a, b), c.Edge(a, d), c.Edge(b, e), c.Edge(d, e);
  const DepGraph graph = c.Load();
  const TaskGrouping g = ComputeTaskGroups(graph, {});
  ASSERT_TRUE(g.series.empty());
  const GroupedLayout l = ComputeGroupedLayout(graph, g);
  EXPECT_TRUE(l.boxes.empty());
  EXPECT_LT(l.x[graph.FindNode(a)], l.x[graph.FindNode(b)]) << "flows left to right";
  EXPECT_LT(l.x[graph.FindNode(b)], l.x[graph.FindNode(e)]);
  ExpectWellFormed(graph);
}

TEST(GroupedLayout, RealCapturesAreWellFormed) {
  int captures = 0;
  for (const auto& entry :
       std::filesystem::recursive_directory_iterator(testing::SourceDir() + "/data/real")) {
    if (entry.path().filename() != "deps.json") continue;
    DepGraph graph;
    std::string err;
    ASSERT_TRUE(LoadDepsJson(entry.path().string(), &graph, &err)) << err;
    SCOPED_TRACE(entry.path().string());
    ExpectWellFormed(graph);
    ++captures;
  }
  EXPECT_GE(captures, 17);
}

TEST(GroupedLayout, IsDeterministicAndEmptyGraphsAreEmpty) {
  const DepGraph graph = Layers(9, 3);
  const TaskGrouping g = ComputeTaskGroups(graph, {});
  const GroupedLayout one = ComputeGroupedLayout(graph, g), two = ComputeGroupedLayout(graph, g);
  EXPECT_EQ(one.x, two.x);
  EXPECT_EQ(one.y, two.y);
  EXPECT_EQ(one.boxes, two.boxes);
  const DepGraph empty = LoadText("{\"tasks\":[],\"edges\":[]}");
  const GroupedLayout none = ComputeGroupedLayout(empty, ComputeTaskGroups(empty, {}));
  EXPECT_TRUE(none.x.empty());
  EXPECT_TRUE(none.boxes.empty());
}

}  // namespace
}  // namespace depgraph
