// The address model (runtime.md §2.3): per-ring bump heaps for runtime-allocated outputs and a
// separate bump range for entry tensors. Addresses are never reused.
#pragma once

#include <cstdint>

namespace depgraph::shim {

/// Rounds `value` up to a multiple of the power of two `alignment`.
inline constexpr uint64_t AlignUp(uint64_t value, uint64_t alignment) {
  return (value + alignment - 1) & ~(alignment - 1);
}

/// Bytes one OUTPUT takes in its task's block: numel * elem rounded up to 1024.
inline constexpr uint64_t OutputSlotBytes(uint64_t nbytes) { return AlignUp(nbytes, 1024); }

/// Ring heaps: ring r occupies [heap_base + r * ring_size, + ring_size); each is a bump
/// allocator with 64-byte block alignment. Exhaustion is reported, never wrapped.
class RingHeaps {
 public:
  static constexpr int kRings = 4;

  RingHeaps(uint64_t heap_base, uint64_t ring_size) : base_(heap_base), ring_size_(ring_size) {}

  /// Allocates a block of `bytes` on `ring`; false if the ring heap cannot hold it. O(1).
  bool Allocate(int ring, uint64_t bytes, uint64_t* addr) {
    const uint64_t offset = AlignUp(used_[ring], 64);
    if (offset > ring_size_ || bytes > ring_size_ - offset) return false;
    *addr = base_ + static_cast<uint64_t>(ring) * ring_size_ + offset;
    used_[ring] = offset + bytes;
    return true;
  }
  /// Bytes used on `ring` so far.
  uint64_t used(int ring) const { return used_[ring]; }
  /// First address of `ring`'s heap.
  uint64_t ring_base(int ring) const { return base_ + static_cast<uint64_t>(ring) * ring_size_; }

 private:
  uint64_t base_;
  uint64_t ring_size_;
  uint64_t used_[kRings] = {0, 0, 0, 0};
};

/// Addresses for entry (external) tensors: 1 KiB aligned, consecutive, in [begin, end).
class EntryAddresses {
 public:
  EntryAddresses(uint64_t begin, uint64_t end) : next_(begin), end_(end) {}
  /// A fresh range of `bytes` (0 for an empty tensor, as the runtime stages it); false when
  /// the range is exhausted. O(1).
  bool Allocate(uint64_t bytes, uint64_t* addr) {
    if (bytes == 0) {
      *addr = 0;
      return true;
    }
    const uint64_t size = AlignUp(bytes, 1024);
    if (next_ > end_ || size > end_ - next_) return false;
    *addr = next_;
    next_ += size;
    return true;
  }

 private:
  uint64_t next_;
  uint64_t end_;
};

}  // namespace depgraph::shim
