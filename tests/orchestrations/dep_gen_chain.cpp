// dep_gen_chain: a long INOUT chain joined by one barrier with more than 64 explicit deps.
// Entry tensors x, y: FLOAT32[n]; scalar 0: chain length N.
//   N x WRITE_CONST (aic 0) INOUT x      -> a TensorMap chain, each step `covered`
//   dummy task depending on all N writers (explicit deps; > 64 needs the overflow records)
//   COPY_FIRST (aic 1): INPUT x, INOUT y, explicit dep on the barrier
#include <stdint.h>

#include <vector>

#include "pto_orchestration_api.h"

extern "C" {

__attribute__((visibility("default"))) PTO2OrchestrationConfig aicpu_orchestration_config(
    const ChipTaskArgs& orch_args) {
  (void)orch_args;
  return PTO2OrchestrationConfig{.expected_arg_count = 3};
}

__attribute__((visibility("default"))) void aicpu_orchestration_entry(
    const ChipTaskArgs& orch_args) {
  const ChipTensor& x = orch_args.tensor(0).ref();
  const ChipTensor& y = orch_args.tensor(1).ref();
  const uint64_t chain_length = orch_args.scalar(0);

  std::vector<PTO2TaskId> writers;
  writers.reserve(chain_length);
  for (uint64_t i = 0; i < chain_length; ++i) {
    CoreTaskArgs write;
    write.add_inout(x);
    write.add_scalar(i);
    writers.push_back(rt_submit_aic_task(0, write).task_id());
  }

  CoreTaskArgs barrier;
  barrier.set_dependencies(writers.data(), static_cast<uint32_t>(writers.size()));
  PTO2TaskId barrier_id = rt_submit_dummy_task(barrier).task_id();

  CoreTaskArgs copy;
  copy.add_input(x);
  copy.add_inout(y);
  copy.set_dependencies(&barrier_id, 1);
  rt_submit_aic_task(1, copy);
}

}  // extern "C"
