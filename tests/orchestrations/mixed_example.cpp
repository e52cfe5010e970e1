// mixed_example: mixed-core tasks (one task driving AIC, AIV0 and AIV1 kernels at once) next to
// single-core ones, written from the real capture. Entry tensors 0..14: FLOAT32[n]; every task
// reads entry tensors and writes other entry tensors (OUTPUT_EXISTING), so nothing is read after
// it is written and the graph has no edges. All tasks run in one scope (ring 1).
//   0 mixed {MATMUL, ADD, MUL}:   t0,t1 -> t2;  t3,t4 -> t5;  t6,t7 -> t8
//   1 aic MATMUL:                 t0,t1 -> t9
//   2 aiv ADD_STANDALONE:         t3,t4 -> t10
//   3 mixed {-, ADD_STANDALONE, MUL_STANDALONE}: t3,t4 -> t11; t6,t7 -> t12
//   4 mixed {MATMUL, ADD, -}:     t0,t1 -> t13; t3,t4 -> t14
#include <stdint.h>

#include "pto_orchestration_api.h"

namespace {

enum Kernel : int32_t { kMatmul = 0, kAdd = 1, kMul = 2, kAddStandalone = 3, kMulStandalone = 4 };

}  // namespace

extern "C" {

__attribute__((visibility("default"))) PTO2OrchestrationConfig aicpu_orchestration_config(
    const ChipTaskArgs& orch_args) {
  (void)orch_args;
  return PTO2OrchestrationConfig{.expected_arg_count = 15};
}

__attribute__((visibility("default"))) void aicpu_orchestration_entry(
    const ChipTaskArgs& orch_args) {
  const ChipTensor& t0 = orch_args.tensor(0).ref();
  const ChipTensor& t1 = orch_args.tensor(1).ref();
  const ChipTensor& t2 = orch_args.tensor(2).ref();
  const ChipTensor& t3 = orch_args.tensor(3).ref();
  const ChipTensor& t4 = orch_args.tensor(4).ref();
  const ChipTensor& t5 = orch_args.tensor(5).ref();
  const ChipTensor& t6 = orch_args.tensor(6).ref();
  const ChipTensor& t7 = orch_args.tensor(7).ref();
  const ChipTensor& t8 = orch_args.tensor(8).ref();
  const ChipTensor& t9 = orch_args.tensor(9).ref();
  const ChipTensor& t10 = orch_args.tensor(10).ref();
  const ChipTensor& t11 = orch_args.tensor(11).ref();
  const ChipTensor& t12 = orch_args.tensor(12).ref();
  const ChipTensor& t13 = orch_args.tensor(13).ref();
  const ChipTensor& t14 = orch_args.tensor(14).ref();

  PTO2_SCOPE() {
    MixedKernels all;
    all.aic_kernel_id = kMatmul;
    all.aiv0_kernel_id = kAdd;
    all.aiv1_kernel_id = kMul;
    CoreTaskArgs three;
    three.add_input(t0, t1);
    three.add_output(t2);
    three.add_input(t3, t4);
    three.add_output(t5);
    three.add_input(t6, t7);
    three.add_output(t8);
    rt_submit_task(all, three);

    CoreTaskArgs matmul;
    matmul.add_input(t0, t1);
    matmul.add_output(t9);
    rt_submit_aic_task(kMatmul, matmul);

    CoreTaskArgs add;
    add.add_input(t3, t4);
    add.add_output(t10);
    rt_submit_aiv_task(kAddStandalone, add);

    MixedKernels vector_pair;
    vector_pair.aiv0_kernel_id = kAddStandalone;
    vector_pair.aiv1_kernel_id = kMulStandalone;
    CoreTaskArgs two_vector;
    two_vector.add_input(t3, t4);
    two_vector.add_output(t11);
    two_vector.add_input(t6, t7);
    two_vector.add_output(t12);
    rt_submit_task(vector_pair, two_vector);

    MixedKernels cube_vector;
    cube_vector.aic_kernel_id = kMatmul;
    cube_vector.aiv0_kernel_id = kAdd;
    CoreTaskArgs cube_and_add;
    cube_and_add.add_input(t0, t1);
    cube_and_add.add_output(t13);
    cube_and_add.add_input(t3, t4);
    cube_and_add.add_output(t14);
    rt_submit_task(cube_vector, cube_and_add);
  }
}

}  // extern "C"
