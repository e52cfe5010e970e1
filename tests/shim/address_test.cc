// Output materialisation, alloc tasks, the address model and tensor ids (runtime.md §2.3,
// §2.4, §6).
#include <gtest/gtest.h>

#include "depgraph_shim/tensor_id.h"
#include "shim_test_util.h"

namespace shim_test {
namespace {

using depgraph::shim::TensorId;

constexpr uint64_t kMiB = 1ull << 20;

class Addresses : public ShimFixture {};

// Address of the first output of a submit result.
uint64_t FirstOutputAddr(const TaskOutputTensors& out) { return out.get_ref(0).buffer.addr; }

TEST(TensorIdTest, MatchesTheRealCheckValue) {
  EXPECT_EQ(TensorId(986038112, 0), 5171277938582001759ull);
  EXPECT_EQ(TensorId(140718429434880, 0), 7638537353207449153ull);  // vector_example c
  EXPECT_NE(TensorId(544337840, 1), TensorId(544337840, 0));
}

TEST_F(Addresses, OutputsArePackedInArgumentOrderWith1KiBSlots) {
  const uint64_t heap = DefaultConfig().heap_base;
  TensorCreateInfo small = CreateInfo({16});                      // 64 B -> 1 KiB
  TensorCreateInfo large = CreateInfo({1000}, DataType::FLOAT16);  // 2000 B -> 2 KiB
  ChipTensor x = External(0x10000, {16});
  CoreTaskArgs args;
  args.add_output(small);
  args.add_input(x);
  args.add_output(large, small);
  TaskOutputTensors out = rt_submit_aiv_task(0, args);
  ASSERT_EQ(out.size(), 3u);  // OUTPUT args only, in argument order
  EXPECT_EQ(out.get_ref(0).buffer.addr, heap);
  EXPECT_EQ(out.get_ref(1).buffer.addr, heap + 1024);
  EXPECT_EQ(out.get_ref(2).buffer.addr, heap + 3072);
  EXPECT_EQ(out.get_ref(0).buffer.size, 1024u);
  EXPECT_EQ(out.get_ref(1).buffer.size, 2048u);
  for (uint32_t i = 0; i < 3; ++i) {
    const ChipTensor& t = out.get_ref(i);
    EXPECT_EQ(t.owner_task_id, out.task_id());
    EXPECT_EQ(t.start_offset, 0u);
    EXPECT_EQ(t.version, 0);
    EXPECT_TRUE(t.is_contiguous);
    EXPECT_FALSE(t.manual_dep);
  }
  // The next task's block follows.
  CoreTaskArgs next;
  next.add_output(small);
  EXPECT_EQ(FirstOutputAddr(rt_submit_aiv_task(0, next)), heap + 4096);
  // A task without outputs allocates nothing.
  CoreTaskArgs none;
  none.add_input(x);
  rt_submit_aiv_task(0, none);
  CoreTaskArgs last;
  last.add_output(small);
  EXPECT_EQ(FirstOutputAddr(rt_submit_aiv_task(0, last)), heap + 5120);
}

TEST_F(Addresses, BufferNumelIsThePaddedCount) {
  TensorCreateInfo ci = CreateInfo({16});
  CoreTaskArgs producer;
  producer.add_output(ci);
  TaskOutputTensors out = rt_submit_aiv_task(0, producer);
  CoreTaskArgs reader;
  reader.add_input(out.get_ref(0));
  rt_submit_aiv_task(0, reader);
  const nlohmann::json deps = FinishJson();
  ASSERT_EQ(deps["tensors"].size(), 1u);
  EXPECT_EQ(deps["tensors"][0]["buffer_numel"], "256");
  EXPECT_EQ(deps["tensors"][0]["buffer_addr"], std::to_string(DefaultConfig().heap_base));
}

TEST_F(Addresses, RingHeapsAre256MiBApart) {
  const uint64_t heap = DefaultConfig().heap_base;
  TensorCreateInfo ci = CreateInfo({16});
  std::vector<uint64_t> addrs;
  auto produce = [&] {
    CoreTaskArgs args;
    args.add_output(ci);
    addrs.push_back(FirstOutputAddr(rt_submit_aiv_task(0, args)));
  };
  produce();
  PTO2_SCOPE() {
    produce();
    PTO2_SCOPE() {
      produce();
      PTO2_SCOPE() {
        produce();
        PTO2_SCOPE() { produce(); }  // depth 4: ring 3's heap
      }
    }
    produce();
  }
  EXPECT_EQ(addrs, (std::vector<uint64_t>{heap, heap + 256 * kMiB, heap + 512 * kMiB,
                                          heap + 768 * kMiB, heap + 768 * kMiB + 1024,
                                          heap + 256 * kMiB + 1024}));
}

TEST_F(Addresses, RingHeapSizeIsConfigurableAndExhaustionIsFatal) {
  ShimConfig config = DefaultConfig();
  config.heap_base = 1ull << 40;
  config.ring_heap_size = 4096;
  Start(config);
  TensorCreateInfo ci = CreateInfo({512});  // 2 KiB
  PTO2_SCOPE() {
    CoreTaskArgs args;
    args.add_output(ci);
    EXPECT_EQ(FirstOutputAddr(rt_submit_aiv_task(0, args)), (1ull << 40) + 4096);
    EXPECT_EQ(FirstOutputAddr(rt_submit_aiv_task(0, args)), (1ull << 40) + 6144);
    EXPECT_TRUE(rt_submit_aiv_task(0, args).task_id().is_invalid());  // no wrap-around
  }
  EXPECT_TRUE(runtime().fatal());
  EXPECT_EQ(runtime().fatal_code(), PTO2_ERROR_HEAP_RING_DEADLOCK);
  EXPECT_NE(runtime().fatal_message().find("ring 1 heap exhausted"), std::string::npos)
      << runtime().fatal_message();
}

TEST_F(Addresses, AllocTasksConsumeIdsButAreNotRecorded) {
  TensorCreateInfo a = CreateInfo({64});
  TensorCreateInfo b = CreateInfo({16}, DataType::INT32);
  TaskOutputTensors alloc = alloc_tensors(a, b);  // (0,0)
  EXPECT_EQ(alloc.task_id(), PTO2TaskId::make(0, 0));
  ASSERT_EQ(alloc.size(), 2u);
  EXPECT_EQ(alloc.get_ref(1).buffer.addr, alloc.get_ref(0).buffer.addr + 1024);
  EXPECT_EQ(alloc.get_ref(1).owner_task_id, alloc.task_id());
  CoreTaskArgs args;  // (0,1)
  args.add_inout(alloc.get_ref(0), alloc.get_ref(1));
  TaskOutputTensors t = rt_submit_aiv_task(0, args);
  EXPECT_EQ(t.task_id(), PTO2TaskId::make(0, 1));
  TensorCreateInfo array[2] = {a, b};
  EXPECT_EQ(alloc_tensors(array, 2).task_id(), PTO2TaskId::make(0, 2));
  CoreTaskArgs alloc_args;
  alloc_args.add_output(a);
  EXPECT_EQ(alloc_tensors(alloc_args).task_id(), PTO2TaskId::make(0, 3));
  EXPECT_EQ(runtime().alloc_count(), 3u);
  EXPECT_EQ(runtime().task_count(), 1u);
  const nlohmann::json deps = FinishJson();
  EXPECT_EQ(TaskList(deps), (std::vector<std::string>{"(0,1)"}));
  // The alloc task appears only as the pred of creator edges (one per task: dedup).
  EXPECT_EQ(EdgeList(deps), (std::vector<std::string>{"(0,0)->(0,1) a0 cre"}));
}

TEST_F(Addresses, AllocRejectsAnythingButOutputs) {
  ChipTensor x = External(0x10000, {16});
  CoreTaskArgs args;
  args.add_input(x);
  EXPECT_TRUE(alloc_tensors(args).task_id().is_invalid());
  EXPECT_EQ(runtime().fatal_code(), PTO2_ERROR_INVALID_ARGS);
  EXPECT_NE(runtime().fatal_message().find("only OUTPUT"), std::string::npos);
}

TEST_F(Addresses, TensorsTableKeepsTheFirstSighting) {
  ChipTensor x = External(0x10000, {64, 64});
  uint32_t shapes[1] = {8192};
  ChipTensor x16 = make_tensor_external(reinterpret_cast<void*>(0x10000), shapes, 1,
                                        DataType::FLOAT16);
  ChipTensor y = External(0x20000, {16});
  CoreTaskArgs first;
  first.add_input(x, y);
  rt_submit_aiv_task(0, first);
  CoreTaskArgs second;
  second.add_no_dep(x16);  // same (addr, version): no new row, no update
  rt_submit_aiv_task(0, second);
  const nlohmann::json deps = FinishJson();
  ASSERT_EQ(deps["tensors"].size(), 2u);
  EXPECT_EQ(deps["tensors"][0]["dtype"], "FLOAT32");
  EXPECT_EQ(deps["tensors"][0]["buffer_numel"], "4096");
  EXPECT_EQ(deps["tensors"][0]["tensor_id"], std::to_string(TensorId(0x10000, 0)));
  EXPECT_EQ(deps["tensors"][1]["buffer_addr"], std::to_string(0x20000));
}

TEST_F(Addresses, EntryAddressesAreFreshAndAligned) {
  const uint64_t base = DefaultConfig().entry_base;
  EXPECT_EQ(runtime().AllocateEntryAddress(100), base);
  EXPECT_EQ(runtime().AllocateEntryAddress(4096), base + 1024);
  EXPECT_EQ(runtime().AllocateEntryAddress(0), 0u);  // empty tensors are staged at 0
  EXPECT_EQ(runtime().AllocateEntryAddress(1), base + 5120);
}

}  // namespace
}  // namespace shim_test
