// The orchestration API surface: Arg rules and errors, kernel ids, launch settings, the fatal
// latch, host data access, view operations, assertions and logging.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <type_traits>

#include "log_level.h"
#include "pto_arg_with_deps.h"
#include "shim_test_util.h"

namespace shim_test {
namespace {

class Api : public ShimFixture {};

// ---- Types and layouts ----

static_assert(sizeof(ChipTensor) == 128 && alignof(ChipTensor) == 64);
static_assert(sizeof(TensorCreateInfo) == 64);
static_assert(std::is_trivially_copyable_v<PTO2TaskId> && std::is_trivial_v<PTO2TaskId>);
static_assert(!std::is_copy_constructible_v<CoreTaskArgs> &&
              !std::is_move_constructible_v<CoreTaskArgs>);
static_assert(PTO2TaskId::make(2, 7).raw == ((2ull << 32) | 7));
static_assert(PTO2TaskId::invalid().is_invalid() && !PTO2TaskId::invalid().is_valid());

TEST(ApiValues, ScalarBitCasts) {
  EXPECT_EQ(to_u64(1.0f), 0x3F800000ull);
  EXPECT_EQ(to_u64(int32_t{-1}), 0xFFFFFFFFull);
  EXPECT_EQ(to_u64(int64_t{-1}), ~0ull);
  EXPECT_EQ(from_u64<float>(0x40000000ull), 2.0f);
  EXPECT_EQ(from_u64<int32_t>(0xFFFFFFFFull), -1);
  EXPECT_EQ(get_element_size(DataType::BFLOAT16), 2u);
  EXPECT_EQ(get_element_size(DataType::DATA_TYPE_NUM), 0u);
  EXPECT_STREQ(get_dtype_name(DataType::FP4E2M1), "FP4E2M1");
  EXPECT_STREQ(get_dtype_name(DataType::DATA_TYPE_NUM), "UNKNOWN");
  MixedKernels pypto = {INVALID_KERNEL_ID, 3, 3};
  EXPECT_EQ(pypto.aiv1_kernel_id, 3);
}

TEST(ApiValues, ConfigIsADesignatedAggregate) {
  PTO2OrchestrationConfig config{.expected_arg_count = 7};
  EXPECT_EQ(config.expected_arg_count, 7);
}

// ---- View operations ----

TEST(ChipTensorViews, ViewKeepsStridesAndAdvancesTheOffset) {
  ChipTensor x = External(0x1000, {64, 64});
  x.owner_task_id = PTO2TaskId::make(1, 2);
  x.version = 3;
  x.manual_dep = true;
  ChipTensor v = View(x, {16, 32}, {8, 16});
  EXPECT_EQ(v.start_offset, 8u * 64 + 16);
  EXPECT_EQ(v.strides[0], 64u);
  EXPECT_FALSE(v.is_contiguous);
  EXPECT_EQ(v.extent_elem(), 1u + 15 * 64 + 31);
  EXPECT_EQ(v.owner_task_id, x.owner_task_id);  // copied
  EXPECT_EQ(v.version, 3);
  EXPECT_FALSE(v.manual_dep);  // from the call, not inherited
  EXPECT_EQ(v.buffer.addr, x.buffer.addr);
  EXPECT_TRUE(View(x, {16, 64}, {8, 0}).is_contiguous);
}

TEST(ChipTensorViews, SliceTransposePermuteReshape) {
  ChipTensor z = External(0x1000, {4096});
  ChipTensor odd = z.slice(0, 1, 4096, 2);
  EXPECT_EQ(odd.start_offset, 1u);
  EXPECT_EQ(odd.shapes[0], 2048u);
  EXPECT_EQ(odd.strides[0], 2u);
  EXPECT_EQ(z.slice(0, 0, 5, 2).shapes[0], 3u);  // ceil
  ChipTensor x = External(0x1000, {4, 8, 16});
  ChipTensor t = x.transpose(0, 2);
  EXPECT_EQ(t.shapes[0], 16u);
  EXPECT_EQ(t.strides[0], 1u);
  EXPECT_EQ(t.strides[2], 128u);
  EXPECT_FALSE(t.is_contiguous);
  uint32_t order[3] = {1, 2, 0};
  ChipTensor p = x.permute(order);
  EXPECT_EQ(p.shapes[0], 8u);
  EXPECT_EQ(p.strides[2], 128u);
  uint32_t flat[2] = {32, 16};
  ChipTensor r = x.reshape(flat, 2);
  EXPECT_EQ(r.ndims, 2u);
  EXPECT_EQ(r.strides[0], 16u);
  EXPECT_TRUE(r.is_contiguous);
  EXPECT_EQ(x.numel(), 512u);
  EXPECT_EQ(x.nbytes(), 2048u);
  uint32_t idx[3] = {1, 2, 3};
  EXPECT_EQ(x.compute_flat_offset(idx, 3), 128u + 32 + 3);
}

TEST(ChipTensorViews, ContiguityIsStrictForSizeOneDims) {
  uint32_t shapes[2] = {16, 1};
  uint32_t strides[2] = {16, 1};
  ChipTensor t = make_tensor_strided(reinterpret_cast<void*>(0x1000), shapes, strides, 2);
  EXPECT_FALSE(t.is_contiguous);
  EXPECT_EQ(t.buffer.size, (1u + 15 * 16) * 4);
  EXPECT_TRUE(External(0x1000, {16, 1}).is_contiguous);
}

// ---- Arg rules ----

TEST_F(Api, TensorAfterScalarIsAFatalInvalidArgs) {
  ChipTensor x = External(0x1000, {16});
  CoreTaskArgs args;
  args.add_scalar(1);
  args.add_input(x);
  EXPECT_TRUE(args.has_error);
  EXPECT_TRUE(rt_submit_aiv_task(0, args).task_id().is_invalid());
  EXPECT_EQ(runtime().fatal_code(), PTO2_ERROR_INVALID_ARGS);
  EXPECT_NE(runtime().fatal_message().find("tensor argument added after a scalar"),
            std::string::npos)
      << runtime().fatal_message();
}

TEST_F(Api, TooManyArgumentsAndSecondDependencyListAreErrors) {
  ChipTensor x = External(0x1000, {16});
  CoreTaskArgs tensors;
  for (int i = 0; i < 33; ++i) tensors.add_input(x);
  EXPECT_TRUE(tensors.has_error);
  EXPECT_STREQ(tensors.error_msg, "too many tensor arguments");
  CoreTaskArgs scalars;
  for (int i = 0; i < 17; ++i) scalars.add_scalar(i);
  EXPECT_TRUE(scalars.has_error);
  PTO2TaskId dep = PTO2TaskId::make(0, 0);
  CoreTaskArgs deps;
  deps.set_dependencies(&dep, 1);
  deps.set_dependencies(&dep, 1);
  EXPECT_TRUE(deps.has_error);
  deps.reset();
  EXPECT_FALSE(deps.has_error);
  EXPECT_EQ(deps.explicit_dep_count(), 0u);
  deps.set_dependencies(&dep, 1);
  deps.set_dependencies(nullptr, 0);  // clears
  EXPECT_EQ(deps.explicit_dep_count(), 0u);
  EXPECT_FALSE(deps.has_error);
}

TEST_F(Api, ArgAccessors) {
  ChipTensor x = External(0x1000, {16});
  TensorCreateInfo ci = CreateInfo({8});
  CoreTaskArgs args;
  args.add_input(x);
  args.add_output(ci);
  args.add_scalar(2.5f, int32_t{-1}, uint64_t{7});
  uint64_t more[2] = {8, 9};
  args.add_scalars(more, 2);
  int32_t small[1] = {-2};
  args.add_scalars_i32(small, 1);
  EXPECT_EQ(args.tensor_count(), 2);
  EXPECT_EQ(args.scalar_count(), 6);
  EXPECT_EQ(&args.tensor(0).ref(), &x);
  EXPECT_EQ(&args.tensor(1).create_info(), &ci);
  EXPECT_EQ(args.tag(1), TensorArgType::OUTPUT);
  EXPECT_EQ(from_u64<float>(args.scalar(0)), 2.5f);
  EXPECT_EQ(args.scalar(1), 0xFFFFFFFFull);
  EXPECT_EQ(args.scalar(5), 0xFFFFFFFEull);
  CoreTaskArgs copy;
  copy.copy_scalars_from(args, 3, 2);
  EXPECT_EQ(copy.scalar(1), 9u);
  args.dump(x, ci);
  args.set_task_timing_slot(16);
  EXPECT_TRUE(args.has_error);
}

TEST_F(Api, WithDepsBindsItsBufferAndOverflowIsAnError) {
  CoreTaskArgs producer_args;
  const PTO2TaskId p0 = rt_submit_aiv_task(0, producer_args).task_id();
  const PTO2TaskId p1 = rt_submit_aiv_task(0, producer_args).task_id();
  CoreTaskArgsWithDeps<2> args;
  args.add_dep(p1);
  args.add_dep_wait(p0);
  EXPECT_EQ(rt_submit_aic_task(1, args).task_id(), PTO2TaskId::make(0, 2));
  args.add_dep(p0);  // third: over capacity
  EXPECT_TRUE(args.has_error);
  EXPECT_TRUE(rt_submit_aiv_task(1, args).task_id().is_invalid());
  EXPECT_NE(runtime().fatal_message().find("more dependencies than its capacity"),
            std::string::npos);
  const nlohmann::json deps = FinishJson();
  EXPECT_EQ(EdgeList(deps),
            (std::vector<std::string>{"(0,1)->(0,2) a-1 exp", "(0,0)->(0,2) a-1 exp"}));
  // add_dep_wait is printed as wait+retain like every explicit edge.
  EXPECT_EQ(deps["edges"][1]["flags"], nlohmann::json::parse(R"(["wait","retain"])"));
}

TEST_F(Api, LongExplicitListsAreKeptLosslessly) {
  CoreTaskArgs empty;
  std::vector<PTO2TaskId> ids;
  for (int i = 0; i < 100; ++i) ids.push_back(rt_submit_aiv_task(0, empty).task_id());
  ids.push_back(ids[5]);  // duplicate beyond the linear dedup range
  CoreTaskArgs args;
  args.set_dependencies(ids.data(), static_cast<uint32_t>(ids.size()));
  rt_submit_dummy_task(args);
  const nlohmann::json deps = FinishJson();
  ASSERT_EQ(deps["edges"].size(), 100u);
  EXPECT_EQ(deps["edges"][99]["pred"], "99");
}

// ---- Kernels and launch settings ----

TEST_F(Api, KernelIdsAreNormalisedAndRecorded) {
  CoreTaskArgs args;
  MixedKernels only_aiv1;
  only_aiv1.aiv1_kernel_id = 5;
  rt_submit_task(only_aiv1, args);
  MixedKernels mixed{2, 3, 4};
  rt_submit_task(mixed, args);
  rt_submit_aic_task(7, args);
  rt_submit_dummy_task(args);
  const nlohmann::json deps = FinishJson();
  EXPECT_EQ(deps["tasks"][0]["kernel_ids"], nlohmann::json::parse("[-1,5,-1]"));
  EXPECT_EQ(deps["tasks"][1]["kernel_ids"], nlohmann::json::parse("[2,3,4]"));
  EXPECT_EQ(deps["tasks"][2]["kernel_ids"], nlohmann::json::parse("[7,-1,-1]"));
  EXPECT_EQ(deps["tasks"][3]["kernel_ids"], nlohmann::json::parse("[-1,-1,-1]"));
}

TEST_F(Api, NoActiveKernelIsFatal) {
  CoreTaskArgs args;
  EXPECT_TRUE(rt_submit_task(MixedKernels{}, args).task_id().is_invalid());
  EXPECT_NE(runtime().fatal_message().find("no active kernel slot"), std::string::npos);
}

TEST_F(Api, BlockNumAndEarlyResolveAreRecorded) {
  CoreTaskArgs args;
  args.launch_spec.set_block_num(8);
  args.set_allow_early_resolve();
  EXPECT_EQ(args.launch_spec.block_num(), 8);
  rt_submit_aiv_task(0, args);
  const nlohmann::json deps = FinishJson();
  EXPECT_EQ(deps["tasks"][0]["block_num"], 8);
  EXPECT_EQ(deps["tasks"][0]["early_dispatch"], true);
}

TEST_F(Api, InvalidBlockNumIsFatal) {
  CoreTaskArgs args;
  args.launch_spec.set_block_num(0);
  EXPECT_TRUE(rt_submit_aiv_task(0, args).task_id().is_invalid());
  EXPECT_NE(runtime().fatal_message().find("block_num must be at least 1"), std::string::npos);
}

TEST_F(Api, RequireSyncStartBeyondAvailableCoresIsFatal) {
  EXPECT_EQ(rt_available_cluster_count(), 24);
  EXPECT_EQ(rt_available_aiv_count(), 48);
  CoreTaskArgs ok;
  ok.launch_spec.set_block_num(48);
  ok.launch_spec.set_require_sync_start(true);
  EXPECT_TRUE(rt_submit_aiv_task(0, ok).task_id().is_valid());
  EXPECT_TRUE(rt_submit_aic_task(0, ok).task_id().is_invalid());  // 48 > 24 clusters
  EXPECT_EQ(runtime().fatal_code(), PTO2_ERROR_REQUIRE_SYNC_START_INVALID);
}

// ---- Fatal latch ----

TEST_F(Api, ReportFatalLatchesTheFirstErrorAndDisablesTheApi) {
  rt_report_fatal(PTO2_ERROR_EXPLICIT_ORCH_FATAL, "bad value %d", 42);
  rt_report_fatal(PTO2_ERROR_INVALID_ARGS, "second");
  EXPECT_TRUE(rt_is_fatal());
  EXPECT_EQ(runtime().fatal_code(), PTO2_ERROR_EXPLICIT_ORCH_FATAL);
  EXPECT_NE(runtime().fatal_message().find("bad value 42"), std::string::npos);
  EXPECT_NE(runtime().fatal_message().find("TestBody"), std::string::npos);  // reporter
  TensorCreateInfo ci = CreateInfo({16});
  CoreTaskArgs args;
  args.add_output(ci);
  TaskOutputTensors out = rt_submit_aiv_task(0, args);
  EXPECT_TRUE(out.task_id().is_invalid());
  EXPECT_TRUE(out.empty());
  EXPECT_TRUE(alloc_tensors(ci).task_id().is_invalid());
  PTO2_SCOPE() {}
  EXPECT_EQ(runtime().task_count(), 0u);
}

TEST_F(Api, GetRefOutOfRangeIsFatal) {
  CoreTaskArgs args;
  TaskOutputTensors out = rt_submit_aiv_task(0, args);
  const ChipTensor& missing = out.get_ref(3);
  EXPECT_EQ(missing.buffer.addr, 0u);
  EXPECT_TRUE(runtime().fatal());
}

TEST_F(Api, AssertionsLatchAndThrow) {
  ChipTensor x = External(0x1000, {16, 16});
  EXPECT_THROW(View(x, {8, 8}, {12, 0}), pto_shim::AssertionError);  // 12 + 8 > 16
  EXPECT_TRUE(runtime().fatal());
  EXPECT_NE(runtime().fatal_message().find("assertion failed"), std::string::npos);
}

TEST(ApiUnbound, CallsWithoutARuntimeReturnDefaults) {
  ShimRuntime::Unbind();
  CoreTaskArgs args;
  EXPECT_TRUE(rt_submit_aiv_task(0, args).task_id().is_invalid());
  EXPECT_FALSE(rt_is_fatal());
  PTO2_SCOPE() {}
  EXPECT_EQ(rt_available_cluster_count(), 24);
}

// ---- Host data ----

TEST_F(Api, TensorDataReadsAndWritesRegisteredHostMemory) {
  int32_t table[4][8] = {};
  table[2][5] = 77;
  const uint64_t addr = runtime().AllocateEntryAddress(sizeof table);
  ASSERT_TRUE(runtime().RegisterHostBuffer(addr, table, sizeof table));
  ChipTensor t = External(addr, {4, 8}, DataType::INT32);
  uint32_t idx[2] = {2, 5};
  EXPECT_EQ(get_tensor_data<int32_t>(t, 2, idx), 77);
  set_tensor_data(t, 2, idx, int32_t{-5});
  EXPECT_EQ(table[2][5], -5);
  EXPECT_EQ(get_tensor_data(t, 2, idx), 0xFFFFFFFBull);  // u64, zero-extended
  set_tensor_data<int32_t>(t, 0, nullptr, 9.0);          // explicit T, 0-d at the origin
  EXPECT_EQ(table[0][0], 9);
  ChipTensor row = View(t, {1, 8}, {3, 0});
  uint32_t col[2] = {0, 7};
  set_tensor_data(row, 2, col, int32_t{11});
  EXPECT_EQ(table[3][7], 11);
  // data_as returns the host memory; re-wrapping it names the device buffer again.
  EXPECT_EQ(t.data_as<int32_t>(), &table[0][0]);
  uint32_t flat[1] = {32};
  ChipTensor again = make_tensor_external(t.data_as<void>(), flat, 1, DataType::INT32);
  EXPECT_EQ(again.buffer.addr, addr);
  EXPECT_FALSE(runtime().fatal());
}

TEST_F(Api, TensorDataWithoutHostMemoryIsFatalNamingTheTensor) {
  ChipTensor x = External(0x5000, {4, 8}, DataType::FLOAT32);
  uint32_t idx[2] = {1, 1};
  EXPECT_EQ(get_tensor_data<float>(x, 2, idx), 0.0f);
  EXPECT_TRUE(runtime().fatal());
  const std::string& message = runtime().fatal_message();
  EXPECT_NE(message.find("get_tensor_data"), std::string::npos) << message;
  EXPECT_NE(message.find("0x5000"), std::string::npos) << message;
  EXPECT_NE(message.find("shape [4,8]"), std::string::npos) << message;
  EXPECT_NE(message.find("no host data"), std::string::npos) << message;
  // Unregistered data_as is the address itself (fine to re-wrap).
  EXPECT_EQ(reinterpret_cast<uintptr_t>(x.data_as<void>()), 0x5000u);
}

TEST_F(Api, ProducedTensorsHaveNoHostData) {
  TensorCreateInfo ci = CreateInfo({4});
  CoreTaskArgs args;
  args.add_output(ci);
  TaskOutputTensors out = rt_submit_aiv_task(0, args);
  set_tensor_data(out.get_ref(0), 0, nullptr, 1.0f);
  EXPECT_NE(runtime().fatal_message().find("produced by task 0"), std::string::npos)
      << runtime().fatal_message();
}

TEST_F(Api, OverlappingHostRegistrationsAreRejected) {
  char buffer[4096];
  EXPECT_TRUE(runtime().RegisterHostBuffer(0x100000, buffer, 2048));
  EXPECT_FALSE(runtime().RegisterHostBuffer(0x100400, buffer + 2048, 2048));
  EXPECT_TRUE(runtime().fatal());
}

// ---- Logging ----

TEST(Logging, LevelParsing) {
  using depgraph::shim::ParseLogLevel;
  EXPECT_EQ(ParseLogLevel(nullptr, 1), 1);
  EXPECT_EQ(ParseLogLevel("none", 1), -1);
  EXPECT_EQ(ParseLogLevel("ERROR", 1), 0);
  EXPECT_EQ(ParseLogLevel("warn", 3), 1);
  EXPECT_EQ(ParseLogLevel("info", 1), 2);
  EXPECT_EQ(ParseLogLevel("debug", 1), 3);
  EXPECT_EQ(ParseLogLevel("0", 1), -1);
  EXPECT_EQ(ParseLogLevel("4", 1), 3);
  EXPECT_EQ(ParseLogLevel("bogus", 1), 1);
}

TEST(Logging, MacrosEvaluateArgumentsAndFilterByLevel) {
  int evaluated = 0;
  testing::internal::CaptureStderr();
  LOG_INFO("info %d", ++evaluated);  // below the default level: not printed
  LOG_WARN("warned %d", ++evaluated);
  LOG_ERROR("plain");
  const std::string err = testing::internal::GetCapturedStderr();
  EXPECT_EQ(evaluated, 2);
  if (std::getenv("PTO_SHIM_LOG_LEVEL") == nullptr) {
    EXPECT_EQ(err.find("info 1"), std::string::npos);
    EXPECT_NE(err.find("[pto_shim WARN] TestBody: warned 2\n"), std::string::npos) << err;
    EXPECT_NE(err.find("[pto_shim ERROR] TestBody: plain\n"), std::string::npos) << err;
  }
}

}  // namespace
}  // namespace shim_test
