// Tests for the race sweep's segment map (libdepgraph/audit/segment_map.h): every operation,
// on random sequences, against a plain ordered-map model of the same contract, with blocks of
// 8 segments (so that blocks split and join all the time) and of the default size.
#include "segment_map.h"

#include <gtest/gtest.h>

#include <iterator>
#include <map>
#include <random>
#include <tuple>
#include <vector>

namespace depgraph::race_sweep {
namespace {

using Piece = std::tuple<int64_t, int64_t, int>;  // begin, end, value

/// The contract, the plain way: one ordered-map node per segment.
class ModelMap {
 public:
  std::vector<Piece> Visit(int64_t b, int64_t e) const {
    std::vector<Piece> out;
    for (const auto& [begin, seg] : map_) {
      if (seg.first > b && begin < e) out.emplace_back(begin, seg.first, seg.second);
    }
    return out;
  }
  void Erase(int64_t b, int64_t e) {
    Cut(b);
    Cut(e);
    map_.erase(map_.lower_bound(b), map_.lower_bound(e));
  }
  void Assign(int64_t b, int64_t e, int v) {
    Erase(b, e);
    map_[b] = {e, v};
  }
  template <typename M>
  void AssignJoining(int64_t b, int64_t e, int v, M&& mergeable) {
    Assign(b, e, v);
    auto it = map_.find(b);
    if (it != map_.begin()) {
      auto left = std::prev(it);
      if (left->second.first == b && mergeable(left->second.second)) {
        left->second = {e, v};
        map_.erase(it);
        it = left;
      }
    }
    auto right = std::next(it);
    if (right != map_.end() && right->first == it->second.first &&
        mergeable(right->second.second)) {
      it->second.first = right->second.first;
      map_.erase(right);
    }
  }
  template <typename F>
  void Update(int64_t b, int64_t e, F&& f) {
    Cut(b);
    Cut(e);
    int64_t cur = b;
    while (cur < e) {
      auto it = map_.lower_bound(cur);
      if (it == map_.end() || it->first >= e || it->first > cur) {
        const int64_t next = (it == map_.end() || it->first >= e) ? e : it->first;
        map_[cur] = {next, f(nullptr)};
        cur = next;
      } else {
        it->second.second = f(&it->second.second);
        cur = it->second.first;
      }
    }
  }
  void Coalesce(int64_t b, int64_t e) {
    auto it = map_.lower_bound(b);
    if (it != map_.begin()) --it;
    while (it != map_.end() && it->first <= e) {
      auto next = std::next(it);
      if (next != map_.end() && it->second.first == next->first &&
          it->second.second == next->second.second) {
        it->second.first = next->second.first;
        map_.erase(next);
      } else {
        it = next;
      }
    }
  }
  std::vector<Piece> All() const { return Visit(INT64_MIN, INT64_MAX); }

 private:
  void Cut(int64_t x) {
    auto it = map_.upper_bound(x);
    if (it == map_.begin()) return;
    --it;
    if (it->first < x && x < it->second.first) {
      map_[x] = it->second;
      it->second.first = x;
    }
  }
  std::map<int64_t, std::pair<int64_t, int>> map_;  // begin -> (end, value)
};

template <typename Map>
std::vector<Piece> VisitOf(const Map& map, int64_t b, int64_t e) {
  std::vector<Piece> out;
  map.Visit(b, e, [&](int64_t sb, int64_t se, const int& v) { out.emplace_back(sb, se, v); });
  return out;
}

template <typename Map>
std::vector<Piece> AllOf(const Map& map) {
  std::vector<Piece> out;
  for (const auto& s : map.Segments()) out.emplace_back(s.begin, s.end, s.value);
  return out;
}

// Runs `ops` random operations over addresses [0, span) on both maps and compares, after
// each, the segments, what Visit saw and every value the callbacks were given, in order.
template <size_t kBlock>
void CompareOnRandomOperations(uint32_t seed, int ops, int64_t span, int64_t max_len) {
  SegmentMap<int, kBlock> map;
  ModelMap model;
  std::mt19937 rng(seed);
  auto uniform = [&](int64_t lo, int64_t hi) {
    return std::uniform_int_distribution<int64_t>(lo, hi)(rng);
  };
  for (int op = 0; op < ops; ++op) {
    const int64_t b = uniform(0, span - 1);
    const int64_t e = b + uniform(1, max_len);
    const int value = static_cast<int>(uniform(0, 3));
    const int64_t kind = uniform(0, 9);
    std::vector<int> seen, model_seen;
    SCOPED_TRACE(::testing::Message() << "seed " << seed << " op " << op << " kind " << kind
                                      << " [" << b << ", " << e << ")");
    switch (kind) {
      case 0:
        ASSERT_EQ(VisitOf(map, b, e), model.Visit(b, e));
        break;
      case 1:
        map.Erase(b, e);
        model.Erase(b, e);
        break;
      case 2:
      case 3:
        map.Assign(b, e, value);
        model.Assign(b, e, value);
        break;
      case 4:
      case 5: {
        auto even = [](std::vector<int>* log) {
          return [log](int v) {
            log->push_back(v);
            return v % 2 == 0;
          };
        };
        map.AssignJoining(b, e, value, even(&seen));
        model.AssignJoining(b, e, value, even(&model_seen));
        break;
      }
      case 6:
      case 7: {
        auto bump = [](std::vector<int>* log) {
          return [log](const int* old) {
            log->push_back(old ? *old : -1);
            return old ? (*old + 1) % 4 : 0;
          };
        };
        map.Update(b, e, bump(&seen));
        model.Update(b, e, bump(&model_seen));
        break;
      }
      default:
        map.Coalesce(b, e, [](int x, int y) { return x == y; });
        model.Coalesce(b, e);
        break;
    }
    ASSERT_EQ(seen, model_seen);
    ASSERT_EQ(AllOf(map), model.All());
    ASSERT_EQ(map.size(), model.All().size());
  }
}

TEST(SegmentMap, SmallBlocksAgreeWithTheModel) {
  for (uint32_t seed = 1; seed <= 30; ++seed) CompareOnRandomOperations<8>(seed, 3000, 64, 12);
}

TEST(SegmentMap, SmallBlocksOverAWideRangeAgreeWithTheModel) {
  // Many segments, long erasures: whole blocks go at once and neighbours join.
  for (uint32_t seed = 1; seed <= 10; ++seed) {
    CompareOnRandomOperations<8>(seed, 4000, 2000, 300);
  }
}

TEST(SegmentMap, DefaultBlocksAgreeWithTheModel) {
  for (uint32_t seed = 1; seed <= 10; ++seed) {
    CompareOnRandomOperations<128>(seed, 4000, 5000, 40);
  }
}

TEST(SegmentMap, BlocksStayAQuarterFullAfterScatteredErasures) {
  // 20,000 one-byte segments, then 9 of every 10 erased, from either end: the blocks left
  // small join their neighbours, so they hold about a quarter block or more on average.
  for (bool backwards : {false, true}) {
    SegmentMap<int, 128> map;
    for (int64_t i = 0; i < 20000; ++i) map.Assign(2 * i, 2 * i + 1, 1);
    EXPECT_EQ(map.block_count(), 20000u / 64);  // halves of full blocks
    for (int64_t j = 0; j < 20000; ++j) {
      const int64_t i = backwards ? 19999 - j : j;
      if (i % 10 != 0) map.Erase(2 * i, 2 * i + 1);
    }
    EXPECT_EQ(map.size(), 2000u);
    EXPECT_LE(map.block_count(), 2000u / 32 + 1) << (backwards ? "backwards" : "forwards");
  }
}

TEST(SegmentMap, VisitOnAnEmptyMapSeesNothing) {
  SegmentMap<int> map;
  EXPECT_TRUE(VisitOf(map, 0, 100).empty());
  map.Erase(0, 100);
  map.Coalesce(0, 100, [](int x, int y) { return x == y; });
  EXPECT_EQ(map.size(), 0u);
}

TEST(SegmentMap, UpdateFillsGapsAndKeepsSegmentBounds) {
  SegmentMap<int> map;
  map.Assign(10, 20, 5);
  std::vector<int> seen;
  map.Update(0, 30, [&](const int* old) {
    seen.push_back(old ? *old : -1);
    return old ? *old + 1 : 0;
  });
  EXPECT_EQ(seen, (std::vector<int>{-1, 5, -1}));
  EXPECT_EQ(AllOf(map), (std::vector<Piece>{{0, 10, 0}, {10, 20, 6}, {20, 30, 0}}));
}

}  // namespace
}  // namespace depgraph::race_sweep
