// The runtime's tensor id (runtime.md §6): FNV-1a-64 over the buffer address and version.
#pragma once

#include <cstdint>

namespace depgraph::shim {

/// FNV-1a-64 over the 8 little-endian bytes of `buffer_addr` then the 4 little-endian bytes
/// of `version` (as u32). Check value: TensorId(986038112, 0) == 5171277938582001759. O(1).
inline constexpr uint64_t TensorId(uint64_t buffer_addr, int32_t version) {
  uint64_t hash = 0xcbf29ce484222325ull;
  for (int i = 0; i < 8; ++i) {
    hash ^= (buffer_addr >> (8 * i)) & 0xFF;
    hash *= 0x100000001b3ull;
  }
  const auto v = static_cast<uint32_t>(version);
  for (int i = 0; i < 4; ++i) {
    hash ^= (v >> (8 * i)) & 0xFF;
    hash *= 0x100000001b3ull;
  }
  return hash;
}

static_assert(TensorId(986038112, 0) == 5171277938582001759ull, "FNV-1a check value");

}  // namespace depgraph::shim
