// Benchmark of ComputeLayeredLayout (default options) on graphs made by gen_graph's generator
// (the same bytes as `gen_graph --shape S --tasks N --seed 1`), loaded with LoadDepsJson.
// Shapes decode, chain, wide and random at 65,536 and 262,144 tasks, or the sizes in
// DEPGRAPH_LAYOUT_TASKS (comma-separated); seed 1 or DEPGRAPH_LAYOUT_SEED.
//
//   depgraph_bench --benchmark_filter=LayeredLayout
//   DEPGRAPH_LAYOUT_TASKS=65536,262144,1000000 depgraph_bench --benchmark_filter=LayeredLayout
//
// Each file is generated into a private temporary directory, loaded and deleted at once; only
// the graph of the benchmark being run is kept in memory (a 1,000,000-task decode graph is
// about 1 GB loaded and 1.7 GB as a file).
#include <benchmark/benchmark.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "bench_inputs.h"
#include "depgraph/graph/load_deps.h"
#include "depgraph/render/layered_layout.h"
#include "graph_generator.h"

namespace {

/// The loaded graph of one (shape, tasks, seed), generated on demand; the previous one is
/// released first so that at most one big graph is alive.
class LayoutInput {
 public:
  static const depgraph::DepGraph& Get(gen_graph::Shape shape, uint64_t tasks, uint64_t seed) {
    static LayoutInput input;
    return input.Load(shape, tasks, seed);
  }

 private:
  const depgraph::DepGraph& Load(gen_graph::Shape shape, uint64_t tasks, uint64_t seed) {
    if (graph_ && shape == shape_ && tasks == tasks_ && seed == seed_) return *graph_;
    graph_.reset();
    const char* tmp = std::getenv("TMPDIR");
    std::string dir = std::string(tmp && *tmp ? tmp : "/tmp") + "/depgraph_layout_bench.XXXXXX";
    if (mkdtemp(dir.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
    const std::string path = dir + "/deps.json";
    gen_graph::GenOptions options;
    options.shape = shape;
    options.tasks = tasks;
    options.seed = seed;
    gen_graph::GenStats stats;
    std::string err;
    bool ok = gen_graph::WriteGraphFile(options, path, &stats, &err);
    auto graph = std::make_unique<depgraph::DepGraph>();
    if (ok) ok = depgraph::LoadDepsJson(path, graph.get(), &err);
    std::remove(path.c_str());
    rmdir(dir.c_str());
    if (!ok) throw std::runtime_error(err);
    graph_ = std::move(graph);
    shape_ = shape;
    tasks_ = tasks;
    seed_ = seed;
    return *graph_;
  }

  std::unique_ptr<depgraph::DepGraph> graph_;
  gen_graph::Shape shape_ = gen_graph::Shape::kDecode;
  uint64_t tasks_ = 0;
  uint64_t seed_ = 0;
};

uint64_t Seed() {
  const char* env = std::getenv("DEPGRAPH_LAYOUT_SEED");
  return env != nullptr && *env ? std::stoull(env) : 1;
}

void BM_LayeredLayout(benchmark::State& state, gen_graph::Shape shape) {
  const uint64_t tasks = static_cast<uint64_t>(state.range(0));
  const depgraph::DepGraph& graph = LayoutInput::Get(shape, tasks, Seed());
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

// Registered at static-initialisation time so that benchmark_main's main() sees them. One
// shape's sizes run one after another, so each graph is generated once.
const bool kLayoutRegistered = [] {
  const std::vector<int64_t> sizes =
      depgraph::bench::SizesFromEnv("DEPGRAPH_LAYOUT_TASKS", {65536, 262144});
  for (gen_graph::Shape shape : {gen_graph::Shape::kDecode, gen_graph::Shape::kChain,
                                 gen_graph::Shape::kWide, gen_graph::Shape::kRandom}) {
    const std::string name = std::string("BM_LayeredLayout/") + gen_graph::ShapeName(shape);
    auto* bench = benchmark::RegisterBenchmark(name.c_str(), BM_LayeredLayout, shape);
    for (int64_t n : sizes) bench->Arg(n);
    bench->Unit(benchmark::kMillisecond);
  }
  return true;
}();

}  // namespace
