// The TensorMap overlap test between a consumer view and a published entry (runtime.md §5).
#pragma once

#include <cstdint>

#include "pto_orchestration_api.h"

namespace depgraph::shim {

/// The geometry of one view as the overlap test sees it. 64 bytes.
struct ViewShape {
  uint64_t start = 0;   ///< start_offset, elements
  uint64_t extent = 0;  ///< numel when is_contiguous, else 1 + sum (shape-1)*stride; 0 if empty
  int32_t version = 0;
  uint8_t ndims = 0;
  DataType dtype = DataType::FLOAT32;
  uint32_t shapes[MAX_TENSOR_DIMS] = {};
  uint32_t strides[MAX_TENSOR_DIMS] = {};
};

/// Result of the test: no dependency, consumer contains producer, or anything else.
enum class OverlapKind : uint8_t { kNone, kCovered, kOther };

/// The overlap geometry of `tensor`, computed from its fields (not from its cached extent, so
/// views whose fields were written directly are measured as they are). O(ndims).
ViewShape ShapeOf(const ChipTensor& tensor);

/// Classifies consumer `c` (whose buffer has `c_buffer_bytes` bytes) against entry `e`:
/// version rule, raw-element L1 range test, L2 eligibility (same dtype, ndims and strides,
/// last stride 1, nested strides), reference shape from the consumer's buffer size, offset
/// decomposition, bounds, per-dimension intervals. COVERED iff the consumer's interval
/// contains the entry's in every dimension. O(ndims).
OverlapKind ClassifyOverlap(const ViewShape& c, uint64_t c_buffer_bytes, const ViewShape& e);

}  // namespace depgraph::shim
