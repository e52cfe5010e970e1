// Byte sets of strided tensor views, as sorted disjoint intervals.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "depgraph/graph/graph.h"

namespace depgraph {

/// A half-open byte interval [begin, end).
struct ByteInterval {
  int64_t begin = 0;
  int64_t end = 0;
};

/// The exact bytes a view touches: sorted, merged (overlapping and touching) intervals.
struct ByteRegion {
  int64_t buffer_addr = 0;
  std::vector<ByteInterval> intervals;
};

/// Which side of an edge row a view describes.
enum class ViewRole { kConsumer, kProducer };

/// The reference tool's cap on the number of outer (non-contiguous) index tuples a view may
/// expand to; larger views are "too complex" and make the region unknown.
constexpr int64_t kMaxOuterIntervals = 10000;

/// Computes the byte region of a row's consumer or producer view. Consumer fields absent from
/// the row fall back to `arg` (the consumer task's argument, may be null); producer fields never
/// fall back and the producer dtype is the tensor's. Returns false ("unknown") when the tensor
/// is missing, any field is invalid, the dtype has no byte size or differs from the tensor's,
/// the view expands past kMaxOuterIntervals, or a byte lies outside the buffer.
/// Cost: O(outer * log outer) for `outer` <= kMaxOuterIntervals index tuples.
bool ComputeRowRegion(const DepGraph& graph, const EdgeRow& row, const TaskArg* arg,
                      ViewRole role, ByteRegion* region);

/// A strided view in raw terms: elements `start_offset + sum(i_d * strides[d])` for
/// 0 <= i_d < shape[d], each `elem_size` bytes, counted from `base_addr`.
struct StridedView {
  int64_t base_addr = 0;
  int elem_size = 0;
  int64_t start_offset = 0;
  const int64_t* shape = nullptr;
  const int64_t* strides = nullptr;
  int ndim = 0;
};

/// The strided view of `shape`/`strides` (lists of `graph`, which must outlive the result)
/// from element `start_offset` of the buffer at `base_addr`, `elem_size` bytes per element.
/// O(1).
StridedView MakeStridedView(const DepGraph& graph, int64_t base_addr, int elem_size,
                            int64_t start_offset, const DimList& shape, const DimList& strides);

/// Outcome of ExpandStridedView.
enum class ViewExpansion {
  kExact,    ///< *out holds exactly the bytes of the view
  kBounded,  ///< more than `max_outer` pieces: *out holds the view's bounding byte range
  kInvalid,  ///< no dims, a dim or stride <= 0, elem_size <= 0, an element at or past
             ///< `limit_elems`, or a byte address past INT64_MAX
};

/// Expands a view into sorted, merged (overlapping and touching) byte intervals, replacing
/// *out. The longest row-major contiguous suffix of dims forms one piece per index tuple of
/// the dims before it; past `max_outer` such tuples the view's bounding range
/// [base + start*size, base + (start + 1 + sum((shape-1)*stride))*size) is written instead.
/// `limit_elems` >= 0 bounds the element offsets (ComputeRowRegion passes the buffer size);
/// -1 means unbounded. Cost: O(pieces * log pieces) for pieces <= max_outer; O(ndim) when
/// bounded.
ViewExpansion ExpandStridedView(const StridedView& view, int64_t max_outer, int64_t limit_elems,
                                std::vector<ByteInterval>* out);

/// Number of contiguous pieces ExpandStridedView would produce for `view` (the product of
/// the dims before its row-major contiguous suffix), or `cap + 1` when it exceeds `cap`.
/// The view must be valid (dims and strides > 0). O(ndim).
int64_t CountViewPieces(const StridedView& view, int64_t cap);

/// Sorts `intervals` by begin, drops empty ones and merges overlapping and touching ones, in
/// place. O(n log n).
void NormalizeIntervals(std::vector<ByteInterval>* intervals);

/// Appends the intersection of two sorted, disjoint interval lists to *out (sorted, disjoint).
/// O(|a| + |b|); allocates only when *out grows.
void AppendIntersection(std::span<const ByteInterval> a, std::span<const ByteInterval> b,
                        std::vector<ByteInterval>* out);

/// Whether two sorted, disjoint interval lists share a byte; stops at the first one.
/// O(|a| + |b|).
bool IntervalsIntersect(std::span<const ByteInterval> a, std::span<const ByteInterval> b);

/// Total bytes of a disjoint interval list. O(n).
int64_t IntervalBytes(std::span<const ByteInterval> intervals);

/// Intersection of two interval lists. O(|a| + |b|).
std::vector<ByteInterval> IntersectIntervals(const std::vector<ByteInterval>& a,
                                             const std::vector<ByteInterval>& b);
/// Union of two interval lists, merged. O(|a| + |b|).
std::vector<ByteInterval> UnionIntervals(const std::vector<ByteInterval>& a,
                                         const std::vector<ByteInterval>& b);
/// Whether `inner` is entirely contained in `outer`. O(|inner| + |outer|).
bool CoversIntervals(const std::vector<ByteInterval>& outer,
                     const std::vector<ByteInterval>& inner);
/// Same over spans. Both lists must be sorted by begin; `outer` may hold overlapping or
/// touching pieces. O(|inner| + |outer|).
bool CoversIntervals(std::span<const ByteInterval> outer, std::span<const ByteInterval> inner);

}  // namespace depgraph
