// Host buffers the runner registered as the backing memory of device address ranges, for
// get_tensor_data / set_tensor_data and data_as<T>().
#pragma once

#include <cstdint>
#include <vector>

namespace depgraph::shim {

/// Registered ranges device [addr, addr + size) <-> host [data, data + size). Lookups are
/// binary searches over the (few) registrations: O(log R).
class HostMemory {
 public:
  /// Registers a range; false if it overlaps an existing device or host range.
  bool Register(uint64_t addr, void* data, uint64_t size);
  /// Host pointer for device address `addr` if registered, else nullptr.
  void* HostPointer(uint64_t addr) const;
  /// Host pointer to `bytes` bytes at device address `addr`, if they lie inside one
  /// registration; else nullptr.
  void* HostRange(uint64_t addr, uint64_t bytes) const;
  /// Device address of host pointer `pointer` if it lies in a registration; else false.
  bool DeviceAddress(const void* pointer, uint64_t* addr) const;
  /// Whether anything is registered.
  bool empty() const { return by_addr_.empty(); }

 private:
  /// One registration.
  struct Range {
    uint64_t addr;
    uintptr_t host;
    uint64_t size;
  };
  std::vector<Range> by_addr_;  ///< sorted by addr
  std::vector<Range> by_host_;  ///< sorted by host
};

}  // namespace depgraph::shim
