// Assembles generated tasks one at a time and derives their edge rows the way the runtime
// does: creator rows from a buffer's owner, tensormap rows from its overlapping last writers.
#pragma once

#include <cstdint>
#include <vector>

#include "gen_records.h"

namespace gen_graph {

/// A buffer whose owner and recent writers the builder tracks (a small model of the
/// runtime's tensor map). The generator fills `tensor`; the builder keeps the rest.
struct TrackedBuffer {
  /// One tracked write: the task and the view it wrote.
  struct Writer {
    TaskId task = 0;
    GenView view;
  };
  GenTensor tensor;
  bool has_owner = false;   ///< set by GraphBuilder::Create or by the generator (alloc node)
  TaskId owner = 0;         ///< creator of the buffer: a task or an allocation node
  bool listed = false;      ///< already emitted to tensors[]
  uint32_t window = 32;     ///< at most this many writers are remembered (oldest dropped)
  std::vector<Writer> writers;
};

/// Builds tasks in submit order and forwards their records to a GenSink, stopping for good
/// once `max_tasks` tasks were emitted (the task that would exceed it and everything after
/// it is dropped, so a truncated graph is still consistent: rows only name earlier tasks).
///
/// Usage per task: BeginTask, then one access call per argument in idx order, optional
/// Depend calls, then EndTask. Rows are emitted right after their task, tensors right before
/// the first task that names them. Cost per access: O(tracked writers of the buffer).
class GraphBuilder {
 public:
  GraphBuilder(uint64_t max_tasks, GenSink* sink) : max_tasks_(max_tasks), sink_(sink) {}

  /// True once the task budget is used up; generators stop at the next check.
  bool full() const { return full_; }
  /// Tasks emitted so far.
  uint64_t tasks_emitted() const { return emitted_; }
  /// Next id of `ring` (ring-local counters start at 0). Also names allocation nodes, which
  /// appear only as edge predecessors, never in tasks[].
  TaskId NewId(uint32_t ring);

  /// Starts a task in `ring` with kernel slots [aic, aiv0, aiv1] (-1 = inactive).
  TaskId BeginTask(uint32_t ring, int32_t aic, int32_t aiv0, int32_t aiv1, int32_t block_num);
  /// INPUT argument: creator row from the owner, tensormap rows from overlapping writers.
  void Read(TrackedBuffer& buffer, const GenView& view);
  /// INOUT argument: like Read, then the task becomes a writer of `view`.
  void Modify(TrackedBuffer& buffer, const GenView& view);
  /// OUTPUT_EXISTING argument: creator row only; the task becomes a writer of `view`.
  void Overwrite(TrackedBuffer& buffer, const GenView& view);
  /// OUTPUT argument: the task creates `buffer` (whose tensor the caller has filled) and
  /// becomes its owner; consumers get creator rows from it.
  void Create(TrackedBuffer& buffer);
  /// An explicit row pred -> this task (arg -1).
  void Depend(TaskId pred);
  /// Emits the task (unless the budget is used up) and its rows.
  void EndTask();

 private:
  int32_t AddArg(ArgType type, TrackedBuffer& buffer, const GenView& view);
  void Track(TrackedBuffer& buffer, const GenView& view);

  uint64_t max_tasks_;
  GenSink* sink_;
  uint64_t emitted_ = 0;
  bool full_ = false;
  std::vector<uint32_t> next_local_;
  GenTask task_;
  std::vector<GenArg> args_;
  std::vector<GenEdge> edges_;
  std::vector<GenTensor> tensors_;
};

}  // namespace gen_graph
