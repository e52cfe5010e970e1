// The state of one swimlane trace being written: lookups built once from the task rows and
// phases, and the event writers of each part (swimlane_trace.cc: lookups, core lanes and bars;
// swimlane_trace_threads.cc: scheduler, upload and orchestrator lanes; swimlane_trace_flows.cc:
// flow arrows; swimlane_overhead.cc: the overhead counters).
// Private to timing.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "depgraph/timing/swimlane_trace.h"
#include "py_json_stream.h"

namespace depgraph {

/// A flow endpoint: a task row, or an AICPU worker marker (a dummy, predicated-skip or alloc
/// bar on an AICPU lane of the Worker View).
struct SwimlaneAnchor {
  int64_t row = -1;  ///< index into SwimlaneRecords::tasks, or -1 for a marker
  double start_us = 0, end_us = 0;  ///< a marker's bar (its receive time is its start)
  int64_t trace_tid = 0, event_id = 0;  ///< a marker's lane and event id
};

class SwimlaneTraceBuilder {
 public:
  SwimlaneTraceBuilder(const SwimlaneRecords& records, const SwimlaneDeps* deps,
                       const SwimlaneNames& names, const SwimlaneTraceOptions& options,
                       PyJsonStream& out, SwimlaneTraceLog& log);
  /// Writes the whole document.
  void Write();

 private:
  /// Task rows of one id: rows [begin, end) of the sorted rows.
  struct Group {
    __int128 id;
    uint32_t begin, end;
  };
  /// A complete phase of a scheduler thread: (thread, index of the record in the thread).
  struct PhaseRef {
    size_t thread = 0, index = 0;
    bool operator==(const PhaseRef& o) const { return thread == o.thread && index == o.index; }
  };

  // swimlane_trace.cc: lookups and the core lanes.
  void Index();
  void GraphExecution();
  void WorkerView();
  void SchedulerView();
  // swimlane_trace_threads.cc
  void SchedulerPhases();
  void Uploads();
  void Orchestrator();
  // swimlane_trace_flows.cc
  void DependencyFlows();
  void SchedulerDependencyFlows();
  void CompleteFlows();
  void DispatchFlows();
  void OrchestratorFlows();
  // swimlane_overhead.cc
  void OverheadCounters();

  // Lookups.
  bool HasEdges() const { return deps_ != nullptr && deps_->has_edges; }
  bool HasKernelIds() const { return deps_ != nullptr && deps_->has_kernel_ids; }
  bool HasBlockNums() const { return deps_ != nullptr && deps_->has_block_nums; }
  const Group* FindGroup(__int128 id) const {
    auto it = group_of_.find(id);
    return it == group_of_.end() ? nullptr : &groups_[it->second];
  }
  bool IsSpmd(__int128 id) const { return spmd_.count(id) != 0; }
  static int64_t CoreTid(int64_t core) { return 10000 + core * 10; }
  static int64_t SchedTid(int64_t thread, int lane = 0) { return 30000 + thread * 10 + lane; }
  /// The rows a view anchors `id`'s arrows on: every row, or for an SPMD task the earliest
  /// row per function by (slice start, core); without rows, the AICPU markers if allowed.
  std::vector<SwimlaneAnchor> Anchors(__int128 id, bool scheduler_view, bool markers) const;
  double SliceStart(const SwimlaneAnchor& a, bool scheduler_view) const;
  int64_t FanCount(__int128 id) const;
  /// The complete phase of thread `thread` holding `finish_us`, else the next one to start.
  std::optional<PhaseRef> ContainingComplete(size_t thread, double finish_us) const;
  /// A task's label for its rows' bars.
  std::string Label(int64_t func_id, __int128 id) const;

  // Event writers.
  void BeginEvent();
  void Meta(std::string_view meta_name, int64_t pid, std::optional<int64_t> tid,
            std::string_view name);
  void MetaSort(std::string_view meta_name, int64_t pid, std::optional<int64_t> tid,
                int64_t sort_index);
  void DependencyPair(std::string_view name, int64_t pid, int64_t src_tid, double src_ts,
                      std::optional<int64_t> src_event, int64_t dst_tid, double dst_ts,
                      std::optional<int64_t> dst_event, int64_t input_count,
                      int64_t output_count);
  void FlowStart(std::string_view name, int64_t pid, int64_t tid, double ts,
                 std::optional<int64_t> bind_id);
  void FlowFinish(std::string_view name, int64_t pid, int64_t tid, double ts,
                  std::optional<int64_t> bind_id);
  void Verbose(std::string line) {
    if (options_.verbose) log_.out.push_back(std::move(line));
  }

  const SwimlaneRecords& rec_;
  const SwimlaneDeps* deps_;
  const SwimlaneNames& names_;
  const SwimlaneTraceOptions& options_;
  PyJsonStream& w_;
  SwimlaneTraceLog& log_;

  std::vector<int64_t> cores_;  ///< distinct core ids, ascending
  std::vector<Group> groups_;   ///< by ascending id (the rows' order)
  std::unordered_map<__int128, uint32_t, Int128Hash> group_of_;
  std::vector<uint32_t> row_group_;       ///< per row: its group
  std::vector<uint32_t> worker_key_row_;  ///< per row: the last row of its group on its core
  std::vector<int64_t> aicpu_tid_;  ///< per row: the Scheduler View lane of its (id, core), -1
  std::vector<int64_t> aicpu_eid_;  ///< per row: the Scheduler View event of its (id, core), -1
  std::unordered_set<__int128, Int128Hash> spmd_;
  /// Successor -> predecessors (deps order), for the fan-in hints and readiness.
  std::unordered_map<__int128, std::vector<__int128>, Int128Hash> fanin_;
  bool has_aicpu_data_ = false;
  int64_t event_id_ = 0;   ///< the next `id` of a bar
  int64_t flow_id_ = 0;    ///< the next flow id
  int64_t events_ = 0;     ///< events written
  int64_t orchestrator_thread_base_ = 0;
  /// AICPU worker markers by task id (the reference's aicpu_worker_anchor_map), in order.
  std::unordered_map<__int128, std::vector<SwimlaneAnchor>, Int128Hash> markers_;
  /// Per scheduler thread, its complete phases sorted by start (stable), and their starts.
  std::vector<std::vector<size_t>> completes_;
  std::vector<std::vector<double>> complete_starts_;
  /// core -> scheduler thread for the dispatch arrows (set by DispatchFlows).
  std::unordered_map<int64_t, int64_t> core_to_sched_thread_;
  int64_t hb_violations_ = 0, dependency_flows_ = 0;
};

}  // namespace depgraph
