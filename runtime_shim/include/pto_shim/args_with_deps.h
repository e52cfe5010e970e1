// CoreTaskArgsWithDeps<N>: CoreTaskArgs with its own buffer of up to N explicit dependencies
// (orchestration_api.md §2.2), and the submit overloads that bind that buffer.
#pragma once

#include <cstdint>
#include <type_traits>

#include "pto_shim/submit.h"
#include "pto_shim/task_args.h"
#include "pto_shim/types.h"

/// Task arguments plus a fixed buffer of N explicit dependencies (add_dep). More than N deps
/// record an error (the submit becomes a fatal INVALID_ARGS). set_dependencies is not
/// reachable; the buffer is bound at submit by finalize_for_submit().
template <int N = 16>
class CoreTaskArgsWithDeps : private CoreTaskArgs {
 public:
  static_assert(N >= 1, "CoreTaskArgsWithDeps needs room for at least one dependency");

  using CoreTaskArgs::add_inout;
  using CoreTaskArgs::add_input;
  using CoreTaskArgs::add_no_dep;
  using CoreTaskArgs::add_output;
  using CoreTaskArgs::add_scalar;
  using CoreTaskArgs::add_scalars;
  using CoreTaskArgs::add_scalars_i32;
  using CoreTaskArgs::allow_early_resolve;
  using CoreTaskArgs::copy_scalars_from;
  using CoreTaskArgs::error_msg;
  using CoreTaskArgs::has_error;
  using CoreTaskArgs::launch_spec;
  using CoreTaskArgs::set_allow_early_resolve;
  using CoreTaskArgs::set_error;
  using CoreTaskArgs::set_task_timing_slot;
  using CoreTaskArgs::task_timing_slot;

  /// Adds explicit dependencies (wait + retain), in order.
  template <typename... Ids>
  void add_dep(Ids... ids) {
    static_assert((std::is_convertible_v<Ids, PTO2TaskId> && ...), "add_dep takes PTO2TaskIds");
    (push_dep(ids, kWaitRetain), ...);
  }
#if !PTO_SHIM_IS_HBG
  /// Adds ordering-only dependencies (deps.json still prints wait + retain).
  template <typename... Ids>
  void add_dep_wait(Ids... ids) {
    static_assert((std::is_convertible_v<Ids, PTO2TaskId> && ...),
                  "add_dep_wait takes PTO2TaskIds");
    (push_dep(ids, kWaitOnly), ...);
  }
#endif
  /// Clears arguments, dependencies and the error.
  void reset() {
    CoreTaskArgs::reset();
    dep_count_ = 0;
  }
  /// Binds the dependency buffer as the explicit dependencies; returns the arguments to submit.
  const CoreTaskArgs& finalize_for_submit() {
    pto_shim::detail::ArgAccess::BindDeps(static_cast<CoreTaskArgs&>(*this), dep_ids_,
                                          dep_kinds_, dep_count_);
    return *this;
  }

 private:
  /// DEP_* bits of add_dep_wait and add_dep.
  static constexpr uint8_t kWaitOnly = 1;
  static constexpr uint8_t kWaitRetain = 3;

  /// Appends one dependency (error when full).
  void push_dep(PTO2TaskId id, uint8_t kind) {
    if (dep_count_ >= static_cast<uint32_t>(N)) {
      set_error("CoreTaskArgsWithDeps: more dependencies than its capacity");
      return;
    }
    dep_ids_[dep_count_] = id;
    dep_kinds_[dep_count_] = kind;
    ++dep_count_;
  }

  PTO2TaskId dep_ids_[N];
  uint8_t dep_kinds_[N];
  uint32_t dep_count_ = 0;
};

/// rt_submit_task with the dependencies of a CoreTaskArgsWithDeps.
template <int N>
inline TaskOutputTensors rt_submit_task(const MixedKernels& kernels,
                                        CoreTaskArgsWithDeps<N>& args) {
  return rt_submit_task(kernels, args.finalize_for_submit());
}
/// rt_submit_aic_task with the dependencies of a CoreTaskArgsWithDeps.
template <int N>
inline TaskOutputTensors rt_submit_aic_task(int32_t kernel_id, CoreTaskArgsWithDeps<N>& args) {
  return rt_submit_aic_task(kernel_id, args.finalize_for_submit());
}
/// rt_submit_aiv_task with the dependencies of a CoreTaskArgsWithDeps.
template <int N>
inline TaskOutputTensors rt_submit_aiv_task(int32_t kernel_id, CoreTaskArgsWithDeps<N>& args) {
  return rt_submit_aiv_task(kernel_id, args.finalize_for_submit());
}
