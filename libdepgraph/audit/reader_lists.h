// The race sweep's reader lists: which tasks read a byte since its last write, as immutable
// hash-consed cons cells shared between segments. Private to race_audit.cc.
#pragma once

#include <cstdint>
#include <vector>

#include "depgraph/internal/flat_id_map.h"

namespace depgraph::race_sweep {

/// No list, no result: FlatIdMap's empty value.
inline constexpr uint32_t kNone = FlatIdMap::kNone;

/// Reader entries: task index, bit 31 set when the read's bytes are a bounding range.
inline constexpr uint32_t kApproxBit = 1u << 31;
/// The task of a reader entry. O(1).
inline uint32_t EntryTask(uint32_t entry) { return entry & ~kApproxBit; }

/// ReaderLists::Add's results for the entry being added: list -> new list. Every key of one
/// entry (one task's read) is new to the next entry, so the table is emptied per entry in O(1)
/// by a generation stamp and stays as small as one read's segments, cache-resident.
class AddMemo {
 public:
  AddMemo() { slots_.resize(64); }
  // Forgets every result unless they were for `entry`.
  void Use(uint32_t entry) {
    if (entry == entry_) return;
    entry_ = entry;
    size_ = 0;
    if (++stamp_ == 0) {  // wrapped: no old stamp may match
      for (Slot& slot : slots_) slot.stamp = 0;
      stamp_ = 1;
    }
  }
  // The memoized result for `list`, or kNone.
  uint32_t Find(uint32_t list) const {
    for (size_t i = SlotOf(list);; i = (i + 1) & (slots_.size() - 1)) {
      const Slot& slot = slots_[i];
      if (slot.stamp != stamp_) return kNone;
      if (slot.list == list) return slot.result;
    }
  }
  void Insert(uint32_t list, uint32_t result) {
    if (2 * (size_ + 1) > slots_.size()) Grow();
    size_t i = SlotOf(list);
    while (slots_[i].stamp == stamp_ && slots_[i].list != list) i = (i + 1) & (slots_.size() - 1);
    if (slots_[i].stamp != stamp_) ++size_;
    slots_[i] = Slot{stamp_, list, result};
  }

 private:
  struct Slot {
    uint32_t stamp = 0;
    uint32_t list = 0;
    uint32_t result = 0;
  };
  size_t SlotOf(uint32_t list) const {
    return static_cast<size_t>((uint64_t{list} * 0x9E3779B97F4A7C15ull) >> 32) & (slots_.size() - 1);
  }
  void Grow() {
    std::vector<Slot> old(slots_.size() * 2);
    old.swap(slots_);
    size_ = 0;
    for (const Slot& slot : old) {
      if (slot.stamp == stamp_) Insert(slot.list, slot.result);
    }
  }
  std::vector<Slot> slots_;
  uint32_t stamp_ = 1;
  uint32_t entry_ = 0;
  size_t size_ = 0;
};

/// Immutable reader lists as hash-consed cons cells: equal lists built the same way get the
/// same id, so adjacent byte segments with equal reader sets merge. List 0 is empty.
class ReaderLists {
 public:
  ReaderLists() { cells_.push_back({0, 0}); }
  uint32_t Head(uint32_t list) const { return cells_[list].entry; }
  uint32_t Next(uint32_t list) const { return cells_[list].next; }
  size_t cells() const { return cells_.size(); }

  uint32_t Cons(uint32_t entry, uint32_t next) {
    const uint64_t key = (uint64_t{entry} << 32) | next;
    uint32_t id = intern_.Find(key);
    if (id != kNone) return id;
    id = static_cast<uint32_t>(cells_.size());
    cells_.push_back({entry, next});
    intern_.Insert(key, id);
    return id;
  }

  // `list` plus `entry`, minus the entries among the first `window` that `supersedes`
  // (entry task reached from theirs) or that belong to the same task.
  template <typename Supersedes>
  uint32_t Add(uint32_t list, uint32_t entry, int window, Supersedes&& supersedes) {
    memo_.Use(entry);
    const uint32_t memo = memo_.Find(list);
    if (memo != kNone) return memo;
    std::vector<uint32_t>& kept = scratch_;
    kept.clear();
    uint32_t merged = entry;
    uint32_t cur = list;
    for (int i = 0; i < window && cur != 0; ++i, cur = Next(cur)) {
      const uint32_t old = Head(cur);
      if (EntryTask(old) == EntryTask(entry)) {
        merged &= old | ~kApproxBit;  // exact if either read was exact
      } else if (!supersedes(old, entry)) {
        kept.push_back(old);
      }
    }
    uint32_t result = cur;  // the shared tail beyond the window
    for (size_t i = kept.size(); i-- > 0;) result = Cons(kept[i], result);
    result = Cons(merged, result);
    memo_.Insert(list, result);
    return result;
  }

  // Drops every cell no live list uses; `live` holds list ids and is rewritten in place.
  void Compact(std::vector<uint32_t*>& live) {
    std::vector<Cell> cells = {{0, 0}};
    std::vector<uint32_t> remap(cells_.size(), kNone);
    remap[0] = 0;
    std::vector<uint32_t> chain;
    for (uint32_t* id : live) {
      chain.clear();
      uint32_t cur = *id;
      while (remap[cur] == kNone) {
        chain.push_back(cur);
        cur = cells_[cur].next;
      }
      for (size_t i = chain.size(); i-- > 0;) {
        const uint32_t old = chain[i];
        remap[old] = static_cast<uint32_t>(cells.size());
        cells.push_back({cells_[old].entry, remap[cells_[old].next]});
      }
      *id = remap[*id];
    }
    cells_.swap(cells);
    intern_.Reset();
    for (uint32_t i = 1; i < cells_.size(); ++i) {
      intern_.Insert((uint64_t{cells_[i].entry} << 32) | cells_[i].next, i);
    }
    memo_ = AddMemo();
  }

 private:
  struct Cell {
    uint32_t entry;
    uint32_t next;
  };
  std::vector<Cell> cells_;
  FlatIdMap intern_;
  AddMemo memo_;
  std::vector<uint32_t> scratch_;
};

}  // namespace depgraph::race_sweep
