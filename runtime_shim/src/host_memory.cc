#include "host_memory.h"

#include <algorithm>

namespace depgraph::shim {

namespace {

// The range of `ranges` (sorted by `key`) containing `value`, or nullptr.
template <typename Key>
const auto* Containing(const std::vector<Key>& ranges, uint64_t value, bool by_host) {
  auto key_of = [by_host](const Key& r) { return by_host ? uint64_t{r.host} : r.addr; };
  auto it = std::upper_bound(ranges.begin(), ranges.end(), value,
                             [&](uint64_t v, const Key& r) { return v < key_of(r); });
  if (it == ranges.begin()) return static_cast<const Key*>(nullptr);
  --it;
  if (value - key_of(*it) >= it->size) return static_cast<const Key*>(nullptr);
  return &*it;
}

}  // namespace

bool HostMemory::Register(uint64_t addr, void* data, uint64_t size) {
  const auto host = reinterpret_cast<uintptr_t>(data);
  if (size == 0 || data == nullptr) return false;
  for (const Range& r : by_addr_) {
    if (addr < r.addr + r.size && r.addr < addr + size) return false;
    if (host < r.host + r.size && r.host < host + size) return false;
  }
  const Range range{addr, host, size};
  by_addr_.insert(std::upper_bound(by_addr_.begin(), by_addr_.end(), range,
                                   [](const Range& a, const Range& b) { return a.addr < b.addr; }),
                  range);
  by_host_.insert(std::upper_bound(by_host_.begin(), by_host_.end(), range,
                                   [](const Range& a, const Range& b) { return a.host < b.host; }),
                  range);
  return true;
}

void* HostMemory::HostPointer(uint64_t addr) const {
  const Range* r = Containing(by_addr_, addr, false);
  return r ? reinterpret_cast<void*>(r->host + (addr - r->addr)) : nullptr;
}

void* HostMemory::HostRange(uint64_t addr, uint64_t bytes) const {
  const Range* r = Containing(by_addr_, addr, false);
  if (r == nullptr || bytes > r->size - (addr - r->addr)) return nullptr;
  return reinterpret_cast<void*>(r->host + (addr - r->addr));
}

bool HostMemory::DeviceAddress(const void* pointer, uint64_t* addr) const {
  const auto host = reinterpret_cast<uintptr_t>(pointer);
  const Range* r = Containing(by_host_, host, true);
  if (r == nullptr) return false;
  *addr = r->addr + (host - r->host);
  return true;
}

}  // namespace depgraph::shim
