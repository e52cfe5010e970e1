// The scheduler-overhead analysis of one profiled level-3/4 run (docs/sched_overhead.md): is
// the AICPU scheduler the bottleneck, or is it starved by dependencies? From the task rows of
// the timing records, the scheduler phase records and the deps.json edges it computes the six
// parts of the report of the reference `sched_overhead_analysis.py` (hw-native-sys/simpler):
// the overhead verdict, the AICore switch gaps, the head and tail overhead distributions, the
// scheduler loop breakdown and the critical-path attribution. Rendering is in
// sched_overhead_report.h; nothing here prints.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "depgraph/timing/swimlane_inputs.h"
#include "depgraph/timing/swimlane_records.h"

namespace depgraph {

/// Parts 1 and 2 for one engine (a named core type: "aic", "aiv", ...).
struct EngineOverhead {
  std::string type;   ///< the core type's name, as in metadata.core_types
  int64_t cores = 0;  ///< distinct core ids of that type among the task rows
  /// Time of the window during which some core of the type was idle while some task that ran
  /// on the type was ready (its producers had ended) but not yet dispatched (Part 1).
  double overhead_us = 0;
  /// Part 2, per core of the type (cores in order of their first task row): the summed gaps
  /// [previous end, start] of the tasks that were dispatched before the core's previous task
  /// ended (an "AICore switch").
  std::vector<double> switch_per_core_us;
  int64_t switch_events = 0;      ///< switch gaps counted over all cores of the type
  double switch_event_sum_us = 0;  ///< their sum, in core then start order
  /// The switch time that fell while a task of the type was ready and undispatched, and the
  /// rest.
  double switch_overhead_us = 0, switch_independent_us = 0;
};

/// A per-task overhead set (head or tail), for percentiles.
struct OverheadDistribution {
  std::vector<double> sorted;  ///< values in µs, ascending
  double sum = 0;              ///< their sum, added in ascending order

  /// The value at percentile p (0..100) as the reference picks it: index min(n*p/100, n-1)
  /// of the ascending values. O(1); requires a non-empty set.
  double Percentile(int p) const;
};

/// Part 5 for one scheduler thread (an entry of `aicpu_scheduler_phases`) that has work
/// records (`complete`, `async_poll` or `dispatch` phases).
struct SchedulerThreadStats {
  int64_t thread = 0;   ///< its index in aicpu_scheduler_phases
  __int128 loops = 0;   ///< the largest `loop_iter` of its work records (0 when absent)
  /// Logical tasks whose last-finishing row was on a core this thread serves (through
  /// metadata.core_to_thread); the FIN count when no row maps to a thread at all.
  int64_t completed = 0;
  __int128 finishes = 0;  ///< summed `tasks_processed` of its complete records
  /// Work time per phase: complete, async_poll, dispatch, and idle (the gaps between work
  /// records); total_us is their sum.
  double complete_us = 0, async_poll_us = 0, dispatch_us = 0, idle_us = 0, total_us = 0;
  __int128 pop_hit = 0, pop_miss = 0;  ///< summed over its dispatch records
  /// deps.json edges (distinct pairs) out of / into the tasks whose first row maps to this
  /// thread, and the largest single-task count.
  int64_t fanout_edges = 0, fanout_max = 0, fanin_edges = 0, fanin_max = 0;
};

/// Part 6: the makespan-determining path, walked back from the task that finished last
/// through each task's latest-ending producer.
struct CriticalPathAttribution {
  bool found = false;  ///< a path was walked (false: no tasks, or a cycle, see below)
  bool cycle = false;  ///< the walk met a task twice (deps.json has a cycle); cycle_task names it
  __int128 cycle_task = 0;
  int64_t hops = 0;      ///< producer -> consumer steps on the path
  double span_us = 0;    ///< last finish - earliest start on the path
  double exec_us = 0;    ///< summed end - start of the path's tasks
  double sched_us = 0;   ///< summed max(0, consumer start - producer end), plus the root's head
};

/// The whole analysis.
struct SchedOverheadReport {
  size_t task_rows = 0;          ///< task rows (a block of a task on a core)
  double window_start_us = 0;    ///< first start
  double window_end_us = 0;      ///< last end
  double window_us = 0;          ///< window_end_us - window_start_us
  std::vector<EngineOverhead> engines;  ///< named core types, sorted by name
  double all_overhead_us = 0;   ///< time every engine was overhead at once
  double has_overhead_us = 0;   ///< time some engine had ready work and every such one was idle
  double switch_lower_us = 0;   ///< smallest per-core switch total over all cores
  double switch_upper_us = 0;   ///< sum over engines of their smallest per-core switch total
  OverheadDistribution head;    ///< Part 3, per task row
  OverheadDistribution tail;    ///< Part 4, per task row
  double tail_sum_row_order = 0;  ///< the tails summed in the reference's (core) order
  std::vector<SchedulerThreadStats> threads;  ///< Part 5, by thread index
  CriticalPathAttribution critical_path;      ///< Part 6
};

/// Runs the analysis on converted records (LoadSwimlaneRecords) and deps.json
/// (LoadSwimlaneDeps; its edges are the DAG, an unusable `edges` counts as none).
/// `records_name` names the records file in messages. False with one line in *err
/// (`<records_name>: <json path>: <what>`) when there are no task rows, no scheduler thread
/// with work records, or a work record holds a count that is not an integer (a
/// `tasks_processed` list, a `pop_hit` string, ...).
/// Cost: O(n log n) for n task rows plus O(p log p) for p phase records and O(E) for the
/// deps.json edges; O(n · types) memory for the sweep (types: the core types, usually 2).
bool AnalyzeSchedOverhead(const SwimlaneRecords& records, const SwimlaneDeps& deps,
                          const std::string& records_name, SchedOverheadReport* report,
                          std::string* err);

}  // namespace depgraph
