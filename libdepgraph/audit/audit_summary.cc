#include "depgraph/audit/audit_summary.h"

#include <algorithm>

#include "depgraph/reduce/edge_mode.h"
#include "depgraph/reduce/reduction.h"

namespace depgraph {

const char* EdgeSourceName(EdgeSource source) {
  switch (source) {
    case EdgeSource::kCreator: return "creator";
    case EdgeSource::kTensormap: return "tensormap";
    case EdgeSource::kExplicit: return "explicit";
    case EdgeSource::kOther: return "other";
  }
  return "?";
}

AuditSummary SummarizeGraph(const DepGraph& graph, const ReachabilityIndex& reach,
                            unsigned threads) {
  AuditSummary s;
  s.tasks = graph.tasks.size();
  s.nodes = graph.nodes.size();
  s.tensors = graph.tensors.size();
  s.pairs = graph.pairs.size();
  s.rows = graph.rows.size();
  for (uint32_t n = 0; n < graph.nodes.size(); ++n) {
    const Task* task = graph.TaskOfNode(n);
    if (task == nullptr) {
      ++s.alloc;
    } else if (task->HasActiveKernel()) {
      ++s.submit;
    } else {
      ++s.dummy;
    }
  }
  s.isolated_dummies = s.tasks - s.submit - s.dummy;

  std::vector<uint8_t> sources(graph.pairs.size(), 0);
  for (const EdgeRow& row : graph.rows) {
    const int k = static_cast<int>(row.source);
    ++s.rows_by_source[k];
    sources[row.pair] |= static_cast<uint8_t>(1u << k);
  }
  for (uint8_t mask : sources) {
    for (int k = 0; k < 4; ++k) s.pairs_by_source[k] += (mask >> k) & 1u;
  }

  for (uint32_t level : reach.levels()) {
    if (level >= s.tasks_per_level.size()) s.tasks_per_level.resize(level + 1, 0);
    ++s.tasks_per_level[level];
  }
  if (!s.tasks_per_level.empty()) {
    s.depth = s.tasks_per_level.size() - 1;
    s.width = *std::max_element(s.tasks_per_level.begin(), s.tasks_per_level.end());
  }
  s.critical_path = reach.critical_path();

  const StructuralReduction reduction = ReduceStructurally(graph, threads);
  s.redundant = reduction.redundant_count;
  const EdgeSelection reduced = SelectEdges(graph, reduction, EdgeMode::kReduced, threads);
  s.reduced_removes = reduced.listed.size();
  s.creator_retained = reduced.retained_count;
  s.dataflow_removes = SelectEdges(graph, reduction, EdgeMode::kReducedDataflow, threads).listed.size();
  return s;
}

}  // namespace depgraph
