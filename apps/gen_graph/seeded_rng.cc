#include "seeded_rng.h"

namespace gen_graph {

uint64_t SeededRng::Below(uint64_t n) { return n == 0 ? 0 : engine_() % n; }

int64_t SeededRng::Between(int64_t lo, int64_t hi) {
  if (hi <= lo) {
    Next();  // keep the number of draws independent of the arguments
    return lo;
  }
  const uint64_t span = static_cast<uint64_t>(hi) - static_cast<uint64_t>(lo) + 1;
  return lo + static_cast<int64_t>(Below(span));
}

uint64_t SeededRng::NonZeroId() {
  uint64_t value = engine_();
  return value == 0 ? 1 : value;
}

}  // namespace gen_graph
