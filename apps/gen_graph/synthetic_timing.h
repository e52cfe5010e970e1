// Synthetic timing records for a generated graph: a seeded list schedule of its tasks on a
// small chip, written as the runtime's chip_swimlane_records.json with a name map, so that
// `depgraph critical-path` (and other timing tools) can be benchmarked on any gen_graph shape.
#pragma once

#include <cstdint>
#include <string>

namespace gen_graph {

/// The simulated chip and its overheads, in device ticks.
struct TimingOptions {
  uint32_t aic_cores = 24;  ///< core ids 0..aic_cores-1
  uint32_t aiv_cores = 48;  ///< then aiv_cores AIV cores
  int64_t clock_freq_hz = 50000000;
  int64_t base = 120000000000;  ///< counter value at the start of the run
  int64_t dispatch = 7;         ///< ticks between a core being chosen and the kernel starting
  uint64_t seed = 1;            ///< kernel durations: 100..1000 ticks per callable, +-10% jitter
};

/// Reads the deps.json at `deps_path`, schedules every task with a kernel (in topological
/// order, each block on the earliest free core of its type; dummy and alloc tasks take no
/// time) and writes `<dir>/chip_swimlane_records.json` (level 1, 6-column rows grouped by
/// core) and `<dir>/name_map_gen_graph.json` (callable ids named `kernel_<id>`), atomically.
/// False with a message in *err. Cost: the load, then O((V + E) + blocks log cores).
bool WriteSyntheticTiming(const std::string& deps_path, const std::string& dir,
                          const TimingOptions& options, std::string* err);

}  // namespace gen_graph
