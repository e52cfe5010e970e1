// Per-node labels: kind, kernel names and core type, derived from kernel ids and a name map.
#pragma once

#include <string>
#include <vector>

#include "depgraph/graph.h"
#include "depgraph/name_map.h"
#include "depgraph/perf_sidecar.h"

namespace depgraph {

/// What a node is: a submitted kernel task, a dummy task (no kernel), or an allocation
/// (a predecessor that never appears in tasks[]).
enum class TaskKind { kSubmit, kDummy, kAlloc };
/// "submit", "dummy" or "alloc".
const char* TaskKindName(TaskKind kind);

/// Cores a task runs on: from its active kernel slots, or from the perf sidecar's records.
enum class CoreType { kNone, kAic, kAiv, kMix };

/// Display facts of one node.
struct TaskLabel {
  TaskKind kind = TaskKind::kAlloc;
  CoreType core = CoreType::kNone;
  /// Names of the active slots in slot order, de-duplicated, joined with " + "; a slot
  /// without a name shows as f{id}. Empty when the name map is empty or the node is no submit.
  /// A task of the perf sidecar takes the map's name of "-1" instead when there is one.
  std::string func_name;
  /// The perf sidecar has records of this task (its kernel id is then -1, spec/timing.md §5).
  bool perf = false;
};

/// Labels for every node of `graph`, indexed like graph.nodes, with the perf sidecar's facts
/// merged as the reference viewer merges them (spec/timing.md §5) when `sidecar` is given: a
/// task it knows takes its core type (kNone for a type other than aic/aiv/mix; inferred from
/// the kernel slots only when the sidecar's is empty) and the name map's entry for "-1" as
/// func_name (kernel-slot names only when there is none). O(V log sidecar + names).
std::vector<TaskLabel> ResolveTaskLabels(const DepGraph& graph, const NameMap& names,
                                         const PerfSidecar* sidecar = nullptr);

}  // namespace depgraph
