// ShimState: everything the host runtime keeps during one orchestration run — scopes and
// rings, ids, heaps, the TensorMap, the captured tasks / tensors / edges, the fatal latch.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "address_model.h"
#include "depgraph/graph/deps_writer.h"
#include "depgraph_shim/shim_runtime.h"
#include "flat_index.h"
#include "host_memory.h"
#include "output_arena.h"
#include "overlap.h"
#include "pto_orchestration_api.h"
#include "tensor_map.h"

namespace depgraph::shim {

/// Producers already given an edge for the task being submitted (runtime.md §4 `seen`):
/// a linear scan while small, plus a hash index once it grows.
class SeenSet {
 public:
  /// Forgets everything. O(size).
  void Clear();
  /// Whether `id` is in the set.
  bool Contains(uint64_t id) const;
  /// Adds `id` (no effect if present).
  void Add(uint64_t id);

 private:
  static constexpr size_t kLinear = 32;
  std::vector<uint64_t> ids_;
  FlatIndex index_{6};
  bool indexed_ = false;
};

/// The state behind one ShimRuntime. Single-threaded, like the device orchestrator.
class ShimState {
 public:
  /// Empty state for `config` (no scope open).
  explicit ShimState(const ShimConfig& config);

  // ---- API operations (called through the C boundary) ----
  /// rt_submit_* / rt_submit_dummy_task / alloc_tensors (runtime.md §2-§4).
  void Submit(const PtoShimTaskDesc& desc, PtoShimOutputs* out);
  /// Opens a scope; AUTO inside MANUAL is fatal. `file`/`line` may be null/0.
  void ScopeBegin(uint8_t mode, const char* file, int line);
  /// Closes the innermost scope (fatal if none is open).
  void ScopeEnd();
  /// Latches the first fatal error: "<func>: <message>" (one line).
  void Fatal(int32_t code, const char* func, const std::string& message);
  /// get_tensor_data's element read (0 and a fatal error without host data).
  uint64_t ReadElement(const ChipTensor& tensor, uint32_t ndims, const uint32_t* indices);
  /// set_tensor_data's element write.
  void WriteElement(const ChipTensor& tensor, uint32_t ndims, const uint32_t* indices,
                    uint64_t bits);
  /// data_as<T>() translation.
  void* HostPointer(uint64_t addr) const;
  /// make_tensor_external translation.
  uint64_t DeviceAddress(const void* pointer) const;
  /// Marks the orchestration done.
  void OrchestrationDone() { done_ = true; }

  // ---- Runner operations ----
  /// Registers host memory for a device range; false (and a fatal error) on overlap.
  bool RegisterHostBuffer(uint64_t addr, void* data, uint64_t size);
  /// A fresh entry-tensor address (0 for size 0); 0 and a fatal error when exhausted.
  uint64_t AllocateEntryAddress(uint64_t size);
  /// Writes deps.json; false with a message in *err on failure.
  bool WriteDepsJson(std::ostream& out, std::string* err) const;

  // ---- Queries ----
  /// The run's settings.
  const ShimConfig& config() const { return config_; }
  /// Whether a fatal error latched; its code and one-line message.
  bool fatal() const { return fatal_; }
  int32_t fatal_code() const { return fatal_code_; }
  const std::string& fatal_message() const { return fatal_message_; }
  /// tasks[] rows, alloc calls, edges[] rows, tensors[] rows.
  uint64_t task_count() const { return tasks_.size(); }
  uint64_t alloc_count() const { return alloc_count_; }
  uint64_t edge_count() const { return edges_.size(); }
  size_t tensor_count() const { return tensors_.size(); }
  /// Open scopes (the executor's outer scope counts).
  size_t scope_depth() const { return scopes_.size(); }
  /// Entries currently in the TensorMap.
  size_t live_tensormap_entries() const { return tensor_map_.live_entries(); }
  /// Whether rt_orchestration_done was called.
  bool orchestration_done() const { return done_; }

 private:
  /// One open scope.
  struct Scope {
    bool manual = false;
    OutputArena::Mark outputs;
  };
  /// One captured task (a tasks[] row); its args are args_[first_arg, first_arg + num_args).
  struct TaskRow {
    uint64_t id = 0;
    int32_t kernel_ids[3] = {-1, -1, -1};
    uint32_t block_num = 1;
    uint32_t first_arg = 0;
    uint32_t num_args = 0;
    bool manual = false;
    bool early_dispatch = false;
  };
  /// One edges[] row; views are referenced by global argument index.
  struct EdgeRow {
    uint64_t pred = 0;
    uint64_t succ = 0;
    int32_t arg = -1;
    EdgeSource source = EdgeSource::kExplicit;
    OverlapKind overlap = OverlapKind::kNone;
    uint32_t consumer_arg = 0;  ///< creator / tensormap: the consumer's argument
    uint32_t producer_arg = 0;  ///< tensormap: the published argument of the entry
  };

  /// Checks a submit and yields its (normalised) kernel ids; false after a fatal error.
  bool Validate(const PtoShimTaskDesc& desc, int32_t kernel_ids[3]);
  /// Allocates and fills the OUTPUT views of a submit (one block on the ring heap).
  bool Materialise(const PtoShimTaskDesc& desc, int ring, uint64_t task_id, PtoShimOutputs* out);
  /// Records the tasks[] row, its argument views and first-sighted tensors (runtime.md §3).
  void Capture(const PtoShimTaskDesc& desc, uint64_t task_id, const int32_t kernel_ids[3]);
  /// Runs the fan-in steps of runtime.md §4 and publishes.
  void FanIn(const PtoShimTaskDesc& desc, uint64_t task_id, uint32_t first_arg);
  /// Appends a tensors[] row on the first sighting of `tensor_id`.
  void RegisterTensor(const ChipTensor& tensor, uint64_t tensor_id);
  /// Host element address of get/set_tensor_data, or nullptr after a fatal error.
  void* ElementPointer(const ChipTensor& tensor, uint32_t ndims, const uint32_t* indices,
                       const char* api);

  ShimConfig config_;
  bool hbg_;
  RingHeaps heaps_;
  EntryAddresses entry_addresses_;
  HostMemory host_memory_;
  OutputArena outputs_;
  TensorMap tensor_map_;
  std::vector<Scope> scopes_;
  uint32_t manual_scopes_ = 0;
  uint64_t next_local_[RingHeaps::kRings] = {0, 0, 0, 0};
  uint64_t alloc_count_ = 0;

  std::vector<TaskRow> tasks_;
  std::vector<DepsArgRecord> args_;
  std::vector<DepsTensorRecord> tensors_;
  FlatIndex tensor_index_{12};  ///< tensor_id -> index in tensors_
  std::vector<EdgeRow> edges_;
  SeenSet seen_;

  bool fatal_ = false;
  int32_t fatal_code_ = 0;
  std::string fatal_message_;
  bool done_ = false;
};

}  // namespace depgraph::shim
