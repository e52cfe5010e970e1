// Repeated structure (libdepgraph/graph/task_groups.h) on the model-sized graphs our
// orchestrations capture through the runtime shim: paged attention at the runtime's Case1
// shape (256 requests x 64 KV blocks x QK, SF, PV, UP) and the decode-shaped decode_like.
#include <gtest/gtest.h>

#include <string>

#include "depgraph/graph/load_deps.h"
#include "depgraph/graph/name_map.h"
#include "depgraph/graph/task_groups.h"
#include "depgraph/graph/task_label.h"
#include "runner_test_util.h"

namespace depgraph::testing {
namespace {

const std::string kSource = DEPGRAPH_SOURCE_DIR;

// Runs `module` on `run_description`, loads the deps.json with the runner's name map and
// groups it.
void Capture(const std::string& name, const std::string& module, const std::string& run,
             DepGraph* graph, TaskGrouping* grouping) {
  const std::string dir = FreshDir(name);
  ASSERT_FALSE(dir.empty());
  RunnerRun r = RunRunner({Module(module), "-a", run, "-o", dir + "/deps.json"}, dir);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::string err;
  ASSERT_TRUE(LoadDepsJson(dir + "/deps.json", graph, &err)) << err;
  NameMap names;
  const std::string map = DiscoverNameMap(dir);
  ASSERT_FALSE(map.empty());
  ASSERT_EQ(LoadNameMap(map, &names, &err), NameMapStatus::kOk) << err;
  *grouping = ComputeTaskGroups(*graph, ResolveTaskLabels(*graph, names));
  ASSERT_EQ(grouping->order.size(), graph->nodes.size());
}

TEST(TaskGroupsCaptures, PagedAttentionCase1Is256RequestsOf64Blocks) {
  DepGraph graph;
  TaskGrouping g;
  ASSERT_NO_FATAL_FAILURE(Capture("groups_pa_case1", "orch_paged_attention",
                                  kSource + "/bench/inputs/paged_attention_Case1.json", &graph,
                                  &g));
  EXPECT_EQ(graph.tasks.size(), 65536u);
  ASSERT_EQ(g.series.size(), 1u);
  const GroupSeries& requests = g.series[0];
  EXPECT_EQ(requests.count, 256u);
  const GroupKind& request = g.kinds[requests.kind];
  EXPECT_EQ(request.size, 257u);  // the accumulators' allocation and 64 blocks
  EXPECT_EQ(request.tasks, 256u);
  ASSERT_EQ(request.children.size(), 1u);
  EXPECT_EQ(request.children[0].count, 64u);
  EXPECT_EQ(request.children[0].begin, 1u);
  const GroupKind& block = g.kinds[request.children[0].kind];
  EXPECT_EQ(block.size, 4u);
  EXPECT_EQ(block.label, "QK, SF, PV, UP");
  EXPECT_EQ(block.instances, 256u * 64u);
  EXPECT_EQ(g.covered, graph.nodes.size());
  // A task deep inside: its request and block.
  const uint32_t last = g.order.back();
  const std::vector<GroupPlace> chain = LocateNode(g, last);
  ASSERT_EQ(chain.size(), 2u);
  EXPECT_EQ(chain[0].instance, 255u);
  EXPECT_EQ(chain[1].instance, 63u);
  EXPECT_EQ(SeriesSections(requests.count).size(), 1u);
}

TEST(TaskGroupsCaptures, DecodeLikeIsFortyLayersOfFourRequests) {
  DepGraph graph;
  TaskGrouping g;
  ASSERT_NO_FATAL_FAILURE(Capture("groups_decode_like", "orch_decode_like",
                                  kSource + "/tests/orchestrations/cases/decode_like.json",
                                  &graph, &g));
  EXPECT_EQ(graph.tasks.size(), 10560u);
  ASSERT_EQ(g.series.size(), 1u);
  EXPECT_EQ(g.series[0].count, 40u);
  EXPECT_EQ(g.series[0].begin, 0u);
  const GroupKind& layer = g.kinds[g.series[0].kind];
  EXPECT_EQ(layer.tasks, 264u);  // PROJ, 4 x 16 x (QK, SF, PV, UP), OPROJ ... ADD
  EXPECT_EQ(layer.size, 269u);   // and 5 allocations (attention output, 4 accumulators)
  EXPECT_EQ(g.covered, graph.nodes.size());
  // Inside a layer: the 4 requests (independent chains of 16 blocks).
  const GroupSeries* requests = nullptr;
  for (const GroupSeries& s : layer.children) {
    if (g.kinds[s.kind].tasks == 64) requests = &s;
  }
  ASSERT_NE(requests, nullptr);
  EXPECT_EQ(requests->count, 4u);
  const GroupKind& request = g.kinds[requests->kind];
  ASSERT_EQ(request.children.size(), 1u);
  EXPECT_EQ(request.children[0].count, 16u);
  EXPECT_EQ(g.kinds[request.children[0].kind].label, "QK, SF, PV, UP");
  EXPECT_EQ(g.kinds[request.children[0].kind].depth, 3u);
}

}  // namespace
}  // namespace depgraph::testing
