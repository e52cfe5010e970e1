// A map from 64-bit keys to 32-bit values as one open-addressing table (linear probing, no
// deletion): no node per entry, so lookups in maps of millions of ids stay in cache lines
// instead of chasing pointers. Private to libdepgraph.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace depgraph {

/// uint64 -> uint32 hash map. Find and Insert cost O(1) expected; the table doubles when half
/// full, so memory is at most 4 x 12 bytes per entry.
class FlatIdMap {
 public:
  /// The value Find returns for an absent key (and a value that cannot be stored).
  static constexpr uint32_t kNone = UINT32_MAX;

  FlatIdMap() { Reset(); }
  /// Empties the map (and shrinks it to its initial size).
  void Reset() {
    keys_.assign(1024, 0);
    vals_.assign(1024, kNone);
    size_ = 0;
  }
  /// Makes room for `count` entries without growing.
  void Reserve(size_t count) {
    size_t capacity = keys_.size();
    while (2 * count > capacity) capacity *= 2;
    if (capacity != keys_.size()) Rehash(capacity);
  }
  size_t size() const { return size_; }
  /// The value of `key`, or kNone.
  uint32_t Find(uint64_t key) const {
    for (size_t i = Slot(key);; i = (i + 1) & (keys_.size() - 1)) {
      if (vals_[i] == kNone) return kNone;
      if (keys_[i] == key) return vals_[i];
    }
  }
  /// Sets the value of `key` (replacing an earlier one).
  void Insert(uint64_t key, uint32_t value) {
    if (2 * (size_ + 1) > keys_.size()) Rehash(keys_.size() * 2);
    size_t i = Slot(key);
    while (vals_[i] != kNone && keys_[i] != key) i = (i + 1) & (keys_.size() - 1);
    if (vals_[i] == kNone) ++size_;
    keys_[i] = key;
    vals_[i] = value;
  }
  /// The value of `key`, inserting `value` first if the key is absent; *inserted says which.
  uint32_t FindOrInsert(uint64_t key, uint32_t value, bool* inserted) {
    if (2 * (size_ + 1) > keys_.size()) Rehash(keys_.size() * 2);
    size_t i = Slot(key);
    while (vals_[i] != kNone && keys_[i] != key) i = (i + 1) & (keys_.size() - 1);
    *inserted = vals_[i] == kNone;
    if (*inserted) {
      ++size_;
      keys_[i] = key;
      vals_[i] = value;
    }
    return vals_[i];
  }

 private:
  size_t Slot(uint64_t key) const {
    key ^= key >> 31;
    key *= 0x9E3779B97F4A7C15ull;
    key ^= key >> 29;
    return static_cast<size_t>(key) & (keys_.size() - 1);
  }
  void Rehash(size_t capacity) {
    std::vector<uint64_t> keys;
    std::vector<uint32_t> vals;
    keys.swap(keys_);
    vals.swap(vals_);
    keys_.assign(capacity, 0);
    vals_.assign(capacity, kNone);
    size_ = 0;
    for (size_t i = 0; i < keys.size(); ++i) {
      if (vals[i] != kNone) Insert(keys[i], vals[i]);
    }
  }
  std::vector<uint64_t> keys_;
  std::vector<uint32_t> vals_;
  size_t size_ = 0;
};

}  // namespace depgraph
