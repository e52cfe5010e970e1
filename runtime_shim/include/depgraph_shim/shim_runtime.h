// The host-side runtime behind the orchestration API: task ids and rings, output
// materialisation, submit-time dependency inference and the deps.json capture.
#pragma once

#include <cstdint>
#include <memory>
#include <ostream>
#include <string>

namespace depgraph::shim {

/// Which runtime's behaviour to imitate (runtime.md §3.1, §7).
enum class RuntimeFlavor {
  kTensormapRingbuffer,  ///< rings 0..3 by scope depth; edges carry `flags`
  kHostBuildGraph,       ///< single ring 0; no `flags` key
};

/// Run-level settings.
struct ShimConfig {
  RuntimeFlavor flavor = RuntimeFlavor::kTensormapRingbuffer;
  /// Address of ring 0's heap; ring r starts at heap_base + r * ring_heap_size.
  uint64_t heap_base = 0x100000000000ull;
  /// Bytes per ring heap. Addresses are never reused: a ring that runs out of heap is a
  /// fatal error rather than a wrap-around (the logical graph must not depend on timing).
  uint64_t ring_heap_size = 256ull << 20;
  /// First address AllocateEntryAddress hands out (entry tensors live in [entry_base,
  /// heap_base)).
  uint64_t entry_base = 1ull << 30;
  /// What rt_available_cluster_count / rt_available_aiv_count return (full a2a3 chip by
  /// default; a5: 36 / 72). Also the limit for require_sync_start.
  int32_t available_clusters = 24;
  int32_t available_aiv = 48;
};

class ShimState;  // private implementation (runtime_shim/src)

/// The process-wide runtime that the free functions of pto_orchestration_api.h call into.
/// One is "current" at a time (Bind); the runner creates it, binds it, opens the outer AUTO
/// scope, calls the orchestration entry, closes the scope and writes deps.json.
/// Costs: a submit is O(args x live TensorMap entries of the touched buffers).
class ShimRuntime {
 public:
  /// A fresh runtime (no scope open, nothing bound).
  explicit ShimRuntime(const ShimConfig& config);
  /// Unbinds this runtime if it is the current one.
  ~ShimRuntime();
  ShimRuntime(const ShimRuntime&) = delete;
  ShimRuntime& operator=(const ShimRuntime&) = delete;

  /// Makes this the runtime the orchestration API uses (replacing any other).
  void Bind();
  /// Unbinds the current runtime: API calls then do nothing and return defaults.
  static void Unbind();
  /// The bound runtime, or nullptr.
  static ShimRuntime* Current();

  /// Opens / closes a scope as the executor does around the entry (mode: 0 AUTO, 1 MANUAL).
  /// Same rules as the API's scopes (AUTO inside MANUAL is fatal); no-ops after a fatal error.
  void BeginScope(int mode = 0);
  /// Closes the innermost scope (its OUTPUT views become invalid).
  void EndScope();

  /// Makes `size` bytes at `data` the backing memory of device address `addr`, so that
  /// get_tensor_data / set_tensor_data and data_as<T>() dereferences work for that input
  /// (and make_tensor_external of a pointer into `data` maps back to `addr`). The memory must
  /// outlive the run. Returns false (and latches a fatal error) if the range is empty or
  /// overlaps an earlier registration.
  bool RegisterHostBuffer(uint64_t addr, void* data, uint64_t size);
  /// A fresh, non-overlapping address range of `size` bytes for an entry tensor (1 KiB
  /// aligned, from ShimConfig::entry_base, below the ring heaps). Size 0 gives address 0, as
  /// the runtime stages empty tensors. Exhaustion latches a fatal error and returns 0.
  uint64_t AllocateEntryAddress(uint64_t size);

  /// True once the orchestration reported a fatal error (rt_report_fatal, invalid args, AUTO
  /// scope inside MANUAL, heap exhausted, ...); later API calls are no-ops.
  bool fatal() const;
  /// The first fatal error, one line ("AUTO scope opened inside a MANUAL scope at ...").
  const std::string& fatal_message() const;

  /// Writes the captured graph as deps.json in the runtime's exact byte format (flags on
  /// edges for kTensormapRingbuffer only). Returns false if the stream fails.
  /// O(tasks + edges).
  bool WriteDepsJson(std::ostream& out) const;
  /// The error code of the first fatal error (PTO2_ERROR_*), 0 if none.
  int32_t fatal_code() const;

  /// Submitted tasks (tasks[] rows: kernel and dummy tasks).
  uint64_t task_count() const;
  /// alloc_tensors calls (ids consumed, not in tasks[]).
  uint64_t alloc_count() const;
  /// edges[] rows.
  uint64_t edge_count() const;

  /// The implementation (used by the API layer in runtime_shim/src).
  ShimState& state() { return *state_; }

 private:
  std::unique_ptr<ShimState> state_;
};

}  // namespace depgraph::shim
