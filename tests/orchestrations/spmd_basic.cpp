// spmd_basic: one mixed task (AIC + both AIVs) updating a small buffer in place, as a
// single-block SPMD launch. Entry tensor 0: FLOAT32[n]. No scope of its own (ring 0).
#include <stdint.h>

#include "pto_orchestration_api.h"

extern "C" {

__attribute__((visibility("default"))) PTO2OrchestrationConfig aicpu_orchestration_config(
    const ChipTaskArgs& orch_args) {
  (void)orch_args;
  return PTO2OrchestrationConfig{.expected_arg_count = 1};
}

__attribute__((visibility("default"))) void aicpu_orchestration_entry(
    const ChipTaskArgs& orch_args) {
  const ChipTensor& buffer = orch_args.tensor(0).ref();

  MixedKernels kernels;
  kernels.aic_kernel_id = 0;
  kernels.aiv0_kernel_id = 1;
  kernels.aiv1_kernel_id = 2;
  CoreTaskArgs args;
  args.add_inout(buffer);
  args.launch_spec.set_block_num(1);
  rt_submit_task(kernels, args);
}

}  // extern "C"
