// TensorCreateInfo, the recipe of a runtime-allocated OUTPUT (orchestration_api.md §2.2,
// runtime.md §2.3), and init_tensor_from_create_info.
#pragma once

#include <cstdint>
#include <type_traits>

#include "pto_shim/chip_tensor.h"
#include "pto_shim/types.h"

/// Shape and dtype of an output the runtime allocates at submit. Stored by address in an Arg
/// (must outlive the submit); one create-info may serve many submits. 64 bytes.
class alignas(64) TensorCreateInfo {
 public:
  /// Uninitialised-shape recipe (ndims 0).
  TensorCreateInfo()
      : version(0),
        ndims(0),
        dtype(DataType::FLOAT32),
        manual_dep(false),
        is_contiguous(true),
        shapes{},
        start_offset(0) {}
  /// A contiguous `ndims`-dim output of `dtype`; `manual_dep` is inherited by the output.
  TensorCreateInfo(const uint32_t in_shapes[], uint32_t in_ndims,
                   DataType in_dtype = DataType::FLOAT32, bool in_manual_dep = false)
      : version(0),
        ndims(in_ndims <= MAX_TENSOR_DIMS ? in_ndims : MAX_TENSOR_DIMS),
        dtype(in_dtype),
        manual_dep(in_manual_dep),
        is_contiguous(true),
        shapes{},
        start_offset(0) {
    for (uint32_t i = 0; i < ndims; ++i) shapes[i] = in_shapes[i];
  }

  /// Number of elements.
  uint64_t numel() const {
    uint64_t n = 1;
    for (uint32_t i = 0; i < ndims; ++i) n *= shapes[i];
    return n;
  }
  /// numel * element size.
  uint64_t buffer_size_bytes() const { return numel() * get_element_size(dtype); }

#if !PTO_SHIM_IS_HBG
  /// Requests that the output be filled with `value` (no dependency effect; the shim does not
  /// model memory contents).
  template <typename T>
  void set_initial_value(T value) {
    initial_value = to_u64(value);
    has_initial_value = true;
  }
#endif

  int32_t version;                    ///< always 0 for outputs
  uint32_t ndims;                     ///< 1..5
  DataType dtype;                     ///< element type
  bool manual_dep;                    ///< the output is creator-only
  bool is_contiguous;                 ///< always true
#if !PTO_SHIM_IS_HBG
  bool has_initial_value = false;     ///< set_initial_value was called
#else
  bool reserved_has_initial_value_ = false;  // same layout as the TMRB flavour
#endif
  uint32_t shapes[MAX_TENSOR_DIMS];   ///< elements per dimension
  uint64_t start_offset;              ///< always 0
#if !PTO_SHIM_IS_HBG
  uint64_t initial_value = 0;         ///< fill bits (to_u64 of the value)
#else
  uint64_t reserved_initial_value_ = 0;
#endif
};

static_assert(sizeof(TensorCreateInfo) == 64, "TensorCreateInfo must be 64 bytes");

/// Materialises a contiguous view of `create_info` at `addr` with `buffer_size` bytes (owner
/// invalid; a registered host pointer maps back to its device address).
inline void init_tensor_from_create_info(ChipTensor& tensor, const TensorCreateInfo& create_info,
                                         void* addr, uint64_t buffer_size) {
  tensor = make_tensor_external(addr, create_info.shapes, create_info.ndims, create_info.dtype,
                                create_info.manual_dep, create_info.version);
  tensor.buffer.size = buffer_size;
}
