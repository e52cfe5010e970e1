#include "dim_interner.h"

#include <algorithm>
#include <cstring>

namespace depgraph {
namespace {

uint64_t HashList(const int64_t* values, uint16_t size) {
  uint64_t h = 0x9E3779B97F4A7C15ull ^ size;
  for (uint16_t i = 0; i < size; ++i) {
    h = (h ^ static_cast<uint64_t>(values[i])) * 0xBF58476D1CE4E5B9ull;
    h ^= h >> 31;
  }
  return h;
}

}  // namespace

void DimInterner::Clear() {
  std::fill(slots_.begin(), slots_.end(), 0);
  lists_.clear();
  hashes_.clear();
}

void DimInterner::Grow() {
  const size_t capacity = slots_.empty() ? 1024 : slots_.size() * 2;
  slots_.assign(capacity, 0);
  const size_t mask = capacity - 1;
  for (size_t k = 0; k < lists_.size(); ++k) {
    size_t at = hashes_[k] & mask;
    while (slots_[at] != 0) at = (at + 1) & mask;
    slots_[at] = static_cast<uint32_t>(k + 1);
  }
}

uint32_t DimInterner::Intern(const std::vector<int64_t>& dims, uint32_t start, uint16_t size) {
  const int64_t* values = dims.data() + start;
  const uint64_t hash = HashList(values, size);
  if (slots_.empty()) Grow();
  const size_t mask = slots_.size() - 1;
  size_t at = hash & mask;
  for (; slots_[at] != 0; at = (at + 1) & mask) {
    const size_t k = slots_[at] - 1;
    const auto [offset, length] = lists_[k];
    if (hashes_[k] == hash && length == size &&
        std::memcmp(dims.data() + offset, values, size * sizeof(int64_t)) == 0) {
      return offset;
    }
  }
  lists_.emplace_back(start, size);
  hashes_.push_back(hash);
  slots_[at] = static_cast<uint32_t>(lists_.size());
  if (lists_.size() * 2 > slots_.size()) Grow();
  return start;
}

}  // namespace depgraph
