// dep_probe: the probe orchestration of runtime.md §8b, written from its pseudo-code. It
// exercises every TensorMap overlap class, NO_DEP, manual_dep views, OUTPUT_EXISTING, explicit
// dep dedup, add_dep_wait, a dummy task, rings 0..3, a MANUAL scope, block_num, early dispatch
// and kernel-id normalisation. Entry tensors: X, Y: FLOAT32[64, 64], Z: FLOAT32[4096].
// Kernel 0 is a no-op AIV kernel (NOOP), kernel 1 a no-op AIC kernel (NOOP_AIC).
#include <stdint.h>

#include "pto_orchestration_api.h"

namespace {

// Submits a NOOP task whose arguments `fill` adds; returns its id.
template <typename Fill>
PTO2TaskId Noop(Fill fill) {
  CoreTaskArgs args;
  fill(args);
  return rt_submit_aiv_task(0, args).task_id();
}

}  // namespace

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
  const ChipTensor& z = orch_args.tensor(2).ref();

  uint32_t half_rows[2] = {32, 64};
  uint32_t half_cols[2] = {64, 32};
  uint32_t top[2] = {0, 0};
  uint32_t bottom[2] = {32, 0};
  uint32_t right[2] = {0, 32};

  // (0,0) .. (0,4): two row halves of X, full reads and writes, a partial read.
  ChipTensor x_top = x.view(half_rows, top);
  ChipTensor x_bottom = x.view(half_rows, bottom);
  const PTO2TaskId t0 = Noop([&](CoreTaskArgs& a) { a.add_inout(x_top); });
  const PTO2TaskId t1 = Noop([&](CoreTaskArgs& a) { a.add_inout(x_bottom); });
  Noop([&](CoreTaskArgs& a) { a.add_input(x); });
  const PTO2TaskId t3 = Noop([&](CoreTaskArgs& a) { a.add_inout(x); });
  uint32_t band_shape[2] = {16, 64};
  uint32_t band_offset[2] = {8, 0};
  ChipTensor x_band = x.view(band_shape, band_offset);
  Noop([&](CoreTaskArgs& a) { a.add_input(x_band); });

  // (0,5) .. (0,7): column halves of Y (disjoint) and a transposed read (strides differ).
  ChipTensor y_left = y.view(half_cols, top);
  ChipTensor y_right = y.view(half_cols, right);
  ChipTensor y_transposed = y.transpose(0, 1);
  Noop([&](CoreTaskArgs& a) { a.add_inout(y_left); });
  Noop([&](CoreTaskArgs& a) { a.add_input(y_right); });
  Noop([&](CoreTaskArgs& a) { a.add_input(y_transposed); });

  // (0,8), (0,9): even and odd elements of Z.
  ChipTensor z_even = z.slice(0, 0, 4096, 2);
  ChipTensor z_odd = z.slice(0, 1, 4096, 2);
  Noop([&](CoreTaskArgs& a) { a.add_inout(z_even); });
  Noop([&](CoreTaskArgs& a) { a.add_input(z_odd); });

  // (0,10): NO_DEP on X (creator only; X has none).
  Noop([&](CoreTaskArgs& a) { a.add_no_dep(x); });

  // (0,11) .. (0,14): a runtime-allocated w, read through NO_DEP, a manual_dep view, and
  // together with X under explicit deps that repeat a producer.
  uint32_t w_shape[1] = {256};
  TensorCreateInfo w_ci(w_shape, 1, DataType::FLOAT32);
  CoreTaskArgs w_args;
  w_args.add_output(w_ci);
  TaskOutputTensors w_out = rt_submit_aiv_task(0, w_args);
  const PTO2TaskId t11 = w_out.task_id();
  const ChipTensor& w = w_out.get_ref(0);
  Noop([&](CoreTaskArgs& a) { a.add_no_dep(w); });
  uint32_t w_half[1] = {128};
  uint32_t w_half_offset[1] = {64};
  ChipTensor w_window = w.view(w_half, w_half_offset, /*manual_dep=*/true);
  Noop([&](CoreTaskArgs& a) { a.add_input(w_window); });
  PTO2TaskId repeated[3] = {t11, t11, t3};
  Noop([&](CoreTaskArgs& a) {
    a.add_input(w, x);
    a.set_dependencies(repeated, 3);
  });

  // (0,15), (0,16): OUTPUT_EXISTING on Z, then a full read of Z.
  Noop([&](CoreTaskArgs& a) { a.add_output(z); });
  Noop([&](CoreTaskArgs& a) { a.add_input(z); });

  // (0,17): a version-1 alias of Y; (0,18): X reinterpreted as INT32.
  uint32_t square[2] = {64, 64};
  ChipTensor y_v1 = make_tensor_external(y.data_as<void>(), square, 2, DataType::FLOAT32,
                                         /*manual_dep=*/false, /*version=*/1);
  ChipTensor y_v1_right = y_v1.view(half_cols, right);
  Noop([&](CoreTaskArgs& a) { a.add_input(y_v1_right); });
  uint32_t flat[1] = {4096};
  ChipTensor x_int = make_tensor_external(x.data_as<void>(), flat, 1, DataType::INT32);
  Noop([&](CoreTaskArgs& a) { a.add_input(x_int); });

  // (0,19): no tensors, a WAIT-only and a WAIT|RETAIN explicit dep.
  CoreTaskArgsWithDeps<> with_deps;
  with_deps.add_dep_wait(t0);
  with_deps.add_dep(t1);
  rt_submit_aiv_task(0, with_deps);

  // (0,20): a dummy task after (0,3).
  CoreTaskArgs barrier;
  barrier.set_dependencies(&t3, 1);
  rt_submit_dummy_task(barrier);

  // Rings 1..3 and a MANUAL scope at depth 4 (still ring 3).
  PTO2_SCOPE() {
    uint32_t buf_shape[1] = {64};
    TensorCreateInfo buf_ci(buf_shape, 1, DataType::FLOAT32);
    TaskOutputTensors buf_out = alloc_tensors(buf_ci);
    const PTO2TaskId alloc_id = buf_out.task_id();
    const ChipTensor& buf = buf_out.get_ref(0);
    Noop([&](CoreTaskArgs& a) { a.add_inout(buf); });
    PTO2_SCOPE() {
      Noop([&](CoreTaskArgs& a) {
        a.add_input(buf);
        a.add_inout(x_top);
      });
      PTO2_SCOPE() {
        Noop([&](CoreTaskArgs& a) { a.add_input(buf); });
        PTO2_SCOPE(PTO2ScopeMode::MANUAL) {
          Noop([&](CoreTaskArgs& a) {
            a.add_input(buf);
            a.add_inout(x);
            a.set_dependencies(&alloc_id, 1);
          });
        }
      }
    }
    Noop([&](CoreTaskArgs& a) { a.add_input(x); });
  }

  // (0,21): SPMD with 4 blocks and early resolve.
  Noop([&](CoreTaskArgs& a) {
    a.add_input(z);
    a.launch_spec.set_block_num(4);
    a.set_allow_early_resolve(true);
  });

  // (0,22): AIC + both AIVs; (0,23): only AIV1 set (recorded as AIV0).
  MixedKernels all;
  all.aic_kernel_id = 1;
  all.aiv0_kernel_id = 0;
  all.aiv1_kernel_id = 0;
  CoreTaskArgs mixed;
  mixed.add_input(y);
  rt_submit_task(all, mixed);
  MixedKernels only_aiv1;
  only_aiv1.aiv1_kernel_id = 0;
  CoreTaskArgs normalised;
  normalised.add_input(y);
  rt_submit_task(only_aiv1, normalised);
}

}  // extern "C"
