#include "depgraph/internal/gallop_search.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

namespace depgraph {
namespace {

TEST(GallopSearch, EveryHintGivesStdLowerBoundAndMovesToTheAnswer) {
  std::mt19937 rng(26);
  for (size_t n : {0, 1, 2, 3, 7, 64, 1000}) {
    std::vector<int> sorted(n);
    for (int& v : sorted) v = static_cast<int>(rng() % 50);  // runs of equal values
    std::sort(sorted.begin(), sorted.end());
    for (int target = -1; target <= 51; ++target) {
      const size_t expected = static_cast<size_t>(
          std::lower_bound(sorted.begin(), sorted.end(), target) - sorted.begin());
      for (size_t start = 0; start <= n + 2; ++start) {
        size_t hint = start;
        const size_t got = GallopLowerBound(n, &hint, [&](size_t i) {
          EXPECT_LT(i, n);
          return sorted[i] < target;
        });
        ASSERT_EQ(got, expected) << "n " << n << " target " << target << " hint " << start;
        if (n > 0) {
          EXPECT_EQ(hint, std::min(expected, n - 1));
        }
      }
    }
  }
}

TEST(GallopSearch, NeighbouringAnswersCostAFewCalls) {
  std::vector<int> sorted(1 << 20);
  for (size_t i = 0; i < sorted.size(); ++i) sorted[i] = static_cast<int>(2 * i);
  size_t hint = 0, calls = 0;
  for (int target = 0; target < 4000; ++target) {
    ASSERT_EQ(GallopLowerBound(sorted.size(), &hint,
                               [&](size_t i) {
                                 ++calls;
                                 return sorted[i] < target;
                               }),
              static_cast<size_t>((target + 1) / 2));
  }
  // A whole binary search each would be 20 calls a query.
  EXPECT_LT(calls, 4u * 4000);
}

}  // namespace
}  // namespace depgraph
