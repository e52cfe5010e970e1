// Benchmarks of `depgraph query`'s questions after the load (graph_query.h) on decode graphs
// from gen_graph's generator (seed 1): neighbours, depth-3 reach both ways, and a shortest
// path from the first task to the last (the longest search a decode graph offers).
//
//   depgraph_bench --benchmark_filter=Query
//   DEPGRAPH_BENCH_TASKS=1000000 depgraph_bench --benchmark_filter=Query
#include <benchmark/benchmark.h>

#include "bench_inputs.h"
#include "depgraph/graph/graph_query.h"

namespace {

void BM_QueryNeighboursAndReach(benchmark::State& state) {
  const depgraph::DepGraph& graph =
      depgraph::bench::DecodeInputs::Get().Graph(static_cast<uint64_t>(state.range(0)));
  const uint32_t middle = static_cast<uint32_t>(graph.nodes.size() / 2);
  size_t reached = 0;
  for (auto _ : state) {
    reached = depgraph::Predecessors(graph, middle).size() +
              depgraph::Successors(graph, middle).size();
    reached += depgraph::Reach(graph, middle, depgraph::Direction::kAncestors, 3).size();
    reached += depgraph::Reach(graph, middle, depgraph::Direction::kDescendants, 3).size();
    benchmark::DoNotOptimize(reached);
  }
  depgraph::bench::SetGraphCounters(state, graph);
  state.counters["reached"] = static_cast<double>(reached);
}

void BM_QueryShortestPath(benchmark::State& state) {
  const depgraph::DepGraph& graph =
      depgraph::bench::DecodeInputs::Get().Graph(static_cast<uint64_t>(state.range(0)));
  const uint32_t last = static_cast<uint32_t>(graph.nodes.size() - 1);
  std::vector<uint32_t> path;
  for (auto _ : state) {
    depgraph::ShortestPath(graph, 0, last, &path);
    benchmark::DoNotOptimize(path.data());
  }
  depgraph::bench::SetGraphCounters(state, graph);
  state.counters["path_edges"] = path.empty() ? -1.0 : static_cast<double>(path.size() - 1);
}

const bool kRegistered = [] {
  for (int64_t n : depgraph::bench::BenchSizes()) {
    benchmark::RegisterBenchmark("BM_QueryNeighboursAndReach", BM_QueryNeighboursAndReach)
        ->Arg(n)
        ->Unit(benchmark::kMicrosecond);
    benchmark::RegisterBenchmark("BM_QueryShortestPath", BM_QueryShortestPath)
        ->Arg(n)
        ->Unit(benchmark::kMillisecond);
  }
  return true;
}();

}  // namespace
