// Tests for byte regions of strided views (spec §3.4 "Byte region of a view").
#include "depgraph/reduce/byte_region.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "depgraph/graph/load_deps.h"

namespace depgraph {
namespace {

// A one-row graph: task 2 with one arg (idx 0) described by `arg_fields`, tensor 7 described by
// `tensor_fields`, and a creator/tensormap row 1 -> 2 with `row_fields`.
struct RegionFixture {
  std::string arg_fields =
      R"("type":"INOUT","tensor_id":"7","dtype":"FLOAT32","shape":[8],"start_offset":0,)"
      R"("strides":[1])";
  std::string tensor_fields = R"("buffer_addr":"4096","buffer_numel":"128","dtype":"FLOAT32")";
  std::string row_fields = R"("source":"tensormap","arg":0)";

  std::string Json() const {
    return R"({"tasks":[{"task_id":"2","kernel_ids":[1,-1,-1],"args":[{"idx":0,)" + arg_fields +
           R"(}]}],"tensors":[{"tensor_id":"7",)" + tensor_fields +
           R"(}],"edges":[{"pred":"1","succ":"2",)" + row_fields + "}]}";
  }

  // Loads the graph and computes the region; false if unknown.
  bool Compute(ViewRole role, ByteRegion* region) {
    std::string err;
    if (!LoadDepsJsonText(Json(), "deps.json", &graph, &err)) {
      ADD_FAILURE() << err;
      return false;
    }
    const Task* task = graph.FindTask(2);
    const TaskArg* arg = task == nullptr ? nullptr : graph.FindArg(*task, 0);
    return ComputeRowRegion(graph, graph.rows.at(0), arg, role, region);
  }

  DepGraph graph;
};

using Intervals = std::vector<std::pair<int64_t, int64_t>>;

Intervals AsPairs(const std::vector<ByteInterval>& v) {
  Intervals out;
  for (const ByteInterval& i : v) out.emplace_back(i.begin, i.end);
  return out;
}

std::vector<ByteInterval> Make(const Intervals& pairs) {
  std::vector<ByteInterval> out;
  for (const auto& [b, e] : pairs) out.push_back({b, e});
  return out;
}

// Region of a consumer view given entirely by the arg (the row has no consumer_* keys).
bool ArgRegion(const std::string& shape, const std::string& strides, const std::string& offset,
               ByteRegion* region, const std::string& numel = "128") {
  RegionFixture f;
  f.arg_fields = R"("type":"INOUT","tensor_id":"7","dtype":"FLOAT32","shape":)" + shape +
                 R"(,"start_offset":)" + offset + R"(,"strides":)" + strides;
  f.tensor_fields = R"("buffer_addr":"4096","buffer_numel":")" + numel + R"(","dtype":"FLOAT32")";
  return f.Compute(ViewRole::kConsumer, region);
}

TEST(ByteRegionTest, ContiguousViewIsOneInterval) {
  ByteRegion region;
  ASSERT_TRUE(ArgRegion("[2,4]", "[4,1]", "2", &region));
  EXPECT_EQ(region.buffer_addr, 4096);
  EXPECT_EQ(AsPairs(region.intervals), (Intervals{{4096 + 8, 4096 + 8 + 32}}));
}

TEST(ByteRegionTest, StridedViewYieldsOneIntervalPerElement) {
  ByteRegion region;
  ASSERT_TRUE(ArgRegion("[4]", "[2]", "0", &region));
  EXPECT_EQ(AsPairs(region.intervals),
            (Intervals{{4096, 4100}, {4104, 4108}, {4112, 4116}, {4120, 4124}}));
}

TEST(ByteRegionTest, ContiguousSuffixExpandsRowsOfAMatrix) {
  // shape [3,2] strides [4,1]: rows of 2 contiguous elements, 4 apart.
  ByteRegion region;
  ASSERT_TRUE(ArgRegion("[3,2]", "[4,1]", "1", &region));
  EXPECT_EQ(AsPairs(region.intervals), (Intervals{{4100, 4108}, {4116, 4124}, {4132, 4140}}));
}

TEST(ByteRegionTest, TouchingIntervalsMerge) {
  // The last dim is strided (5 != 1), so each element is its own interval; offsets 0,1,2 touch.
  ByteRegion region;
  ASSERT_TRUE(ArgRegion("[3,1]", "[1,5]", "0", &region));
  EXPECT_EQ(AsPairs(region.intervals), (Intervals{{4096, 4108}}));
}

TEST(ByteRegionTest, OverlappingIntervalsMerge) {
  // Suffix [3] contiguous, outer stride 2 < 3: [0,3) and [2,5) overlap.
  ByteRegion region;
  ASSERT_TRUE(ArgRegion("[2,3]", "[2,1]", "0", &region));
  EXPECT_EQ(AsPairs(region.intervals), (Intervals{{4096, 4116}}));
}

TEST(ByteRegionTest, OutOfOrderOffsetsAreSorted) {
  // Offsets in expansion order 0,4,1,5 -> elements {0,1} and {4,5}.
  ByteRegion region;
  ASSERT_TRUE(ArgRegion("[2,2]", "[1,4]", "0", &region));
  EXPECT_EQ(AsPairs(region.intervals), (Intervals{{4096, 4104}, {4112, 4120}}));
}

TEST(ByteRegionTest, OuterCapIsInclusive) {
  ByteRegion region;
  ASSERT_TRUE(ArgRegion("[10000,1]", "[2,1]", "0", &region, "20002"));
  EXPECT_EQ(region.intervals.size(), 10000u);
  EXPECT_EQ(region.intervals.back().begin, 4096 + 19998 * 4);
  EXPECT_FALSE(ArgRegion("[10001,1]", "[2,1]", "0", &region, "20002"));
}

TEST(ByteRegionTest, OuterCapIsCumulativeOverDims) {
  ByteRegion region;
  EXPECT_TRUE(ArgRegion("[2,5000,1]", "[20000,2,1]", "0", &region, "40000"));
  EXPECT_EQ(region.intervals.size(), 10000u);
  EXPECT_FALSE(ArgRegion("[2,5001,1]", "[20004,2,1]", "0", &region, "40010"));
  // Outer dims of extent 1 do not count.
  EXPECT_TRUE(ArgRegion("[1,1,4]", "[9,7,2]", "0", &region));
  EXPECT_EQ(region.intervals.size(), 4u);
}

TEST(ByteRegionTest, OutOfBoundsIsUnknown) {
  ByteRegion region;
  EXPECT_TRUE(ArgRegion("[8]", "[1]", "0", &region, "8"));   // exactly fits
  EXPECT_FALSE(ArgRegion("[8]", "[1]", "0", &region, "7"));  // one past the end
  EXPECT_FALSE(ArgRegion("[8]", "[1]", "1", &region, "8"));  // shifted past the end
  EXPECT_FALSE(ArgRegion("[4]", "[3]", "0", &region, "9"));  // last element at 9
  EXPECT_TRUE(ArgRegion("[4]", "[3]", "0", &region, "10"));
}

TEST(ByteRegionTest, InvalidDimsAreUnknown) {
  ByteRegion region;
  EXPECT_FALSE(ArgRegion("[]", "[]", "0", &region));
  EXPECT_FALSE(ArgRegion("[8]", "[1,1]", "0", &region));
  EXPECT_FALSE(ArgRegion("[0]", "[1]", "0", &region));
  EXPECT_FALSE(ArgRegion("[8]", "[-1]", "0", &region));
  EXPECT_FALSE(ArgRegion("[8]", "null", "0", &region));
  EXPECT_FALSE(ArgRegion("[\"a\"]", "[1]", "0", &region));
  EXPECT_FALSE(ArgRegion("[8]", "[1]", "-1", &region));
  EXPECT_FALSE(ArgRegion("[8]", "[1]", "\"1.5\"", &region));
  EXPECT_TRUE(ArgRegion("[\" 8 \"]", "[1.9]", "\"0\"", &region));  // Python int() coercion
}

TEST(ByteRegionTest, HugeValuesNeverOverflow) {
  ByteRegion region;
  const std::string big = "4611686018427387904";  // 2^62
  EXPECT_FALSE(ArgRegion("[" + big + ",4]", "[4,1]", "0", &region));
  EXPECT_FALSE(ArgRegion("[4," + big + "]", "[" + big + ",1]", "0", &region));
  EXPECT_FALSE(ArgRegion("[2]", "[" + big + "]", "0", &region));
  EXPECT_FALSE(ArgRegion("[8]", "[1]", "9223372036854775807", &region));
  EXPECT_FALSE(ArgRegion("[8]", "[1]", "0", &region, "9223372036854775807"));  // bytes overflow
  EXPECT_FALSE(ArgRegion("[2]", "[9223372036854775807]", "9223372036854775807", &region,
                         "2305843009213693951"));
}

TEST(ByteRegionTest, ConsumerFieldsFallBackOnlyWhenAbsent) {
  ByteRegion region;
  RegionFixture absent;  // row has no consumer_* keys: all from the arg
  ASSERT_TRUE(absent.Compute(ViewRole::kConsumer, &region));
  EXPECT_EQ(AsPairs(region.intervals), (Intervals{{4096, 4128}}));

  RegionFixture row_wins;
  row_wins.row_fields =
      R"("source":"tensormap","arg":0,"consumer_shape":[2],"consumer_start_offset":"4")";
  ASSERT_TRUE(row_wins.Compute(ViewRole::kConsumer, &region));
  EXPECT_EQ(AsPairs(region.intervals), (Intervals{{4112, 4120}}));

  for (const char* key : {"consumer_shape", "consumer_strides", "consumer_start_offset",
                          "consumer_dtype"}) {
    RegionFixture present_null;
    present_null.row_fields = std::string(R"("source":"tensormap","arg":0,")") + key + "\":null";
    EXPECT_FALSE(present_null.Compute(ViewRole::kConsumer, &region)) << key;
  }
}

TEST(ByteRegionTest, TensorIdFallsBackOnlyWhenAbsent) {
  ByteRegion region;
  RegionFixture null_id;
  null_id.row_fields = R"("source":"tensormap","arg":0,"tensor_id":null)";
  EXPECT_FALSE(null_id.Compute(ViewRole::kConsumer, &region));

  RegionFixture other_id;  // the row names a tensor that does not exist
  other_id.row_fields = R"("source":"tensormap","arg":0,"tensor_id":"8")";
  EXPECT_FALSE(other_id.Compute(ViewRole::kConsumer, &region));

  RegionFixture row_id;  // the row's id wins over a missing arg id
  row_id.arg_fields = R"("type":"INOUT","dtype":"FLOAT32","shape":[8],"start_offset":0,)"
                      R"("strides":[1])";
  row_id.row_fields = R"("source":"tensormap","arg":0,"tensor_id":"7")";
  EXPECT_TRUE(row_id.Compute(ViewRole::kConsumer, &region));

  RegionFixture no_id;
  no_id.arg_fields = row_id.arg_fields;
  EXPECT_FALSE(no_id.Compute(ViewRole::kConsumer, &region));
}

TEST(ByteRegionTest, MissingArgLeavesOnlyRowFields) {
  RegionFixture f;
  f.row_fields =
      R"("source":"tensormap","arg":0,"tensor_id":"7","consumer_dtype":"float32",)"
      R"("consumer_shape":[8],"consumer_start_offset":0,"consumer_strides":[1])";
  std::string err;
  ASSERT_TRUE(LoadDepsJsonText(f.Json(), "deps.json", &f.graph, &err)) << err;
  ByteRegion region;
  EXPECT_TRUE(ComputeRowRegion(f.graph, f.graph.rows[0], nullptr, ViewRole::kConsumer, &region));
  EXPECT_EQ(AsPairs(region.intervals), (Intervals{{4096, 4128}}));
  f.row_fields = R"("source":"tensormap","arg":0,"tensor_id":"7")";
  ASSERT_TRUE(LoadDepsJsonText(f.Json(), "deps.json", &f.graph, &err)) << err;
  EXPECT_FALSE(ComputeRowRegion(f.graph, f.graph.rows[0], nullptr, ViewRole::kConsumer, &region));
}

TEST(ByteRegionTest, ProducerFieldsNeverFallBack) {
  ByteRegion region;
  RegionFixture none;  // the arg has a full view, but the producer side has no keys
  EXPECT_FALSE(none.Compute(ViewRole::kProducer, &region));

  RegionFixture partial;
  partial.row_fields = R"("source":"tensormap","arg":0,"producer_shape":[8],"producer_strides":[1])";
  EXPECT_FALSE(partial.Compute(ViewRole::kProducer, &region));

  RegionFixture full;
  full.row_fields =
      R"("source":"tensormap","arg":0,"producer_shape":[4],"producer_strides":[1],)"
      R"("producer_start_offset":"2")";
  ASSERT_TRUE(full.Compute(ViewRole::kProducer, &region));
  EXPECT_EQ(AsPairs(region.intervals), (Intervals{{4104, 4120}}));
}

TEST(ByteRegionTest, ProducerDtypeIsTheTensors) {
  ByteRegion region;
  RegionFixture f;
  f.tensor_fields = R"("buffer_addr":"0","buffer_numel":"8","dtype":"INT64")";
  f.row_fields =
      R"("source":"tensormap","arg":0,"producer_shape":[2],"producer_strides":[1],)"
      R"("producer_start_offset":1,"producer_dtype":"INT8")";
  ASSERT_TRUE(f.Compute(ViewRole::kProducer, &region));
  EXPECT_EQ(AsPairs(region.intervals), (Intervals{{8, 24}}));

  RegionFixture untyped;  // no tensor dtype: the producer has no dtype at all
  untyped.tensor_fields = R"("buffer_addr":"0","buffer_numel":"8")";
  untyped.row_fields = f.row_fields;
  EXPECT_FALSE(untyped.Compute(ViewRole::kProducer, &region));
}

TEST(ByteRegionTest, DtypeRules) {
  ByteRegion region;
  RegionFixture mismatch;  // FLOAT16 view of a FLOAT32 tensor: no reinterpretation
  mismatch.row_fields = R"("source":"tensormap","arg":0,"consumer_dtype":"FLOAT16")";
  EXPECT_FALSE(mismatch.Compute(ViewRole::kConsumer, &region));

  RegionFixture fp8;
  fp8.arg_fields = R"("type":"INOUT","tensor_id":"7","dtype":"FP8E4M3FN","shape":[8],)"
                   R"("start_offset":0,"strides":[1])";
  fp8.tensor_fields = R"("buffer_addr":"4096","buffer_numel":"128","dtype":"FP8E4M3FN")";
  EXPECT_FALSE(fp8.Compute(ViewRole::kConsumer, &region));

  RegionFixture untyped_tensor;  // a missing tensor dtype defaults to the view's
  untyped_tensor.tensor_fields = R"("buffer_addr":"4096","buffer_numel":"128")";
  ASSERT_TRUE(untyped_tensor.Compute(ViewRole::kConsumer, &region));
  EXPECT_EQ(AsPairs(region.intervals), (Intervals{{4096, 4128}}));

  RegionFixture null_tensor_dtype;  // present-but-null tensor dtype is "NONE"
  null_tensor_dtype.tensor_fields = R"("buffer_addr":"4096","buffer_numel":"128","dtype":null)";
  EXPECT_FALSE(null_tensor_dtype.Compute(ViewRole::kConsumer, &region));

  RegionFixture lower_case;  // dtype names are upper-cased
  lower_case.row_fields = R"("source":"tensormap","arg":0,"consumer_dtype":"Float32")";
  EXPECT_TRUE(lower_case.Compute(ViewRole::kConsumer, &region));

  RegionFixture int8;
  int8.arg_fields = R"("type":"INOUT","tensor_id":"7","dtype":"INT8","shape":[3],)"
                    R"("start_offset":5,"strides":[1])";
  int8.tensor_fields = R"("buffer_addr":"100","buffer_numel":"8","dtype":"INT8")";
  ASSERT_TRUE(int8.Compute(ViewRole::kConsumer, &region));
  EXPECT_EQ(AsPairs(region.intervals), (Intervals{{105, 108}}));
}

TEST(ByteRegionTest, TensorFieldsMustBeValid) {
  ByteRegion region;
  for (const char* fields : {R"("buffer_numel":"128","dtype":"FLOAT32")",
                             R"("buffer_addr":"4096","dtype":"FLOAT32")",
                             R"("buffer_addr":"-1","buffer_numel":"128","dtype":"FLOAT32")",
                             R"("buffer_addr":"4096","buffer_numel":null,"dtype":"FLOAT32")"}) {
    RegionFixture f;
    f.tensor_fields = fields;
    EXPECT_FALSE(f.Compute(ViewRole::kConsumer, &region)) << fields;
  }
}

TEST(ByteRegionTest, IntervalHelpers) {
  const auto a = Make({{0, 10}, {20, 30}, {40, 50}});
  const auto b = Make({{5, 25}, {30, 45}});
  EXPECT_EQ(AsPairs(IntersectIntervals(a, b)), (Intervals{{5, 10}, {20, 25}, {40, 45}}));
  EXPECT_EQ(AsPairs(IntersectIntervals(a, {})), Intervals{});
  EXPECT_EQ(AsPairs(IntersectIntervals(Make({{0, 10}}), Make({{10, 20}}))), Intervals{});
  EXPECT_EQ(AsPairs(UnionIntervals(a, b)), (Intervals{{0, 50}}));
  EXPECT_EQ(AsPairs(UnionIntervals(Make({{0, 1}}), Make({{1, 2}, {3, 4}}))),
            (Intervals{{0, 2}, {3, 4}}));

  EXPECT_TRUE(CoversIntervals(a, Make({{0, 10}, {22, 28}})));
  EXPECT_FALSE(CoversIntervals(a, Make({{0, 11}})));
  EXPECT_FALSE(CoversIntervals(a, Make({{15, 16}})));
  EXPECT_TRUE(CoversIntervals(a, {}));
  EXPECT_FALSE(CoversIntervals({}, Make({{0, 1}})));
  // Touching outer pieces cover a span across their boundary.
  EXPECT_TRUE(CoversIntervals(Make({{0, 5}, {5, 10}}), Make({{2, 8}})));
  EXPECT_TRUE(CoversIntervals(Make({{0, 8}, {3, 5}, {6, 12}}), Make({{1, 2}, {7, 11}})));
  EXPECT_FALSE(CoversIntervals(Make({{0, 5}, {6, 10}}), Make({{2, 8}})));

  std::vector<ByteInterval> v = Make({{7, 9}, {0, 2}, {3, 3}, {2, 4}, {8, 12}});
  NormalizeIntervals(&v);
  EXPECT_EQ(AsPairs(v), (Intervals{{0, 4}, {7, 12}}));
}

}  // namespace
}  // namespace depgraph
