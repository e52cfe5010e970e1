// Benchmarks of the pipeline stages deps_viewer runs on a big capture: loading deps.json,
// the structural transitive reduction and the dataflow-verified edge selection, on decode
// graphs made by gen_graph's generator (seed 1) at startup into a temporary directory:
// 10,000 and 50,000 tasks, or the sizes in DEPGRAPH_BENCH_TASKS (comma-separated).
//
//   depgraph_bench --benchmark_filter='Load|Reduce|Select'
//   DEPGRAPH_BENCH_TASKS=1000000 depgraph_bench --benchmark_filter=Load   # ~1.7 GB in $TMPDIR
// BM_LoadDepsJson runs with 1 and 2 threads (wall time: UseRealTime).
#include <benchmark/benchmark.h>

#include <span>
#include <string>
#include <vector>

#include "bench_inputs.h"
#include "depgraph/graph/load_deps.h"
#include "depgraph/reduce/edge_mode.h"
#include "depgraph/reduce/reduction.h"
#include "graph_generator.h"

namespace {

// Arguments: tasks, threads (LoadOptions::threads; 0 = every core).
void BM_LoadDepsJson(benchmark::State& state) {
  const uint64_t tasks = static_cast<uint64_t>(state.range(0));
  depgraph::LoadOptions options;
  options.threads = static_cast<unsigned>(state.range(1));
  depgraph::bench::DecodeInputs& inputs = depgraph::bench::DecodeInputs::Get();
  const std::string& path = inputs.Path(tasks);
  for (auto _ : state) {
    depgraph::DepGraph graph;
    std::string err;
    if (!depgraph::LoadDepsJson(path, &graph, &err, options)) {
      state.SkipWithError(err.c_str());
      break;
    }
    benchmark::DoNotOptimize(graph.pairs.data());
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) *
                          static_cast<int64_t>(inputs.Bytes(tasks)));
  depgraph::bench::SetGraphCounters(state, inputs.Graph(tasks));
}

void BM_ReduceStructurally(benchmark::State& state) {
  const uint64_t tasks = static_cast<uint64_t>(state.range(0));
  const depgraph::DepGraph& graph = depgraph::bench::DecodeInputs::Get().Graph(tasks);
  size_t redundant = 0;
  for (auto _ : state) {
    depgraph::StructuralReduction reduction = depgraph::ReduceStructurally(graph);
    redundant = reduction.redundant_count;
    benchmark::DoNotOptimize(reduction.redundant.data());
  }
  depgraph::bench::SetGraphCounters(state, graph);
  state.counters["redundant"] = static_cast<double>(redundant);
}

void BM_SelectEdges(benchmark::State& state, depgraph::EdgeMode mode) {
  const uint64_t tasks = static_cast<uint64_t>(state.range(0));
  depgraph::bench::DecodeInputs& inputs = depgraph::bench::DecodeInputs::Get();
  const depgraph::DepGraph& graph = inputs.Graph(tasks);
  const depgraph::StructuralReduction& reduction = inputs.Reduction(tasks);
  size_t removed = 0;
  for (auto _ : state) {
    depgraph::EdgeSelection selection = depgraph::SelectEdges(graph, reduction, mode);
    removed = selection.listed.size();
    benchmark::DoNotOptimize(selection.shown.data());
  }
  depgraph::bench::SetGraphCounters(state, graph);
  state.counters["removed"] = static_cast<double>(removed);
}

void BM_GenerateDecode(benchmark::State& state) {
  // Generator cost alone: one run into a sink that drops everything.
  class NullSink final : public gen_graph::GenSink {
   public:
    void OnTensor(const gen_graph::GenTensor&) override {}
    void OnTask(const gen_graph::GenTask&, std::span<const gen_graph::GenArg>) override {}
    void OnEdge(const gen_graph::GenEdge&) override {}
  };
  gen_graph::GenOptions options;
  options.tasks = static_cast<uint64_t>(state.range(0));
  for (auto _ : state) {
    NullSink sink;
    gen_graph::GenerateGraph(options, &sink);
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()) *
                          static_cast<int64_t>(options.tasks));
}

// Registered at static-initialisation time so that benchmark_main's main() sees them.
const bool kRegistered = [] {
  const std::vector<int64_t> sizes = depgraph::bench::BenchSizes();
  auto with_sizes = [&](benchmark::internal::Benchmark* bench) {
    for (int64_t n : sizes) bench->Arg(n);
    bench->Unit(benchmark::kMillisecond);
  };
  benchmark::internal::Benchmark* load = benchmark::RegisterBenchmark("BM_LoadDepsJson",
                                                                     BM_LoadDepsJson);
  for (int64_t n : sizes) {
    for (int64_t threads : {1, 2}) load->Args({n, threads});
  }
  load->ArgNames({"tasks", "threads"})->Unit(benchmark::kMillisecond)->UseRealTime();
  with_sizes(benchmark::RegisterBenchmark("BM_ReduceStructurally", BM_ReduceStructurally));
  with_sizes(benchmark::RegisterBenchmark("BM_SelectEdges/reduced", BM_SelectEdges,
                                          depgraph::EdgeMode::kReduced));
  with_sizes(benchmark::RegisterBenchmark("BM_SelectEdges/reduced_dataflow", BM_SelectEdges,
                                          depgraph::EdgeMode::kReducedDataflow));
  benchmark::RegisterBenchmark("BM_GenerateDecode", BM_GenerateDecode)
      ->Arg(sizes.back())
      ->Unit(benchmark::kMillisecond);
  return true;
}();

}  // namespace
