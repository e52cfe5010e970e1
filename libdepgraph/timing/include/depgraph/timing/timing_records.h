// Timing records of a profiled run (`chip_swimlane_records.json`, legacy `l2_perf_records.json`):
// the per-row model as the runtime's collector writes it, its loader, and the reduction of the
// rows to one interval per task (spec/timing.md §1, §3.5).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "depgraph/graph/graph.h"

namespace depgraph {

/// One `aicore_tasks` row: `[core_id, task_id, reg_task_id, start_ticks, end_ticks,
/// receive_to_start_ticks]` (6 columns; legacy files have 5, without receive_to_start).
struct TimingRow {
  int64_t core = 0;  ///< core_id, an index into TimingRecords::core_types
  /// The task id as Python's str() prints the JSON value (an integer's decimal digits, a string
  /// verbatim: the reference tools' join key; deps.json writes the same ids as strings), as an
  /// index into TimingRecords::keys (see TimingRecords::TaskKey).
  uint32_t key = 0;
  bool has_task_id = false;      ///< the id coerces (Python int()) to a 64-bit value; see task_id
  bool has_reg_task_id = false;  ///< reg_task_id is an integer (the join key with aicpu rows)
  TaskId task_id = 0;            ///< numeric id, negatives wrapped to 64 bits; 0 if !has_task_id
  int64_t reg_task_id = 0;
  int64_t start = 0;     ///< start_ticks: raw device counter value
  int64_t end = 0;       ///< end_ticks
  uint32_t columns = 0;  ///< number of values in the row (>= 5)
};

/// One `aicpu_tasks` row: `[core_id, reg_task_id, dispatch_ticks, finish_ticks]`.
struct AicpuRow {
  int64_t core = 0;
  int64_t reg_task_id = 0;
  int64_t dispatch = 0;
  int64_t finish = 0;
};

/// A field the loader read without judging it, so that each tool applies its own rule.
struct TimingScalar {
  FieldState state = FieldState::kAbsent;  ///< kInvalid: present but not int()-coercible
  int64_t value = 0;  ///< Python int() of the value (numbers truncated, strings parsed)
  std::string text;   ///< the value as Python's str() prints it ("None", "50000000", ...)
  bool number = false;  ///< the value was a JSON number (not a string, bool or null)
};

/// The bound on a records file's tick magnitudes: every tick is below 2^62 in magnitude, so the
/// difference of two ticks, and a tick plus a tolerance clamped to 2^62, fit in int64.
inline constexpr int64_t kMaxRecordedTicks = int64_t{1} << 62;

/// A whole records file. Only `aicore_tasks` rows are checked strictly (every consumer needs
/// them); the other parts are recorded with their state, and a malformed `aicpu_tasks` or
/// `core_types` only sets a state and a message, so a tool that does not read them accepts it.
struct TimingRecords {
  TimingScalar level;          ///< `chip_swimlane_level` (1..4 in valid files)
  TimingScalar clock_freq_hz;  ///< `metadata.clock_freq_hz`: ticks per second
  TimingScalar num_cores;      ///< `metadata.num_cores`
  /// `metadata.core_types`: "aic" / "aiv" per core id. kInvalid when not an array of strings
  /// (then holds the strings before the first bad element).
  std::vector<std::string> core_types;
  FieldState core_types_state = FieldState::kAbsent;
  FieldState aicore_state = FieldState::kAbsent;  ///< `aicore_tasks` present (kValid) or not
  std::vector<TimingRow> rows;                    ///< `aicore_tasks`, file order
  /// Distinct task id texts of the rows, in order of first row (TimingRow::key indexes it).
  std::vector<std::string> keys;
  FieldState aicpu_state = FieldState::kAbsent;  ///< kInvalid: see aicpu_error
  std::string aicpu_error;           ///< first problem in `aicpu_tasks` ("file: path: message")
  std::vector<AicpuRow> aicpu_rows;  ///< `aicpu_tasks`, file order (valid rows before an error)

  /// "aic"/"aiv" of `core`, "aiv" when outside core_types (the converter's rule). O(1).
  std::string_view CoreType(int64_t core) const;
  /// The task id text of a row. O(1).
  const std::string& TaskKey(const TimingRow& row) const { return keys[row.key]; }
};

/// Loads a records file. Fails, with one line `file: json.path: message` (or `file: line
/// L:column C: message` for a syntax error) in *err, when the file cannot be read, is not JSON,
/// its top level is not an object, `aicore_tasks` is not an array, or a row is not an array of
/// at least 5 values with an integer core_id, a scalar task_id (number, string, boolean, null)
/// and integer start/end ticks (e.g. `records.json: aicore_tasks[3][3]: expected an integer
/// tick count, got 1.5`). A repeated key keeps its last value, as Python's json does.
/// Only a regular file (or a symlink to one) is read. Cost: O(file) time, O(rows) memory; the
/// file is streamed (memory-mapped), not held as a DOM.
bool LoadTimingRecords(const std::string& path, TimingRecords* records, std::string* err);

/// Same as LoadTimingRecords for an in-memory document; `display_name` prefixes messages.
bool LoadTimingRecordsText(std::string_view text, const std::string& display_name,
                           TimingRecords* records, std::string* err);

/// One task's timing: its rows reduced to one interval (spec/timing.md §3.5).
struct TaskTiming {
  std::string key;           ///< the task id text (TimingRecords::TaskKey)
  bool has_task_id = false;  ///< TimingRow::has_task_id of its rows
  TaskId task_id = 0;
  int64_t start = 0;           ///< min start over the rows
  int64_t end = 0;             ///< max end over the rows
  int64_t work = 0;  ///< sum of (end - start) over the rows: core-ticks (saturates at int64)
  int64_t longest_block = 0;   ///< max (end - start) of one row
  uint32_t blocks = 0;         ///< number of rows (blocks x cores of an SPMD / MIX task)
  uint32_t first_row = 0;      ///< index of its first row in TimingRecords::rows
  uint32_t first_core = 0;  ///< its distinct cores: TaskTimings::cores[first_core, +core_count)
  uint32_t core_count = 0;
  /// The span over all blocks, including any queueing between them (end - start).
  int64_t span() const { return end - start; }
};

/// All tasks of a records file, in order of their first row ("row order"): tasks[k] is the
/// task of TimingRecords::keys[k].
struct TaskTimings {
  std::vector<TaskTiming> tasks;
  std::vector<uint32_t> row_task;  ///< per row of the records: its index in `tasks` (its key)
  /// Every task's distinct core ids, task after task, each task's in order of first row
  /// (TaskTiming::first_core and core_count delimit them; see CoresOf).
  std::vector<int64_t> cores;
  int64_t t0 = 0;                  ///< min start over all tasks (0 when there are none)
  int64_t t1 = 0;                  ///< max end over all tasks
  std::unordered_map<std::string, uint32_t> by_key;  ///< TaskTiming::key -> index

  /// Makespan in ticks: t1 - t0.
  int64_t makespan() const { return t1 - t0; }
  /// The distinct cores task `t` ran on, in order of first row. O(1).
  std::span<const int64_t> CoresOf(uint32_t t) const {
    return std::span<const int64_t>(cores).subspan(tasks[t].first_core, tasks[t].core_count);
  }
  /// The task with this key, or nullptr. O(1) expected.
  const TaskTiming* Find(std::string_view key) const;
};

/// Groups the rows by task key: start = min, end = max, blocks = count, the core set, the
/// per-block work. Tasks are ordered by first row. Cost: O(rows + cores per task) time,
/// O(tasks) memory besides the row index.
TaskTimings ReduceTaskTimings(const TimingRecords& records);

/// Ticks to microseconds as the reference tools compute it, in double: ticks / freq * 1e6.
/// `clock_freq_hz` must not be 0. O(1).
inline double TicksToMicros(int64_t ticks, int64_t clock_freq_hz) {
  return static_cast<double>(ticks) / static_cast<double>(clock_freq_hz) * 1e6;
}

}  // namespace depgraph
