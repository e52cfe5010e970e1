// The critical path of one profiled run (spec/timing.md §3.7-§3.11): the dependency graph
// oriented by time, each task's same-core predecessor, the static CPM path (longest
// duration-weighted chain) and the observed path (walked back from the last task through what
// gated each start), with its compute / stall accounting.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "depgraph/timing/timing_records.h"

namespace depgraph {

/// A dependency edge of deps.json between two timed tasks, as indices into TaskTimings::tasks;
/// -1 for an endpoint without timing (dummy, alloc or not run: the edge is then ignored).
struct TimedEdge {
  int32_t pred = -1;
  int32_t succ = -1;
};

/// What a task weighs in the static CPM.
enum class CpmWeight : uint8_t {
  kSpan,          ///< end - start over all its blocks (the reference; includes block queueing)
  kLongestBlock,  ///< its longest single block (a true lower bound with unlimited cores)
};

/// Knobs of the analysis.
struct CriticalPathOptions {
  /// Ticks by which a predecessor may end after its successor started and still count
  /// ("finished before", for clock skew between cores). 0 or negative allowed.
  int64_t tol = 2;
  CpmWeight cpm_weight = CpmWeight::kSpan;
};

/// Why a task on the observed path started when it did.
enum class StallKind : uint8_t {
  kFrontGap,  ///< nothing explains it: time from the rank's first start to the path's first task
  kDataWait,  ///< waited for a dependency's producer
  kCoreWait,  ///< waited for the core it ran on to be freed
};

/// "front-gap", "data-wait", "core-wait". O(1).
const char* StallKindName(StallKind kind);

/// The time-oriented dependency DAG and the same-core predecessors (§3.7, §3.8).
struct HappensBefore {
  /// Per task: kept predecessors, in deps.json edge order.
  std::vector<std::vector<uint32_t>> preds;
  size_t kept_edges = 0;  ///< unique edges kept ("happens-before edges")
  /// Tasks with a kept predecessor, in order of their first kept edge (the static CPM's Kahn
  /// order builds successor lists in this order).
  std::vector<uint32_t> heads;
  /// Per task: the task whose slice ended latest among everything that ran earlier on the core
  /// where it (first) started, with that slice's end; none if that core was still busy.
  std::vector<std::optional<std::pair<uint32_t, int64_t>>> core_prev;
};

/// One task of the observed path with its accounting (§3.11).
struct ObservedStep {
  uint32_t task = 0;  ///< index into TaskTimings::tasks
  StallKind kind = StallKind::kFrontGap;
  int64_t stall = 0;    ///< ticks between the previous step's frontier and this start
  int64_t compute = 0;  ///< ticks of this task not overlapped by earlier steps
};

/// Everything the report, the traces and a viewer need about one rank.
struct CriticalPathResult {
  size_t task_count = 0;  ///< timed tasks (distinct task keys of the rows)
  size_t kept_edges = 0;  ///< happens-before edges
  int64_t t0 = 0;         ///< first start (ticks)
  int64_t makespan = 0;   ///< last end - first start (ticks)
  /// Static CPM path, first task first (indices into TaskTimings::tasks); never empty when
  /// there is a task.
  std::vector<uint32_t> static_path;
  int64_t cpm = 0;  ///< its length: the sum of the path's task weights (spans by default;
                    ///< clamped to the int64 range)
  /// Observed path, its first task (kind front-gap) first, the last-finishing task last.
  std::vector<ObservedStep> observed_path;
  int64_t compute_total = 0;
  int64_t stall_total = 0;  ///< compute_total + stall_total == makespan (when no row of the
                            ///< records ends before it starts)
  /// Stall per kind, keys in order of first occurrence along the path, zero entries kept.
  std::vector<std::pair<StallKind, int64_t>> stall_by_kind;
};

/// The happens-before DAG of §3.7 and the core predecessors of §3.8. `edges` in deps.json
/// order. Ties follow the reference: per-core slices sorted by (start, end, task key as a
/// string), cores in order of first row. Cost: O(E + R log R) for E edges and R rows.
HappensBefore BuildHappensBefore(const TimingRecords& records, const TaskTimings& timings,
                                 const std::vector<TimedEdge>& edges,
                                 const CriticalPathOptions& options);

/// The first half of BuildHappensBefore: sets out->preds, heads and kept_edges. O(E).
void AddDependencyEdges(const TaskTimings& timings, const std::vector<TimedEdge>& edges,
                        const CriticalPathOptions& options, HappensBefore* out);
/// The second half: sets out->core_prev (independent of the edges, so it can run while
/// deps.json is still being read). O(R log R) worst case, O(R) for the collector's order.
void AddCorePredecessors(const TimingRecords& records, const TaskTimings& timings,
                         const CriticalPathOptions& options, HappensBefore* out);

/// The static CPM path (§3.9) and the observed path with its accounting (§3.10, §3.11), with
/// every tie rule of the reference (spec/timing.md §4 items 1-4, 8). `timings` must hold at
/// least one task. Cost: O(V + E) plus O(path x in-degree) for the walk.
CriticalPathResult AnalyzeCriticalPath(const TaskTimings& timings, const HappensBefore& hb,
                                       const CriticalPathOptions& options);

}  // namespace depgraph
