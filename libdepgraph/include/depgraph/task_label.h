// Per-node labels: kind, kernel names and core type, derived from kernel ids and a name map.
#pragma once

#include <string>
#include <vector>

#include "depgraph/graph.h"
#include "depgraph/name_map.h"

namespace depgraph {

/// What a node is: a submitted kernel task, a dummy task (no kernel), or an allocation
/// (a predecessor that never appears in tasks[]).
enum class TaskKind { kSubmit, kDummy, kAlloc };
/// "submit", "dummy" or "alloc".
const char* TaskKindName(TaskKind kind);

/// Cores a submit task runs on, from its active kernel slots.
enum class CoreType { kNone, kAic, kAiv, kMix };

/// Display facts of one node.
struct TaskLabel {
  TaskKind kind = TaskKind::kAlloc;
  CoreType core = CoreType::kNone;
  /// Names of the active slots in slot order, de-duplicated, joined with " + "; a slot
  /// without a name shows as f{id}. Empty when the name map is empty or the node is no submit.
  std::string func_name;
};

/// Labels for every node of `graph`, indexed like graph.nodes. O(V + names).
std::vector<TaskLabel> ResolveTaskLabels(const DepGraph& graph, const NameMap& names);

}  // namespace depgraph
