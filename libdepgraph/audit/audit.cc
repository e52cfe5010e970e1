#include "depgraph/audit/audit.h"

namespace depgraph {

bool RunAudit(const DepGraph& graph, const AuditOptions& options, AuditResult* result,
              std::string* err) {
  ReachabilityIndex reach;
  std::vector<uint32_t> cycle;
  if (!reach.Build(graph, &cycle)) {
    const IdDisplay rings = graph.Display();
    std::string text;
    for (size_t i = 0; i < cycle.size(); ++i) {
      text += (i ? " -> " : "") + FormatTaskId(graph.nodes[cycle[i]], rings);
    }
    *err = "dependency graph has a cycle: " + text;
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
