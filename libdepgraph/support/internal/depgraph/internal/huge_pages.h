// Large arrays on transparent huge pages. Fresh memory is paid for at first touch, one fault
// and one zeroed page at a time; where the kernel gives huge pages only to memory that asks
// (THP "madvise" mode, the Debian default), a 2 MiB page replaces 512 of those faults. The
// tools also ask for the whole heap at start (process_memory.h), but a library loaded into
// someone else's process (the Python module) cannot, so the big arrays ask for themselves.
#pragma once

#include <cstddef>
#include <exception>
#include <vector>

namespace depgraph {

/// Smallest allocation worth advising, in bytes: any 4 MiB span holds a whole 2 MiB page;
/// below it the unaligned ends are most of the array.
inline constexpr size_t kHugePageAdviceMinBytes = size_t{4} << 20;

/// Asks for transparent huge pages on the whole 2 MiB pages inside [data, data + bytes), if
/// the platform has them and bytes >= kHugePageAdviceMinBytes; advice only, never fails.
/// Call it before the memory is first written. O(1) (one madvise).
void AdviseHugePages(const void* data, size_t bytes);

/// Reserves room for `n` elements and advises the capacity for huge pages; if the address
/// space cannot be had (an estimate may be far too high), leaves `v` as it was and it grows as
/// usual. Capacity never written costs no memory. O(size) when it reallocates.
template <typename T>
void ReserveLarge(std::vector<T>* v, size_t n) {
  if (n <= v->capacity()) return;
  try {
    v->reserve(n);
  } catch (const std::exception&) {  // std::bad_alloc, std::length_error
    return;
  }
  AdviseHugePages(v->data(), v->capacity() * sizeof(T));
}

/// A vector of `n` copies of `value`, its storage advised for huge pages before it is
/// written; for the transient arrays of algorithms over whole graphs. O(n).
template <typename T>
std::vector<T> LargeVector(size_t n, const T& value = T()) {
  std::vector<T> v;
  v.reserve(n);
  AdviseHugePages(v.data(), n * sizeof(T));
  v.assign(n, value);
  return v;
}

}  // namespace depgraph
