// CompareBufferRetention: which allocation retentions of a reference run another run drops.
#include "buffer_retention.h"

#include <gtest/gtest.h>

#include <string>

#include "test_util.h"

namespace depgraph {
namespace {

// Tasks 1..3 (submit order) plus `edges` as "pred>succ" pairs; ids not in 1..3 are allocations.
DepGraph Graph(std::initializer_list<std::pair<int, int>> edges) {
  std::string text = R"({"tasks":[{"task_id":"1"},{"task_id":"2"},{"task_id":"3"}],"edges":[)";
  bool first = true;
  for (const auto& [pred, succ] : edges) {
    if (!first) text += ",";
    first = false;
    text += R"({"pred":")" + std::to_string(pred) + R"(","succ":")" + std::to_string(succ) +
            R"(","arg":0,"source":"creator"})";
  }
  return testing::LoadText(text + "]}");
}

TEST(BufferRetention, SameRetentionUnderOtherAllocationIdsIsKept) {
  // Allocation 0 of the reference is allocation 10 of the other run (first call in both).
  const DepGraph reference = Graph({{0, 1}, {0, 2}});
  const DepGraph other = Graph({{10, 1}, {10, 2}});
  EXPECT_TRUE(CompareBufferRetention(reference, {0}, other, {10}).empty());
}

TEST(BufferRetention, AUserThatReachesARetainerIsProtected) {
  // Task 3 retains the allocation and waits on 1 and 2: the buffer outlives both.
  const DepGraph reference = Graph({{0, 1}, {0, 2}, {0, 3}});
  const DepGraph other = Graph({{1, 3}, {2, 3}, {10, 3}});
  EXPECT_TRUE(CompareBufferRetention(reference, {0}, other, {10}).empty());
}

TEST(BufferRetention, AUserNothingRetainsAfterIsLost) {
  // Task 2 does not reach task 1, the only retainer left.
  const DepGraph reference = Graph({{0, 1}, {0, 2}});
  const DepGraph other = Graph({{2, 3}, {10, 1}});
  const std::vector<LostRetention> lost = CompareBufferRetention(reference, {0}, other, {10});
  ASSERT_EQ(lost.size(), 1u);
  EXPECT_EQ(lost[0].allocation, 0u);
  EXPECT_EQ(lost[0].ref_allocation, 0u);
  EXPECT_EQ(lost[0].ref_user, 2u);
  EXPECT_EQ(lost[0].user_task, 1u);  // second task in submit order
}

TEST(BufferRetention, AllocationsAreMatchedByCallOrderNotById) {
  // Reference: allocation 0 retained by 1, allocation 5 by 2. Other: the first allocation
  // (id 5 there) retains 1 and the second (id 0) retains 2 -- the same as the reference.
  const DepGraph reference = Graph({{0, 1}, {5, 2}});
  const DepGraph swapped_ids = Graph({{5, 1}, {0, 2}});
  EXPECT_TRUE(CompareBufferRetention(reference, {0, 5}, swapped_ids, {5, 0}).empty());
  // Read by id instead, both retentions would be wrong: each user lost its allocation.
  EXPECT_EQ(CompareBufferRetention(reference, {0, 5}, swapped_ids, {0, 5}).size(), 2u);
}

TEST(BufferRetention, AnAllocationTheOtherRunNeverMadeLosesEveryUser) {
  const DepGraph reference = Graph({{0, 1}, {0, 3}});
  const DepGraph other = Graph({{1, 3}});
  EXPECT_EQ(CompareBufferRetention(reference, {0}, other, {}).size(), 2u);
}

}  // namespace
}  // namespace depgraph
