// Tests for the per-argument byte sets of the audit (access_model.h) and the view expansion
// it shares with the dataflow proof (byte_region.h).
#include "depgraph/reduce/access_model.h"

#include <gtest/gtest.h>

#include <random>
#include <set>

#include "audit/audit_graph_builder.h"
#include "test_util.h"

namespace depgraph {
namespace {

using testing::ArgSpec;
using testing::Flat;
using testing::GraphBuilder;
using testing::LoadText;
using testing::Output;
using Pairs = std::vector<std::pair<int64_t, int64_t>>;

Pairs AsPairs(std::span<const ByteInterval> v) {
  Pairs out;
  for (const ByteInterval& i : v) out.emplace_back(i.begin, i.end);
  return out;
}

// The single access of task index t (which must have exactly one).
const Access& Only(const AccessModel& m, uint32_t t) {
  EXPECT_EQ(m.TaskAccesses(t).size(), 1u);
  return m.TaskAccesses(t)[0];
}

TEST(AccessModel, ContiguousRowsAreOneInterval) {
  DepGraph g = LoadText(GraphBuilder()
                            .Tensor(7, 4096, 64)
                            .Task(1, {{"INPUT", 7, {2, 8}, {8, 1}, 8}})
                            .Json());
  AccessModel m = BuildAccessModel(g);
  const Access& a = Only(m, 0);
  std::vector<ByteInterval> scratch;
  EXPECT_EQ(AsPairs(m.Bytes(a, &scratch)), (Pairs{{4096 + 32, 4096 + 96}}));
  EXPECT_TRUE(a.reads);
  EXPECT_FALSE(a.writes);
  EXPECT_TRUE(a.looks_up);
  EXPECT_FALSE(a.approximate);
  EXPECT_EQ(a.bounds.begin, 4096 + 32);
  EXPECT_EQ(a.bounds.end, 4096 + 96);
}

TEST(AccessModel, DirectionsMapToReadsWritesAndLookups) {
  DepGraph g = LoadText(GraphBuilder()
                            .Tensor(7, 0, 64)
                            .Task(1, {Flat("INOUT", 7, 4)})
                            .Task(2, {Flat("OUTPUT_EXISTING", 7, 4)})
                            .Task(3, {Flat("UNKNOWN", 7, 4)})
                            .Json());
  AccessModel m = BuildAccessModel(g);
  const Access& inout = Only(m, 0);
  EXPECT_TRUE(inout.reads && inout.writes && inout.looks_up);
  const Access& existing = Only(m, 1);
  EXPECT_TRUE(existing.writes);
  EXPECT_FALSE(existing.reads || existing.looks_up);
  const Access& no_dep = Only(m, 2);  // NO_DEP is written "UNKNOWN": an untracked read
  EXPECT_EQ(no_dep.type, ArgType::kNoDep);
  EXPECT_TRUE(no_dep.reads);
  EXPECT_FALSE(no_dep.writes || no_dep.looks_up);
}

TEST(AccessModel, InterleavedViewsAreDisjoint) {
  DepGraph g = LoadText(GraphBuilder()
                            .Tensor(7, 1000, 16)
                            .Task(1, {testing::Strided("INOUT", 7, 4, 2, 0)})
                            .Task(2, {testing::Strided("INPUT", 7, 4, 2, 1)})
                            .Json());
  AccessModel m = BuildAccessModel(g);
  std::vector<ByteInterval> s1, s2;
  const auto even = m.Bytes(Only(m, 0), &s1);
  const auto odd = m.Bytes(Only(m, 1), &s2);
  EXPECT_EQ(AsPairs(even), (Pairs{{1000, 1004}, {1008, 1012}, {1016, 1020}, {1024, 1028}}));
  EXPECT_EQ(AsPairs(odd), (Pairs{{1004, 1008}, {1012, 1016}, {1020, 1024}, {1028, 1032}}));
  EXPECT_FALSE(IntervalsIntersect(even, odd));
  EXPECT_EQ(IntervalBytes(even), 16);
}

TEST(AccessModel, LargeViewsExpandOnDemandToTheSameBytes) {
  GraphBuilder b;
  b.Tensor(7, 0, 4096).Task(1, {{"INPUT", 7, {64, 16}, {64, 1}, 3}});  // 64 rows of 16
  DepGraph g = LoadText(b.Json());
  AccessModelOptions stored;
  stored.stored_pieces = 1000;
  AccessModel eager = BuildAccessModel(g, stored);
  AccessModel lazy = BuildAccessModel(g);  // default: 8 pieces stored at most
  ASSERT_EQ(Only(lazy, 0).num_intervals, 0u);
  ASSERT_EQ(Only(eager, 0).num_intervals, 64u);
  std::vector<ByteInterval> s1, s2;
  EXPECT_EQ(AsPairs(lazy.Bytes(Only(lazy, 0), &s1)), AsPairs(eager.Bytes(Only(eager, 0), &s2)));
  EXPECT_EQ(Only(lazy, 0).bounds.begin, 12);
  EXPECT_EQ(Only(lazy, 0).bounds.end, (3 + 63 * 64 + 16) * 4);
  EXPECT_FALSE(Only(lazy, 0).approximate);
}

// Several views expanded on demand in one model, each with its own geometry (kept apart in
// AccessModel::lazy_views): each expands to the bytes its stored twin holds.
TEST(AccessModel, EachLazyViewKeepsItsOwnGeometry) {
  GraphBuilder b;
  b.Tensor(7, 0, 4096).Tensor(8, 65536, 4096);
  for (int t = 0; t < 6; ++t) {
    const int64_t rows = 16 + 8 * t, row_stride = 32 + 16 * t;
    b.Task(1 + t, {{"INPUT", static_cast<uint64_t>(7 + t % 2), {rows, 4}, {row_stride, 1}, t}});
  }
  DepGraph g = LoadText(b.Json());
  AccessModelOptions stored;
  stored.stored_pieces = 1000;
  const AccessModel eager = BuildAccessModel(g, stored);
  const AccessModel lazy = BuildAccessModel(g);
  ASSERT_EQ(lazy.lazy_views.size(), 6u);
  for (uint32_t t = 0; t < 6; ++t) {
    const Access& a = Only(lazy, t);
    ASSERT_EQ(a.num_intervals, 0u);
    std::vector<ByteInterval> s1, s2;
    EXPECT_EQ(AsPairs(lazy.Bytes(a, &s1)), AsPairs(eager.Bytes(Only(eager, t), &s2))) << t;
  }
}

TEST(AccessModel, PastTheCapTheBoundingRangeIsApproximate) {
  DepGraph g = LoadText(GraphBuilder()
                            .Tensor(7, 0, 1024)
                            .Task(1, {testing::Strided("INPUT", 7, 5, 3, 2)})
                            .Json());
  AccessModelOptions options;
  options.max_pieces = 4;
  AccessModel m = BuildAccessModel(g, options);
  const Access& a = Only(m, 0);
  EXPECT_TRUE(a.approximate);
  EXPECT_EQ(m.approximate_count, 1u);
  std::vector<ByteInterval> scratch;
  EXPECT_EQ(AsPairs(m.Bytes(a, &scratch)), (Pairs{{8, (2 + 4 * 3 + 1) * 4}}));
  // Under the default cap the same view is exact.
  AccessModel exact = BuildAccessModel(g);
  EXPECT_FALSE(Only(exact, 0).approximate);
  EXPECT_EQ(IntervalBytes(exact.Bytes(Only(exact, 0), &scratch)), 20);
}

TEST(AccessModel, ReinterpretingViewUsesItsOwnElementSize) {
  DepGraph g = LoadText(GraphBuilder()
                            .Tensor(7, 0, 64, "FLOAT32")
                            .Task(1, {Flat("INPUT", 7, 16, 8, "INT8")})
                            .Task(2, {Flat("INPUT", 7, 4, 0, "FP8E4M3FN")})
                            .Json());
  AccessModel m = BuildAccessModel(g);
  std::vector<ByteInterval> scratch;
  EXPECT_EQ(AsPairs(m.Bytes(Only(m, 0), &scratch)), (Pairs{{8, 24}}));
  EXPECT_EQ(AsPairs(m.Bytes(Only(m, 1), &scratch)), (Pairs{{0, 4}}));  // runtime size 1
  EXPECT_EQ(RuntimeElementSize(DType::kFp4E2M1), 1);
  EXPECT_EQ(RuntimeElementSize(DType::kUnknown), 0);
}

TEST(AccessModel, OutputSlotsTakeTheBuffersOfTheirCreatorRows) {
  // Task 1 has two OUTPUT slots; its consumers name tensor 20 (higher address) and 10.
  DepGraph g = LoadText(GraphBuilder()
                            .Tensor(10, 1024, 256)
                            .Tensor(20, 2048, 64, "INT32")
                            .Task(1, {Output(), Output()})
                            .Task(2, {Flat("INPUT", 20, 16)})
                            .Task(3, {Flat("INPUT", 10, 8), Flat("INPUT", 20, 4)})
                            .Edge(1, 2, "creator", 0, 20)
                            .Edge(1, 3, "creator", 0, 10)
                            .Json());
  AccessModel m = BuildAccessModel(g);
  ASSERT_EQ(m.TaskAccesses(0).size(), 2u);
  const Access& first = m.TaskAccesses(0)[0];
  const Access& second = m.TaskAccesses(0)[1];
  std::vector<ByteInterval> scratch;
  EXPECT_EQ(first.arg_idx, 0);  // ascending address: slot 0 holds the buffer at 1024
  EXPECT_EQ(AsPairs(m.Bytes(first, &scratch)), (Pairs{{1024, 1024 + 256 * 4}}));
  EXPECT_EQ(second.arg_idx, 1);
  EXPECT_EQ(AsPairs(m.Bytes(second, &scratch)), (Pairs{{2048, 2048 + 64 * 4}}));
  EXPECT_TRUE(first.fresh_output && first.writes && !first.reads);
  EXPECT_EQ(m.output_slots, 2u);
  EXPECT_EQ(m.outputs_placed, 2u);
  EXPECT_EQ(m.outputs_unobserved, 0u);
}

TEST(AccessModel, UnreadOutputsAndAllocNodesAddNothing) {
  // Alloc node 5 (not in tasks[]) owns tensor 10; task 1's OUTPUT is never read.
  DepGraph g = LoadText(GraphBuilder()
                            .Tensor(10, 1024, 256)
                            .Task(1, {Output()})
                            .Task(2, {Flat("INOUT", 10, 16)})
                            .Edge(5, 2, "creator", 0, 10)
                            .Json());
  AccessModel m = BuildAccessModel(g);
  EXPECT_TRUE(m.TaskAccesses(0).empty());
  EXPECT_EQ(m.outputs_unobserved, 1u);
  EXPECT_EQ(m.TaskAccesses(1).size(), 1u);
}

TEST(AccessModel, UnknownArgumentsAreListedWithTheirReason) {
  DepGraph g = LoadText(
      R"({"tasks":[{"task_id":"1","kernel_ids":[0,-1,-1],"args":[)"
      R"({"idx":0,"type":"INPUT","tensor_id":"99","dtype":"FLOAT32","shape":[4],)"
      R"("start_offset":"0","strides":[1]},)"
      R"({"idx":1,"type":"INPUT","tensor_id":"7","dtype":"FLOAT32","shape":[4],"strides":[1]},)"
      R"({"idx":2,"type":"WEIRD","tensor_id":"7"},)"
      R"({"idx":3,"type":"INPUT","tensor_id":"7","dtype":"UNKNOWN","shape":[4],)"
      R"("start_offset":"0","strides":[1]}]}],)"
      R"("tensors":[{"tensor_id":"7","buffer_addr":"0","dtype":"UNKNOWN","buffer_numel":"4"}]})");
  AccessModel m = BuildAccessModel(g);
  ASSERT_EQ(m.unknown.size(), 4u);
  EXPECT_EQ(m.unknown[0].reason, UnknownReason::kNoTensor);
  EXPECT_EQ(m.unknown[1].reason, UnknownReason::kBadView);
  EXPECT_EQ(m.unknown[2].reason, UnknownReason::kBadDirection);
  EXPECT_EQ(m.unknown[3].reason, UnknownReason::kNoDTypeSize);
  EXPECT_EQ(m.task_incomplete[0], 1);
  EXPECT_TRUE(m.TaskAccesses(0).empty());
}

// Every byte of a view, by enumerating its elements one by one.
std::set<int64_t> NaiveBytes(const StridedView& v) {
  std::set<int64_t> bytes;
  std::vector<int64_t> index(v.ndim, 0);
  while (true) {
    int64_t offset = v.start_offset;
    for (int d = 0; d < v.ndim; ++d) offset += index[d] * v.strides[d];
    for (int k = 0; k < v.elem_size; ++k) bytes.insert(v.base_addr + offset * v.elem_size + k);
    int d = v.ndim - 1;
    while (d >= 0 && ++index[d] == v.shape[d]) index[d--] = 0;
    if (d < 0) break;
  }
  return bytes;
}

TEST(AccessModel, ExpansionMatchesElementEnumeration) {
  std::mt19937_64 rng(7);
  for (int trial = 0; trial < 500; ++trial) {
    const int ndim = 1 + static_cast<int>(rng() % 3);
    std::vector<int64_t> shape(ndim), strides(ndim);
    for (int d = 0; d < ndim; ++d) {
      shape[d] = 1 + static_cast<int64_t>(rng() % 5);
      strides[d] = 1 + static_cast<int64_t>(rng() % 12);
    }
    if (rng() % 2) {  // make it row-major contiguous in its tail
      strides[ndim - 1] = 1;
      for (int d = ndim - 2; d >= 0 && rng() % 2; --d) strides[d] = strides[d + 1] * shape[d + 1];
    }
    StridedView view;
    view.base_addr = 64 * static_cast<int64_t>(rng() % 10);
    view.elem_size = 1 << (rng() % 3);
    view.start_offset = static_cast<int64_t>(rng() % 7);
    view.shape = shape.data();
    view.strides = strides.data();
    view.ndim = ndim;
    std::vector<ByteInterval> out;
    ASSERT_EQ(ExpandStridedView(view, 10000, -1, &out), ViewExpansion::kExact);
    std::set<int64_t> got;
    for (const ByteInterval& i : out) {
      for (int64_t b = i.begin; b < i.end; ++b) got.insert(b);
    }
    EXPECT_EQ(got, NaiveBytes(view)) << "trial " << trial;
    for (size_t i = 1; i < out.size(); ++i) EXPECT_LT(out[i - 1].end, out[i].begin);
    const int64_t pieces = CountViewPieces(view, 10000);
    EXPECT_GE(pieces, 1);
    // A cap below the piece count gives the bounding range.
    if (pieces > 1) {
      ASSERT_EQ(ExpandStridedView(view, pieces - 1, -1, &out), ViewExpansion::kBounded);
      ASSERT_EQ(out.size(), 1u);
      EXPECT_EQ(out[0].begin, *got.begin());
      EXPECT_EQ(out[0].end, *got.rbegin() + 1);
    }
  }
}

TEST(AccessModel, ExpansionRejectsInvalidViews) {
  std::vector<int64_t> shape = {4}, zero = {0}, stride = {1};
  StridedView view;
  view.elem_size = 4;
  view.shape = shape.data();
  view.strides = stride.data();
  view.ndim = 1;
  std::vector<ByteInterval> out;
  EXPECT_EQ(ExpandStridedView(view, 100, 3, &out), ViewExpansion::kInvalid);  // past the limit
  EXPECT_EQ(ExpandStridedView(view, 100, 4, &out), ViewExpansion::kExact);
  view.shape = zero.data();
  EXPECT_EQ(ExpandStridedView(view, 100, -1, &out), ViewExpansion::kInvalid);
  view.shape = shape.data();
  view.base_addr = INT64_MAX - 8;
  EXPECT_EQ(ExpandStridedView(view, 100, -1, &out), ViewExpansion::kInvalid);
}

TEST(AccessModel, EveryRealCaptureHasACompleteModel) {
  // No real capture has an argument without a byte set; the probe's OUTPUT is placed.
  for (const char* dir : {"dep_probe/default", "paged_attention/CaseSmall1",
                          "benchmark_bgemm/Case1", "vector_example/default"}) {
    DepGraph g = LoadText(testing::ReadFile(testing::SourceDir() + "/data/real/" + dir +
                                            "/deps.json"));
    AccessModel m = BuildAccessModel(g);
    EXPECT_TRUE(m.unknown.empty()) << dir;
    EXPECT_EQ(m.approximate_count, 0u) << dir;
  }
  DepGraph probe = LoadText(testing::ReadFile(testing::SourceDir() +
                                              "/data/real/dep_probe/default/deps.json"));
  AccessModel m = BuildAccessModel(probe);
  EXPECT_EQ(m.output_slots, 1u);
  EXPECT_EQ(m.outputs_placed, 1u);
  EXPECT_EQ(m.accesses.size(), 30u);
}

}  // namespace
}  // namespace depgraph
