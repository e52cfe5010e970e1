// Cache maintenance of the AICPU platform (orchestration_api.md §2.3): no-ops on the host.
#pragma once

#include <cstddef>

/// Invalidates the data cache over [addr, addr + bytes): nothing to do on the host.
inline void cache_invalidate_range(const volatile void* /*addr*/, size_t /*bytes*/) {}
/// Flushes the data cache over [addr, addr + bytes): nothing to do on the host.
inline void cache_flush_range(const volatile void* /*addr*/, size_t /*bytes*/) {}
