// Benchmark of the schedule simulation after the load (schedule_simulation.h) on decode graphs
// from gen_graph's generator (seed 1): 24 AIC + 48 AIV cores, the synthetic kernel times of
// bench/inputs/decode_durations.json (kernel k runs kTicks[k]), orch 40, dispatch 25, launch 12,
// finish 9 ticks.
//
//   depgraph_bench --benchmark_filter=Simulate
//   DEPGRAPH_BENCH_TASKS=65536,1000000 depgraph_bench --benchmark_filter=Simulate
#include <benchmark/benchmark.h>

#include "bench_inputs.h"
#include "depgraph/timing/schedule_simulation.h"

namespace {

// The same times as bench/inputs/decode_durations.json, by callable id.
constexpr int64_t kTicks[] = {900, 1200, 400, 2600, 1800, 700, 2200, 1500, 1100, 300, 5000, 250};

depgraph::TaskWork Work(const depgraph::DepGraph& graph) {
  depgraph::TaskWork work;
  for (const depgraph::Task& task : graph.tasks) {
    work.first.push_back(work.ticks.size());
    for (int slot = 0; slot < 3; ++slot) {
      const int64_t k = task.kernel_ids[slot];
      if (k >= 0) work.ticks.push_back(kTicks[k % 12]);
    }
  }
  work.first.push_back(work.ticks.size());
  return work;
}

void BM_SimulateSchedule(benchmark::State& state) {
  const depgraph::DepGraph& graph =
      depgraph::bench::DecodeInputs::Get().Graph(static_cast<uint64_t>(state.range(0)));
  const depgraph::TaskWork work = Work(graph);
  depgraph::MachineModel machine;
  machine.aic = 24;
  machine.aiv = 48;
  machine.orch = 40;
  machine.dispatch = 25;
  machine.launch = 12;
  machine.finish = 9;
  depgraph::SimulationResult result;
  std::string err;
  for (auto _ : state) {
    if (!depgraph::SimulateSchedule(graph, machine, work, {}, &result, &err)) {
      state.SkipWithError(err.c_str());
      break;
    }
    benchmark::DoNotOptimize(result.makespan);
  }
  depgraph::bench::SetGraphCounters(state, graph);
  state.counters["blocks"] = static_cast<double>(result.blocks);
  state.counters["makespan"] = static_cast<double>(result.makespan);
}

const bool kRegistered = [] {
  for (int64_t n : depgraph::bench::SizesFromEnv("DEPGRAPH_BENCH_TASKS", {65536})) {
    benchmark::RegisterBenchmark("BM_SimulateSchedule", BM_SimulateSchedule)
        ->Arg(n)
        ->Unit(benchmark::kMillisecond);
  }
  return true;
}();

}  // namespace
