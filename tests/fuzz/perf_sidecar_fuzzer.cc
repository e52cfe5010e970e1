// Fuzz harness of the perf sidecar reader (LoadPerfSidecarText): any text either loads, or
// fails with a one-line reason and an empty sidecar; a loaded sidecar has one entry per task id
// in ascending order, and merging it into a small fixed graph keeps that graph's pairs.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "depgraph/graph/graph.h"
#include "depgraph/graph/load_deps.h"
#include "depgraph/graph/task_label.h"
#include "depgraph/timing/perf_sidecar.h"
#include "fuzz_check.h"

namespace depgraph::fuzz {
namespace {

/// A graph with an alloc node, submit tasks and an isolated dummy (id 4), loaded once.
const DepGraph& BaseGraph() {
  static const DepGraph graph = [] {
    DepGraph g;
    std::string err;
    const bool ok = LoadDepsJsonText(
        R"({"tasks":[{"task_id":1,"kernel_ids":[0,-1,-1]},{"task_id":2,"kernel_ids":[-1,1,2]},)"
        R"({"task_id":4,"kernel_ids":[-1,-1,-1]}],"edges":[{"pred":9,"succ":1},)"
        R"({"pred":1,"succ":2}]})",
        "base.json", &g, &err);
    Require(ok, "the base graph loads");
    return g;
  }();
  return graph;
}

}  // namespace
}  // namespace depgraph::fuzz

/// libFuzzer entry point: loads `data` as a perf sidecar, checks the entries, adds its tasks
/// to a fixed graph and labels it. Inputs above kMaxInputBytes are skipped.
/// Cost: O(bytes + rows log rows).
extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace depgraph;
  using namespace depgraph::fuzz;
  if (size > kMaxInputBytes) return 0;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  PerfSidecar sidecar;
  std::string err;
  const PerfSidecarStatus status =
      LoadPerfSidecarText(text, "chip_swimlane_records.json", &sidecar, &err);
  if (status != PerfSidecarStatus::kOk) {
    RequireOneLineMessage(err);
    Require(sidecar.tasks.empty() && sidecar.warnings.empty(), "a failed load leaves nothing");
    return 0;
  }
  Require(sidecar.level >= 1 && sidecar.level <= 4, "the level is 1..4");
  Require(sidecar.clock_freq_hz > 0, "the clock is positive");
  for (const std::string& warning : sidecar.warnings) RequireOneLineMessage(warning);
  for (size_t i = 0; i < sidecar.tasks.size(); ++i) {
    const PerfTask& task = sidecar.tasks[i];
    Require(i == 0 || sidecar.tasks[i - 1].id < task.id, "task ids strictly ascending");
    Require(sidecar.Find(task.id) == &task, "Find returns each task");
    Require(task.blocks >= 1, "every task has a record");
    Require(task.duration_us == task.end_us - task.start_us, "duration is the span");
  }
  DepGraph graph = BaseGraph();
  const size_t pairs = graph.pairs.size();
  std::vector<std::pair<TaskId, TaskId>> before;
  for (const Pair& p : graph.pairs) before.emplace_back(graph.nodes[p.pred], graph.nodes[p.succ]);
  AddIsolatedNodes(&graph, sidecar.TaskIds());
  Require(graph.pairs.size() == pairs, "no pair added or lost");
  for (size_t p = 0; p < pairs; ++p) {
    Require(graph.nodes[graph.pairs[p].pred] == before[p].first &&
                graph.nodes[graph.pairs[p].succ] == before[p].second,
            "pairs keep their tasks");
  }
  for (size_t n = 1; n < graph.nodes.size(); ++n) {
    Require(graph.nodes[n - 1] < graph.nodes[n], "nodes strictly ascending");
  }
  for (TaskId id : sidecar.TaskIds()) Require(graph.FindNode(id) >= 0, "every task is a node");
  const std::vector<TaskLabel> labels = ResolveTaskLabels(graph, NameMap(), &sidecar);
  Require(labels.size() == graph.nodes.size(), "one label per node");
  for (size_t n = 0; n < graph.nodes.size(); ++n) {
    Require(labels[n].perf == (sidecar.Find(graph.nodes[n]) != nullptr), "perf marks its tasks");
  }
  return 0;
}
