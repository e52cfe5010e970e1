#include "depgraph/reduce/byte_region.h"

#include <algorithm>
#include <iterator>
#include <limits>

namespace depgraph {

namespace {

// All size arithmetic runs in 128 bits: every input is an int64, and the bounds below keep
// every intermediate far from 2^127, so nothing can wrap.
using Wide = __int128;

constexpr Wide kInt64Max = std::numeric_limits<int64_t>::max();

// The fields of a view after the consumer fallback has been applied.
struct ResolvedView {
  DType dtype = DType::kOther;
  FieldState dtype_state = FieldState::kAbsent;
  FieldState start_state = FieldState::kAbsent;
  int64_t start_offset = 0;
  DimList shape;
  DimList strides;
};

// Consumer fields come from the row when its key was present (even if null/invalid), else from
// the consumer task's argument; producer fields only from the row, with the tensor's dtype.
ResolvedView ResolveView(const DepGraph& graph, const EdgeRow& row, const TaskArg* arg,
                         ViewRole role, const Tensor& tensor) {
  ResolvedView out;
  if (role == ViewRole::kProducer) {
    const View& v = graph.ProducerOf(row);
    out.dtype = tensor.dtype;
    out.dtype_state = tensor.dtype_state;
    out.start_state = v.start_offset_state;
    out.start_offset = v.start_offset;
    out.shape = v.shape;
    out.strides = v.strides;
    return out;
  }
  const View& r = graph.ConsumerOf(row);
  const View& a = arg != nullptr ? graph.ViewOf(*arg) : kAbsentView;
  const View& dtype_src = r.dtype_state != FieldState::kAbsent ? r : a;
  out.dtype = dtype_src.dtype;
  out.dtype_state = dtype_src.dtype_state;
  const View& start_src = r.start_offset_state != FieldState::kAbsent ? r : a;
  out.start_state = start_src.start_offset_state;
  out.start_offset = start_src.start_offset;
  out.shape = r.shape.state != FieldState::kAbsent ? r.shape : a.shape;
  out.strides = r.strides.state != FieldState::kAbsent ? r.strides : a.strides;
  return out;
}

// The tensor a row's view refers to: the row's `tensor_id` when the key is present (a null id
// finds nothing), otherwise the argument's.
const Tensor* LookupTensor(const DepGraph& graph, const EdgeRow& row, const TaskArg* arg) {
  if (row.tensor_id_state != FieldState::kAbsent) {
    if (row.tensor_id_state != FieldState::kValid) return nullptr;
    return graph.FindTensor(row.tensor_id);
  }
  if (arg == nullptr || arg->tensor_id_state != FieldState::kValid) return nullptr;
  return graph.FindTensor(arg->tensor_id);
}

// Element byte size of the view, or 0 when the dtypes make the region unknown.
int ViewElementSize(const ResolvedView& view, const Tensor& tensor) {
  if (view.dtype_state != FieldState::kValid) return 0;
  int size = DTypeByteSize(view.dtype);
  if (size <= 0) return 0;
  if (tensor.dtype_state == FieldState::kAbsent) return size;  // defaults to the view dtype
  if (tensor.dtype_state != FieldState::kValid || DTypeByteSize(tensor.dtype) <= 0) return 0;
  return tensor.dtype == view.dtype ? size : 0;
}

}  // namespace

bool ComputeRowRegion(const DepGraph& graph, const EdgeRow& row, const TaskArg* arg,
                      ViewRole role, ByteRegion* region) {
  region->intervals.clear();
  region->buffer_addr = 0;
  const Tensor* tensor = LookupTensor(graph, row, arg);
  if (tensor == nullptr) return false;
  if (tensor->addr_state != FieldState::kValid || tensor->numel_state != FieldState::kValid ||
      tensor->buffer_addr < 0 || tensor->buffer_numel < 0) {
    return false;
  }
  const ResolvedView view = ResolveView(graph, row, arg, role, *tensor);
  if (view.start_state != FieldState::kValid || view.start_offset < 0) return false;
  if (view.shape.state != FieldState::kValid || view.strides.state != FieldState::kValid ||
      view.shape.size == 0 || view.shape.size != view.strides.size) {
    return false;
  }
  const int size = ViewElementSize(view, *tensor);
  if (size == 0) return false;

  const Wide addr = tensor->buffer_addr;
  const Wide numel = tensor->buffer_numel;
  // The buffer's last byte must be addressable as an int64; larger buffers are "unknown".
  if (addr + numel * size > kInt64Max) return false;

  const StridedView strided =
      MakeStridedView(graph, tensor->buffer_addr, size, view.start_offset, view.shape, view.strides);
  // Over the cap the reference tool calls the view "too complex": unknown, not bounded.
  if (ExpandStridedView(strided, kMaxOuterIntervals, tensor->buffer_numel, &region->intervals) !=
      ViewExpansion::kExact) {
    region->intervals.clear();
    return false;
  }
  region->buffer_addr = tensor->buffer_addr;
  return true;
}

StridedView MakeStridedView(const DepGraph& graph, int64_t base_addr, int elem_size,
                            int64_t start_offset, const DimList& shape, const DimList& strides) {
  StridedView view;
  view.base_addr = base_addr;
  view.elem_size = elem_size;
  view.start_offset = start_offset;
  view.shape = graph.DimData(shape);
  view.strides = graph.DimData(strides);
  view.ndim = shape.size;
  return view;
}

ViewExpansion ExpandStridedView(const StridedView& view, int64_t max_outer, int64_t limit_elems,
                                std::vector<ByteInterval>* out) {
  out->clear();
  const int ndim = view.ndim;
  if (ndim <= 0 || view.elem_size <= 0 || view.start_offset < 0 || view.base_addr < 0) {
    return ViewExpansion::kInvalid;
  }
  const int64_t* shape = view.shape;
  const int64_t* strides = view.strides;
  for (int d = 0; d < ndim; ++d) {
    if (shape[d] <= 0 || strides[d] <= 0) return ViewExpansion::kInvalid;
  }
  // Keeps every odometer offset below 2^63 * 2^24 * 64, far from 2^127.
  constexpr int64_t kOuterLimit = int64_t{1} << 24;
  max_outer = std::clamp<int64_t>(max_outer, 1, kOuterLimit);
  const Wide limit = limit_elems < 0 ? Wide(-1) : Wide(limit_elems);
  const Wide addr = view.base_addr;
  const Wide size = view.elem_size;

  // Longest canonically contiguous suffix. `contig` only grows while it equals an int64
  // stride, so it stays below 2^126.
  Wide contig = 1;
  int suffix = ndim;
  for (int d = ndim - 1; d >= 0; --d) {
    if (static_cast<Wide>(strides[d]) != contig) break;
    contig *= shape[d];
    suffix = d;
  }
  if (limit >= 0 && contig > limit) return ViewExpansion::kInvalid;

  // Outer dims (before the suffix); the cumulative product is capped, so it never overflows.
  // Dims of extent 1 contribute nothing and are skipped by the odometer.
  Wide outer = 1;
  int64_t odo_shape[64];
  int64_t odo_stride[64];
  int odo_dims = 0;
  bool bounded = false;
  for (int d = 0; d < suffix; ++d) {
    outer *= shape[d];
    if (outer > max_outer) {
      bounded = true;
      break;
    }
    if (shape[d] > 1) {  // at most log2(kOuterLimit) < 64 such dims
      odo_shape[odo_dims] = shape[d];
      odo_stride[odo_dims] = strides[d];
      ++odo_dims;
    }
  }

  if (bounded) {
    // Extent in elements: 1 + sum((shape - 1) * stride); refuse sums past 2^100.
    Wide extent = 1;
    for (int d = 0; d < ndim; ++d) {
      extent += static_cast<Wide>(shape[d] - 1) * strides[d];
      if (extent > (Wide(1) << 100)) return ViewExpansion::kInvalid;
    }
    const Wide last = view.start_offset + extent;
    if (limit >= 0 && last > limit) return ViewExpansion::kInvalid;
    if (addr + last * size > kInt64Max) return ViewExpansion::kInvalid;
    out->push_back({static_cast<int64_t>(addr + view.start_offset * size),
                    static_cast<int64_t>(addr + last * size)});
    return ViewExpansion::kBounded;
  }

  out->reserve(static_cast<size_t>(outer));
  int64_t index[64] = {};
  Wide offset = view.start_offset;  // start + sum(index[d] * stride[d])
  while (true) {
    if (limit >= 0 && offset + contig > limit) return ViewExpansion::kInvalid;
    const Wide end = addr + (offset + contig) * size;
    if (end > kInt64Max) return ViewExpansion::kInvalid;
    out->push_back({static_cast<int64_t>(addr + offset * size), static_cast<int64_t>(end)});
    int d = odo_dims - 1;
    for (; d >= 0; --d) {
      if (++index[d] < odo_shape[d]) {
        offset += odo_stride[d];
        break;
      }
      offset -= static_cast<Wide>(odo_stride[d]) * (odo_shape[d] - 1);
      index[d] = 0;
    }
    if (d < 0) break;
  }
  NormalizeIntervals(out);
  return ViewExpansion::kExact;
}

int64_t CountViewPieces(const StridedView& view, int64_t cap) {
  Wide contig = 1;
  int suffix = view.ndim;
  for (int d = view.ndim - 1; d >= 0; --d) {
    if (static_cast<Wide>(view.strides[d]) != contig) break;
    contig *= view.shape[d];
    suffix = d;
  }
  Wide outer = 1;
  for (int d = 0; d < suffix; ++d) {
    outer *= view.shape[d];
    if (outer > cap) return cap + 1;
  }
  return static_cast<int64_t>(outer);
}

void NormalizeIntervals(std::vector<ByteInterval>* intervals) {
  std::vector<ByteInterval>& v = *intervals;
  auto by_begin = [](const ByteInterval& a, const ByteInterval& b) { return a.begin < b.begin; };
  if (!std::is_sorted(v.begin(), v.end(), by_begin)) std::sort(v.begin(), v.end(), by_begin);
  size_t kept = 0;
  for (const ByteInterval& piece : v) {
    if (piece.end <= piece.begin) continue;
    if (kept > 0 && piece.begin <= v[kept - 1].end) {
      v[kept - 1].end = std::max(v[kept - 1].end, piece.end);
    } else {
      v[kept++] = piece;
    }
  }
  v.resize(kept);
}

void AppendIntersection(std::span<const ByteInterval> a, std::span<const ByteInterval> b,
                        std::vector<ByteInterval>* out) {
  size_t i = 0;
  size_t j = 0;
  while (i < a.size() && j < b.size()) {
    const int64_t begin = std::max(a[i].begin, b[j].begin);
    const int64_t end = std::min(a[i].end, b[j].end);
    if (begin < end) out->push_back({begin, end});
    if (a[i].end < b[j].end) {
      ++i;
    } else {
      ++j;
    }
  }
}

bool IntervalsIntersect(std::span<const ByteInterval> a, std::span<const ByteInterval> b) {
  size_t i = 0;
  size_t j = 0;
  while (i < a.size() && j < b.size()) {
    if (std::max(a[i].begin, b[j].begin) < std::min(a[i].end, b[j].end)) return true;
    if (a[i].end < b[j].end) {
      ++i;
    } else {
      ++j;
    }
  }
  return false;
}

int64_t IntervalBytes(std::span<const ByteInterval> intervals) {
  int64_t total = 0;
  for (const ByteInterval& piece : intervals) total += piece.end - piece.begin;
  return total;
}

std::vector<ByteInterval> IntersectIntervals(const std::vector<ByteInterval>& a,
                                             const std::vector<ByteInterval>& b) {
  std::vector<ByteInterval> out;
  AppendIntersection(a, b, &out);
  return out;
}

std::vector<ByteInterval> UnionIntervals(const std::vector<ByteInterval>& a,
                                         const std::vector<ByteInterval>& b) {
  std::vector<ByteInterval> out;
  out.reserve(a.size() + b.size());
  std::merge(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(out),
             [](const ByteInterval& x, const ByteInterval& y) { return x.begin < y.begin; });
  NormalizeIntervals(&out);  // already sorted: a linear merge pass
  return out;
}

bool CoversIntervals(const std::vector<ByteInterval>& outer,
                     const std::vector<ByteInterval>& inner) {
  return CoversIntervals(std::span<const ByteInterval>(outer),
                         std::span<const ByteInterval>(inner));
}

bool CoversIntervals(std::span<const ByteInterval> outer, std::span<const ByteInterval> inner) {
  size_t j = 0;
  int64_t reach = std::numeric_limits<int64_t>::min();  // covered up to here from outer[..j)
  for (const ByteInterval& piece : inner) {
    if (piece.end <= piece.begin) continue;
    int64_t pos = piece.begin;
    while (pos < piece.end) {
      if (reach > pos) {  // earlier outer pieces already cover pos
        pos = reach;
        continue;
      }
      if (j == outer.size() || outer[j].begin > pos) return false;
      reach = std::max(reach, outer[j].end);
      ++j;
    }
  }
  return true;
}

}  // namespace depgraph
