// The C boundary between the inline orchestration API and libpto_shim. Every function is
// implemented in runtime_shim/src/api_entry.cc, forwards to the bound ShimRuntime
// (ShimRuntime::Current()), never throws, and does nothing (returns defaults) when no runtime is
// bound or after a fatal error. Orchestration code does not call these directly.
#pragma once

#include <cstddef>
#include <cstdint>

#include "pto_shim/types.h"

struct ChipTensor;
class TensorRef;

/// What a submit-like call asks of the runtime.
enum PtoShimTaskKind : int32_t {
  PTO_SHIM_KERNEL_TASK = 0,  ///< rt_submit_task / aic / aiv
  PTO_SHIM_DUMMY_TASK = 1,   ///< rt_submit_dummy_task
  PTO_SHIM_ALLOC_TASK = 2,   ///< alloc_tensors
};

/// One submit, flattened from an Arg (any capacity). Pointers stay valid during the call.
struct PtoShimTaskDesc {
  int32_t kind;                 ///< PtoShimTaskKind
  int32_t kernel_ids[3];        ///< aic, aiv0, aiv1 as given (normalised by the runtime)
  const TensorRef* tensors;     ///< per arg: .ref() or, for OUTPUT, .create_info()
  const TensorArgType* tags;    ///< per arg direction
  int32_t tensor_count;
  int32_t scalar_count;
  const PTO2TaskId* deps;       ///< explicit dependencies, in order
  const uint8_t* dep_kinds;     ///< per dep DEP_* bits, or null (WAIT|RETAIN)
  uint32_t dep_count;
  int32_t block_num;
  bool require_sync_start;
  bool allow_early_resolve;
  bool has_error;               ///< the Arg recorded an error
  const char* error_msg;        ///< its first message (may be null)
  const char* api;              ///< name of the API call, for error messages
};

/// The result of a submit: task id and the materialised OUTPUT views (runtime-owned, valid
/// until the submitting scope ends).
struct PtoShimOutputs {
  PTO2TaskId task_id;
  uint32_t count;
  const ChipTensor* tensors;
};

extern "C" {

/// Runs one submit / dummy / alloc (runtime.md §2-§4); `out` gets an invalid id on failure.
void pto_shim_submit(const PtoShimTaskDesc* desc, PtoShimOutputs* out);
/// Opens a scope (mode 0 AUTO, 1 MANUAL); `file`/`line` name the caller for error messages.
void pto_shim_scope_begin(uint8_t mode, const char* file, int line);
/// Closes the innermost scope.
void pto_shim_scope_end(void);
/// Latches a fatal error (first one wins); `func` is the reporting function.
void pto_shim_report_fatal(int32_t code, const char* func, const char* message);
/// Whether a fatal error has been latched.
bool pto_shim_is_fatal(void);
/// Marks the end of the orchestration (no effect on the graph).
void pto_shim_orchestration_done(void);
/// Reads element `indices[0..ndims)` of `tensor` from registered host memory, zero-extended;
/// 0 and a fatal error naming the tensor when it has no host data.
uint64_t pto_shim_tensor_read(const ChipTensor* tensor, uint32_t ndims, const uint32_t* indices);
/// Writes the low element-size bytes of `bits` to element `indices` of `tensor`.
void pto_shim_tensor_write(const ChipTensor* tensor, uint32_t ndims, const uint32_t* indices,
                           uint64_t bits);
/// Host pointer registered for device address `addr`, else `addr` as a pointer.
void* pto_shim_host_pointer(uint64_t addr);
/// Device address of a pointer into registered host memory, else the pointer's value.
uint64_t pto_shim_device_address(const void* pointer);
/// This run's MIX-cluster (AIC) and standalone-AIV counts.
int32_t pto_shim_available_cluster_count(void);
int32_t pto_shim_available_aiv_count(void);
/// Whether messages of `level` (0 error, 1 warn, 2 info, 3 debug) are printed.
bool pto_shim_log_enabled(int32_t level);
/// Prints one log line to stderr if `level` is enabled (PTO_SHIM_LOG_LEVEL).
void pto_shim_log(int32_t level, const char* func, const char* format, ...)
    __attribute__((format(printf, 3, 4)));

}  // extern "C"
