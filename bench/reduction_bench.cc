// Benchmarks of the pipeline stages deps_viewer runs on a big capture: loading deps.json,
// the structural transitive reduction and the dataflow-verified edge selection, on decode
// graphs made by gen_graph's generator (seed 1) at startup into a temporary directory:
// 10,000 and 50,000 tasks, or the sizes in DEPGRAPH_BENCH_TASKS (comma-separated).
//
//   depgraph_bench --benchmark_filter='Load|Reduce|Select'
//   DEPGRAPH_BENCH_TASKS=1000000 depgraph_bench --benchmark_filter=Load   # ~1.7 GB in $TMPDIR
#include <benchmark/benchmark.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "depgraph/edge_mode.h"
#include "depgraph/load_deps.h"
#include "depgraph/reduction.h"
#include "graph_generator.h"

namespace {

/// Decode graphs generated once per process into a private temporary directory (removed at
/// exit), plus their loaded form and structural reduction, built on first use.
class DecodeInputs {
 public:
  static DecodeInputs& Get() {
    static DecodeInputs inputs;
    return inputs;
  }
  ~DecodeInputs() {
    for (const auto& [tasks, entry] : entries_) std::remove(entry.path.c_str());
    if (!dir_.empty()) rmdir(dir_.c_str());
  }

  /// Path of the generated file with `tasks` tasks (generated on first call).
  const std::string& Path(uint64_t tasks) { return Entry(tasks).path; }
  /// File size in bytes.
  uint64_t Bytes(uint64_t tasks) { return Entry(tasks).bytes; }
  /// The loaded graph (loaded on first call).
  const depgraph::DepGraph& Graph(uint64_t tasks) {
    Item& item = Entry(tasks);
    if (!item.graph) {
      item.graph = std::make_unique<depgraph::DepGraph>();
      std::string err;
      if (!depgraph::LoadDepsJson(item.path, item.graph.get(), &err)) {
        throw std::runtime_error(err);
      }
    }
    return *item.graph;
  }
  /// Its structural reduction (computed on first call).
  const depgraph::StructuralReduction& Reduction(uint64_t tasks) {
    Item& item = Entry(tasks);
    if (!item.reduction) {
      item.reduction = std::make_unique<depgraph::StructuralReduction>(
          depgraph::ReduceStructurally(Graph(tasks)));
    }
    return *item.reduction;
  }

 private:
  struct Item {
    std::string path;
    uint64_t bytes = 0;
    std::unique_ptr<depgraph::DepGraph> graph;
    std::unique_ptr<depgraph::StructuralReduction> reduction;
  };

  DecodeInputs() {
    const char* tmp = std::getenv("TMPDIR");
    std::string pattern = std::string(tmp && *tmp ? tmp : "/tmp") + "/depgraph_bench.XXXXXX";
    if (mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
    dir_ = pattern;
  }

  Item& Entry(uint64_t tasks) {
    Item& item = entries_[tasks];
    if (item.path.empty()) {
      gen_graph::GenOptions options;
      options.shape = gen_graph::Shape::kDecode;
      options.tasks = tasks;
      options.seed = 1;
      const std::string path = dir_ + "/decode_" + std::to_string(tasks) + ".json";
      gen_graph::GenStats stats;
      std::string err;
      if (!gen_graph::WriteGraphFile(options, path, &stats, &err)) {
        throw std::runtime_error(err);
      }
      ::sync();  // keep the write-back of the fresh file out of the timings
      item.path = path;
      item.bytes = stats.bytes;
    }
    return item;
  }

  std::string dir_;
  std::map<uint64_t, Item> entries_;
};

void SetGraphCounters(benchmark::State& state, const depgraph::DepGraph& graph) {
  state.counters["tasks"] = static_cast<double>(graph.tasks.size());
  state.counters["rows"] = static_cast<double>(graph.rows.size());
  state.counters["pairs"] = static_cast<double>(graph.pairs.size());
}

void BM_LoadDepsJson(benchmark::State& state) {
  const uint64_t tasks = static_cast<uint64_t>(state.range(0));
  DecodeInputs& inputs = DecodeInputs::Get();
  const std::string& path = inputs.Path(tasks);
  for (auto _ : state) {
    depgraph::DepGraph graph;
    std::string err;
    if (!depgraph::LoadDepsJson(path, &graph, &err)) {
      state.SkipWithError(err.c_str());
      break;
    }
    benchmark::DoNotOptimize(graph.pairs.data());
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) *
                          static_cast<int64_t>(inputs.Bytes(tasks)));
  SetGraphCounters(state, inputs.Graph(tasks));
}

void BM_ReduceStructurally(benchmark::State& state) {
  const uint64_t tasks = static_cast<uint64_t>(state.range(0));
  const depgraph::DepGraph& graph = DecodeInputs::Get().Graph(tasks);
  size_t redundant = 0;
  for (auto _ : state) {
    depgraph::StructuralReduction reduction = depgraph::ReduceStructurally(graph);
    redundant = reduction.redundant_count;
    benchmark::DoNotOptimize(reduction.redundant.data());
  }
  SetGraphCounters(state, graph);
  state.counters["redundant"] = static_cast<double>(redundant);
}

void BM_SelectEdges(benchmark::State& state, depgraph::EdgeMode mode) {
  const uint64_t tasks = static_cast<uint64_t>(state.range(0));
  DecodeInputs& inputs = DecodeInputs::Get();
  const depgraph::DepGraph& graph = inputs.Graph(tasks);
  const depgraph::StructuralReduction& reduction = inputs.Reduction(tasks);
  size_t removed = 0;
  for (auto _ : state) {
    depgraph::EdgeSelection selection = depgraph::SelectEdges(graph, reduction, mode);
    removed = selection.listed.size();
    benchmark::DoNotOptimize(selection.shown.data());
  }
  SetGraphCounters(state, graph);
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

// Decode sizes to run: DEPGRAPH_BENCH_TASKS (comma-separated, e.g. "1000000") or 10k and 50k.
std::vector<int64_t> BenchSizes() {
  std::vector<int64_t> sizes;
  if (const char* env = std::getenv("DEPGRAPH_BENCH_TASKS"); env != nullptr && *env) {
    std::string text(env);
    size_t start = 0;
    while (start <= text.size()) {
      size_t comma = text.find(',', start);
      if (comma == std::string::npos) comma = text.size();
      const std::string item = text.substr(start, comma - start);
      if (!item.empty()) sizes.push_back(std::stoll(item));
      start = comma + 1;
    }
  }
  if (sizes.empty()) sizes = {10000, 50000};
  return sizes;
}

// Registered at static-initialisation time so that benchmark_main's main() sees them.
const bool kRegistered = [] {
  const std::vector<int64_t> sizes = BenchSizes();
  auto with_sizes = [&](benchmark::internal::Benchmark* bench) {
    for (int64_t n : sizes) bench->Arg(n);
    bench->Unit(benchmark::kMillisecond);
  };
  with_sizes(benchmark::RegisterBenchmark("BM_LoadDepsJson", BM_LoadDepsJson));
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
