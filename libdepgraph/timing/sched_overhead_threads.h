// Part 5 of the scheduler-overhead analysis (docs/sched_overhead.md): the scheduler loop
// breakdown per AICPU scheduler thread. Private to the timing library (sched_overhead.cc).
#pragma once

#include <string>
#include <vector>

#include "depgraph/timing/sched_overhead.h"

namespace depgraph {

/// Per scheduler thread with work records (complete / async_poll / dispatch phases), sorted by
/// start time: loops, FINs, time per phase with the gaps as idle, pops, logical tasks (by the
/// thread that saw each task's last finish) and the deps.json fan-out / fan-in of its tasks.
/// False with `<records_name>: aicpu_scheduler_phases[t][r].<field>: <what>` in *err when a
/// work record's count is not an integer, or `<records_name>: ...` when no thread has work
/// records. Cost: O(p log p) for p phase records, O(n) for n task rows, O(E) for the edges.
bool SchedulerThreadBreakdown(const SwimlaneRecords& records, const SwimlaneDeps& deps,
                              const std::string& records_name,
                              std::vector<SchedulerThreadStats>* threads, std::string* err);

}  // namespace depgraph
