#include "depgraph/audit/audit.h"

#include <algorithm>
#include <atomic>

#include "depgraph/internal/side_by_side.h"
#include "depgraph/support/cycle_text.h"
#include "depgraph/support/thread_count.h"

namespace depgraph {

// With two threads or more the stages run in two rounds of two: the access model (which needs
// no reachability) beside the reachability index and the summary, the race sweep's graph
// facts taken by whichever of the two ends first; then the race sweep (the only user of the
// index's query scratch) beside the false serialization search (which reads only the index's
// order and levels). The results are the same for any thread count.
bool RunAudit(const DepGraph& graph, const AuditOptions& options, AuditResult* result,
              std::string* err) {
  const unsigned threads = ResolveThreadCount(options.threads);
  ReachabilityIndex reach;
  std::vector<uint32_t> cycle;
  bool acyclic = false;
  RaceGraphFacts facts;
  std::atomic<bool> facts_taken{false};
  auto facts_unless_taken = [&] {
    if (!facts_taken.exchange(true)) facts = PrepareRaceGraphFacts(graph);
  };
  RunSideBySide(
      threads,
      [&] {
        result->model = BuildAccessModel(graph, options.access);
        facts_unless_taken();
      },
      [&] {
        acyclic = reach.Build(graph, &cycle);
        // The summary's reduction and proof share the cores left beside the model.
        if (acyclic) result->summary = SummarizeGraph(graph, reach, std::max(1u, threads - 1));
        facts_unless_taken();
      });
  if (!acyclic) {
    result->model = AccessModel();
    const IdDisplay rings = graph.Display();
    *err = CycleMessage("dependency graph has a cycle", cycle.size(), [&](size_t i) {
      return FormatTaskId(graph.nodes[cycle[i]], rings);
    });
    return false;
  }
  RaceOptions races = options.races;
  races.threads = threads;
  RunSideBySide(
      threads, [&] { result->races = FindRaces(graph, facts, result->model, &reach, races); },
      [&] {
        result->serialization =
            FindFalseSerialization(graph, result->model, reach, options.serialization);
      });
  result->reach_stats = reach.stats();
  return true;
}

}  // namespace depgraph
