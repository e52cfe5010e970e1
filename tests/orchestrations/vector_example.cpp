// vector_example: the worked example of runtime.md §8, written from its pseudo-code.
// Entry tensors a, b, f: FLOAT32[n]. Five tasks, two rings (the inner scope runs on ring 1):
//   c = k0(a, b);  scope { d = k1(c, 1.0); e = k1(c, 2.0); g = k2(d, e); f <- k0(g, c) }
// Built for both runtimes: TMRB reproduces vector_example and dep_gen_vector_example,
// host_build_graph (single ring) reproduces hbg_dep_gen_vector_example.
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

  PTO2_SCOPE() {
    CoreTaskArgs d_args;
    d_args.add_input(c);
    d_args.add_output(ci);
    d_args.add_scalar(1.0f, 3);
    TaskOutputTensors d_out = rt_submit_aiv_task(1, d_args);
    const ChipTensor& d = d_out.get_ref(0);

    CoreTaskArgs e_args;
    e_args.add_input(c);
    e_args.add_output(ci);
    e_args.add_scalar(2.0f, 3);
    TaskOutputTensors e_out = rt_submit_aiv_task(1, e_args);
    const ChipTensor& e = e_out.get_ref(0);

    CoreTaskArgs g_args;
    g_args.add_input(d, e);
    g_args.add_output(ci);
    g_args.add_scalar(3);
    TaskOutputTensors g_out = rt_submit_aiv_task(2, g_args);
    const ChipTensor& g = g_out.get_ref(0);

    CoreTaskArgs f_args;
    f_args.add_input(g, c);
    f_args.add_output(f);
    rt_submit_aiv_task(0, f_args);
  }
}

}  // extern "C"
