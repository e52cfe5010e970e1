// Benchmark of ComputeLayeredLayout (default options) on graphs made by gen_graph's generator
// (the same bytes as `gen_graph --shape S --tasks N --seed 1`), loaded with LoadDepsJson.
// Shapes decode, chain, wide and random at 65,536 and 262,144 tasks, or the sizes in
// DEPGRAPH_LAYOUT_TASKS (comma-separated); seed 1 or DEPGRAPH_LAYOUT_SEED (bench::ShapeSeed).
//
//   depgraph_bench --benchmark_filter=LayeredLayout
//   DEPGRAPH_LAYOUT_TASKS=65536,262144,1000000 depgraph_bench --benchmark_filter=LayeredLayout
//
// The graphs come from bench::ShapeGraph: only the graph of the benchmark being run is alive.
#include <benchmark/benchmark.h>

#include "bench_inputs.h"
#include "depgraph/render/layered_layout.h"
#include "graph_generator.h"

namespace {

void BM_LayeredLayout(benchmark::State& state, int shape) {
  const uint64_t tasks = static_cast<uint64_t>(state.range(0));
  const depgraph::DepGraph& graph =
      depgraph::bench::ShapeGraph(shape, tasks, depgraph::bench::ShapeSeed());
  depgraph::LayeredLayout layout;
  for (auto _ : state) {
    layout = depgraph::ComputeLayeredLayout(graph);
    benchmark::DoNotOptimize(layout.y.data());
  }
  state.counters["nodes"] = static_cast<double>(graph.nodes.size());
  state.counters["pairs"] = static_cast<double>(graph.pairs.size());
  state.counters["layers"] = layout.num_layers;
  state.counters["widest"] = layout.max_layer_size;
  state.counters["reversed"] = static_cast<double>(layout.reversed_pairs.size());
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()) *
                          static_cast<int64_t>(graph.nodes.size() + graph.pairs.size()));
}

// Registered at static-initialisation time so that benchmark_main's main() sees them.
const bool kLayoutRegistered = [] {
  using gen_graph::Shape;
  depgraph::bench::RegisterPerShape(
      "BM_LayeredLayout", BM_LayeredLayout,
      {static_cast<int>(Shape::kDecode), static_cast<int>(Shape::kChain),
       static_cast<int>(Shape::kWide), static_cast<int>(Shape::kRandom)},
      depgraph::bench::SizesFromEnv("DEPGRAPH_LAYOUT_TASKS", {65536, 262144}));
  return true;
}();


}  // namespace
