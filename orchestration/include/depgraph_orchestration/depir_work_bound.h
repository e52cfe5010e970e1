// The work bound of one `depgraph run`: how many loop iterations and tasks a depir program may
// execute before the run stops (private to the orchestration library).
#pragma once

#include <cstdint>

namespace depgraph::depir_run {

/// Default bound on loop iterations, over all loops of a run together (each loop alone is also
/// capped at 2^22 trips): 2^24.
inline constexpr int64_t kMaxRunIterations = int64_t{1} << 24;
/// Default bound on tasks submitted by a run (kernel calls, dynamic ops, dummy tasks and batched
/// allocations): 2^22, about 0.6 GB of capture for one-argument tasks.
inline constexpr int64_t kMaxRunTasks = int64_t{1} << 22;

/// Counts a run's loop iterations and tasks against their bounds. A program past either is
/// almost certainly a wrong binding (nested loops multiply), and its capture would not fit in
/// memory; the interpreter turns the RunError into "<file>:<line>:<col>: ..." at the statement
/// that crossed the bound. O(1) per count.
class WorkBound {
 public:
  /// Bounds of this run (the defaults above unless a caller lowers them).
  WorkBound(int64_t max_iterations, int64_t max_tasks)
      : max_iterations_(max_iterations), max_tasks_(max_tasks) {}

  /// One more loop iteration; throws RunError past the bound.
  void Iteration();
  /// One more task; throws RunError past the bound.
  void Task();

 private:
  int64_t max_iterations_;
  int64_t max_tasks_;
  int64_t iterations_ = 0;
  int64_t tasks_ = 0;
};

}  // namespace depgraph::depir_run
