// CompareBufferRetention: which retentions of created tensors a second run of a program drops.
#include "depgraph_orchestration/buffer_retention.h"

#include <gtest/gtest.h>

#include <string>
#include <tuple>

#include "test_util.h"

namespace depgraph {
namespace {

// Tasks 1..3 (submit order); each edge is (pred, succ, tensor id or 0 for an explicit edge);
// ids other than 1..3 are allocations. Tensor t has buffer address 4096 * t.
DepGraph Graph(std::initializer_list<std::tuple<int, int, int>> edges) {
  std::string tensors, rows;
  for (int t = 1; t <= 4; ++t) {
    tensors += std::string(t > 1 ? "," : "") + R"({"tensor_id":")" + std::to_string(t) +
               R"(","buffer_addr":")" + std::to_string(4096 * t) + R"("})";
  }
  for (const auto& [pred, succ, tensor] : edges) {
    if (!rows.empty()) rows += ",";
    rows += R"({"pred":")" + std::to_string(pred) + R"(","succ":")" + std::to_string(succ) + "\"";
    rows += tensor ? R"(,"arg":0,"source":"creator","tensor_id":")" + std::to_string(tensor) + "\"}"
                   : std::string(R"(,"arg":-1,"source":"explicit"})");
  }
  return testing::LoadText(R"({"tasks":[{"task_id":"1"},{"task_id":"2"},{"task_id":"3"}],"tensors":[)" +
                           tensors + R"(],"edges":[)" + rows + "]}");
}

// The k-th create made tensor `tensor` (buffer 4096 * tensor) by allocation `alloc`.
CreatedTensor Made(uint64_t alloc, uint64_t tensor) { return {alloc, 4096 * tensor}; }

TEST(BufferRetention, SameRetentionUnderOtherIdsAndBatchingIsKept) {
  // Reference: two creates, two allocations (0: tensor 1, 5: tensor 2). Other run: one
  // batched allocation 10 made both (tensors 3 and 4).
  const DepGraph reference = Graph({{0, 1, 1}, {5, 2, 2}});
  const DepGraph other = Graph({{10, 1, 3}, {10, 2, 4}});
  EXPECT_TRUE(CompareBufferRetention(reference, {Made(0, 1), Made(5, 2)}, other,
                                     {Made(10, 3), Made(10, 4)}).empty());
}

TEST(BufferRetention, AUserThatReachesARetainerIsProtected) {
  // Task 3 retains the tensor and waits on 1 and 2: the buffer outlives both.
  const DepGraph reference = Graph({{0, 1, 1}, {0, 2, 1}, {0, 3, 1}});
  const DepGraph other = Graph({{1, 3, 0}, {2, 3, 0}, {10, 3, 2}});
  EXPECT_TRUE(CompareBufferRetention(reference, {Made(0, 1)}, other, {Made(10, 2)}).empty());
}

TEST(BufferRetention, AUserNothingRetainsAfterIsLost) {
  // Task 2 does not reach task 1, the only retainer left.
  const DepGraph reference = Graph({{0, 1, 1}, {0, 2, 1}});
  const DepGraph other = Graph({{2, 3, 0}, {10, 1, 2}});
  const std::vector<LostRetention> lost =
      CompareBufferRetention(reference, {Made(0, 1)}, other, {Made(10, 2)});
  ASSERT_EQ(lost.size(), 1u);
  EXPECT_EQ(lost[0].create, 0u);
  EXPECT_EQ(lost[0].ref_allocation, 0u);
  EXPECT_EQ(lost[0].ref_user, 2u);
  EXPECT_EQ(lost[0].user_task, 1u);  // second task in submit order
}

TEST(BufferRetention, RetainingTheSameAllocationForAnotherTensorDoesNotCount) {
  // One batched allocation 10 made tensors 3 (create #1) and 4 (create #2) in the other run;
  // task 1 retains it for tensor 4 only, so create #1's user 1 is not protected.
  const DepGraph reference = Graph({{0, 1, 1}});
  const DepGraph other = Graph({{10, 1, 4}});
  const std::vector<LostRetention> lost = CompareBufferRetention(
      reference, {Made(0, 1), Made(0, 2)}, other, {Made(10, 3), Made(10, 4)});
  ASSERT_EQ(lost.size(), 1u);
  EXPECT_EQ(lost[0].create, 0u);
  // An explicit edge from the allocation retains every tensor it made.
  EXPECT_TRUE(CompareBufferRetention(reference, {Made(0, 1), Made(0, 2)}, Graph({{10, 1, 0}}),
                                     {Made(10, 3), Made(10, 4)}).empty());
}

TEST(BufferRetention, ATensorTheOtherRunNeverMadeLosesEveryUser) {
  const DepGraph reference = Graph({{0, 1, 1}, {0, 3, 1}});
  const DepGraph other = Graph({{1, 3, 0}});
  EXPECT_EQ(CompareBufferRetention(reference, {Made(0, 1)}, other, {}).size(), 2u);
}

}  // namespace
}  // namespace depgraph
