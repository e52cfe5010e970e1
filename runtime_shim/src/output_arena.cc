#include "output_arena.h"

#include <algorithm>

namespace depgraph::shim {

ChipTensor* OutputArena::Allocate(size_t n) {
  while (true) {
    if (chunk_ == chunks_.size()) {
      Chunk chunk;
      chunk.capacity = std::max(kChunk, n);
      chunk.data.reset(new ChipTensor[chunk.capacity]);
      chunks_.push_back(std::move(chunk));
    }
    Chunk& current = chunks_[chunk_];
    if (current.capacity - used_ >= n) {
      ChipTensor* out = current.data.get() + used_;
      used_ += n;
      return out;
    }
    // Not enough room left here: move on (the tail stays unused until a release).
    ++chunk_;
    used_ = 0;
  }
}

}  // namespace depgraph::shim
