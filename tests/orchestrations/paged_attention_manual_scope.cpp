// paged_attention_manual_scope: the paged_attention graph with all ordering given explicitly.
// Same entry tensors and scalar as paged_attention.cpp. Per request one MANUAL scope (ring 1):
// no creator edges and no TensorMap, only explicit deps:
//   QK -> SF -> PV -> UP, UP(i-1) -> UP(i), and the last UP also depends on the accumulators'
//   allocation task (it is the last user of oi/li/mi).
#include <stdint.h>

#include <algorithm>

#include "pto_orchestration_api.h"

extern "C" {

__attribute__((visibility("default"))) PTO2OrchestrationConfig aicpu_orchestration_config(
    const ChipTaskArgs& orch_args) {
  (void)orch_args;
  return PTO2OrchestrationConfig{.expected_arg_count = 7};
}

__attribute__((visibility("default"))) void aicpu_orchestration_entry(
    const ChipTaskArgs& orch_args) {
  const ChipTensor& query = orch_args.tensor(0).ref();
  const ChipTensor& key_cache = orch_args.tensor(1).ref();
  const ChipTensor& value_cache = orch_args.tensor(2).ref();
  const ChipTensor& block_table = orch_args.tensor(3).ref();
  const ChipTensor& context_lens = orch_args.tensor(4).ref();
  const ChipTensor& out = orch_args.tensor(5).ref();
  const uint32_t block_size = static_cast<uint32_t>(orch_args.scalar(0));

  const uint32_t batch = context_lens.shapes[0];
  const uint32_t rows = query.shapes[0] / batch;
  const uint32_t head_dim = query.shapes[1];
  if (block_size == 0 || rows == 0) {
    rt_report_fatal(PTO2_ERROR_INVALID_ARGS, "paged_attention: bad block_size %u or rows %u",
                    block_size, rows);
    return;
  }

  uint32_t tile_shape[2] = {rows, head_dim};
  uint32_t score_shape[2] = {rows, block_size};
  uint32_t kv_shape[2] = {block_size, head_dim};
  uint32_t row_shape[1] = {rows};
  TensorCreateInfo oi_ci(tile_shape, 2, DataType::FLOAT32);
  TensorCreateInfo li_ci(row_shape, 1, DataType::FLOAT32);
  TensorCreateInfo mi_ci(row_shape, 1, DataType::FLOAT32);
  TensorCreateInfo score_ci(score_shape, 2, DataType::FLOAT32);
  TensorCreateInfo prob_ci(score_shape, 2, DataType::BFLOAT16);
  TensorCreateInfo row_max_ci(row_shape, 1, DataType::FLOAT32);
  TensorCreateInfo row_sum_ci(row_shape, 1, DataType::FLOAT32);
  TensorCreateInfo partial_ci(tile_shape, 2, DataType::FLOAT32);

  for (uint32_t b = 0; b < batch; ++b) {
    uint32_t len_index[1] = {b};
    const int32_t context_len = get_tensor_data<int32_t>(context_lens, 1, len_index);
    const uint32_t num_blocks = (static_cast<uint32_t>(context_len) + block_size - 1) / block_size;

    PTO2_SCOPE(PTO2ScopeMode::MANUAL) {
      TaskOutputTensors acc = alloc_tensors(oi_ci, li_ci, mi_ci);
      const PTO2TaskId alloc_id = acc.task_id();
      const ChipTensor& oi = acc.get_ref(0);
      const ChipTensor& li = acc.get_ref(1);
      const ChipTensor& mi = acc.get_ref(2);

      uint32_t row_offset[2] = {b * rows, 0};
      ChipTensor q = query.view(tile_shape, row_offset);
      ChipTensor o = out.view(tile_shape, row_offset);
      PTO2TaskId previous_update = PTO2TaskId::invalid();

      for (uint32_t i = 0; i < num_blocks; ++i) {
        uint32_t table_index[2] = {b, i};
        const int32_t block = get_tensor_data<int32_t>(block_table, 2, table_index);
        const uint32_t valid =
            std::min(block_size, static_cast<uint32_t>(context_len) - i * block_size);
        uint32_t kv_offset[2] = {static_cast<uint32_t>(block) * block_size, 0};
        ChipTensor k = key_cache.view(kv_shape, kv_offset);
        ChipTensor v = value_cache.view(kv_shape, kv_offset);

        CoreTaskArgs qk;
        qk.add_input(q, k);
        qk.add_output(score_ci);
        TaskOutputTensors qk_out = rt_submit_aic_task(0, qk);
        PTO2TaskId qk_id = qk_out.task_id();

        uint32_t valid_shape[2] = {rows, valid};
        uint32_t origin[2] = {0, 0};
        ChipTensor s = qk_out.get_ref(0).view(valid_shape, origin);
        CoreTaskArgs sf;
        sf.add_input(s);
        sf.add_output(prob_ci, row_max_ci, row_sum_ci);
        sf.add_scalar(valid);
        sf.set_dependencies(&qk_id, 1);
        TaskOutputTensors sf_out = rt_submit_aiv_task(1, sf);
        PTO2TaskId sf_id = sf_out.task_id();
        const ChipTensor& p = sf_out.get_ref(0);
        const ChipTensor& m_new = sf_out.get_ref(1);
        const ChipTensor& l_new = sf_out.get_ref(2);

        CoreTaskArgs pv;
        pv.add_input(p, v);
        pv.add_output(partial_ci);
        pv.set_dependencies(&sf_id, 1);
        TaskOutputTensors pv_out = rt_submit_aic_task(2, pv);
        const ChipTensor& o_new = pv_out.get_ref(0);

        PTO2TaskId up_deps[3];
        uint32_t up_dep_count = 0;
        up_deps[up_dep_count++] = pv_out.task_id();
        if (previous_update.is_valid()) up_deps[up_dep_count++] = previous_update;
        if (i + 1 == num_blocks) up_deps[up_dep_count++] = alloc_id;
        CoreTaskArgs up;
        up.add_input(m_new, l_new, o_new);
        up.add_inout(mi, li, oi, o);
        up.add_scalar(static_cast<uint64_t>(i == 0), static_cast<uint64_t>(i + 1 == num_blocks));
        up.set_dependencies(up_deps, up_dep_count);
        previous_update = rt_submit_aiv_task(3, up).task_id();
      }
    }
  }
}

}  // extern "C"
