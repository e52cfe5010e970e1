// Benchmark of BuildAccessModel (default options) on graphs made by gen_graph's generator:
// shapes decode, wide and random at 262,144 tasks, or the sizes in DEPGRAPH_MODEL_TASKS
// (comma-separated); seed 1 or DEPGRAPH_BENCH_SEED. The audit builds the model beside the
// reachability index; on wide its random tensor ids made it the longer of the two.
//
//   depgraph_bench --benchmark_filter=AccessModel
//   DEPGRAPH_MODEL_TASKS=1000000 depgraph_bench --benchmark_filter=AccessModel
#include <benchmark/benchmark.h>

#include "bench_inputs.h"
#include "depgraph/reduce/access_model.h"

namespace {

void BM_BuildAccessModel(benchmark::State& state, int shape) {
  const uint64_t tasks = static_cast<uint64_t>(state.range(0));
  const depgraph::DepGraph& graph =
      depgraph::bench::ShapeGraph(shape, tasks, depgraph::bench::ShapeSeed());
  size_t accesses = 0;
  for (auto _ : state) {
    const depgraph::AccessModel model = depgraph::BuildAccessModel(graph);
    accesses = model.accesses.size();
    benchmark::DoNotOptimize(model.accesses.data());
  }
  depgraph::bench::SetGraphCounters(state, graph);
  state.counters["accesses"] = static_cast<double>(accesses);
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()) *
                          static_cast<int64_t>(accesses));
}

const bool kAccessModelRegistered = [] {
  depgraph::bench::RegisterPerShape(
      "BM_BuildAccessModel", BM_BuildAccessModel, depgraph::bench::AuditStageShapes(),
      depgraph::bench::SizesFromEnv("DEPGRAPH_MODEL_TASKS", {262144}));
  return true;
}();


}  // namespace
