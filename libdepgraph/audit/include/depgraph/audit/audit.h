// The whole audit of one graph: access model, summary, races and false serialization.
#pragma once

#include <string>

#include "depgraph/audit/audit_summary.h"
#include "depgraph/audit/false_serialization.h"
#include "depgraph/audit/race_audit.h"
#include "depgraph/graph/graph.h"
#include "depgraph/graph/reachability.h"
#include "depgraph/reduce/access_model.h"

namespace depgraph {

/// Options of every audit stage.
struct AuditOptions {
  AccessModelOptions access;
  RaceOptions races;
  SerializationOptions serialization;
  /// Threads of the audit (0 = every core): from 2 up, the stages run two at a time and the
  /// summary's reduction and proof take the threads but one. Results never depend on it.
  unsigned threads = 0;
};

/// Everything `depgraph audit` reports.
struct AuditResult {
  AccessModel model;
  AuditSummary summary;
  RaceReport races;
  SerializationReport serialization;
  ReachabilityStats reach_stats;  ///< queries of the race sweep
};

/// Runs every stage on a loaded graph. Returns false on a cyclic graph with a message naming
/// one cycle (`dependency graph has a cycle: 3 -> 7 -> 3`); the audit needs a DAG.
/// Cost: the sum of the stages' costs (access_model.h, reachability.h, race_audit.h,
/// false_serialization.h, audit_summary.h), near-linear in the input on runtime graphs; with
/// two threads, about the longer of each pair: the access model or the index and summary,
/// then the race sweep or the false serialization search.
bool RunAudit(const DepGraph& graph, const AuditOptions& options, AuditResult* result,
              std::string* err);

}  // namespace depgraph
