// hbg_vector_example: the host_build_graph vector example, written from the real capture.
// Entry tensors a, b, f: FLOAT32[n]. Four tasks on the single HBG ring:
//   c = k0(a, b);  d = k1(c, 1.0);  e = k1(c, 2.0);  f <- k2(d, e)
#include <stdint.h>

#include "pto_orchestration_api.h"

extern "C" {

__attribute__((visibility("default"))) PTO2OrchestrationConfig aicpu_orchestration_config(
    const ChipTaskArgs& orch_args) {
  (void)orch_args;
  return PTO2OrchestrationConfig{.expected_arg_count = 3};
}

__attribute__((visibility("default"))) void aicpu_orchestration_entry(
    const ChipTaskArgs& orch_args) {
  const ChipTensor& a = orch_args.tensor(0).ref();
  const ChipTensor& b = orch_args.tensor(1).ref();
  const ChipTensor& f = orch_args.tensor(2).ref();

  uint32_t shape[1] = {a.shapes[0]};
  TensorCreateInfo ci(shape, 1, DataType::FLOAT32);

  CoreTaskArgs sum_args;
  sum_args.add_input(a, b);
  sum_args.add_output(ci);
  TaskOutputTensors sum = rt_submit_aiv_task(0, sum_args);
  const ChipTensor& c = sum.get_ref(0);

  CoreTaskArgs d_args;
  d_args.add_input(c);
  d_args.add_output(ci);
  d_args.add_scalar(1.0f);
  TaskOutputTensors d_out = rt_submit_aiv_task(1, d_args);
  const ChipTensor& d = d_out.get_ref(0);

  CoreTaskArgs e_args;
  e_args.add_input(c);
  e_args.add_output(ci);
  e_args.add_scalar(2.0f);
  TaskOutputTensors e_out = rt_submit_aiv_task(1, e_args);
  const ChipTensor& e = e_out.get_ref(0);

  CoreTaskArgs f_args;
  f_args.add_input(d, e);
  f_args.add_output(f);
  rt_submit_aiv_task(2, f_args);
}

}  // extern "C"
