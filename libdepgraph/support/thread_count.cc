#include "depgraph/support/thread_count.h"

#include <thread>

namespace depgraph {

unsigned ResolveThreadCount(unsigned requested) {
  if (requested > 0) return requested;
  const unsigned cores = std::thread::hardware_concurrency();
  return cores > 0 ? cores : 1;
}

}  // namespace depgraph
