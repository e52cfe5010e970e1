#include "overlap.h"

#include <algorithm>

namespace depgraph::shim {

ViewShape ShapeOf(const ChipTensor& tensor) {
  ViewShape v;
  v.start = tensor.start_offset;
  v.version = tensor.version;
  v.ndims = static_cast<uint8_t>(std::min<uint32_t>(tensor.ndims, MAX_TENSOR_DIMS));
  v.dtype = tensor.dtype;
  uint64_t numel = 1;
  uint64_t extent = 1;
  for (uint32_t i = 0; i < v.ndims; ++i) {
    v.shapes[i] = tensor.shapes[i];
    v.strides[i] = tensor.strides[i];
    numel *= tensor.shapes[i];
    if (tensor.shapes[i] > 0) extent += static_cast<uint64_t>(tensor.shapes[i] - 1) * tensor.strides[i];
  }
  // An empty view spans nothing either way.
  v.extent = numel == 0 ? 0 : (tensor.is_contiguous ? numel : extent);
  return v;
}

OverlapKind ClassifyOverlap(const ViewShape& c, uint64_t c_buffer_bytes, const ViewShape& e) {
  // 1. Version: a newer consumer depends on every older entry, geometry unseen.
  if (c.version > e.version) return OverlapKind::kOther;
  // 2. L1: half-open element ranges, each in its own dtype's units.
  const uint64_t lo = std::max(c.start, e.start);
  const uint64_t hi = std::min(c.start + c.extent, e.start + e.extent);
  if (lo >= hi) return OverlapKind::kNone;
  // 3. L2 eligibility.
  const uint32_t n = c.ndims;
  if (c.dtype != e.dtype || n != e.ndims || n == 0) return OverlapKind::kOther;
  for (uint32_t i = 0; i < n; ++i) {
    if (c.strides[i] != e.strides[i] || c.strides[i] == 0) return OverlapKind::kOther;
  }
  if (c.strides[n - 1] != 1) return OverlapKind::kOther;
  for (uint32_t i = 1; i < n; ++i) {
    if (c.strides[i - 1] % c.strides[i] != 0) return OverlapKind::kOther;
  }
  // 4. Reference shape: R[i] = strides[i-1] / strides[i]; R[0] from the consumer's buffer.
  const uint64_t elem = get_element_size(c.dtype);
  if (elem == 0) return OverlapKind::kOther;
  const uint64_t buffer_numel = c_buffer_bytes / elem;
  if (buffer_numel % c.strides[0] != 0) return OverlapKind::kOther;
  uint64_t reference[MAX_TENSOR_DIMS];
  reference[0] = buffer_numel / c.strides[0];
  for (uint32_t i = 1; i < n; ++i) reference[i] = c.strides[i - 1] / c.strides[i];
  // 5. Offset decomposition (must be exact for both sides).
  uint64_t off_c[MAX_TENSOR_DIMS];
  uint64_t off_e[MAX_TENSOR_DIMS];
  uint64_t rem_c = c.start;
  uint64_t rem_e = e.start;
  for (uint32_t i = 0; i < n; ++i) {
    off_c[i] = rem_c / c.strides[i];
    rem_c %= c.strides[i];
    off_e[i] = rem_e / c.strides[i];
    rem_e %= c.strides[i];
  }
  if (rem_c != 0 || rem_e != 0) return OverlapKind::kOther;
  // 6. Bounds within the reference shape.
  for (uint32_t i = 0; i < n; ++i) {
    if (off_c[i] + c.shapes[i] > reference[i] || off_e[i] + e.shapes[i] > reference[i]) {
      return OverlapKind::kOther;
    }
  }
  // 7. Per-dimension intervals.
  bool contains = true;
  for (uint32_t i = 0; i < n; ++i) {
    const uint64_t c_lo = off_c[i];
    const uint64_t c_hi = off_c[i] + c.shapes[i];
    const uint64_t e_lo = off_e[i];
    const uint64_t e_hi = off_e[i] + e.shapes[i];
    if (std::max(c_lo, e_lo) >= std::min(c_hi, e_hi)) return OverlapKind::kNone;
    if (c_lo > e_lo || e_hi > c_hi) contains = false;
  }
  return contains ? OverlapKind::kCovered : OverlapKind::kOther;
}

}  // namespace depgraph::shim
