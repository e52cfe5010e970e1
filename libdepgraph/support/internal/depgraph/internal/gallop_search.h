// A lower-bound search that starts from a previous answer: loops whose queries come in about
// ascending order (rows in submit order, pairs by predecessor) pay for the distance between
// neighbouring answers rather than for the whole range.
#pragma once

#include <cstddef>

namespace depgraph {

/// The first position in [0, n) whose element is not below the target (n if none), where
/// below(i) says that element i is below it and the range is sorted (below is true on a prefix).
/// Searched outwards from *hint, a previous answer, doubling the step, then bisected; *hint
/// moves to the answer (kept under n). O(log distance) calls of below.
template <typename Below>
size_t GallopLowerBound(size_t n, size_t* hint, Below&& below) {
  if (n == 0) return 0;
  const size_t h = *hint < n ? *hint : n - 1;
  size_t lo = 0, hi = n;  // the answer is in [lo, hi]
  if (below(h)) {
    lo = h + 1;
    for (size_t step = 1; h + step < n; step *= 2) {
      if (!below(h + step)) {
        hi = h + step;
        break;
      }
      lo = h + step + 1;
    }
  } else {
    hi = h;
    for (size_t step = 1; step <= h; step *= 2) {
      if (below(h - step)) {
        lo = h - step + 1;
        break;
      }
      hi = h - step;
    }
  }
  while (lo < hi) {
    const size_t mid = lo + (hi - lo) / 2;
    if (below(mid)) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  *hint = lo < n ? lo : n - 1;
  return lo;
}

}  // namespace depgraph
