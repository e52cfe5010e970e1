// benchmark_bgemm: tiled GEMM with k-accumulation, written from the real captures.
// Entry tensors: A, B: FLOAT32[tiles_ab * T], C: FLOAT32[tiles_c * T] (T = tile * tile elements,
// flat), config: INT64[4] = {tile, grid_k, num_groups, incore_loop}. The config values are read
// through a raw pointer (data_as), so the runner must be given real data for that tensor.
// For every output tile (num_groups x incore_loop of them) and every k step:
//   P = GEMM(A tile, B tile)  (aic 0; output on the ring of the per-group scope)
//   C tile += ADD(P)          (aiv 0 slot, kernel 1; INOUT: TensorMap chain along k)
#include <stdint.h>

#include "pto_orchestration_api.h"

extern "C" {

__attribute__((visibility("default"))) PTO2OrchestrationConfig aicpu_orchestration_config(
    const ChipTaskArgs& orch_args) {
  (void)orch_args;
  return PTO2OrchestrationConfig{.expected_arg_count = 4};
}

__attribute__((visibility("default"))) void aicpu_orchestration_entry(
    const ChipTaskArgs& orch_args) {
  const ChipTensor& a = orch_args.tensor(0).ref();
  const ChipTensor& b = orch_args.tensor(1).ref();
  const ChipTensor& c = orch_args.tensor(2).ref();
  const ChipTensor& config = orch_args.tensor(3).ref();

  const int64_t* cfg = config.data_as<int64_t>();
  const int64_t tile = cfg[0];
  const int64_t grid_k = cfg[1];
  const int64_t num_groups = cfg[2];
  const int64_t incore_loop = cfg[3];
  const uint32_t tile_elems = static_cast<uint32_t>(tile * tile);

  uint32_t tile_shape[1] = {tile_elems};
  TensorCreateInfo partial_ci(tile_shape, 1, DataType::FLOAT32);

  for (int64_t group = 0; group < num_groups; ++group) {
    PTO2_SCOPE_GUARD();
    for (int64_t j = 0; j < incore_loop; ++j) {
      const uint32_t out_tile = static_cast<uint32_t>(group * incore_loop + j);
      uint32_t c_offset[1] = {out_tile * tile_elems};
      ChipTensor c_tile = c.view(tile_shape, c_offset);
      for (int64_t k = 0; k < grid_k; ++k) {
        uint32_t ab_offset[1] = {static_cast<uint32_t>(out_tile * grid_k + k) * tile_elems};
        ChipTensor a_tile = a.view(tile_shape, ab_offset);
        ChipTensor b_tile = b.view(tile_shape, ab_offset);

        CoreTaskArgs gemm;
        gemm.add_input(a_tile, b_tile);
        gemm.add_output(partial_ci);
        gemm.add_input(config);
        TaskOutputTensors product = rt_submit_aic_task(0, gemm);
        const ChipTensor& p = product.get_ref(0);

        CoreTaskArgs add;
        add.add_inout(c_tile);
        add.add_input(p, config);
        rt_submit_aiv_task(1, add);
      }
    }
  }
}

}  // extern "C"
