// Per-node labels: kind, kernel names and core type, derived from kernel ids and a name map.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "depgraph/graph/graph.h"
#include "depgraph/graph/name_map.h"

namespace depgraph {

/// What a node is: a submitted kernel task, a dummy task (no kernel), or an allocation
/// (a predecessor that never appears in tasks[]).
enum class TaskKind { kSubmit, kDummy, kAlloc };
/// "submit", "dummy" or "alloc".
const char* TaskKindName(TaskKind kind);

/// Cores a task runs on: from its active kernel slots, or from the perf sidecar's records
/// (timing/perf_sidecar.h).
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

/// Labels for every node of `graph`, indexed like graph.nodes, from its kernel slots and the
/// name map. timing/perf_sidecar.h has the overload that merges a perf sidecar's facts.
/// O(V log names).
std::vector<TaskLabel> ResolveTaskLabels(const DepGraph& graph, const NameMap& names);

/// The names of a task's active kernel slots in slot order, de-duplicated, joined with " + ";
/// a slot that `names` does not name shows as f{id} (so with an empty map: "f3 + f5"). "" for
/// a task without an active kernel. O(slots x log names).
std::string KernelSlotNames(const Task& task, const NameMap& names);

/// The name the gates' verdict lines give a task: its first active kernel slot's name in
/// `names` (kernel id -> name), f{id} when `names` lacks it, "dummy" for a task without an active
/// kernel. O(slots x log names).
std::string FirstKernelName(const Task& task, const std::map<int32_t, std::string>& names);

/// The kernel name a viewer shows for node `node`: its label's func_name, or, for a submit task
/// without one (no name map), its kernel slots as f{id} (KernelSlotNames with an empty map), the
/// convention of the text report and the Graphviz page; "" for dummies and allocations without
/// a name. O(slots).
std::string DisplayKernelName(const DepGraph& graph, const std::vector<TaskLabel>& labels,
                              uint32_t node);

/// Sets every empty func_name of a submit task to DisplayKernelName's f{id} form, so that
/// labels, colouring and search by kernel work without a name map. O(V).
void NameKernelsById(const DepGraph& graph, std::vector<TaskLabel>* labels);

}  // namespace depgraph
