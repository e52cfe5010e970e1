// decode_like: a decode-step-shaped orchestration of our own, for timing the shim and the
// runner on ~10,000 tasks (docs/runtime_shim.md). Per layer (one scope each):
//   q = PROJ(hidden, w_qkv[layer])                                       (aic 0)
//   per request b (nested scope; accumulators from one alloc_tensors):
//     per KV block: s = QK(q rows b, K block); p, m, l = SF(s); o = PV(p, V block);
//                   UP(m, l, o; INOUT acc, INOUT attn rows b)           (aic 1, aiv 2, aic 3, aiv 4)
//   o = OPROJ(attn, w_o[layer]); hidden += ADD(o)                        (aic 0, aiv 5)
//   g = PROJ(hidden, w_gate); u = PROJ(hidden, w_up); a = SWIGLU(g, u);
//   d = PROJ(a, w_down); hidden += ADD(d)                                (aic 0, aiv 6, aiv 5)
// Entry tensors: 0 hidden FLOAT32[batch * rows, dim], 1 weights FLOAT32[layers * 5 * dim, dim],
// 2 kv_cache BFLOAT16[num_blocks * block_size, dim], 3 context_lens INT32[batch] (read).
// Scalars: 0 layers, 1 block_size. Tasks: layers * (8 + 4 * sum over b of blocks(b)).
#include <stdint.h>

#include "pto_orchestration_api.h"

namespace {

// Submits `kernel` on the AIC with inputs a, b and one output of `ci`; returns the output.
TaskOutputTensors Matmul(int32_t kernel, const ChipTensor& a, const ChipTensor& b,
                         const TensorCreateInfo& ci) {
  CoreTaskArgs args;
  args.add_input(a, b);
  args.add_output(ci);
  return rt_submit_aic_task(kernel, args);
}

}  // namespace

extern "C" {

__attribute__((visibility("default"))) PTO2OrchestrationConfig aicpu_orchestration_config(
    const ChipTaskArgs& orch_args) {
  (void)orch_args;
  return PTO2OrchestrationConfig{.expected_arg_count = 6};
}

__attribute__((visibility("default"))) void aicpu_orchestration_entry(
    const ChipTaskArgs& orch_args) {
  const ChipTensor& hidden = orch_args.tensor(0).ref();
  const ChipTensor& weights = orch_args.tensor(1).ref();
  const ChipTensor& kv_cache = orch_args.tensor(2).ref();
  const ChipTensor& context_lens = orch_args.tensor(3).ref();
  const uint32_t layers = static_cast<uint32_t>(orch_args.scalar(0));
  const uint32_t block_size = static_cast<uint32_t>(orch_args.scalar(1));
  const uint32_t batch = context_lens.shapes[0];
  const uint32_t rows = hidden.shapes[0] / batch;
  const uint32_t dim = hidden.shapes[1];
  const uint32_t kv_blocks = kv_cache.shapes[0] / block_size;

  uint32_t act_shape[2] = {batch * rows, dim};
  uint32_t tile_shape[2] = {rows, dim};
  uint32_t weight_shape[2] = {dim, dim};
  uint32_t kv_shape[2] = {block_size, dim};
  uint32_t score_shape[2] = {rows, block_size};
  uint32_t row_shape[1] = {rows};
  TensorCreateInfo act_ci(act_shape, 2, DataType::FLOAT32);
  TensorCreateInfo tile_ci(tile_shape, 2, DataType::FLOAT32);
  TensorCreateInfo row_ci(row_shape, 1, DataType::FLOAT32);
  TensorCreateInfo score_ci(score_shape, 2, DataType::FLOAT32);
  TensorCreateInfo prob_ci(score_shape, 2, DataType::BFLOAT16);

  for (uint32_t layer = 0; layer < layers; ++layer) {
    PTO2_SCOPE() {
      ChipTensor w[5];
      for (uint32_t i = 0; i < 5; ++i) {
        uint32_t offset[2] = {(layer * 5 + i) * dim, 0};
        w[i] = weights.view(weight_shape, offset);
      }
      TaskOutputTensors q_out = Matmul(0, hidden, w[0], act_ci);
      const ChipTensor& q = q_out.get_ref(0);
      TaskOutputTensors attn_out = alloc_tensors(act_ci);
      const ChipTensor& attn = attn_out.get_ref(0);

      for (uint32_t b = 0; b < batch; ++b) {
        uint32_t len_index[1] = {b};
        const uint32_t context_len =
            static_cast<uint32_t>(get_tensor_data<int32_t>(context_lens, 1, len_index));
        const uint32_t blocks = (context_len + block_size - 1) / block_size;
        uint32_t row_offset[2] = {b * rows, 0};
        ChipTensor q_rows = q.view(tile_shape, row_offset);
        ChipTensor attn_rows = attn.view(tile_shape, row_offset);
        PTO2_SCOPE() {
          TaskOutputTensors acc = alloc_tensors(tile_ci, row_ci, row_ci);
          const ChipTensor& oi = acc.get_ref(0);
          const ChipTensor& li = acc.get_ref(1);
          const ChipTensor& mi = acc.get_ref(2);
          for (uint32_t i = 0; i < blocks; ++i) {
            uint32_t kv_offset[2] = {((b * 131 + i * 7 + layer) % kv_blocks) * block_size, 0};
            ChipTensor kv = kv_cache.view(kv_shape, kv_offset);
            TaskOutputTensors s = Matmul(1, q_rows, kv, score_ci);

            CoreTaskArgs sf;
            sf.add_input(s.get_ref(0));
            sf.add_output(prob_ci, row_ci, row_ci);
            TaskOutputTensors sf_out = rt_submit_aiv_task(2, sf);

            TaskOutputTensors o = Matmul(3, sf_out.get_ref(0), kv, tile_ci);

            CoreTaskArgs up;
            up.add_input(sf_out.get_ref(1), sf_out.get_ref(2), o.get_ref(0));
            up.add_inout(mi, li, oi, attn_rows);
            rt_submit_aiv_task(4, up);
          }
        }
      }

      TaskOutputTensors projected = Matmul(0, attn, w[1], act_ci);
      CoreTaskArgs residual;
      residual.add_inout(hidden);
      residual.add_input(projected.get_ref(0));
      rt_submit_aiv_task(5, residual);

      TaskOutputTensors gate = Matmul(0, hidden, w[2], act_ci);
      TaskOutputTensors up_proj = Matmul(0, hidden, w[3], act_ci);
      CoreTaskArgs swiglu;
      swiglu.add_input(gate.get_ref(0), up_proj.get_ref(0));
      swiglu.add_output(act_ci);
      TaskOutputTensors activated = rt_submit_aiv_task(6, swiglu);
      TaskOutputTensors down = Matmul(0, activated.get_ref(0), w[4], act_ci);
      CoreTaskArgs residual2;
      residual2.add_inout(hidden);
      residual2.add_input(down.get_ref(0));
      rt_submit_aiv_task(5, residual2);
    }
  }
}

}  // extern "C"
