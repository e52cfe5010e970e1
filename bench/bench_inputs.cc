#include "bench_inputs.h"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <stdexcept>
#include <string>

#include "depgraph/graph/load_deps.h"
#include "graph_generator.h"

namespace depgraph::bench {

DecodeInputs& DecodeInputs::Get() {
  static DecodeInputs inputs;
  return inputs;
}

DecodeInputs::DecodeInputs() {
  const char* tmp = std::getenv("TMPDIR");
  std::string pattern = std::string(tmp && *tmp ? tmp : "/tmp") + "/depgraph_bench.XXXXXX";
  if (mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
  dir_ = pattern;
}

DecodeInputs::~DecodeInputs() {
  for (const auto& [tasks, entry] : entries_) std::remove(entry.path.c_str());
  if (!dir_.empty()) rmdir(dir_.c_str());
}

const DepGraph& DecodeInputs::Graph(uint64_t tasks) {
  Item& item = Entry(tasks);
  if (!item.graph) {
    item.graph = std::make_unique<DepGraph>();
    std::string err;
    if (!LoadDepsJson(item.path, item.graph.get(), &err)) throw std::runtime_error(err);
  }
  return *item.graph;
}

const StructuralReduction& DecodeInputs::Reduction(uint64_t tasks) {
  Item& item = Entry(tasks);
  if (!item.reduction) {
    item.reduction = std::make_unique<StructuralReduction>(ReduceStructurally(Graph(tasks)));
  }
  return *item.reduction;
}

DecodeInputs::Item& DecodeInputs::Entry(uint64_t tasks) {
  Item& item = entries_[tasks];
  if (item.path.empty()) {
    gen_graph::GenOptions options;
    options.shape = gen_graph::Shape::kDecode;
    options.tasks = tasks;
    options.seed = 1;
    const std::string path = dir_ + "/decode_" + std::to_string(tasks) + ".json";
    gen_graph::GenStats stats;
    std::string err;
    if (!gen_graph::WriteGraphFile(options, path, &stats, &err)) throw std::runtime_error(err);
    ::sync();  // keep the write-back of the fresh file out of the timings
    item.path = path;
    item.bytes = stats.bytes;
  }
  return item;
}

const DepGraph& ShapeGraph(int shape, uint64_t tasks, uint64_t seed) {
  static std::unique_ptr<DepGraph> graph;
  static int loaded_shape = -1;
  static uint64_t loaded_tasks = 0, loaded_seed = 0;
  if (graph && shape == loaded_shape && tasks == loaded_tasks && seed == loaded_seed) {
    return *graph;
  }
  graph.reset();
  const char* tmp = std::getenv("TMPDIR");
  std::string dir = std::string(tmp && *tmp ? tmp : "/tmp") + "/depgraph_shape_bench.XXXXXX";
  if (mkdtemp(dir.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
  const std::string path = dir + "/deps.json";
  gen_graph::GenOptions options;
  options.shape = static_cast<gen_graph::Shape>(shape);
  options.tasks = tasks;
  options.seed = seed;
  gen_graph::GenStats stats;
  std::string err;
  bool ok = gen_graph::WriteGraphFile(options, path, &stats, &err);
  auto loaded = std::make_unique<DepGraph>();
  if (ok) ok = LoadDepsJson(path, loaded.get(), &err);
  std::remove(path.c_str());
  rmdir(dir.c_str());
  if (!ok) throw std::runtime_error(err);
  graph = std::move(loaded);
  loaded_shape = shape;
  loaded_tasks = tasks;
  loaded_seed = seed;
  return *graph;
}

void RegisterPerShape(const std::string& prefix, void (*run)(benchmark::State&, int shape),
                      const std::vector<int>& shapes, const std::vector<int64_t>& sizes) {
  for (int shape : shapes) {
    const std::string name =
        prefix + "/" + gen_graph::ShapeName(static_cast<gen_graph::Shape>(shape));
    auto* bench = benchmark::RegisterBenchmark(name.c_str(), run, shape);
    for (int64_t n : sizes) bench->Arg(n);
    bench->Unit(benchmark::kMillisecond);
  }
}

uint64_t ShapeSeed() {
  for (const char* name : {"DEPGRAPH_BENCH_SEED", "DEPGRAPH_LAYOUT_SEED"}) {
    const char* env = std::getenv(name);
    if (env != nullptr && *env) return std::stoull(env);
  }
  return 1;
}

void SetGraphCounters(benchmark::State& state, const DepGraph& graph) {
  state.counters["tasks"] = static_cast<double>(graph.tasks.size());
  state.counters["rows"] = static_cast<double>(graph.rows.size());
  state.counters["pairs"] = static_cast<double>(graph.pairs.size());
}

std::vector<int> AuditStageShapes() {
  using gen_graph::Shape;
  return {static_cast<int>(Shape::kDecode), static_cast<int>(Shape::kWide),
          static_cast<int>(Shape::kRandom)};
}

std::vector<int64_t> SizesFromEnv(const char* env, std::vector<int64_t> defaults) {
  std::vector<int64_t> sizes;
  if (const char* value = std::getenv(env); value != nullptr && *value) {
    std::string text(value);
    size_t start = 0;
    while (start <= text.size()) {
      size_t comma = text.find(',', start);
      if (comma == std::string::npos) comma = text.size();
      const std::string item = text.substr(start, comma - start);
      if (!item.empty()) sizes.push_back(std::stoll(item));
      start = comma + 1;
    }
  }
  return sizes.empty() ? defaults : sizes;
}

}  // namespace depgraph::bench
