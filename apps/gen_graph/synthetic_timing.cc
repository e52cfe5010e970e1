#include "synthetic_timing.h"

#include <algorithm>
#include <filesystem>
#include <functional>
#include <queue>
#include <vector>

#include "depgraph/graph/load_deps.h"
#include "depgraph/graph/topo_order.h"
#include "depgraph/support/atomic_file.h"
#include "seeded_rng.h"

namespace gen_graph {

namespace {

using depgraph::DepGraph;

/// One row of the records: a block of a task on a core.
struct Row {
  uint64_t task_id;
  int64_t start;
  int64_t end;
};

bool WriteText(const std::string& path, const std::string& text, std::string* err) {
  depgraph::AtomicFile file;
  if (!file.Open(path, err)) return false;
  file.stream() << text;
  return file.Commit(err);
}

}  // namespace

bool WriteSyntheticTiming(const std::string& deps_path, const std::string& dir,
                          const TimingOptions& options, std::string* err) {
  DepGraph graph;
  if (!depgraph::LoadDepsJson(deps_path, &graph, err)) return false;
  std::vector<uint32_t> order, cycle;
  if (!depgraph::TopologicalOrder(graph, &order, &cycle)) {
    *err = deps_path + ": the graph has a cycle";
    return false;
  }
  // Per callable id: a base duration; per task: that +- 10%.
  SeededRng rng(options.seed);
  std::vector<int64_t> kernel_ticks;
  const auto duration = [&](int64_t kernel) {
    while (kernel_ticks.size() <= static_cast<size_t>(kernel)) {
      kernel_ticks.push_back(rng.Between(100, 1000));
    }
    const int64_t base = kernel_ticks[static_cast<size_t>(kernel)];
    return base + rng.Between(-base / 10, base / 10);
  };
  const uint32_t cores = options.aic_cores + options.aiv_cores;
  std::vector<std::vector<Row>> rows(cores);
  // Free time per core, a min-heap per core type of (free, core).
  using Slot = std::pair<int64_t, uint32_t>;
  std::priority_queue<Slot, std::vector<Slot>, std::greater<Slot>> aic, aiv;
  for (uint32_t c = 0; c < cores; ++c) (c < options.aic_cores ? aic : aiv).push({options.base, c});
  std::vector<int64_t> finish(graph.nodes.size(), options.base);
  int64_t max_kernel = -1;
  for (uint32_t node : order) {
    int64_t ready = options.base;
    for (auto [e, end] = boost::in_edges(node, graph.graph); e != end; ++e) {
      ready = std::max(ready, finish[boost::source(*e, graph.graph)]);
    }
    finish[node] = ready;
    const depgraph::Task* task = graph.TaskOfNode(node);
    if (task == nullptr || !task->HasActiveKernel()) continue;
    const bool on_aic = task->kernel_ids[0] >= 0;
    const int64_t kernel =
        on_aic ? task->kernel_ids[0] : std::max(task->kernel_ids[1], task->kernel_ids[2]);
    max_kernel = std::max(max_kernel, kernel);
    auto& heap = (on_aic && options.aic_cores > 0) || options.aiv_cores == 0 ? aic : aiv;
    for (int64_t block = 0; block < task->block_num; ++block) {
      auto [free, core] = heap.top();
      heap.pop();
      const int64_t start = std::max(ready, free) + options.dispatch;
      const int64_t end = start + duration(kernel);
      rows[core].push_back(Row{graph.nodes[node], start, end});
      heap.push({end, core});
      finish[node] = std::max(finish[node], end);
    }
  }

  std::string text =
      "{\n  \"chip_swimlane_level\": 1,\n  \"metadata\": {\n    \"clock_freq_hz\": " +
      std::to_string(options.clock_freq_hz) + ",\n    \"num_cores\": " + std::to_string(cores) +
      ",\n    \"core_types\": [";
  for (uint32_t c = 0; c < cores; ++c) {
    text += (c ? ", " : "") + std::string(c < options.aic_cores ? "\"aic\"" : "\"aiv\"");
  }
  text += "]\n  },\n  \"aicore_tasks\": [";
  bool first = true;
  for (uint32_t c = 0; c < cores; ++c) {
    for (size_t i = 0; i < rows[c].size(); ++i) {
      const Row& row = rows[c][i];
      text += (first ? "\n    [" : ",\n    [") + std::to_string(c) + ", " +
              std::to_string(row.task_id) + ", " + std::to_string(i + 1) + ", " +
              std::to_string(row.start) + ", " + std::to_string(row.end) + ", " +
              std::to_string(std::min<int64_t>(options.dispatch, 7)) + "]";
      first = false;
    }
  }
  text += "\n  ],\n  \"aicpu_tasks\": []\n}\n";
  std::string names = "{\n  \"callable_id_to_name\": {";
  for (int64_t k = 0; k <= max_kernel; ++k) {
    names += (k ? ",\n    \"" : "\n    \"") + std::to_string(k) + "\": \"kernel_" +
             std::to_string(k) + "\"";
  }
  names += "\n  }\n}\n";
  const std::filesystem::path out(dir);
  return WriteText((out / "chip_swimlane_records.json").string(), text, err) &&
         WriteText((out / "name_map_gen_graph.json").string(), names, err);
}

}  // namespace gen_graph
