// Byte sets of strided tensor views, as sorted disjoint intervals.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "depgraph/graph.h"

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

/// Sorts `intervals` by begin, drops empty ones and merges overlapping and touching ones, in
/// place. O(n log n).
void NormalizeIntervals(std::vector<ByteInterval>* intervals);

/// Appends the intersection of two sorted, disjoint interval lists to *out (sorted, disjoint).
/// O(|a| + |b|); allocates only when *out grows.
void AppendIntersection(std::span<const ByteInterval> a, std::span<const ByteInterval> b,
                        std::vector<ByteInterval>* out);

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
