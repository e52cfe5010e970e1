#include "depgraph/timing/schedule_what_if.h"
#include "depgraph/support/cycle_text.h"

#include <algorithm>

#include "depgraph/graph/reachability.h"
#include "depgraph/reduce/access_model.h"
#include "depgraph/reduce/edge_mode.h"
#include "depgraph/reduce/reduction.h"

namespace depgraph {

namespace {

std::string CycleText(const DepGraph& graph, const std::vector<uint32_t>& cycle) {
  const IdDisplay display = graph.Display();
  return CycleMessage("dependency graph has a cycle", cycle.size(), [&](size_t i) {
    return FormatTaskId(graph.nodes[cycle[i]], display);
  });
}

}  // namespace

bool KeepReducedDataflow(const DepGraph& graph, std::vector<uint8_t>* keep, std::string* err,
                         unsigned threads) {
  const StructuralReduction reduction = ReduceStructurally(graph, threads);
  if (!reduction.is_dag) {
    *err = CycleText(graph, reduction.cycle);
    return false;
  }
  EdgeSelection selection = SelectEdges(graph, reduction, EdgeMode::kReducedDataflow, threads);
  *keep = std::move(selection.shown);
  return true;
}

bool FindFalseEdges(const DepGraph& graph, SerializationReport* report, std::string* err) {
  ReachabilityIndex reach;
  std::vector<uint32_t> cycle;
  if (!reach.Build(graph, &cycle)) {
    *err = CycleText(graph, cycle);
    return false;
  }
  const AccessModel model = BuildAccessModel(graph);
  *report = FindFalseSerialization(graph, model, reach);
  return true;
}

std::vector<uint8_t> KeepWithoutFalseEdges(const DepGraph& graph,
                                           const std::vector<FalseSerialization>& findings,
                                           int64_t only) {
  std::vector<uint8_t> keep(graph.pairs.size(), 1);
  for (size_t f = 0; f < findings.size(); ++f) {
    if (only >= 0 && static_cast<size_t>(only) != f) continue;
    for (uint32_t p : findings[f].pairs) keep[p] = 0;
  }
  return keep;
}

bool RankFalseEdges(const DepGraph& graph, const MachineModel& machine, const TaskWork& work,
                    const std::vector<FalseSerialization>& findings, int64_t baseline_makespan,
                    size_t limit, std::vector<FalseEdgeCost>* ranked, std::string* err) {
  ranked->clear();
  std::vector<uint32_t> order(findings.size());
  for (uint32_t f = 0; f < order.size(); ++f) order[f] = f;
  // Unknown gains (-1, over the audit's budget) may be large: they go first with the largest.
  auto gain = [&](uint32_t f) {
    return findings[f].depth_gain < 0 ? INT64_MAX : findings[f].depth_gain;
  };
  std::stable_sort(order.begin(), order.end(),
                   [&](uint32_t a, uint32_t b) { return gain(a) > gain(b); });
  if (limit != 0 && order.size() > limit) order.resize(limit);
  std::vector<uint8_t> keep(graph.pairs.size(), 1);
  SimulationOptions options;
  options.keep = &keep;
  SimulationResult result;
  for (uint32_t f : order) {
    for (uint32_t p : findings[f].pairs) keep[p] = 0;
    if (!SimulateSchedule(graph, machine, work, options, &result, err)) return false;
    for (uint32_t p : findings[f].pairs) keep[p] = 1;
    ranked->push_back(FalseEdgeCost{f, result.makespan, baseline_makespan - result.makespan});
  }
  std::stable_sort(ranked->begin(), ranked->end(),
                   [](const FalseEdgeCost& a, const FalseEdgeCost& b) {
                     return a.saving != b.saving ? a.saving > b.saving : a.finding < b.finding;
                   });
  return true;
}

}  // namespace depgraph
