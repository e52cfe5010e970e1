// The TensorMap: producers' published views, keyed by buffer address, newest first
// (runtime.md §5). Entries never expire; INOUT lookups remove the entries they cover.
#pragma once

#include <cstdint>
#include <vector>

#include "flat_index.h"
#include "overlap.h"

namespace depgraph::shim {

/// Multimap buffer.addr -> published entries. Each address keeps its entries contiguously in
/// insertion order, with a compact range key per entry, so a lookup scans only that address's
/// entries, newest first, rejecting disjoint ones from the key alone: O(live entries of that
/// buffer). Removal marks an entry dead; dead entries are compacted away on a later insert.
class TensorMap {
 public:
  /// One published view.
  struct Entry {
    ViewShape view;
    uint64_t producer = 0;      ///< raw task id of the publishing task
    uint32_t producer_arg = 0;  ///< global index of the published argument (for edge rows)
  };

  /// Calls `on_hit(entry, kind)` for every entry of `addr` that overlaps consumer `c` (whose
  /// buffer has `c_buffer_bytes` bytes), newest first; `kind` is kCovered or kOther. When
  /// on_hit returns true the entry is removed (later lookups, including later arguments of
  /// the same task, no longer see it).
  template <typename OnHit>
  void Lookup(uint64_t addr, const ViewShape& c, uint64_t c_buffer_bytes, OnHit&& on_hit) {
    const uint32_t index = lists_by_addr_.Find(addr);
    if (index == FlatIndex::kNil) return;
    List& list = lists_[index];
    const uint64_t c_lo = c.start;
    const uint64_t c_hi = c.start + c.extent;
    for (size_t i = list.keys.size(); i-- > 0;) {
      Key& key = list.keys[i];
      if (key.dead) continue;
      // Same test as ClassifyOverlap's first two steps, on the compact key.
      const uint64_t lo = c_lo > key.lo ? c_lo : key.lo;
      const uint64_t hi = c_hi < key.hi ? c_hi : key.hi;
      if (c.version <= key.version && lo >= hi) continue;
      const Entry& entry = list.entries[i];
      const OverlapKind kind = ClassifyOverlap(c, c_buffer_bytes, entry.view);
      if (kind == OverlapKind::kNone) continue;
      if (on_hit(entry, kind)) {
        key.dead = true;
        ++list.dead;
        --live_;
      }
    }
  }
  /// Inserts a view of `addr` as the newest entry. O(1) amortised.
  void Insert(uint64_t addr, const ViewShape& view, uint64_t producer, uint32_t producer_arg);
  /// Entries currently in the map.
  size_t live_entries() const { return live_; }
  /// Empties the map.
  void Clear();

 private:
  /// What a lookup checks before touching the entry: its element range, version, liveness.
  struct Key {
    uint64_t lo;
    uint64_t hi;
    int32_t version;
    bool dead;
  };
  /// The entries of one address, oldest first (keys[i] belongs to entries[i]).
  struct List {
    std::vector<Key> keys;
    std::vector<Entry> entries;
    uint32_t dead = 0;
  };
  /// Drops the dead entries of `list`, keeping the order.
  static void Compact(List& list);

  FlatIndex lists_by_addr_;
  std::vector<List> lists_;
  size_t live_ = 0;
};

}  // namespace depgraph::shim
