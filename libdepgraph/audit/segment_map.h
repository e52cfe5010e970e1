// The race sweep's byte state: disjoint half-open segments over int64 addresses, each with a
// value (the last writer, the coarse writer, the reader list of its bytes). Private to
// race_audit.cc.
#pragma once

#include <cstdint>
#include <iterator>
#include <map>

namespace depgraph::race_sweep {

/// Disjoint half-open segments over int64 addresses, each with a value; gaps have none.
template <typename V>
class SegmentMap {
 public:
  struct Seg {
    int64_t end;
    V value;
  };
  using Map = std::map<int64_t, Seg>;

  // Calls f(begin, end, value) for every segment meeting [b, e), in address order.
  template <typename F>
  void Visit(int64_t b, int64_t e, F&& f) const {
    auto it = map_.upper_bound(b);
    if (it != map_.begin() && std::prev(it)->second.end > b) --it;
    for (; it != map_.end() && it->first < e; ++it) f(it->first, it->second.end, it->second.value);
  }

  // Removes every byte of [b, e); returns the first segment at or after e. One descent.
  typename Map::iterator Erase(int64_t b, int64_t e) {
    const auto first = SplitAt(b);
    return map_.erase(first, SplitForward(first, e));
  }

  // Replaces [b, e) by one segment; returns it.
  typename Map::iterator Assign(int64_t b, int64_t e, const V& value) {
    return map_.emplace_hint(Erase(b, e), b, Seg{e, value});
  }

  // Sets every piece of [b, e), segments and gaps alike, to f(old value or nullptr).
  template <typename F>
  void Update(int64_t b, int64_t e, F&& f) {
    auto it = SplitAt(b);
    SplitForward(it, e);
    int64_t cur = b;
    while (cur < e) {
      const int64_t next = (it == map_.end() || it->first >= e) ? e : it->first;
      if (next > cur) {  // a gap
        map_.emplace_hint(it, cur, Seg{next, f(nullptr)});
        cur = next;
        continue;
      }
      it->second.value = f(&it->second.value);
      cur = it->second.end;
      ++it;
    }
  }

  // Merges adjacent segments with equal values from the one before b to the one at e.
  template <typename Eq>
  void Coalesce(int64_t b, int64_t e, Eq&& eq) {
    auto it = map_.lower_bound(b);
    if (it != map_.begin()) --it;
    while (it != map_.end() && it->first <= e) {
      auto next = std::next(it);
      if (next != map_.end() && it->second.end == next->first &&
          eq(it->second.value, next->second.value)) {
        it->second.end = next->second.end;
        map_.erase(next);
      } else {
        it = next;
      }
    }
  }

  Map& raw() { return map_; }

 private:
  // Cuts the segment holding x (if any) at x; returns the first segment starting at or after
  // x. O(log S).
  typename Map::iterator SplitAt(int64_t x) {
    auto it = map_.upper_bound(x);
    if (it == map_.begin()) return it;
    const auto before = std::prev(it);
    if (before->first == x) return before;
    if (x < before->second.end) return Cut(before, x);
    return it;
  }

  // SplitAt(x) for an x at or after where `from` starts, with every segment before `from`
  // ending at or before x: walks forward instead of descending. O(segments passed).
  typename Map::iterator SplitForward(typename Map::iterator from, int64_t x) {
    while (from != map_.end() && from->second.end <= x) ++from;
    if (from != map_.end() && from->first < x) return Cut(from, x);
    return from;
  }

  // Splits segment `it` (which holds x, past its start) at x; returns the right part.
  typename Map::iterator Cut(typename Map::iterator it, int64_t x) {
    Seg right{it->second.end, it->second.value};
    it->second.end = x;
    return map_.emplace_hint(std::next(it), x, right);
  }

  Map map_;
};

}  // namespace depgraph::race_sweep
