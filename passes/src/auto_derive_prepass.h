// Flow-insensitive pre-passes of AutoDeriveTaskDependencies: storage roots (spec §2.1) and
// TaskId lineage (spec §2.2), computed per Var of one function. Internal header.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <vector>

#include "depgraph_passes/ir.h"
#include "depgraph_passes/storage_roots.h"

namespace depgraph::passes {

/// Lineage record of a TaskId array Var (§2.2).
struct TaskArrayLineage {
  int64_t extent = 0;
  std::vector<VarId> full_array_task_ids;
  std::map<int64_t, std::vector<VarId>> static_slots;
  std::map<int64_t, std::map<VarId, std::set<int64_t>>> static_dynamic_slots;
  std::set<int64_t> unknown_static_slots;
  bool has_unknown_dynamic_update = false;
};

/// Per-Var facts of both pre-passes.
/// A slice that takes one row band of a fixed parent per loop iteration: its offset in `dim`
/// is the loop variable `index` itself, its other offsets are constants, its extent in `dim`
/// is `extent`, and the parent's location is precise (Full or constant boxes). Two iterations
/// of that loop with a step of at least `extent` touch disjoint bands (sound rule (b)).
struct LoopIndexedSlice {
  VarId parent = -1;
  VarId index = -1;
  int dim = 0;
  int64_t extent = 0;
  bool operator==(const LoopIndexedSlice&) const = default;
};

struct VarFacts {
  std::optional<Type> type;       ///< declared, annotated or inferred
  Location loc;                   ///< storage location (empty = none)
  bool unsupported = false;       ///< location Unsupported
  VarId canon_tid = -1;           ///< producer / alias TaskId (-1 = none)
  bool submit_tail = false;       ///< the TaskId tail of a submit
  std::optional<TaskArrayLineage> array;             ///< TaskId arrays
  std::vector<VarId> slot_tids;                      ///< slot temps: TaskIds read
  std::map<VarId, std::set<int64_t>> slot_refs;      ///< slot temps: slot references
  std::optional<LoopIndexedSlice> loop_indexed;      ///< slices at a loop-index offset
};

/// Resolution status of an argument (§2.1).
enum class LocStatus { kKnown, kUnknown, kUnsupported };

/// Results of the pre-passes for one function.
struct FunctionFacts {
  std::vector<VarFacts> vars;
  std::map<VarId, MemRef> root_memref;  ///< first MemRef seen per root

  /// True when `v` is a TaskId scalar. O(1).
  bool IsTaskId(VarId v) const;
  /// Status of an operand. O(1).
  LocStatus Status(const Operand& op) const;
  /// Canonical TaskId of `v` (itself for an unmapped TaskId scalar; -1 = none). O(1).
  VarId CanonTid(VarId v) const;
  /// Expansion of a TaskId array's lineage (§2.2). O(slots * refs).
  std::vector<VarId> Expansion(VarId array_var) const;
  /// True when the array is complete (§2.2). O(extent).
  bool IsComplete(VarId array_var) const;
  /// Root may-alias of §2.1. O(log roots).
  bool RootsMayAlias(VarId a, VarId b) const;
  /// Whether two roots are, or lie in, one allocation (the same root, or memrefs with the same
  /// base, whatever their byte ranges): what a gather-family op may read of them. O(log roots).
  bool RootsShareBuffer(VarId a, VarId b) const;
};

/// Runs both pre-passes over `fn`. O(statements + vars * alternatives).
FunctionFacts ComputeFunctionFacts(const Program& prog, const Function& fn);

}  // namespace depgraph::passes
