// A simulated schedule as a Chrome trace-event JSON file, which Perfetto (ui.perfetto.dev) and
// chrome://tracing load: one lane per core and one for the scheduler.
#pragma once

#include <cstdint>
#include <memory>
#include <ostream>
#include <vector>

#include "depgraph/graph/graph.h"
#include "depgraph/graph/task_label.h"
#include "depgraph/timing/schedule_simulation.h"

namespace depgraph {

/// What the trace shows.
struct ScheduleTraceInput {
  const DepGraph& graph;
  const std::vector<TaskLabel>& labels;  ///< per node (ResolveTaskLabels), for kernel names
  const MachineModel& machine;
  const SimulationResult& result;  ///< simulated with record_runs
  int64_t freq_hz = 0;             ///< ticks per second; 0: one tick is shown as 1 us
};

/// Writes the trace while the simulation runs, so no run is kept: pass it as
/// SimulationOptions::run_sink, then call Finish with the result. The bytes are those
/// WriteScheduleTrace writes. Memory O(1) beyond the output stream's buffer.
class ScheduleTraceStream : public CoreRunSink {
 public:
  /// Writes the header and the lanes' names. `graph`, `labels` and `machine` must outlive it.
  ScheduleTraceStream(const DepGraph& graph, const std::vector<TaskLabel>& labels,
                      const MachineModel& machine, int64_t freq_hz, std::ostream& out);
  ~ScheduleTraceStream() override;
  /// A kernel slice on the run's core, and a dispatch slice on the scheduler lane for the
  /// first run of each block. O(1).
  void OnRun(const CoreRun& run, int64_t ready) override;
  /// The slices of tasks without kernels and the closing bracket. O(tasks).
  void Finish(const SimulationResult& result);

 private:
  class Writer;
  std::unique_ptr<Writer> writer_;
  bool any_run_ = false;
  uint32_t last_task_ = 0, last_block_ = 0;
};

/// Writes `{"traceEvents": [...], "displayTimeUnit": "ns"}`: process 1 "depgraph simulate",
/// thread 0 "scheduler" (a slice per block dispatched, `dispatch` ticks long, and per task
/// without kernel, `dummy_cost` long), thread 1 + c per core c named AIC_c / AIV_c like the
/// runtime's records; a slice per kernel run named `<kernel>(<task>)` (`task(<task>)` without
/// names), with the task id, block, and ready/dispatch times in `args`. Times in microseconds
/// from the machine's base tick. Cost: O(runs + tasks), streamed (about 250 bytes a run).
void WriteScheduleTrace(const ScheduleTraceInput& input, std::ostream& out);

}  // namespace depgraph
