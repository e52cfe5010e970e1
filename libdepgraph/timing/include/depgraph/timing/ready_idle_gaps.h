// Idle time on a core while work it could run was ready: the "saturated ring / core-bound"
// check of the runtime's guide, drawn on the explorer's timeline. A core idles between two of
// its runs; a task is ready from the moment its last dependency ended until it starts. Where
// the two meet on a core of the task's type, the scheduler had a core and a task and did not
// pair them (dispatch latency, a full ring, a scheduler thread busy elsewhere).
#pragma once

#include <cstdint>
#include <vector>

#include "depgraph/timing/critical_path.h"
#include "depgraph/timing/timing_records.h"

namespace depgraph {

/// One stretch of a core's idle time during which a task of its type was ready and waiting.
struct ReadyIdleGap {
  int64_t core = 0;      ///< core_id of the idle core
  int64_t start = 0;     ///< ticks (raw device counter)
  int64_t end = 0;       ///< ticks, > start
  uint32_t waiting = 0;  ///< a task (index into TaskTimings::tasks) ready when it began
};

/// Knobs of FindReadyIdleGaps.
struct ReadyIdleOptions {
  /// Leave out stretches no longer than twice the run's own dispatch latency (the 10th
  /// percentile of the ready-to-start waits): every dispatch leaves such a sliver on each idle
  /// core, and hundreds of thousands of them say nothing a user can act on.
  bool skip_dispatch_latency = true;
};

/// The stretches, with what was left out.
struct ReadyIdleGaps {
  std::vector<ReadyIdleGap> gaps;  ///< by core (ascending), then start
  int64_t floor = 0;               ///< stretches of at most this many ticks were left out
  size_t skipped = 0;              ///< how many were
  int64_t skipped_ticks = 0;       ///< their total length
};

/// Every stretch of idle-while-ready time. A task counts as ready from the latest end of its
/// kept dependency predecessors (`hb.preds`) to its start; a task without one is not counted
/// (when it became ready is not recorded). It waits for cores of its own types (a MIX task
/// for both). A core is idle outside the union of its rows, within the run's [t0, t1].
/// Touching pieces of one core's idle time form one stretch (named after the task ready when it
/// began), so stretches of one core never touch or overlap. Cost: O(R log R + T log T +
/// S log T) for R rows, T tasks and S (stretches + ready events inside idle time):
/// near-linear on real runs.
ReadyIdleGaps FindReadyIdleGaps(const TimingRecords& records, const TaskTimings& timings,
                                const HappensBefore& hb, const ReadyIdleOptions& options = {});

}  // namespace depgraph
