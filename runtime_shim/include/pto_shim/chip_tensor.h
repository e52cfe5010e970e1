// ChipTensor, the 128-byte tensor view, and its view operations (orchestration_api.md §2.6,
// runtime.md §0-§1). Metadata only: no memory is touched.
#pragma once

#include <cstdint>
#include <type_traits>

#include "pto_shim/abi.h"
#include "pto_shim/logging.h"
#include "pto_shim/types.h"

/// A strided view of a buffer, in elements of `dtype`. Plain public data (sources read and
/// write the fields directly), trivially copyable; default construction leaves it
/// uninitialised. View operations return a new view and never allocate.
struct alignas(64) ChipTensor {
  PTOBufferHandle buffer;      ///< allocation: device address and byte size
  PTO2TaskId owner_task_id;    ///< task that allocated the buffer; invalid for external tensors
  uint64_t start_offset;       ///< view origin, in elements from buffer.addr
  int32_t version;             ///< buffer generation (TensorMap version rule)
  uint32_t ndims;              ///< 1..5
  DataType dtype;              ///< element type
  bool manual_dep;             ///< creator-only: skips TensorMap lookup and publish
  bool is_contiguous;          ///< strides are row-major for shapes (stored, not derived)
  AddressSpace address_space;  ///< HOST or DEVICE
  uint32_t shapes[MAX_TENSOR_DIMS];   ///< elements per dimension
  uint64_t extent_elem_cache;         ///< 1 + sum (shapes[i]-1)*strides[i]; 0 if empty
  uint32_t strides[MAX_TENSOR_DIMS];  ///< elements between neighbours per dimension
  uint8_t reserved[36];               ///< pads to 128 bytes

  /// Number of elements (product of shapes). O(ndims).
  uint64_t numel() const {
    uint64_t n = 1;
    for (uint32_t i = 0; i < ndims && i < MAX_TENSOR_DIMS; ++i) n *= shapes[i];
    return n;
  }
  /// Bytes of the elements the view names (numel * element size).
  uint64_t nbytes() const { return numel() * get_element_size(dtype); }
  /// Span in elements from the origin to one past the last element; 0 for an empty view.
  uint64_t extent_elem() const { return extent_elem_cache; }
  /// Whether the memory lives on the device.
  bool is_device_memory() const { return address_space == AddressSpace::DEVICE; }
  /// Element offset (from buffer.addr) of the element at `indices[0..n)`.
  uint64_t compute_flat_offset(const uint32_t indices[], uint32_t n) const {
    uint64_t offset = start_offset;
    for (uint32_t i = 0; i < n && i < ndims && i < MAX_TENSOR_DIMS; ++i) {
      offset += static_cast<uint64_t>(indices[i]) * strides[i];
    }
    return offset;
  }
  /// The buffer as a host pointer: the runner's host memory where it registered some for this
  /// address, otherwise the device address itself (fine to re-wrap, not to dereference).
  template <typename T>
  T* data_as() const {
    return static_cast<T*>(pto_shim_host_pointer(buffer.addr));
  }
  /// A copy of this view.
  ChipTensor copy() const { return *this; }
  /// Makes this view a copy of `other`.
  void init_from(const ChipTensor& other) { *this = other; }
  /// Logs the view at INFO level.
  void dump() const {
    LOG_INFO("ChipTensor addr=0x%llx size=%llu owner=%llu offset=%llu version=%d ndims=%u "
             "dtype=%s contiguous=%d",
             static_cast<unsigned long long>(buffer.addr),
             static_cast<unsigned long long>(buffer.size),
             static_cast<unsigned long long>(owner_task_id.raw),
             static_cast<unsigned long long>(start_offset), version, ndims,
             get_dtype_name(dtype), is_contiguous ? 1 : 0);
  }

// The view operations read `ndims` entries of caller arrays; after inlining GCC cannot see that
// ndims matches the caller's array length and warns about the unreachable tail.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Warray-bounds"
#pragma GCC diagnostic ignored "-Wstringop-overread"
  /// Sub-view of shape `new_shapes` at `offsets` (one per dim); strides kept. If any new
  /// shape is 0 the view is empty: the offset is not advanced (out-of-range offsets allowed).
  ChipTensor view(const uint32_t new_shapes[], const uint32_t offsets[],
                  bool new_manual_dep = false) const {
    ChipTensor out = *this;
    out.manual_dep = new_manual_dep;
    bool empty = false;
    for (uint32_t i = 0; i < ndims && i < MAX_TENSOR_DIMS; ++i) {
      if (new_shapes[i] == 0) empty = true;
    }
    for (uint32_t i = 0; i < ndims && i < MAX_TENSOR_DIMS; ++i) {
      if (!empty) {
        debug_assert(static_cast<uint64_t>(offsets[i]) + new_shapes[i] <= shapes[i]);
        out.start_offset += static_cast<uint64_t>(offsets[i]) * strides[i];
      }
      out.shapes[i] = new_shapes[i];
    }
    out.refresh_layout();
    return out;
  }
  /// Row-major view of a contiguous tensor with `new_ndims` dims; offset kept.
  ChipTensor reshape(const uint32_t new_shapes[], uint32_t new_ndims,
                     bool new_manual_dep = false) const {
    always_assert(is_contiguous);
    always_assert(new_ndims >= 1 && new_ndims <= MAX_TENSOR_DIMS);
    ChipTensor out = *this;
    out.manual_dep = new_manual_dep;
    out.ndims = new_ndims;
    uint32_t stride = 1;
    for (uint32_t i = new_ndims; i-- > 0;) {
      out.shapes[i] = new_shapes[i];
      out.strides[i] = stride;
      stride *= new_shapes[i];
    }
    debug_assert(out.numel() == numel());
    out.refresh_layout();
    return out;
  }
  /// Swaps dims `x` and `y` (shapes and strides); offset unchanged.
  ChipTensor transpose(uint32_t x, uint32_t y, bool new_manual_dep = false) const {
    debug_assert(x < ndims && y < ndims);
    ChipTensor out = *this;
    out.manual_dep = new_manual_dep;
    if (x < MAX_TENSOR_DIMS && y < MAX_TENSOR_DIMS) {
      out.shapes[x] = shapes[y];
      out.shapes[y] = shapes[x];
      out.strides[x] = strides[y];
      out.strides[y] = strides[x];
    }
    out.refresh_layout();
    return out;
  }
  /// Dim `order[i]` of this view becomes dim i; offset unchanged.
  ChipTensor permute(const uint32_t order[], bool new_manual_dep = false) const {
    ChipTensor out = *this;
    out.manual_dep = new_manual_dep;
    for (uint32_t i = 0; i < ndims && i < MAX_TENSOR_DIMS; ++i) {
      debug_assert(order[i] < ndims);
      const uint32_t from = order[i] < MAX_TENSOR_DIMS ? order[i] : 0;
      out.shapes[i] = shapes[from];
      out.strides[i] = strides[from];
    }
    out.refresh_layout();
    return out;
  }
  /// Elements start, start+step, ... (< end) of dim `dim`.
  ChipTensor slice(uint32_t dim, uint32_t start, uint32_t end, uint32_t step = 1,
                   bool new_manual_dep = false) const {
    debug_assert(dim < ndims && start <= end && end <= shapes[dim] && step >= 1);
    ChipTensor out = *this;
    out.manual_dep = new_manual_dep;
    if (dim < MAX_TENSOR_DIMS && step >= 1 && start <= end) {
      out.start_offset += static_cast<uint64_t>(start) * strides[dim];
      out.shapes[dim] = (end - start + step - 1) / step;
      out.strides[dim] = strides[dim] * step;
    }
    out.refresh_layout();
    return out;
  }

#pragma GCC diagnostic pop

  /// Recomputes is_contiguous (strict row-major test) and extent_elem_cache from shapes and
  /// strides; an empty view is contiguous with extent 0.
  void refresh_layout() {
    uint64_t extent = 1;
    bool empty = false;
    bool contiguous = true;
    uint64_t expected = 1;
    for (uint32_t i = ndims < MAX_TENSOR_DIMS ? ndims : MAX_TENSOR_DIMS; i-- > 0;) {
      if (shapes[i] == 0) empty = true;
      if (strides[i] != expected) contiguous = false;
      expected *= shapes[i];
      extent += static_cast<uint64_t>(shapes[i] > 0 ? shapes[i] - 1 : 0) * strides[i];
    }
    is_contiguous = empty || contiguous;
    extent_elem_cache = empty ? 0 : extent;
  }
};

static_assert(sizeof(ChipTensor) == 128, "ChipTensor must be 128 bytes");
static_assert(alignof(ChipTensor) == 64, "ChipTensor must be 64-byte aligned");
static_assert(std::is_trivially_copyable_v<ChipTensor>, "ChipTensor must be trivially copyable");
static_assert(std::is_standard_layout_v<ChipTensor>, "ChipTensor must be standard layout");

/// A contiguous view of `ndims` dims over existing memory at `addr` (start offset 0, owner
/// invalid, buffer.size = numel * element size). A host pointer the runner registered is
/// mapped back to its device address, so `make_tensor_external(t.data_as<void>(), ...)`
/// names the same buffer as `t`.
inline ChipTensor make_tensor_external(const void* addr, const uint32_t shapes[], uint32_t ndims,
                                       DataType dtype = DataType::FLOAT32,
                                       bool manual_dep = false, int32_t version = 0,
                                       AddressSpace address_space = AddressSpace::HOST) {
  ChipTensor t{};
  t.buffer.addr = pto_shim_device_address(addr);
  t.owner_task_id = PTO2TaskId::invalid();
  t.start_offset = 0;
  t.version = version;
  t.ndims = ndims <= MAX_TENSOR_DIMS ? ndims : MAX_TENSOR_DIMS;
  t.dtype = dtype;
  t.manual_dep = manual_dep;
  t.address_space = address_space;
  uint32_t stride = 1;
  for (uint32_t i = t.ndims; i-- > 0;) {
    t.shapes[i] = shapes[i];
    t.strides[i] = stride;
    stride *= shapes[i];
  }
  t.refresh_layout();
  t.buffer.size = t.numel() * get_element_size(dtype);
  return t;
}

/// A strided view over existing memory at `addr` (origin at addr, buffer.size = extent *
/// element size, contiguity derived).
inline ChipTensor make_tensor_strided(const void* addr, const uint32_t shapes[],
                                      const uint32_t strides[], uint32_t ndims,
                                      DataType dtype = DataType::FLOAT32, bool manual_dep = false,
                                      int32_t version = 0,
                                      AddressSpace address_space = AddressSpace::HOST) {
  ChipTensor t = make_tensor_external(addr, shapes, ndims, dtype, manual_dep, version,
                                      address_space);
  for (uint32_t i = 0; i < t.ndims; ++i) t.strides[i] = strides[i];
  t.refresh_layout();
  t.buffer.size = t.extent_elem_cache * get_element_size(dtype);
  return t;
}
