// Benchmark of BuildAccessModel (default options) on graphs made by gen_graph's generator:
// shapes decode, wide and random at 262,144 tasks, or the sizes in DEPGRAPH_MODEL_TASKS
// (comma-separated); seed 1 or DEPGRAPH_BENCH_SEED. The audit builds the model beside the
// reachability index; on wide its random tensor ids made it the longer of the two.
//
//   depgraph_bench --benchmark_filter=AccessModel
//   DEPGRAPH_MODEL_TASKS=1000000 depgraph_bench --benchmark_filter=AccessModel
#include <benchmark/benchmark.h>

#include <string>
#include <vector>

#include "bench_inputs.h"
#include "depgraph/reduce/access_model.h"
#include "graph_generator.h"

namespace {

void BM_BuildAccessModel(benchmark::State& state, gen_graph::Shape shape) {
  const uint64_t tasks = static_cast<uint64_t>(state.range(0));
  const depgraph::DepGraph& graph =
      depgraph::bench::ShapeGraph(static_cast<int>(shape), tasks, depgraph::bench::ShapeSeed());
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

// One shape's sizes run one after another, so each graph is generated once.
const bool kAccessModelRegistered = [] {
  const std::vector<int64_t> sizes =
      depgraph::bench::SizesFromEnv("DEPGRAPH_MODEL_TASKS", {262144});
  for (gen_graph::Shape shape :
       {gen_graph::Shape::kDecode, gen_graph::Shape::kWide, gen_graph::Shape::kRandom}) {
    const std::string name = std::string("BM_BuildAccessModel/") + gen_graph::ShapeName(shape);
    auto* bench = benchmark::RegisterBenchmark(name.c_str(), BM_BuildAccessModel, shape);
    for (int64_t n : sizes) bench->Arg(n);
    bench->Unit(benchmark::kMillisecond);
  }
  return true;
}();

}  // namespace
