// The perf sidecar: `chip_swimlane_records.json`, the timing records a profiled run writes next
// to its deps.json, read the way the reference swimlane converter's reader reads them (the
// reader deps_viewer uses; spec/timing.md §1.4), and reduced to one entry per task.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "depgraph/graph/graph.h"
#include "depgraph/graph/name_map.h"
#include "depgraph/graph/task_label.h"

namespace depgraph {

/// One task of the sidecar: the records of its blocks (rows of `aicore_tasks` that survive
/// the AICPU join) merged.
struct PerfTask {
  TaskId id = 0;  ///< the record's task id, normalised to 64 bits (negatives wrap)
  /// `metadata.core_types[core]` of its rows' cores ("aic" / "aiv"; "aiv" for a core outside
  /// the array), or "mix" when the rows show more than one. "" when the type named is empty
  /// (a falsy JSON value): the viewer then infers the type from the kernel slots.
  std::string core_type;
  uint32_t blocks = 0;      ///< rows merged: one per block, per core of a MIX block
  int64_t start_ticks = 0;  ///< earliest row start, raw device counter
  int64_t end_ticks = 0;    ///< latest row end, raw device counter
  /// Earliest start and latest end in µs since the file's base tick (its smallest non-zero
  /// timestamp; a timestamp <= 0 reads as 0 µs), ticks x 10^6 / clock_freq_hz as the
  /// converter computes them, and the span between them (the task's duration, SPMD
  /// blocks and MIX cores included).
  double start_us = 0;
  double end_us = 0;
  double duration_us = 0;
};

/// One record merged into a task: the core it ran on and its interval (a viewer's timeline).
struct PerfRun {
  uint32_t task = 0;       ///< index into PerfSidecar::tasks
  int64_t core = 0;        ///< core_id (clamped to 64 bits)
  uint32_t type = 0;       ///< its core type: index into PerfSidecar::core_type_names
  double start_us = 0;     ///< as PerfTask::start_us
  double end_us = 0;
};

/// A loaded sidecar.
struct PerfSidecar {
  int level = 0;               ///< chip_swimlane_level, 1..4
  int64_t clock_freq_hz = 0;   ///< metadata.clock_freq_hz, > 0
  int64_t base_ticks = 0;      ///< the tick that reads as 0 µs
  /// One entry per task id, ascending. Level 1: every AICore row; level >= 2 (or any level
  /// with AICPU rows): only rows matched by an AICPU row; level >= 2 without AICPU rows: none.
  std::vector<PerfTask> tasks;
  /// Every record merged, task after task (tasks' order), a task's in file order.
  std::vector<PerfRun> runs;
  std::vector<std::string> core_type_names;  ///< the core types the runs name ("aic", "aiv")
  /// Lines the reference reader prints on stderr while loading successfully (the unmatched
  /// AICPU rows warning), exactly, without the newline. Callers print them.
  std::vector<std::string> warnings;

  /// The entry of `id`, or nullptr. O(log tasks).
  const PerfTask* Find(TaskId id) const;
  /// The task ids, ascending. O(tasks).
  std::vector<TaskId> TaskIds() const;
};

/// Largest sidecar LoadPerfSidecar reads (a 65,536-task capture with SPMD blocks writes
/// ~80 MB); larger files are kUnreadable.
inline constexpr uint64_t kMaxPerfSidecarBytes = uint64_t{4} << 30;

/// Outcome of LoadPerfSidecar.
enum class PerfSidecarStatus {
  kOk,
  /// What the reference reader rejects with an error the viewer catches (I/O error, invalid
  /// JSON, a level outside 1..4, no clock, ambiguous orchestrator phases, a row of fewer than 5
  /// columns, a value int() rejects): the viewer warns "couldn't read" and goes on without it.
  kUnreadable,
  /// What crashes the reference viewer (top level not an object, no chip_swimlane_level, a
  /// value of the wrong JSON type where a number, an array or an object is read): an error.
  kInvalid,
};

/// Loads the sidecar at `path`. On kUnreadable *err is the reference reader's message
/// (`Unsupported chip_swimlane_level: 7 (expected 1, 2, 3, or 4)`, Python's
/// `[Errno 2] No such file or directory: 'x'`; JSON syntax errors as "line L:column C: ..."
/// from depgraph/json_dom.h), on kInvalid "path: json.path: what" (message_quote.h escapes).
/// Only a regular file of at most kMaxPerfSidecarBytes is read (input_file.h); other files are
/// kUnreadable. Checks run in the reference's order, so the first failure is the one it
/// reports. Cost: O(file size + rows log rows) time; memory the file plus ~60 bytes per row
/// (the two row arrays are streamed into a compact form, the rest read into a DOM).
PerfSidecarStatus LoadPerfSidecar(const std::string& path, PerfSidecar* sidecar, std::string* err);

/// Same for an in-memory document; `path` names it in kInvalid messages. O(|text|).
PerfSidecarStatus LoadPerfSidecarText(std::string_view text, const std::string& path,
                                      PerfSidecar* sidecar, std::string* err);

/// Labels for every node of `graph` (graph/task_label.h) with the perf sidecar's facts merged
/// as the reference viewer merges them (spec/timing.md §5) when `sidecar` is given: a task it
/// knows is marked `perf` and takes its core type (kNone for a type other than aic/aiv/mix;
/// the kernel slots' type only when the sidecar's is empty) and the name map's entry for "-1"
/// as func_name (kernel-slot names only when there is none). O(V log sidecar + names).
std::vector<TaskLabel> ResolveTaskLabels(const DepGraph& graph, const NameMap& names,
                                         const PerfSidecar* sidecar);

}  // namespace depgraph
