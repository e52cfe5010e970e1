// A profiled run's timing records (`chip_swimlane_records.json`) converted the way the reference
// swimlane converter converts them before drawing (docs/swimlane.md, "What is read"): AICore
// rows joined with AICPU rows into task rows in microseconds, scheduler and orchestrator phase
// records, host records on the host clock, and the timeline metadata of host-mode captures.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace depgraph {

/// One task row: a block of a task on a core (an AICore row, joined with its AICPU row).
struct SwimlaneTask {
  __int128 task_id = 0;   ///< int() of the row's task id, as read (may be negative)
  int64_t core_id = 0;
  uint32_t core_type = 0;  ///< index into SwimlaneRecords::core_type_names
  int64_t func_id = -1;    ///< -1 until ResolveSwimlaneFuncIds finds the kernel slot
  double start_us = 0, end_us = 0, duration_us = 0;
  double dispatch_us = 0, finish_us = 0;  ///< AICPU times; 0 at level 1 without AICPU rows
  double receive_us = 0;                  ///< start minus the row's receive-to-start delta
  double local_setup_us = 0;              ///< start - receive
  double propagation_us = 0;              ///< receive - dispatch (has_propagation only)
  bool has_propagation = false;           ///< joined with an AICPU row
};

/// A scheduler phase record (`aicpu_scheduler_phases[thread][i]`), converted.
struct SchedulerPhase {
  std::string phase;              ///< its `kind` ("unknown" when absent)
  bool phase_is_string = true;    ///< false: `kind` was not a string (the record is skipped)
  double start_us = 0, end_us = 0;
  bool has_task_id = false;       ///< `task_id` present and int()-convertible
  __int128 task_id = 0;           ///< normalised to 64 bits (negatives wrapped)
  nlohmann::ordered_json loop_iter = 0;        ///< as written (default 0)
  bool has_tasks_processed = false;
  nlohmann::ordered_json tasks_processed = 0;  ///< as written (default 0)
  /// Ready-queue pops since the thread's previous dispatch record (`pop_hit`, `pop_miss`),
  /// as written; null when absent (complete records omit them).
  nlohmann::ordered_json pop_hit, pop_miss;
  bool depths_valid = false;  ///< shared_at_start and shared_at_end both arrays of 3 values
  nlohmann::ordered_json shared_at_start, shared_at_end;
};

/// An orchestrator record (AICPU `aicpu_orchestrator_phases` or host
/// `host_orchestrator_phases`), converted; its phase is always `orch_submit`.
struct OrchestratorPhase {
  double start_us = 0, end_us = 0;
  __int128 task_id = -1;                  ///< `task_id` (an integer; default -1)
  nlohmann::ordered_json submit_idx = 0;  ///< as written (default 0)
};

/// A host-to-device upload (`host_device_uploads[i]`) on the host clock.
struct HostUpload {
  double start_us = 0, end_us = 0;
  std::string name;                   ///< str() of its `phase` (default "upload")
  nlohmann::ordered_json detail = 0;  ///< as written (default 0)
};

/// A records file, converted.
struct SwimlaneRecords {
  int level = 0;                           ///< chip_swimlane_level, 1..4
  std::vector<std::string> core_type_names;  ///< distinct core types of the task rows
  /// Task rows sorted by task id (stable: file order within an id).
  std::vector<SwimlaneTask> tasks;
  /// Per scheduler thread its records in file order; empty when the file has none.
  std::vector<std::vector<SchedulerPhase>> scheduler;
  /// Per orchestrator thread its records (host mode: the host threads that have records).
  std::vector<std::vector<OrchestratorPhase>> orchestrator;
  std::string orchestrator_source;  ///< "aicpu", "host", or "" when neither
  std::vector<HostUpload> uploads;
  std::vector<int64_t> core_to_thread;  ///< metadata.core_to_thread (empty when absent)
  /// Host mode: the trace's top-level `metadata` object (layout, alignment, host capture).
  bool has_timeline_metadata = false;
  nlohmann::ordered_json timeline_metadata;
  /// Lines the reference prints on stderr while reading (the unmatched AICPU rows warning).
  std::vector<std::string> warnings;

  /// The name of a task row's core type. O(1).
  const std::string& CoreType(const SwimlaneTask& task) const {
    return core_type_names[task.core_type];
  }
};

/// Loads and converts a records file. False with one line `file: json.path: what` (or
/// `file: line L:column C: what` for a syntax error) in *err for everything the reference
/// rejects (a level outside 1..4, no clock, AICPU and host orchestrators together, a row of
/// fewer than 5 values, a value int() refuses, a host record before the origin) and for what
/// it would accept only by accident (see docs/swimlane.md, "Errors"). Only a regular file is
/// read. Cost: O(file + rows log rows); memory the file's bytes while reading, ~60 bytes per
/// row read and ~120 per task row kept, phase records as small DOMs.
bool LoadSwimlaneRecords(const std::string& path, SwimlaneRecords* records, std::string* err);

/// Same for an in-memory document; `display_name` names it in messages. O(|text|).
bool LoadSwimlaneRecordsText(std::string_view text, const std::string& display_name,
                             SwimlaneRecords* records, std::string* err);

}  // namespace depgraph
