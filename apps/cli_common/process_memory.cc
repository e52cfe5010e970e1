#include "process_memory.h"

#include <malloc.h>

#include <cstdint>

namespace depgraph::cli {

void KeepFreedMemoryForReuse() {
  // No chunk gets its own mmap (they would be unmapped on free and faulted again on reuse);
  // a thread arena that cannot hold a large chunk falls back to the main heap.
  mallopt(M_MMAP_MAX, 0);
  // Never give the top of the heap back.
  mallopt(M_TRIM_THRESHOLD, INT32_MAX);
}

}  // namespace depgraph::cli
