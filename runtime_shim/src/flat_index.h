// An open-addressing hash index from u64 keys to u32 values, for addresses and tensor ids.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace depgraph::shim {

/// Maps u64 keys (any value, including 0 and ~0) to u32 values other than kNil. Linear
/// probing, Fibonacci hashing, load factor <= 1/2, no deletion. Find/insert O(1) expected.
class FlatIndex {
 public:
  static constexpr uint32_t kNil = 0xFFFFFFFFu;

  explicit FlatIndex(uint32_t initial_capacity_log2 = 10) { Reset(initial_capacity_log2); }

  /// The value of `key`, or kNil.
  uint32_t Find(uint64_t key) const {
    for (size_t slot = Slot(key);; slot = (slot + 1) & mask_) {
      if (values_[slot] == kNil) return kNil;
      if (keys_[slot] == key) return values_[slot];
    }
  }
  /// The value of `key`; if absent, stores `value` (not kNil) first and sets *inserted.
  uint32_t FindOrInsert(uint64_t key, uint32_t value, bool* inserted) {
    if ((size_ + 1) * 2 > values_.size()) Grow();
    for (size_t slot = Slot(key);; slot = (slot + 1) & mask_) {
      if (values_[slot] == kNil) {
        keys_[slot] = key;
        values_[slot] = value;
        ++size_;
        *inserted = true;
        return value;
      }
      if (keys_[slot] == key) {
        *inserted = false;
        return values_[slot];
      }
    }
  }
  /// Number of keys.
  size_t size() const { return size_; }
  /// Removes every key and shrinks to 2^capacity_log2 slots.
  void Reset(uint32_t capacity_log2 = 10) {
    keys_.assign(size_t{1} << capacity_log2, 0);
    values_.assign(size_t{1} << capacity_log2, kNil);
    mask_ = (size_t{1} << capacity_log2) - 1;
    shift_ = 64 - capacity_log2;
    size_ = 0;
  }

 private:
  /// Home slot of `key` (Fibonacci hashing).
  size_t Slot(uint64_t key) const {
    return static_cast<size_t>((key * 0x9E3779B97F4A7C15ull) >> shift_);
  }
  /// Doubles the table and reinserts every key.
  void Grow() {
    std::vector<uint64_t> old_keys;
    std::vector<uint32_t> old_values;
    old_keys.swap(keys_);
    old_values.swap(values_);
    Reset(64 - shift_ + 1);
    for (size_t i = 0; i < old_values.size(); ++i) {
      if (old_values[i] == kNil) continue;
      size_t slot = Slot(old_keys[i]);
      while (values_[slot] != kNil) slot = (slot + 1) & mask_;
      keys_[slot] = old_keys[i];
      values_[slot] = old_values[i];
      ++size_;
    }
  }

  std::vector<uint64_t> keys_;
  std::vector<uint32_t> values_;
  size_t mask_ = 0;
  uint32_t shift_ = 54;
  size_t size_ = 0;
};

}  // namespace depgraph::shim
