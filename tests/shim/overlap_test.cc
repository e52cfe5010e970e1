// The TensorMap overlap classes of runtime.md §5, each through the API (submit sequences) and
// a few corner rules directly on ClassifyOverlap.
#include "overlap.h"

#include <gtest/gtest.h>

#include "shim_test_util.h"

namespace shim_test {
namespace {

using depgraph::shim::ClassifyOverlap;
using depgraph::shim::OverlapKind;
using depgraph::shim::ShapeOf;

constexpr uint64_t kX = 0x10000;  // f32[64,64]
constexpr uint64_t kY = 0x20000;  // f32[64,64]
constexpr uint64_t kZ = 0x30000;  // f32[4096]

class Overlap : public ShimFixture {
 protected:
  // Submits one aiv task with `t` as an argument of direction `type`.
  PTO2TaskId Task(ChipTensor t, TensorArgType type) {
    CoreTaskArgs args;
    switch (type) {
      case TensorArgType::INPUT: args.add_input(t); break;
      case TensorArgType::INOUT: args.add_inout(t); break;
      case TensorArgType::OUTPUT_EXISTING: args.add_output(t); break;
      case TensorArgType::NO_DEP: args.add_no_dep(t); break;
      case TensorArgType::OUTPUT: break;
    }
    return rt_submit_aiv_task(0, args).task_id();
  }
  ChipTensor x_ = External(kX, {64, 64});
  ChipTensor y_ = External(kY, {64, 64});
  ChipTensor z_ = External(kZ, {4096});
};

TEST_F(Overlap, ConsumerContainingEntriesIsCoveredNewestFirst) {
  Task(View(x_, {32, 64}, {0, 0}), TensorArgType::INOUT);
  Task(View(x_, {32, 64}, {32, 0}), TensorArgType::INOUT);
  Task(x_, TensorArgType::INPUT);
  EXPECT_EQ(EdgeList(FinishJson()),
            (std::vector<std::string>{"(0,1)->(0,2) a0 tm/cov", "(0,0)->(0,2) a0 tm/cov"}));
}

TEST_F(Overlap, InoutRemovesCoveredEntries) {
  Task(View(x_, {32, 64}, {0, 0}), TensorArgType::INOUT);
  Task(View(x_, {32, 64}, {32, 0}), TensorArgType::INOUT);
  Task(x_, TensorArgType::INOUT);  // covers and removes both
  Task(x_, TensorArgType::INPUT);  // sees only (0,2)
  EXPECT_EQ(EdgeList(FinishJson()),
            (std::vector<std::string>{"(0,1)->(0,2) a0 tm/cov", "(0,0)->(0,2) a0 tm/cov",
                                      "(0,2)->(0,3) a0 tm/cov"}));
}

TEST_F(Overlap, PartialConsumerIsOtherAndInoutKeepsTheEntry) {
  Task(x_, TensorArgType::INOUT);
  Task(View(x_, {16, 64}, {8, 0}), TensorArgType::INPUT);   // other
  Task(View(x_, {16, 64}, {8, 0}), TensorArgType::INOUT);   // other: (0,0) stays
  Task(View(x_, {16, 64}, {40, 0}), TensorArgType::INPUT);  // (0,0) other; (0,2) disjoint
  EXPECT_EQ(EdgeList(FinishJson()),
            (std::vector<std::string>{"(0,0)->(0,1) a0 tm/oth", "(0,0)->(0,2) a0 tm/oth",
                                      "(0,0)->(0,3) a0 tm/oth"}));
}

TEST_F(Overlap, DisjointColumnsInL2GiveNoEdge) {
  Task(View(y_, {64, 32}, {0, 0}), TensorArgType::INOUT);
  Task(View(y_, {64, 32}, {0, 32}), TensorArgType::INPUT);  // L1 ranges intersect, dim 1 not
  EXPECT_TRUE(EdgeList(FinishJson()).empty());
}

TEST_F(Overlap, TransposedConsumerIsOther) {
  Task(View(y_, {64, 32}, {0, 0}), TensorArgType::INOUT);
  Task(y_.transpose(0, 1), TensorArgType::INPUT);
  EXPECT_EQ(EdgeList(FinishJson()), (std::vector<std::string>{"(0,0)->(0,1) a0 tm/oth"}));
}

TEST_F(Overlap, OddAfterEvenElementsIsOther) {
  Task(z_.slice(0, 0, 4096, 2), TensorArgType::INOUT);
  Task(z_.slice(0, 1, 4096, 2), TensorArgType::INPUT);  // last stride 2: conservative
  EXPECT_EQ(EdgeList(FinishJson()), (std::vector<std::string>{"(0,0)->(0,1) a0 tm/oth"}));
}

TEST_F(Overlap, OutputExistingPublishesWithoutRemovingOlderEntries) {
  Task(z_.slice(0, 0, 4096, 2), TensorArgType::INOUT);
  Task(z_, TensorArgType::OUTPUT_EXISTING);  // no lookup, no removal
  Task(z_, TensorArgType::INPUT);
  EXPECT_EQ(EdgeList(FinishJson()),
            (std::vector<std::string>{"(0,1)->(0,2) a0 tm/cov", "(0,0)->(0,2) a0 tm/oth"}));
}

TEST_F(Overlap, NewerVersionHitsOlderEntriesWithoutGeometry) {
  Task(View(y_, {64, 32}, {0, 0}), TensorArgType::INOUT);
  uint32_t shapes[2] = {64, 64};
  ChipTensor y1 = make_tensor_external(reinterpret_cast<void*>(kY), shapes, 2,
                                       DataType::FLOAT32, false, 1);
  Task(View(y1, {64, 32}, {0, 32}), TensorArgType::INPUT);  // disjoint, yet other
  const nlohmann::json deps = FinishJson();
  EXPECT_EQ(EdgeList(deps), (std::vector<std::string>{"(0,0)->(0,1) a0 tm/oth"}));
  // The tensormap edge carries the entry's (version 0) tensor id.
  EXPECT_EQ(deps["edges"][0]["tensor_id"], deps["tasks"][0]["args"][0]["tensor_id"]);
  EXPECT_NE(deps["edges"][0]["tensor_id"], deps["tasks"][1]["args"][0]["tensor_id"]);
}

TEST_F(Overlap, DtypeMismatchAfterL1HitIsOther) {
  Task(x_, TensorArgType::INOUT);
  uint32_t shapes[1] = {4096};
  ChipTensor xi = make_tensor_external(reinterpret_cast<void*>(kX), shapes, 1, DataType::INT32);
  Task(xi, TensorArgType::INPUT);
  EXPECT_EQ(EdgeList(FinishJson()), (std::vector<std::string>{"(0,0)->(0,1) a0 tm/oth"}));
}

TEST_F(Overlap, L1RangesCompareRawElementsOfEachDtype) {
  // Entry: f32 rows 0..31 = elements [0, 2048) = bytes [0, 8192).
  Task(View(x_, {32, 64}, {0, 0}), TensorArgType::INOUT);
  // Consumer: int8 elements [2048, 4096) = bytes [2048, 4096): the bytes overlap, but the raw
  // element ranges do not, so there is no edge.
  uint32_t shapes[1] = {16384};
  ChipTensor bytes = make_tensor_external(reinterpret_cast<void*>(kX), shapes, 1, DataType::INT8);
  uint32_t part[1] = {2048};
  uint32_t at[1] = {2048};
  Task(bytes.view(part, at), TensorArgType::INPUT);
  // Raw elements [0, 2048) of the int8 view do intersect: other (dtype differs).
  uint32_t start[1] = {0};
  Task(bytes.view(part, start), TensorArgType::INPUT);
  EXPECT_EQ(EdgeList(FinishJson()), (std::vector<std::string>{"(0,0)->(0,2) a0 tm/oth"}));
}

TEST_F(Overlap, ReferenceShapeComesFromTheConsumersBuffer) {
  // [2,64] with row stride 100: buffer = extent 164 elements, not a multiple of 100, so even
  // the identical view is "other".
  uint32_t shapes[2] = {2, 64};
  uint32_t strides[2] = {100, 1};
  ChipTensor a = make_tensor_strided(reinterpret_cast<void*>(kZ), shapes, strides, 2);
  Task(a, TensorArgType::INOUT);
  Task(a, TensorArgType::INPUT);
  EXPECT_EQ(EdgeList(FinishJson()), (std::vector<std::string>{"(0,0)->(0,1) a0 tm/oth"}));
}

TEST_F(Overlap, OutOfReferenceBoundsIsOther) {
  Task(View(x_, {32, 64}, {0, 0}), TensorArgType::INOUT);
  // Rows of 64 starting at column 32: off[1] + 64 > R[1] = 64.
  ChipTensor shifted = View(x_, {2, 64}, {0, 0});
  shifted.start_offset = 32;
  Task(shifted, TensorArgType::INPUT);
  EXPECT_EQ(EdgeList(FinishJson()), (std::vector<std::string>{"(0,0)->(0,1) a0 tm/oth"}));
}

TEST_F(Overlap, StridesMustBeEqualEvenForEquivalentLayouts) {
  // [16,1] with strides [16,1] (a column: strictly not contiguous) against the same shape
  // with row-major strides [1,1]: the element ranges intersect, the strides differ -> other.
  uint32_t col_shapes[2] = {16, 1};
  uint32_t col_strides[2] = {16, 1};
  ChipTensor column = make_tensor_strided(reinterpret_cast<void*>(kZ), col_shapes, col_strides, 2);
  EXPECT_FALSE(column.is_contiguous);
  Task(column, TensorArgType::INOUT);
  ChipTensor packed = External(kZ, {16, 1});
  EXPECT_TRUE(packed.is_contiguous);
  Task(packed, TensorArgType::INPUT);
  EXPECT_EQ(EdgeList(FinishJson()), (std::vector<std::string>{"(0,0)->(0,1) a0 tm/oth"}));
}

TEST(ClassifyOverlap, OlderConsumerVersionFallsThroughToGeometry) {
  ChipTensor x1 = External(kX, {64, 64}, DataType::FLOAT32, 1);
  ChipTensor x0 = External(kX, {64, 64});
  ChipTensor rows0 = View(x0, {32, 64}, {0, 0});
  ChipTensor rows1 = View(x0, {32, 64}, {32, 0});
  // Consumer version 0 against a version-1 entry: plain geometry.
  EXPECT_EQ(ClassifyOverlap(ShapeOf(rows0), x0.buffer.size, ShapeOf(View(x1, {32, 64}, {32, 0}))),
            OverlapKind::kNone);
  EXPECT_EQ(ClassifyOverlap(ShapeOf(x0), x0.buffer.size, ShapeOf(View(x1, {32, 64}, {32, 0}))),
            OverlapKind::kCovered);
  // Consumer version 1 against version 0: other, whatever the geometry.
  EXPECT_EQ(ClassifyOverlap(ShapeOf(View(x1, {32, 64}, {0, 0})), x1.buffer.size, ShapeOf(rows1)),
            OverlapKind::kOther);
}

TEST(ClassifyOverlap, EmptyViewsNeverIntersect) {
  ChipTensor x = External(kX, {64, 64});
  ChipTensor empty = View(x, {0, 64}, {70, 0});  // out-of-range offsets allowed when empty
  EXPECT_EQ(empty.start_offset, 0u);
  EXPECT_TRUE(empty.is_contiguous);
  EXPECT_EQ(empty.extent_elem(), 0u);
  EXPECT_EQ(ClassifyOverlap(ShapeOf(empty), x.buffer.size, ShapeOf(x)), OverlapKind::kNone);
  EXPECT_EQ(ClassifyOverlap(ShapeOf(x), x.buffer.size, ShapeOf(empty)), OverlapKind::kNone);
}

TEST(ClassifyOverlap, IdenticalViewsAreCovered) {
  ChipTensor x = External(kX, {64, 64});
  ChipTensor block = View(x, {16, 16}, {16, 32});
  EXPECT_EQ(ClassifyOverlap(ShapeOf(block), x.buffer.size, ShapeOf(block)), OverlapKind::kCovered);
  // A producer containing the consumer is "other" (covered means consumer contains producer).
  EXPECT_EQ(ClassifyOverlap(ShapeOf(block), x.buffer.size, ShapeOf(x)), OverlapKind::kOther);
  EXPECT_EQ(ClassifyOverlap(ShapeOf(x), x.buffer.size, ShapeOf(block)), OverlapKind::kCovered);
}

}  // namespace
}  // namespace shim_test
