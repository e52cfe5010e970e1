// "Did A and B run at the same time, and if not, why not?" — the check the runtime's guide
// asks for after every dependency fix ("a graph that fans out does not prove tasks overlapped;
// a saturated ring can still serialize them"), answered from one run's timing records and its
// deps.json.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "depgraph/graph/graph.h"
#include "depgraph/timing/timing_records.h"

namespace depgraph {

/// The answer's kind.
enum class OverlapVerdict : uint8_t {
  kOverlapped,      ///< both ran at once for `overlap` ticks
  kOrdered,         ///< a dependency path leads from the first to the second: they cannot overlap
  kWaitedForOther,  ///< unordered, but the second waited for another predecessor (`gate`)
                    ///< that finished after the first had ended
  kCoreBusy,        ///< unordered and ready in time, but its core ran `gate` until after the
                    ///< first had ended (a saturated machine)
  kLateDispatch,    ///< ready with a free core, but dispatched after the first had ended
  kUnexplained,     ///< ready with a free core; the records do not say why it started late
};

/// "overlapped", "ordered", "waited-for-other", "core-busy", "late-dispatch", "unexplained".
const char* OverlapVerdictName(OverlapVerdict verdict);

/// One of the two tasks as the records saw it.
struct OverlapTask {
  TaskId id = 0;
  int64_t start = 0;  ///< first block's start (ticks)
  int64_t end = 0;    ///< last block's end
  int64_t core = -1;  ///< the core its first block ran on
};

/// The answer. `first` is the task that ended first (when both overlapped: started first).
struct OverlapAnswer {
  OverlapVerdict verdict = OverlapVerdict::kUnexplained;
  OverlapTask first, second;
  int64_t overlap = 0;          ///< kOverlapped: ticks both ran
  std::vector<TaskId> path;     ///< kOrdered: first ... second
  int64_t ready = -1;           ///< when the second's timed predecessors had all ended (-1: none)
  TaskId gate = 0;              ///< kWaitedForOther: that last predecessor; kCoreBusy: the task
                                ///< its core ran last before it
  int64_t gate_end = 0;         ///< when `gate` ended
  int64_t dispatch = -1;        ///< the second's first block dispatch (level 2+ records), or -1
};

/// Answers the question for tasks `a` and `b` (ids of `graph`, both with timing records).
/// In order: overlapped; ordered by a path of `graph` (either way); the second's latest timed
/// predecessor ended after the first did; the second's first core ran another task until
/// after the first ended; its dispatch (AICPU rows) came after the first ended; else
/// unexplained. False with a one-line message when a task is not in the graph or has no
/// records, or when `a` and `b` are the same task. Cost: O(V + E) for the path search plus O(rows) for the core scan.
bool AnswerOverlap(const DepGraph& graph, const TimingRecords& records,
                   const TaskTimings& timings, TaskId a, TaskId b, OverlapAnswer* answer,
                   std::string* err);

}  // namespace depgraph
