// Task submission: TaskOutputTensors, rt_submit_* , alloc_tensors and the run queries
// (orchestration_api.md §2.2-§2.3, runtime.md §2-§4).
#pragma once

#include <cstdint>
#include <type_traits>
#include <vector>

#include "pto_shim/abi.h"
#include "pto_shim/chip_tensor.h"
#include "pto_shim/create_info.h"
#include "pto_shim/task_args.h"
#include "pto_shim/types.h"

/// Result of a submit or alloc: the task id and the materialised OUTPUT views (the i-th
/// create-info argument in argument order; OUTPUT_EXISTING args are not counted). The views
/// are owned by the runtime and valid until the submitting scope closes. After a fatal error
/// every submit returns a default object (invalid id, no outputs).
class TaskOutputTensors {
 public:
  /// Invalid id, no outputs.
  TaskOutputTensors() : task_id_(PTO2TaskId::invalid()) {}
  /// From the runtime's answer.
  explicit TaskOutputTensors(const PtoShimOutputs& out)
      : task_id_(out.task_id), count_(out.count), outputs_(out.tensors) {}

  /// Output i. Out of range: a fatal error, and a reference to an empty view.
  const ChipTensor& get_ref(uint32_t i) const& {
    if (i < count_) return outputs_[i];
    pto_shim_report_fatal(PTO2_ERROR_INVALID_ARGS, "get_ref", "output index out of range");
    static const ChipTensor kEmpty{};
    return kEmpty;
  }
  /// Not on temporaries: the reference would outlive nothing useful.
  const ChipTensor& get_ref(uint32_t i) const&& = delete;
  /// The submitted task's id (invalid after a failure).
  PTO2TaskId task_id() const { return task_id_; }
  /// Number of outputs.
  uint32_t size() const { return count_; }
  /// Whether there are no outputs.
  bool empty() const { return count_ == 0; }

 private:
  PTO2TaskId task_id_;
  uint32_t count_ = 0;
  const ChipTensor* outputs_ = nullptr;
};

#if PTO_SHIM_IS_HBG
/// host_build_graph's name for TaskOutputTensors.
using TaskSubmitResult = TaskOutputTensors;
#endif

namespace pto_shim::detail {

/// Submits `args` as a task of `kind` with kernel ids `kernels` through the C boundary.
template <int32_t MaxT, int32_t MaxS>
inline TaskOutputTensors Submit(PtoShimTaskKind kind, const MixedKernels& kernels,
                                const Arg<MaxT, MaxS>& args, const char* api) {
  PtoShimTaskDesc desc{};
  desc.kind = kind;
  desc.kernel_ids[0] = kernels.aic_kernel_id;
  desc.kernel_ids[1] = kernels.aiv0_kernel_id;
  desc.kernel_ids[2] = kernels.aiv1_kernel_id;
  desc.api = api;
  ArgAccess::Describe(args, &desc);
  PtoShimOutputs out{PTO2TaskId::invalid(), 0, nullptr};
  pto_shim_submit(&desc, &out);
  return TaskOutputTensors(out);
}

/// alloc_tensors over `n` create-infos given by address (one task, output i = info i).
inline TaskOutputTensors AllocCreateInfos(const TensorCreateInfo* const* infos, uint32_t n) {
  constexpr uint32_t kInline = 64;
  TensorRef inline_refs[kInline];
  TensorArgType inline_tags[kInline];
  std::vector<TensorRef> heap_refs;
  std::vector<TensorArgType> heap_tags;
  TensorRef* refs = inline_refs;
  TensorArgType* tags = inline_tags;
  if (n > kInline) {
    heap_refs.resize(n);
    heap_tags.resize(n);
    refs = heap_refs.data();
    tags = heap_tags.data();
  }
  for (uint32_t i = 0; i < n; ++i) {
    refs[i] = ArgAccess::MakeRef(infos[i]);
    tags[i] = TensorArgType::OUTPUT;
  }
  PtoShimTaskDesc desc{};
  desc.kind = PTO_SHIM_ALLOC_TASK;
  desc.kernel_ids[0] = desc.kernel_ids[1] = desc.kernel_ids[2] = INVALID_KERNEL_ID;
  desc.tensors = refs;
  desc.tags = tags;
  desc.tensor_count = static_cast<int32_t>(n);
  desc.block_num = 1;
  desc.api = "alloc_tensors";
  PtoShimOutputs out{PTO2TaskId::invalid(), 0, nullptr};
  pto_shim_submit(&desc, &out);
  return TaskOutputTensors(out);
}

}  // namespace pto_shim::detail

/// Submits a task with up to three kernels (aic, aiv0, aiv1; only-aiv1 is moved to aiv0).
/// Consumes the next id of the current ring, allocates its OUTPUTs, records it and infers its
/// dependency edges (explicit -> per-arg creator -> TensorMap lookup -> publish).
inline TaskOutputTensors rt_submit_task(const MixedKernels& kernels, const CoreTaskArgs& args) {
  return pto_shim::detail::Submit(PTO_SHIM_KERNEL_TASK, kernels, args, "rt_submit_task");
}
/// rt_submit_task with only the AIC kernel `kernel_id`.
inline TaskOutputTensors rt_submit_aic_task(int32_t kernel_id, const CoreTaskArgs& args) {
  MixedKernels kernels;
  kernels.aic_kernel_id = kernel_id;
  return pto_shim::detail::Submit(PTO_SHIM_KERNEL_TASK, kernels, args, "rt_submit_aic_task");
}
/// rt_submit_task with only the AIV kernel `kernel_id` (slot aiv0).
inline TaskOutputTensors rt_submit_aiv_task(int32_t kernel_id, const CoreTaskArgs& args) {
  MixedKernels kernels;
  kernels.aiv0_kernel_id = kernel_id;
  return pto_shim::detail::Submit(PTO_SHIM_KERNEL_TASK, kernels, args, "rt_submit_aiv_task");
}
/// A task without a kernel (kernel ids [-1,-1,-1]) with full dependency participation.
inline TaskOutputTensors rt_submit_dummy_task(const CoreTaskArgs& args) {
  return pto_shim::detail::Submit(PTO_SHIM_DUMMY_TASK, MixedKernels{}, args,
                                  "rt_submit_dummy_task");
}

/// Allocation-only task: consumes an id and materialises the OUTPUT create-infos of `args`
/// (owner = the alloc task). No fan-in, no TensorMap, not recorded in deps.json. Any other
/// argument or a scalar is a fatal INVALID_ARGS.
inline TaskOutputTensors alloc_tensors(const CoreTaskArgs& args) {
  return pto_shim::detail::Submit(PTO_SHIM_ALLOC_TASK, MixedKernels{}, args, "alloc_tensors");
}
/// alloc_tensors over an array of `n` create-infos.
inline TaskOutputTensors alloc_tensors(const TensorCreateInfo create_infos[], uint32_t n) {
  std::vector<const TensorCreateInfo*> ptrs(n);
  for (uint32_t i = 0; i < n; ++i) ptrs[i] = &create_infos[i];
  return pto_shim::detail::AllocCreateInfos(ptrs.data(), n);
}
/// alloc_tensors over one or more create-infos (lvalues; output i = argument i).
template <typename... CreateInfos,
          typename = std::enable_if_t<
              (sizeof...(CreateInfos) >= 1) &&
              (std::is_same_v<std::remove_cv_t<CreateInfos>, TensorCreateInfo> && ...)>>
inline TaskOutputTensors alloc_tensors(const CreateInfos&... create_infos) {
  const TensorCreateInfo* ptrs[] = {&create_infos...};
  return pto_shim::detail::AllocCreateInfos(ptrs, sizeof...(CreateInfos));
}

/// MIX clusters (AIC cores) available to this run.
inline int32_t rt_available_cluster_count() { return pto_shim_available_cluster_count(); }
/// Standalone AIV cores available to this run.
inline int32_t rt_available_aiv_count() { return pto_shim_available_aiv_count(); }
/// True once a fatal error latched (every API call is then a no-op).
inline bool rt_is_fatal() { return pto_shim_is_fatal(); }
/// Marks the orchestration as finished (called by the executor, not by sources).
inline void rt_orchestration_done() { pto_shim_orchestration_done(); }
