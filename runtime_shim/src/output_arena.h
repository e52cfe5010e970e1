// Storage of materialised OUTPUT views, handed out by TaskOutputTensors::get_ref and released
// when the submitting scope closes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "pto_orchestration_api.h"

namespace depgraph::shim {

/// A stack of ChipTensor chunks. Allocations are contiguous and stable until released;
/// Release(mark) pops everything allocated after Mark() (chunks are kept for reuse).
class OutputArena {
 public:
  /// A position in the arena.
  struct Mark {
    size_t chunk = 0;
    size_t used = 0;
  };

  /// `n` contiguous, uninitialised views. O(1) amortised.
  ChipTensor* Allocate(size_t n);
  /// The current position.
  Mark mark() const { return Mark{chunk_, used_}; }
  /// Frees everything allocated after `mark`.
  void Release(const Mark& mark) {
    chunk_ = mark.chunk;
    used_ = mark.used;
  }

 private:
  static constexpr size_t kChunk = 1024;
  /// One block of views.
  struct Chunk {
    std::unique_ptr<ChipTensor[]> data;
    size_t capacity = 0;
  };
  std::vector<Chunk> chunks_;
  size_t chunk_ = 0;  ///< index of the chunk being filled
  size_t used_ = 0;   ///< views used in it
};

}  // namespace depgraph::shim
