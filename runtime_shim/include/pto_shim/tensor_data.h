// get_tensor_data / set_tensor_data: element access to host memory the runner registered for
// an entry tensor (orchestration_api.md §2.3). No dependency edges. A tensor without host data
// is a fatal error naming it; reads then return 0.
#pragma once

#include <cstdint>

#include "pto_shim/abi.h"
#include "pto_shim/chip_tensor.h"
#include "pto_shim/types.h"

/// Element `indices[0..ndims)` of `tensor` (element size bytes, zero-extended) as T.
/// `ndims = 0, indices = nullptr` reads the element at the view origin.
template <typename T = uint64_t>
inline T get_tensor_data(const ChipTensor& tensor, uint32_t ndims, const uint32_t indices[]) {
  return from_u64<T>(pto_shim_tensor_read(&tensor, ndims, indices));
}

/// Writes the low element-size bytes of to_u64(value) to element `indices` of `tensor`.
template <typename T>
inline void set_tensor_data(const ChipTensor& tensor, uint32_t ndims, const uint32_t indices[],
                            T value) {
  pto_shim_tensor_write(&tensor, ndims, indices, to_u64(value));
}
