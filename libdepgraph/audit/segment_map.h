// The race sweep's byte state: disjoint half-open segments over int64 addresses, each with a
// value (the last writer, the coarse writer, the reader list of its bytes). Private to
// race_audit.cc.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace depgraph::race_sweep {

/// Disjoint half-open segments over int64 addresses, each with a value; gaps have none.
///
/// Stored as sorted blocks of at most `kBlock` segments with an array of the blocks' first
/// addresses: a lookup is a binary search in that small array (skipped when the block is the
/// previous lookup's) and one in a block, a few cache lines, where a node tree of 370 k
/// segments missed the cache at every level. With S segments: a lookup O(log S), an insertion
/// or removal O(kBlock + S / kBlock) (the shift in its block, a new or removed block's
/// entry), memory O(S): a block that falls under a quarter full joins a neighbour with room.
template <typename V, size_t kBlock = 128>
class SegmentMap {
  static_assert(kBlock >= 4, "a block splits into halves of two or more");

 public:
  /// One segment: the bytes [begin, end) and their value.
  struct Seg {
    int64_t begin;
    int64_t end;
    V value;
  };

  // Calls f(begin, end, value) for every segment meeting [b, e), in address order.
  template <typename F>
  void Visit(int64_t b, int64_t e, F&& f) const {
    for (Pos p = FirstEndingAfter(b); !AtEnd(p); p = Next(p)) {
      const Seg& s = At(p);
      if (s.begin >= e) break;
      f(s.begin, s.end, s.value);
    }
  }

  // Removes every byte of [b, e).
  void Erase(int64_t b, int64_t e) { EraseBytes(b, e); }

  // Replaces [b, e) by one segment.
  void Assign(int64_t b, int64_t e, const V& value) {
    InsertBefore(EraseBytes(b, e), {b, e, value});
  }

  // Assign(b, e, value), then joins the new segment with the segment ending at b and with the
  // one starting at e, in that order, each when mergeable(its value) says so; the joined
  // segment keeps `value`.
  template <typename Mergeable>
  void AssignJoining(int64_t b, int64_t e, const V& value, Mergeable&& mergeable) {
    Pos p = InsertBefore(EraseBytes(b, e), {b, e, value});
    if (!IsFirst(p)) {
      const Pos left = Prev(p);
      if (At(left).end == b && mergeable(At(left).value)) {
        At(left).end = e;
        At(left).value = value;
        p = EraseOneAfter(left);
      }
    }
    const Pos right = Next(p);
    if (!AtEnd(right) && At(right).begin == At(p).end && mergeable(At(right).value)) {
      At(p).end = At(right).end;
      EraseOneAfter(p);
    }
  }

  // Sets every piece of [b, e), segments and gaps alike, to f(old value or nullptr), in
  // address order.
  template <typename F>
  void Update(int64_t b, int64_t e, F&& f) {
    CutAt(e);
    Pos p = CutAt(b);
    int64_t cur = b;
    while (cur < e) {
      const int64_t next = (AtEnd(p) || At(p).begin >= e) ? e : At(p).begin;
      if (next > cur) {  // a gap
        p = Next(InsertBefore(p, {cur, next, f(nullptr)}));
        cur = next;
        continue;
      }
      At(p).value = f(&At(p).value);
      cur = At(p).end;
      p = Next(p);
    }
  }

  // Merges adjacent segments with equal values from the one before b to the one at e.
  template <typename Eq>
  void Coalesce(int64_t b, int64_t e, Eq&& eq) {
    if (blocks_.empty()) return;
    Pos p = FirstStartingAtOrAfter(b);
    if (!IsFirst(p)) p = Prev(p);
    while (!AtEnd(p) && At(p).begin <= e) {
      const Pos next = Next(p);
      if (!AtEnd(next) && At(p).end == At(next).begin && eq(At(p).value, At(next).value)) {
        At(p).end = At(next).end;
        p = EraseOneAfter(p);
      } else {
        p = next;
      }
    }
  }

  // Calls f(&value) for every segment; f may change values, not segments. O(S).
  template <typename F>
  void ForEachValue(F&& f) {
    for (Block& block : blocks_) {
      for (Seg& s : block) f(&s.value);
    }
  }

  // The segments, in address order (for tests). O(S).
  std::vector<Seg> Segments() const {
    std::vector<Seg> all;
    for (const Block& block : blocks_) all.insert(all.end(), block.begin(), block.end());
    return all;
  }

  // How many blocks hold the segments (for tests). O(1).
  size_t block_count() const { return blocks_.size(); }

  // How many segments. O(S / kBlock).
  size_t size() const {
    size_t n = 0;
    for (const Block& block : blocks_) n += block.size();
    return n;
  }

 private:
  using Block = std::vector<Seg>;
  // A segment's place: blocks_[block][index]; the end is {blocks_.size(), 0}. No block is
  // empty, so every other place names a segment.
  struct Pos {
    size_t block;
    size_t index;
  };

  bool AtEnd(Pos p) const { return p.block == blocks_.size(); }
  bool IsFirst(Pos p) const { return p.block == 0 && p.index == 0; }
  Seg& At(Pos p) { return blocks_[p.block][p.index]; }
  const Seg& At(Pos p) const { return blocks_[p.block][p.index]; }
  Pos Next(Pos p) const {
    return ++p.index == blocks_[p.block].size() ? Pos{p.block + 1, 0} : p;
  }
  // The place before p (which is not the first). O(1).
  Pos Prev(Pos p) const {
    if (p.index > 0) return {p.block, p.index - 1};
    return {p.block - 1, blocks_[p.block - 1].size() - 1};
  }

  // The last block starting at or before x, or 0. O(1) when it is the previous answer (a
  // sweep's lookups come several to an address), else O(log(S / kBlock)).
  size_t BlockFor(int64_t x) const {
    const size_t f = finger_;
    if (f < firsts_.size() && firsts_[f] <= x && (f + 1 == firsts_.size() || x < firsts_[f + 1])) {
      return f;
    }
    const auto it = std::upper_bound(firsts_.begin(), firsts_.end(), x);
    finger_ = it == firsts_.begin() ? 0 : static_cast<size_t>(it - firsts_.begin()) - 1;
    return finger_;
  }

  // The first segment ending after x. Segments of blocks before BlockFor(x) end at or before
  // the first address of that block, so they end at or before x. O(log S).
  Pos FirstEndingAfter(int64_t x) const {
    if (blocks_.empty()) return {0, 0};
    const size_t k = BlockFor(x);
    const Block& block = blocks_[k];
    const auto it = std::upper_bound(block.begin(), block.end(), x,
                                     [](int64_t v, const Seg& s) { return v < s.end; });
    if (it == block.end()) return {k + 1, 0};
    return {k, static_cast<size_t>(it - block.begin())};
  }

  // The first segment starting at or after x. O(log S).
  Pos FirstStartingAtOrAfter(int64_t x) const {
    if (blocks_.empty()) return {0, 0};
    const size_t k = BlockFor(x);
    const Block& block = blocks_[k];
    const auto it = std::lower_bound(block.begin(), block.end(), x,
                                     [](const Seg& s, int64_t v) { return s.begin < v; });
    if (it == block.end()) return {k + 1, 0};
    return {k, static_cast<size_t>(it - block.begin())};
  }

  // Cuts the segment holding x past its start (if any) at x; returns the first segment
  // starting at or after x. O(log S + kBlock).
  Pos CutAt(int64_t x) {
    const Pos p = FirstEndingAfter(x);
    if (AtEnd(p) || At(p).begin >= x) return p;
    Seg right = At(p);
    right.begin = x;
    At(p).end = x;
    return InsertBefore({p.block, p.index + 1}, right);
  }

  // Removes every byte of [b, e); returns the first segment at or after e.
  Pos EraseBytes(int64_t b, int64_t e) {
    CutAt(e);
    const Pos from = CutAt(b);
    Pos to = from;
    while (!AtEnd(to) && At(to).begin < e) to = Next(to);
    return EraseRange(from, to);
  }

  // Inserts s before place p (s belongs there in address order); returns its place. Appends
  // to the block before rather than starting a block, and splits a full block in halves.
  Pos InsertBefore(Pos p, const Seg& s) {
    if (blocks_.empty()) {
      blocks_.emplace_back().push_back(s);
      firsts_.push_back(s.begin);
      return {0, 0};
    }
    if (p.index == 0 && p.block > 0) p = {p.block - 1, blocks_[p.block - 1].size()};
    if (blocks_[p.block].size() == kBlock) {
      Block upper(blocks_[p.block].begin() + kBlock / 2, blocks_[p.block].end());
      blocks_[p.block].resize(kBlock / 2);
      firsts_.insert(firsts_.begin() + static_cast<ptrdiff_t>(p.block) + 1, upper.front().begin);
      blocks_.insert(blocks_.begin() + static_cast<ptrdiff_t>(p.block) + 1, std::move(upper));
      if (p.index > kBlock / 2) p = {p.block + 1, p.index - kBlock / 2};
    }
    Block& block = blocks_[p.block];
    block.insert(block.begin() + static_cast<ptrdiff_t>(p.index), s);
    if (p.index == 0) firsts_[p.block] = s.begin;
    return p;
  }

  // Removes the segment after p; returns p's place (which a block merge may change).
  Pos EraseOneAfter(Pos p) {
    const Pos after = EraseRange(Next(p), Next(Next(p)));
    return Prev(after);
  }

  // Removes the segments [from, to); returns the place of the one that was at `to`.
  Pos EraseRange(Pos from, Pos to) {
    if (from.block == to.block && from.index == to.index) return from;
    const size_t k = from.block;
    Block& first = blocks_[k];
    if (from.block == to.block) {
      first.erase(first.begin() + static_cast<ptrdiff_t>(from.index),
                  first.begin() + static_cast<ptrdiff_t>(to.index));
    } else {
      // The tail of `from`'s block, the blocks between, the head of `to`'s block.
      first.resize(from.index);
      if (!AtEnd(to)) {
        Block& last = blocks_[to.block];
        last.erase(last.begin(), last.begin() + static_cast<ptrdiff_t>(to.index));
        firsts_[to.block] = last.front().begin;
      }
      const auto gone_from = static_cast<ptrdiff_t>(k) + 1;
      const auto gone_to = static_cast<ptrdiff_t>(to.block);
      blocks_.erase(blocks_.begin() + gone_from, blocks_.begin() + gone_to);
      firsts_.erase(firsts_.begin() + gone_from, firsts_.begin() + gone_to);
    }
    // What was at `to` is at {k, from.index} now, or past block k's end: the next block's first.
    Pos p{k, from.index};
    if (blocks_[k].empty()) {
      blocks_.erase(blocks_.begin() + static_cast<ptrdiff_t>(k));
      firsts_.erase(firsts_.begin() + static_cast<ptrdiff_t>(k));
      p = {k, 0};
    } else if (from.index == 0) {
      firsts_[k] = blocks_[k].front().begin;
    }
    if (p.block < blocks_.size() && p.index == blocks_[p.block].size()) p = {p.block + 1, 0};
    // The blocks on either side of the removal join when one is small and they fit in one.
    if (p.block > 0) p = JoinIfSmall(p.block - 1, p);
    if (!AtEnd(p)) p = JoinIfSmall(p.block, p);
    return p;
  }

  // Joins blocks k and k + 1 when one of them is under a quarter full and both fit in one, so
  // that blocks stay about a quarter full or more; returns place p (in block k or k + 1) after
  // the join. O(kBlock + S / kBlock).
  Pos JoinIfSmall(size_t k, Pos p) {
    if (k + 1 >= blocks_.size()) return p;
    Block& left = blocks_[k];
    Block& right = blocks_[k + 1];
    if ((left.size() >= kBlock / 4 && right.size() >= kBlock / 4) ||
        left.size() + right.size() > kBlock) {
      return p;
    }
    const size_t offset = left.size();
    left.insert(left.end(), right.begin(), right.end());
    blocks_.erase(blocks_.begin() + static_cast<ptrdiff_t>(k) + 1);
    firsts_.erase(firsts_.begin() + static_cast<ptrdiff_t>(k) + 1);
    return p.block == k + 1 ? Pos{k, offset + p.index} : p;
  }

  std::vector<Block> blocks_;    // non-empty, in address order
  std::vector<int64_t> firsts_;  // firsts_[i] == blocks_[i].front().begin
  mutable size_t finger_ = 0;    // BlockFor's last answer, tried first (may be stale)
};

}  // namespace depgraph::race_sweep
