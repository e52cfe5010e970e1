// Submit rate of the runtime shim on a decode-shaped orchestration: per layer a scope with
// norm / projection / cache-update tasks over views of a few big buffers, nested per-block
// attention scopes, an INOUT accumulator and a residual INOUT chain. Reports submits/second
// (items_per_second); one iteration = one whole orchestration run on a fresh runtime.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <sstream>

#include "depgraph_shim/shim_runtime.h"
#include "pto_orchestration_api.h"

namespace {

using depgraph::shim::ShimConfig;
using depgraph::shim::ShimRuntime;

constexpr uint32_t kHidden = 4096;
constexpr uint32_t kHeadDim = 128;
constexpr uint32_t kContext = 4096;
constexpr uint32_t kBlock = 512;
constexpr uint32_t kBlocks = kContext / kBlock;

/// One decode step over `layers` layers; returns the number of submits (incl. allocs).
uint64_t DecodeStep(uint32_t layers, uint64_t base) {
  uint64_t submits = 0;
  uint32_t hidden_shape[2] = {1, kHidden};
  uint32_t weight_shape[2] = {layers * kHidden, kHidden};
  uint32_t cache_shape[2] = {layers * kContext, kHeadDim};
  const char* p = reinterpret_cast<const char*>(base);
  ChipTensor hidden = make_tensor_external(p, hidden_shape, 2, DataType::BFLOAT16);
  ChipTensor weights = make_tensor_external(p + (1 << 20), weight_shape, 2, DataType::BFLOAT16);
  ChipTensor k_cache = make_tensor_external(p + (1ull << 30), cache_shape, 2, DataType::BFLOAT16);
  ChipTensor v_cache = make_tensor_external(p + (2ull << 30), cache_shape, 2, DataType::BFLOAT16);

  uint32_t row_shape[2] = {1, kHidden};
  uint32_t head_shape[2] = {1, kHeadDim};
  uint32_t score_shape[2] = {1, kBlock};
  TensorCreateInfo row_ci(row_shape, 2, DataType::BFLOAT16);
  TensorCreateInfo head_ci(head_shape, 2, DataType::FLOAT32);
  TensorCreateInfo score_ci(score_shape, 2, DataType::FLOAT32);
  const uint32_t position = kContext - 1;

  for (uint32_t layer = 0; layer < layers; ++layer) {
    PTO2_SCOPE() {
      TaskOutputTensors acc_alloc = alloc_tensors(head_ci);
      ++submits;
      const ChipTensor& acc = acc_alloc.get_ref(0);

      CoreTaskArgs norm_args;
      norm_args.add_input(hidden);
      norm_args.add_output(row_ci);
      TaskOutputTensors norm = rt_submit_aiv_task(0, norm_args);
      const ChipTensor& normed = norm.get_ref(0);

      uint32_t w_shape[2] = {kHidden, kHidden};
      uint32_t w_offsets[2] = {layer * kHidden, 0};
      ChipTensor w = weights.view(w_shape, w_offsets);
      CoreTaskArgs proj_args;
      proj_args.add_input(normed, w);
      proj_args.add_output(head_ci, head_ci, head_ci);
      TaskOutputTensors qkv = rt_submit_aic_task(1, proj_args);
      const ChipTensor& q = qkv.get_ref(0);
      const ChipTensor& k = qkv.get_ref(1);
      const ChipTensor& v = qkv.get_ref(2);

      uint32_t row_offsets[2] = {layer * kContext + position, 0};
      ChipTensor k_row = k_cache.view(head_shape, row_offsets);
      ChipTensor v_row = v_cache.view(head_shape, row_offsets);
      CoreTaskArgs cache_args;
      cache_args.add_input(k, v);
      cache_args.add_inout(k_row, v_row);
      cache_args.add_scalar(position);
      rt_submit_aiv_task(2, cache_args);
      submits += 3;

      for (uint32_t b = 0; b < kBlocks; ++b) {
        PTO2_SCOPE() {
          uint32_t block_shape[2] = {kBlock, kHeadDim};
          uint32_t block_offsets[2] = {layer * kContext + b * kBlock, 0};
          ChipTensor k_block = k_cache.view(block_shape, block_offsets);
          ChipTensor v_block = v_cache.view(block_shape, block_offsets);
          CoreTaskArgs qk_args;
          qk_args.add_input(q, k_block);
          qk_args.add_output(score_ci);
          TaskOutputTensors scores = rt_submit_aic_task(3, qk_args);
          const ChipTensor& s = scores.get_ref(0);

          CoreTaskArgs softmax_args;
          softmax_args.add_input(s);
          softmax_args.add_output(score_ci);
          TaskOutputTensors probs = rt_submit_aiv_task(4, softmax_args);
          const ChipTensor& pr = probs.get_ref(0);

          CoreTaskArgs pv_args;
          pv_args.add_input(pr, v_block);
          pv_args.add_inout(acc);
          rt_submit_aic_task(5, pv_args);
          submits += 3;
        }
      }

      CoreTaskArgs out_args;
      out_args.add_input(acc, w);
      out_args.add_inout(hidden);
      rt_submit_aic_task(6, out_args);

      CoreTaskArgs mlp_args;
      mlp_args.add_input(hidden, w);
      mlp_args.add_output(row_ci);
      TaskOutputTensors mlp = rt_submit_aic_task(7, mlp_args);
      const ChipTensor& m = mlp.get_ref(0);

      CoreTaskArgs residual_args;
      residual_args.add_input(m);
      residual_args.add_inout(hidden);
      rt_submit_aiv_task(8, residual_args);
      submits += 3;
    }
  }
  return submits;
}

/// Whole runs of `layers` layers: runtime construction, outer scope, the step, and with
/// `write_deps` the deps.json written to memory too.
void RunDecode(benchmark::State& state, bool write_deps) {
  const auto layers = static_cast<uint32_t>(state.range(0));
  uint64_t submits = 0;
  for (auto _ : state) {
    ShimConfig config;
    config.ring_heap_size = 4ull << 30;
    ShimRuntime runtime(config);
    runtime.Bind();
    runtime.BeginScope();
    submits += DecodeStep(layers, config.entry_base);
    runtime.EndScope();
    if (runtime.fatal()) state.SkipWithError(runtime.fatal_message().c_str());
    if (write_deps) {
      std::ostringstream out;
      runtime.WriteDepsJson(out);
      benchmark::DoNotOptimize(out.tellp());
    } else {
      benchmark::DoNotOptimize(runtime.edge_count());
    }
    ShimRuntime::Unbind();
  }
  state.SetItemsProcessed(static_cast<int64_t>(submits));
}

void BM_DecodeSubmits(benchmark::State& state) { RunDecode(state, /*write_deps=*/false); }
BENCHMARK(BM_DecodeSubmits)->Arg(40)->Arg(400);

/// The same runs plus writing deps.json to memory.
void BM_DecodeSubmitsAndWrite(benchmark::State& state) { RunDecode(state, /*write_deps=*/true); }
BENCHMARK(BM_DecodeSubmitsAndWrite)->Arg(40);

}  // namespace
