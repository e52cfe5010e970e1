// DepsEquivalent: what counts as the same graph up to absolute addresses.
#include "deps_equivalence.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>

namespace depgraph::testing {
namespace {

uint64_t Fnv(uint64_t addr, uint32_t version) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (int i = 0; i < 8; ++i) h = (h ^ ((addr >> (8 * i)) & 0xff)) * 0x100000001b3ull;
  for (int i = 0; i < 4; ++i) h = (h ^ ((version >> (8 * i)) & 0xff)) * 0x100000001b3ull;
  return h;
}

/// A two-task graph: task 0 reads external X and writes output O (at `heap`), task 1 reads O
/// and X2 (at `heap + gap`, written by task 0 as its second output).
std::string Graph(uint64_t x, uint64_t heap, uint64_t gap, const std::string& shape = "[16]") {
  const std::string ix = std::to_string(Fnv(x, 0));
  const std::string io = std::to_string(Fnv(heap, 0));
  const std::string i2 = std::to_string(Fnv(heap + gap, 0));
  auto arg = [&](int idx, const std::string& id) {
    return "{\"idx\":" + std::to_string(idx) + ",\"type\":\"INPUT\",\"tensor_id\":\"" + id +
           "\",\"dtype\":\"FLOAT32\",\"shape\":" + shape +
           ",\"start_offset\":\"0\",\"strides\":[1]}";
  };
  auto tensor = [](const std::string& id, uint64_t addr) {
    return "{\"tensor_id\":\"" + id + "\",\"buffer_addr\":\"" + std::to_string(addr) +
           "\",\"version\":0,\"dtype\":\"FLOAT32\",\"buffer_numel\":\"256\"}";
  };
  auto edge = [&](int a, const std::string& id) {
    return "{\"pred\":\"0\",\"succ\":\"1\",\"arg\":" + std::to_string(a) +
           ",\"source\":\"creator\",\"flags\":[\"wait\",\"retain\"],\"tensor_id\":\"" + id +
           "\",\"consumer_dtype\":\"FLOAT32\",\"consumer_shape\":[16],"
           "\"consumer_start_offset\":\"0\",\"consumer_strides\":[1]}";
  };
  const std::string task_head =
      "\"scope\":\"auto\",\"early_dispatch\":false,\"kernel_ids\":[-1,0,-1],\"block_num\":1,";
  return "{\"tasks\":[{\"task_id\":\"0\"," + task_head + "\"args\":[" + arg(0, ix) +
         ",{\"idx\":1,\"type\":\"OUTPUT\"},{\"idx\":2,\"type\":\"OUTPUT\"}]},{\"task_id\":\"1\"," +
         task_head + "\"args\":[" + arg(0, io) + "," + arg(1, i2) + "]}],\"tensors\":[" +
         tensor(ix, x) + "," + tensor(io, heap) + "," + tensor(i2, heap + gap) + "],\"edges\":[" +
         edge(0, io) + "," + edge(1, i2) + "]}\n";
}

TEST(DepsEquivalenceTest, IdenticalFilesAreEquivalent) {
  std::string diff;
  const std::string g = Graph(1000, 1 << 20, 1024);
  EXPECT_TRUE(DepsEquivalent(g, g, &diff)) << diff;
}

TEST(DepsEquivalenceTest, DifferentAbsoluteAddressesWithTheSameLayoutAreEquivalent) {
  std::string diff;
  EXPECT_TRUE(DepsEquivalent(Graph(1000, 1 << 20, 1024), Graph(77777, 5 << 30, 1024), &diff))
      << diff;
}

TEST(DepsEquivalenceTest, DifferentHeapLayoutIsReported) {
  std::string diff;
  EXPECT_FALSE(DepsEquivalent(Graph(1000, 1 << 20, 1024), Graph(1000, 1 << 20, 2048), &diff));
  EXPECT_NE(diff.find("heap layout"), std::string::npos) << diff;
}

TEST(DepsEquivalenceTest, FieldDifferencesAreReportedWithTheirPath) {
  std::string diff;
  EXPECT_FALSE(
      DepsEquivalent(Graph(1000, 1 << 20, 1024), Graph(1000, 1 << 20, 1024, "[8]"), &diff));
  EXPECT_EQ(diff, "tasks[0].args[0].shape[0]: expected 16, got 8");
}

TEST(DepsEquivalenceTest, IdsMustBeTheHashOfAddressAndVersion) {
  std::string g = Graph(1000, 1 << 20, 1024);
  const std::string id = std::to_string(Fnv(1000, 0));
  std::string bad = g;
  for (size_t at = bad.find(id); at != std::string::npos; at = bad.find(id, at + 1)) {
    bad.replace(at, id.size(), "12345");
  }
  std::string diff;
  EXPECT_FALSE(DepsEquivalent(g, bad, &diff));
  EXPECT_NE(diff.find("FNV-1a"), std::string::npos) << diff;
}

TEST(DepsEquivalenceTest, SharedBuffersMustStayShared) {
  // The external tensor placed at the heap buffer's address in one file only.
  std::string diff;
  EXPECT_FALSE(DepsEquivalent(Graph(1000, 1 << 20, 1024), Graph(1 << 20, 1 << 20, 1024), &diff));
}

TEST(DepsEquivalenceTest, NonCompactSerialisationIsReported) {
  std::string g = Graph(1000, 1 << 20, 1024);
  std::string spaced = g;
  spaced.insert(spaced.begin() + 1, ' ');
  std::string diff;
  EXPECT_FALSE(DepsEquivalent(g, spaced, &diff));
  EXPECT_NE(diff.find("compact"), std::string::npos) << diff;
}

}  // namespace
}  // namespace depgraph::testing
