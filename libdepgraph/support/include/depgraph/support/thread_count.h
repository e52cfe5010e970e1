// How many threads a parallel step uses: the tools' `--threads N` value, and the split of one
// step's items over threads.
#pragma once

#include <algorithm>
#include <cstddef>
#include <thread>

namespace depgraph {

/// The number of threads `requested` means: itself when positive, else every core
/// (std::thread::hardware_concurrency(), or 1 when that is unknown). O(1).
unsigned ResolveThreadCount(unsigned requested);

/// The threads to use for `items` independent pieces of work: `requested` when given (0 =
/// all cores, but no more than one per `min_items_per_thread` items, so a small input stays
/// on one thread), and never more than there are items. At least 1. O(1).
inline unsigned ThreadCount(unsigned requested, size_t items, size_t min_items_per_thread) {
  size_t threads = requested;
  if (threads == 0) {
    threads = std::min<size_t>(std::max(1u, std::thread::hardware_concurrency()),
                               std::max<size_t>(1, items / min_items_per_thread));
  }
  return static_cast<unsigned>(std::clamp<size_t>(threads, 1, std::max<size_t>(1, items)));
}

}  // namespace depgraph
