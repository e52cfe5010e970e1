// An orchestration in the style of compiler-generated sources (orchestration_api.md §5),
// written for this test, driven through the entry protocol of §4 as the runner does: entry
// tensors at fresh addresses (one with host data), scalars as u64, outer scope, config, entry.
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cinttypes>
#include <vector>

#include "aicpu/cache_maintenance.h"
#include "platform_comm/comm_context.h"
#include "pto_orchestration_api.h"
#include "runtime.h"
#include "shim_test_util.h"

#if SIMPLER_ORCH_PROFILING
#error "SIMPLER_ORCH_PROFILING must be 0: its hooks do not exist"
#endif

extern "C" {

__attribute__((visibility("default"))) PTO2OrchestrationConfig aicpu_orchestration_config(
    const ChipTaskArgs& orch_args) {
  (void)orch_args;
  return PTO2OrchestrationConfig{.expected_arg_count = 4};
}

// ext_a f32[M,64] (IN), ext_lens int32[4] (IN, host data), ext_out f32[M,64] (OUT),
// scalar 0 = alpha (f32 bits), scalar 1 = a CommContext pointer.
__attribute__((visibility("default"))) void aicpu_orchestration_entry(
    const ChipTaskArgs& orch_args) {
  const ChipTensor& ext_a = orch_args.tensor(0).ref();
  const ChipTensor& ext_lens = orch_args.tensor(1).ref();
  const ChipTensor& ext_out = orch_args.tensor(2).ref();
  float alpha = from_u64<float>(orch_args.scalar(0));
  CommContext* ctx = reinterpret_cast<CommContext*>(orch_args.scalar(1));
  int64_t M = (int64_t)orch_args.tensor(0).ref().shapes[0];
  LOG_DEBUG("M=%" PRId64 " alpha=%f", M, static_cast<double>(alpha));
  cache_invalidate_range(const_cast<ChipTensor*>(&ext_a), sizeof(ChipTensor));
  PTO2_SCOPE() {
    uint32_t tile_ci_shapes[2] = {16, 64};
    TensorCreateInfo tile_ci(tile_ci_shapes, 2, DataType::FLOAT32);
    uint32_t acc_ci_shapes[2] = {16, 64};
    TensorCreateInfo acc_ci(acc_ci_shapes, 2, DataType::FLOAT32, /*manual_dep=*/true);
    acc_ci.set_initial_value(static_cast<float>(0));
    TaskOutputTensors alloc_0 = alloc_tensors(tile_ci, acc_ci);
    const ChipTensor& tile = alloc_0.get_ref(0);
    const ChipTensor& acc = alloc_0.get_ref(1);
    PTO2TaskId prev[4];
    for (int64_t __init_i = 0; __init_i < 4; ++__init_i) prev[__init_i] = PTO2TaskId::invalid();
    for (int64_t i = 0; i < 4; ++i) {
      uint32_t lens_idx[1] = {static_cast<uint32_t>(i)};
      int32_t len = get_tensor_data<int32_t>(ext_lens, 1, lens_idx);
      uint32_t off0 = static_cast<uint32_t>(i * 16);
      uint32_t a_shapes[2] = {(off0 >= ext_a.shapes[0] ? 0u
                                                       : std::min<uint32_t>(16, ext_a.shapes[0] - off0)),
                              64};
      uint32_t a_offsets[2] = {off0, 0};
      ChipTensor a_i = ext_a.view(a_shapes, a_offsets);
      if (len == 0) continue;  // data-dependent control flow
      PTO2_SCOPE() {
        CoreTaskArgs params_t0;
        params_t0.add_input(a_i);
        params_t0.add_output(tile);
        params_t0.add_scalar(to_u64(alpha), (uint64_t)len);
        params_t0.dump(a_i, alpha);
        TaskOutputTensors task_0_outs = rt_submit_aiv_task(0, params_t0);
        PTO2TaskId t0 = task_0_outs.task_id();

        CoreTaskArgs params_t1;
        params_t1.add_input(tile);
        params_t1.add_inout(acc);
        params_t1.launch_spec.set_block_num(static_cast<int16_t>(rt_available_cluster_count()));
        params_t1.launch_spec.set_require_sync_start(true);
        CoreTaskPredicate p;
        p.operand.tensor = &ext_lens;
        p.operand.ndims = 1;
        p.operand.indices[0] = static_cast<uint32_t>(i);
        p.op = PredicateOp::GT;
        p.target = 0;
        params_t1.set_predicate(p);
        MixedKernels mixed_1 = {1, 2, INVALID_KERNEL_ID};
        prev[i] = rt_submit_task(mixed_1, params_t1).task_id();
        (void)t0;
      }
    }
    PTO2TaskId params_t2_deps[4];
    uint32_t params_t2_deps_count = 0;
    for (int64_t i = 0; i < 4; ++i) {
      if (prev[i].is_valid()) params_t2_deps[params_t2_deps_count++] = prev[i];
    }
    CoreTaskArgs params_t2;
    params_t2.set_dependencies(params_t2_deps, params_t2_deps_count);
    if (params_t2_deps_count > 0) rt_submit_dummy_task(params_t2);

    PTO2_SCOPE(PTO2ScopeMode::MANUAL) {
      std::vector<PTO2TaskId> deps;
      for (int64_t i = 0; i < 4; ++i) {
        if (prev[i].is_valid()) deps.push_back(prev[i]);
      }
      // Drop-dims slice lowering: row 0 of acc as a 1-D view.
      ChipTensor row = acc;
      row.ndims = 1;
      row.shapes[0] = 64;
      row.strides[0] = 1;
      row.is_contiguous = true;
      uint64_t n = row.numel();
      ChipTensor out_t = ext_out.transpose(0, 1).transpose(0, 1);
      CoreTaskArgs params_t3;
      params_t3.add_input(row);
      params_t3.add_output(out_t);
      params_t3.add_scalar(n, reinterpret_cast<uint64_t>(ctx));
      params_t3.set_dependencies(deps.data(), static_cast<uint32_t>(deps.size()));
      rt_submit_aiv_task(3, params_t3);
    }
    uint32_t lens_last[1] = {3};
    set_tensor_data<int32_t>(ext_lens, 1, lens_last, 99);
  }
}

}  // extern "C"

namespace shim_test {
namespace {

class GeneratedStyle : public ShimFixture {};

TEST_F(GeneratedStyle, RunsThroughTheEntryProtocol) {
  // What the runner does: fresh addresses, host data for the control-flow input, the config
  // check (TMRB: a lower bound), the outer scope (already open), the entry.
  int32_t lens[4] = {5, 0, 7, 1};
  const uint32_t a_shapes[2] = {64, 64};
  const uint32_t lens_shapes[1] = {4};
  std::vector<ChipTensor> tensors(3);
  const uint64_t a_addr = runtime().AllocateEntryAddress(64 * 64 * 4);
  const uint64_t lens_addr = runtime().AllocateEntryAddress(sizeof lens);
  const uint64_t out_addr = runtime().AllocateEntryAddress(64 * 64 * 4);
  ASSERT_TRUE(runtime().RegisterHostBuffer(lens_addr, lens, sizeof lens));
  tensors[0] = make_tensor_external(reinterpret_cast<void*>(a_addr), a_shapes, 2);
  tensors[1] = make_tensor_external(reinterpret_cast<void*>(lens_addr), lens_shapes, 1,
                                    DataType::INT32);
  tensors[2] = make_tensor_external(reinterpret_cast<void*>(out_addr), a_shapes, 2);
  CommContext ctx{};
  ChipTaskArgs orch_args;
  for (ChipTensor& t : tensors) orch_args.add_input(t);
  orch_args.add_scalar(to_u64(0.5f), reinterpret_cast<uint64_t>(&ctx));
  const PTO2OrchestrationConfig config = aicpu_orchestration_config(orch_args);
  ASSERT_GE(orch_args.tensor_count() + orch_args.scalar_count(), config.expected_arg_count);
  aicpu_orchestration_entry(orch_args);
  ASSERT_FALSE(runtime().fatal()) << runtime().fatal_message();
  EXPECT_EQ(lens[3], 99);
  const nlohmann::json deps = FinishJson();
  // alloc (1,0); three active rows x 2 tasks on ring 2; the barrier and the MANUAL task on 1.
  EXPECT_EQ(TaskList(deps),
            (std::vector<std::string>{"(2,0)", "(2,1)", "(2,2)", "(2,3)", "(2,4)", "(2,5)",
                                      "(1,1)", "(2,6)"}));
  const std::vector<std::string> edges = EdgeList(deps);
  EXPECT_EQ(edges[0], "(1,0)->(2,0) a1 cre");  // OUTPUT_EXISTING into the alloc'd tile
  EXPECT_EQ(edges[1], "(1,0)->(2,1) a0 cre");  // creator; acc is manual_dep: creator only
  EXPECT_EQ(edges[2], "(2,0)->(2,1) a0 tm/cov");
  EXPECT_EQ(deps["tasks"][1]["kernel_ids"], nlohmann::json::parse("[1,2,-1]"));
  EXPECT_EQ(deps["tasks"][1]["block_num"], 24);
  EXPECT_EQ(deps["tasks"][7]["scope"], "manual");
  EXPECT_EQ(edges.back(), "(2,5)->(2,6) a-1 exp");
}

}  // namespace
}  // namespace shim_test
