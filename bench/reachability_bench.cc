// Benchmark of ReachabilityIndex::Build (topological order, levels, two orders' positions and
// reach bounds, chain labels) on graphs made by gen_graph's generator: shapes decode, wide
// and random at 262,144 tasks, or the sizes in DEPGRAPH_REACH_TASKS (comma-separated); seed 1
// or DEPGRAPH_BENCH_SEED. `audit` builds it beside the access model, `diff` one per graph.
//
//   depgraph_bench --benchmark_filter=BuildReachability
//   DEPGRAPH_REACH_TASKS=1000000 depgraph_bench --benchmark_filter=BuildReachability
#include <benchmark/benchmark.h>

#include "bench_inputs.h"
#include "depgraph/graph/reachability.h"

namespace {

void BM_BuildReachability(benchmark::State& state, int shape) {
  const uint64_t tasks = static_cast<uint64_t>(state.range(0));
  const depgraph::DepGraph& graph =
      depgraph::bench::ShapeGraph(shape, tasks, depgraph::bench::ShapeSeed());
  for (auto _ : state) {
    depgraph::ReachabilityIndex reach;
    if (!reach.Build(graph)) {
      state.SkipWithError("the generated graph has a cycle");
      return;
    }
    benchmark::DoNotOptimize(reach.critical_path());
  }
  depgraph::bench::SetGraphCounters(state, graph);
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()) *
                          static_cast<int64_t>(graph.pairs.size()));
}

const bool kBuildReachabilityRegistered = [] {
  depgraph::bench::RegisterPerShape(
      "BM_BuildReachability", BM_BuildReachability, depgraph::bench::AuditStageShapes(),
      depgraph::bench::SizesFromEnv("DEPGRAPH_REACH_TASKS", {262144}));
  return true;
}();

}  // namespace
