// Interning of the dimension lists (shapes, strides) that a deps.json load stores in
// DepGraph::dims. Private to the library.
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace depgraph {

/// Remembers the distinct lists of a `dims` vector so that equal lists share one offset.
/// Captures repeat a handful of shapes and strides millions of times (a 1 M-task decode
/// capture: 35.6 M stored elements, 285 MB, of a few hundred distinct lists), so a load keeps
/// one copy of each. Lists are interned in the order they are read, which makes the offsets
/// the same whether a document is read in one pass or in blocks committed in file order.
/// Memory: about 24 bytes per distinct list (the list, its hash, two table slots).
class DimInterner {
 public:
  /// Forgets every list; keeps the table's capacity. O(capacity).
  void Clear();
  /// The list just appended at dims[start, start + size) (size >= 1): the offset of an equal
  /// list interned before, or `start` when it is new (it is then remembered). The caller
  /// truncates `dims` back to `start` when the result differs. O(size) expected.
  uint32_t Intern(const std::vector<int64_t>& dims, uint32_t start, uint16_t size);
  /// The distinct lists in the order they were first interned, as (offset, size). O(1).
  const std::vector<std::pair<uint32_t, uint16_t>>& lists() const { return lists_; }

 private:
  void Grow();

  // Slot: the list's index in lists_ plus one; 0 = empty.
  std::vector<uint32_t> slots_;
  std::vector<std::pair<uint32_t, uint16_t>> lists_;
  std::vector<uint64_t> hashes_;  // per list
};

}  // namespace depgraph
