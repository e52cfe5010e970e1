// Communication-domain context (orchestration_api.md §2.1). Sources use it only as an opaque
// pointer passed through scalars; the layout follows the real one (1056 bytes).
#pragma once

#include <cstdint>

/// Per-rank communication context of a comm domain.
struct CommContext {
  uint64_t workSpace;
  uint64_t workSpaceSize;
  uint32_t rankId;
  uint32_t rankNum;
  uint64_t winSize;
  uint64_t windowsIn[64];
  uint64_t windowsOut[64];
};

static_assert(sizeof(CommContext) == 1056, "CommContext must be 1056 bytes");
