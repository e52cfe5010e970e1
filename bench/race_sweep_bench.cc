// Benchmarks of the race sweep alone (FindRaces with the graph facts, access model and
// reachability index built beforehand) and of its graph-only inputs (PrepareRaceGraphFacts:
// the allocation resets and the submit-order facts) on graphs made by gen_graph's generator:
// shapes decode, wide and random at 262,144 tasks, or the sizes in DEPGRAPH_SWEEP_TASKS
// (comma-separated); seed 1 or DEPGRAPH_BENCH_SEED. One thread, so that the figure is the
// sweep's CPU time (the audit runs its two address parts side by side).
//
//   depgraph_bench --benchmark_filter='RaceSweep|RaceGraphFacts'
//   DEPGRAPH_SWEEP_TASKS=1000000 depgraph_bench --benchmark_filter=RaceSweep
#include <benchmark/benchmark.h>

#include "bench_inputs.h"
#include "depgraph/audit/race_audit.h"
#include "depgraph/graph/reachability.h"
#include "depgraph/reduce/access_model.h"

namespace {

void BM_RaceSweep(benchmark::State& state, int shape) {
  const uint64_t tasks = static_cast<uint64_t>(state.range(0));
  const depgraph::DepGraph& graph =
      depgraph::bench::ShapeGraph(shape, tasks, depgraph::bench::ShapeSeed());
  const depgraph::AccessModel model = depgraph::BuildAccessModel(graph);
  const depgraph::RaceGraphFacts facts = depgraph::PrepareRaceGraphFacts(graph);
  depgraph::ReachabilityIndex reach;
  if (!reach.Build(graph)) {
    state.SkipWithError("the generated graph has a cycle");
    return;
  }
  depgraph::RaceOptions options;
  options.threads = 1;
  uint64_t checked = 0;
  for (auto _ : state) {
    const depgraph::RaceReport report = depgraph::FindRaces(graph, facts, model, &reach, options);
    checked = report.reads_checked + report.writes_checked;
    benchmark::DoNotOptimize(report.total);
  }
  depgraph::bench::SetGraphCounters(state, graph);
  state.counters["accesses_checked"] = static_cast<double>(checked);
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()) *
                          static_cast<int64_t>(model.accesses.size()));
}

void BM_PrepareRaceGraphFacts(benchmark::State& state, int shape) {
  const uint64_t tasks = static_cast<uint64_t>(state.range(0));
  const depgraph::DepGraph& graph =
      depgraph::bench::ShapeGraph(shape, tasks, depgraph::bench::ShapeSeed());
  size_t resets = 0;
  for (auto _ : state) {
    const depgraph::RaceGraphFacts facts = depgraph::PrepareRaceGraphFacts(graph);
    resets = facts.resets.size();
    benchmark::DoNotOptimize(facts.resets.data());
  }
  depgraph::bench::SetGraphCounters(state, graph);
  state.counters["resets"] = static_cast<double>(resets);
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()) *
                          static_cast<int64_t>(graph.rows.size()));
}

const bool kRaceSweepRegistered = [] {
  using depgraph::bench::AuditStageShapes;
  const std::vector<int64_t> sizes =
      depgraph::bench::SizesFromEnv("DEPGRAPH_SWEEP_TASKS", {262144});
  depgraph::bench::RegisterPerShape("BM_RaceSweep", BM_RaceSweep, AuditStageShapes(), sizes);
  depgraph::bench::RegisterPerShape("BM_PrepareRaceGraphFacts", BM_PrepareRaceGraphFacts,
                                    AuditStageShapes(), sizes);
  return true;
}();

}  // namespace
