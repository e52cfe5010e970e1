#include "depgraph/audit/audit.h"
#include "depgraph/support/cycle_text.h"

namespace depgraph {

bool RunAudit(const DepGraph& graph, const AuditOptions& options, AuditResult* result,
              std::string* err) {
  ReachabilityIndex reach;
  std::vector<uint32_t> cycle;
  if (!reach.Build(graph, &cycle)) {
    const IdDisplay rings = graph.Display();
    *err = CycleMessage("dependency graph has a cycle", cycle.size(), [&](size_t i) {
      return FormatTaskId(graph.nodes[cycle[i]], rings);
    });
    return false;
  }
  result->model = BuildAccessModel(graph, options.access);
  result->summary = SummarizeGraph(graph, reach, options.threads);
  result->races = FindRaces(graph, result->model, &reach, options.races);
  result->reach_stats = reach.stats();
  result->serialization =
      FindFalseSerialization(graph, result->model, reach, options.serialization);
  return true;
}

}  // namespace depgraph
