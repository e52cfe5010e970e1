// What drives the schedule simulation besides the graph: the machine description (the keys of
// a timing case's simulation.json) and the kernel run times (a durations file, the timing
// records of a run, or the machine description's nominal times), resolved per task.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "depgraph/graph/graph.h"
#include "depgraph/graph/name_map.h"
#include "depgraph/timing/schedule_simulation.h"
#include "depgraph/timing/timing_records.h"

namespace depgraph {

/// Run times given by hand, or by a machine description's nominal times, in ticks.
struct DurationTable {
  /// Per task id: its runs (cyclic, block-major, slot-minor, see TaskWork); one value = all.
  std::map<TaskId, std::vector<int64_t>> tasks;
  /// Per ring-local index (machine descriptions: a key below 2^32 names that local index on
  /// every ring, as the timing cases' generator keys its tasks).
  std::map<uint32_t, std::vector<int64_t>> local_tasks;
  std::map<int64_t, int64_t> kernel_ids;        ///< per callable id, one run of that kernel
  std::map<std::string, int64_t> kernel_names;  ///< per kernel name (through the name map)
  std::optional<int64_t> fallback;              ///< `default`: any run not otherwise timed
  bool empty() const {
    return tasks.empty() && local_tasks.empty() && kernel_ids.empty() && kernel_names.empty() &&
           !fallback;
  }
};

/// A machine description: the machine, the nominal run times and per-task delays.
struct MachineDescription {
  MachineModel machine;
  bool has_cores = false;  ///< `aic` or `aiv` given
  DurationTable nominal;   ///< `dur` (per callable id) and `task_dur` (per task id)
  /// `delay`: ticks a task waits after it is ready, by task id ("(ring, local)" or a decimal
  /// of at least 2^32) and by local index (a decimal below 2^32: that index on every ring).
  std::map<TaskId, int64_t> delay;
  std::map<uint32_t, int64_t> local_delay;
  int64_t freq_hz = 0;  ///< `freq` (0: not given)
  /// With a simulation.json of several ranks: the rank taken, its `sub`, and whether that names
  /// the capture's directory (false when --rank picked a rank of another directory).
  int64_t rank = -1;
  std::string rank_sub;
  bool rank_matches_capture = true;
};

/// Which rank of a simulation.json a capture takes (ParseMachineDescription).
struct RankChoice {
  int64_t index = -1;       ///< a rank given by the user (--rank); -1: by the capture's directory
  std::string capture_dir;  ///< the directory holding the capture's deps.json ("": unknown)
};

/// Parses a durations document:
/// `{"default": T, "kernels": {"<callable id or kernel name>": T}, "tasks": {"<task>": T or
/// [T, ...]}}` (every key optional, T a non-negative integer number of ticks; a task is a
/// decimal id or "(ring, local)"). False with "<name>: <JSON path>: <what>" or a line:column
/// syntax error, and *table empty. O(|text| log entries).
bool ParseDurationTable(std::string_view text, const std::string& name, DurationTable* table,
                        std::string* err);
/// ParseDurationTable of a regular file of at most kMaxSmallInputBytes. O(file).
bool LoadDurationTable(const std::string& path, DurationTable* table, std::string* err);

/// Parses a machine description: one object with the keys of a timing case's simulation.json
/// rank (`aic`, `aiv`, `base`, `orch`, `disp`, `lat`, `fin`, `dummy_cost`, `policy`, `dur`,
/// `task_dur`, `delay`, `warmup`, `extra`, `freq`; `src`, `sub`, `level`, `jitter`, `seed`,
/// `skew` and `model` are accepted and ignored) plus `edge_cost` and `ring_capacity`; or the
/// whole simulation.json, `{"ranks": [...]}`, of which one rank is taken: `rank.index` when
/// given, else the only rank, else the one whose `sub` names `rank.capture_dir` (its last
/// path components); several ranks and none (or several) naming it is an error asking for
/// --rank, so a capture never silently takes another rank's machine. Unknown keys are
/// errors. Keys of `task_dur` and `delay` below 2^32 are ring-local indices (the generator's
/// convention), other keys and "(ring, local)" are task ids. On failure *machine is left as
/// MachineDescription() holds it. O(|text| log entries).
bool ParseMachineDescription(std::string_view text, const std::string& name, const RankChoice& rank,
                             MachineDescription* machine, std::string* err);
/// ParseMachineDescription of a regular file of at most kMaxSmallInputBytes. O(file).
bool LoadMachineDescription(const std::string& path, const RankChoice& rank,
                            MachineDescription* machine, std::string* err);

/// One kernel run of a timing record (an `aicore_tasks` row).
struct RecordedRun {
  TaskId task = 0;
  uint32_t core = 0;
  bool aic = false;  ///< the core's type
  int64_t start = 0;
  int64_t end = 0;
};

/// The kernel runs of a records file: one per `aicore_tasks` row whose task id is a number,
/// the core's type from `metadata.core_types` ("aiv" beyond it). O(rows).
std::vector<RecordedRun> RecordedRuns(const TimingRecords& records);

/// What the records say about the graph's tasks: the span from the first start to the last
/// end over the runs of tasks in tasks[] (rows of other ids, such as warm-up rows, left out).
struct RecordedSpan {
  uint64_t tasks = 0;  ///< tasks of the graph with at least one run
  uint64_t runs = 0;
  int64_t first_start = 0;
  int64_t last_end = 0;
  int64_t makespan() const { return last_end - first_start; }
};
/// The RecordedSpan of `runs` over the tasks of `graph`. O(R log T).
RecordedSpan MeasureRecordedSpan(const DepGraph& graph, const std::vector<RecordedRun>& runs);

/// Core counts of a records file: cores typed "aic", and the others. O(cores).
void RecordedCores(const TimingRecords& records, uint32_t* aic, uint32_t* aiv);

/// Where the run times of the tasks came from (task counts), for the report.
struct WorkSources {
  uint64_t from_task_overrides = 0;  ///< the durations file's `tasks`
  uint64_t from_records = 0;         ///< the task's own recorded runs
  uint64_t from_kernels = 0;         ///< per-kernel times: the durations file, the records'
                                     ///< mean of the kernel, the nominal `dur`
  uint64_t from_default = 0;         ///< some run took the durations file's `default`
  uint64_t without_kernel = 0;       ///< dummies: no run at all
};

/// Resolves every task's runs. Per active slot of a task, the first that applies:
/// `overrides.tasks[id]`; `overrides` by kernel id, then by kernel name; the task's recorded
/// runs (rows of the slot's core type in start order: block b's AIC run is the b-th AIC row,
/// its AIV runs the next AIV rows; a MIX task recorded on one core type only, one row per
/// block, gives that row to all the block's slots); the mean recorded run of the slot's kernel over
/// all tasks; the machine's `task_dur` (by id, then by local index), its `dur` by kernel id;
/// `overrides.fallback`. The machine's delays fill TaskWork::delay. False with a one-line message
/// naming the first task and slot that has no time, or a recorded run of a task of the graph
/// that ends before it starts or lasts more than 2^40 ticks. Cost: O(T log T + R log R) for T
/// tasks and R recorded runs.
bool BuildTaskWork(const DepGraph& graph, const NameMap& names, const DurationTable& overrides,
                   const std::vector<RecordedRun>& recorded, const MachineDescription& machine,
                   TaskWork* work, WorkSources* sources, std::string* err);

}  // namespace depgraph
