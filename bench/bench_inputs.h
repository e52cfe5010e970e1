// Inputs shared by the benchmarks: decode graphs made by gen_graph's generator (seed 1), their
// loaded form and structural reduction, and the sizes to run.
#pragma once

#include <benchmark/benchmark.h>

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "depgraph/graph/graph.h"
#include "depgraph/reduce/reduction.h"

namespace depgraph::bench {

/// Decode graphs generated once per process into a private temporary directory (removed at
/// exit), plus their loaded form and structural reduction, built on first use.
class DecodeInputs {
 public:
  /// The process-wide instance.
  static DecodeInputs& Get();
  ~DecodeInputs();

  /// Path of the generated file with `tasks` tasks (generated on first call).
  const std::string& Path(uint64_t tasks) { return Entry(tasks).path; }
  /// File size in bytes.
  uint64_t Bytes(uint64_t tasks) { return Entry(tasks).bytes; }
  /// The loaded graph (loaded on first call; throws on a load error).
  const DepGraph& Graph(uint64_t tasks);
  /// Its structural reduction (computed on first call).
  const StructuralReduction& Reduction(uint64_t tasks);

 private:
  struct Item {
    std::string path;
    uint64_t bytes = 0;
    std::unique_ptr<DepGraph> graph;
    std::unique_ptr<StructuralReduction> reduction;
  };

  DecodeInputs();
  Item& Entry(uint64_t tasks);

  std::string dir_;
  std::map<uint64_t, Item> entries_;
};

/// The loaded graph of gen_graph's `shape` with `tasks` tasks and `seed` (the bytes of
/// `gen_graph --shape S --tasks N --seed K`), generated into a private temporary directory,
/// loaded and deleted at once. The previous graph is released first, so that at most one big
/// graph is alive (1 M decode tasks: about 1 GB loaded, 1.7 GB as a file): run one shape's
/// sizes one after another. Throws on a generation or load error.
const DepGraph& ShapeGraph(int shape, uint64_t tasks, uint64_t seed);

/// Registers benchmark `prefix/<shape name>` for each of gen_graph's `shapes`, one argument
/// per size, in milliseconds; one shape's sizes run one after another, so that ShapeGraph
/// generates each graph once.
void RegisterPerShape(const std::string& prefix, void (*run)(benchmark::State&, int shape),
                      const std::vector<int>& shapes, const std::vector<int64_t>& sizes);

/// The shapes the audit's stage benchmarks run on, for RegisterPerShape: decode (many
/// written intervals), wide (hubs, 741 k random tensors at 1 M) and random (one interval).
std::vector<int> AuditStageShapes();

/// The seed of the shape benchmarks: DEPGRAPH_BENCH_SEED, else DEPGRAPH_LAYOUT_SEED, else 1.
uint64_t ShapeSeed();

/// Sets the tasks/rows/pairs counters of a benchmark run on `graph`.
void SetGraphCounters(benchmark::State& state, const DepGraph& graph);

/// Sizes to run: the comma-separated numbers in environment variable `env` (such as
/// DEPGRAPH_BENCH_TASKS=1000000), or `defaults` when it is unset or empty.
std::vector<int64_t> SizesFromEnv(const char* env, std::vector<int64_t> defaults);

/// Decode sizes to run: DEPGRAPH_BENCH_TASKS or 10k and 50k.
inline std::vector<int64_t> BenchSizes() {
  return SizesFromEnv("DEPGRAPH_BENCH_TASKS", {10000, 50000});
}

}  // namespace depgraph::bench
