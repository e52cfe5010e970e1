// Cutting one large JSON array into blocks that begin between elements, without parsing it:
// the sequential step of the parallel deps.json load (parallel_load.h).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

namespace depgraph {

/// Where a structural scan stands after some byte: nesting depth relative to the scan's start,
/// and whether it is inside a string, right after an escaping backslash.
struct ScanState {
  int64_t depth = 1;  ///< 1 = directly inside the array being split
  bool in_string = false;
  bool escaped = false;
};

/// The bytes [begin, end) of one block of an array, as separators (see ArraySplitter).
struct BlockBounds {
  size_t begin = 0;  ///< block 0: the array's '['; later blocks: a ',' between elements
  size_t end = 0;    ///< a ',', the closing bracket, or the input size if none was found
};

/// Splits the elements of one JSON array into blocks of about `block_bytes` bytes whose
/// boundaries are separators between elements, so that blocks can be parsed independently
/// and their results concatenated in order.
///
/// Separator 0 is the array's '['. Separator j >= 1 is the first ',' at the array's own
/// level, or the array's closing bracket, found at or after byte open + 1 + j * block_bytes
/// (the input size if the input ends first). Block j holds the elements between separator j
/// and separator j + 1; it is empty when both are the same ',' (an element longer than a
/// block). The scan follows strings, escapes and nesting only; it reads no value. On valid
/// JSON the separators are exactly positions a sequential parser passes between elements.
/// On malformed input they are only hints: a block parser that does not end exactly at its
/// block's end has met an error or a wrong cut, and the caller must fall back to a sequential
/// parse from the last block that did.
///
/// Not thread-safe: calls must be serialised. Blocks are found in order, each one scanned
/// once: O(array bytes) in total, about 64 bytes per step (SSE2) outside the few bytes after
/// each block start, which are scanned byte by byte. Memory: one position per block.
class ArraySplitter {
 public:
  /// Copies input bytes [offset, offset + length) to dest; false on failure.
  using ByteReader = std::function<bool(size_t offset, size_t length, char* dest)>;

  /// Input byte `open` is the array's '['; `size` is the whole input's size. The scan reads
  /// copies that `read` makes into a window of `window_bytes`, never the input itself
  /// (JsonReader::ReadAt: cheaper than a first touch of a mapped file's pages). Bytes the
  /// reader cannot give end the array there: the parse of that block fails and the caller's
  /// sequential parse reports what is wrong. Memory: the window.
  ArraySplitter(ByteReader read, size_t size, size_t open, size_t block_bytes,
                size_t window_bytes = size_t{1} << 20);
  /// The same over `data` (tests), copied into a window as large as the input.
  ArraySplitter(const char* data, size_t size, size_t open, size_t block_bytes);

  /// Bounds of block j in *bounds and true, or false when there is no block j (the array
  /// ended in an earlier one). Blocks must be asked for in increasing order of j, with gaps
  /// allowed. O(bytes scanned to find the separators not yet known).
  bool Block(size_t j, BlockBounds* bounds);

  /// Where the scan would go next: every byte before it has been read. O(1).
  size_t scanned() const { return scan_pos_; }

 private:
  // Finds separator `separators_.size()`: appends it, or marks the array closed.
  void FindNextSeparator();
  // A pointer p with p[i] readable for every i in [from, to) (to - from <= chunk_): the window,
  // after copying at least [from, to) into it if need be; nullptr if the copy failed.
  const char* Bytes(size_t from, size_t to);

  ByteReader read_;
  std::vector<char> window_;
  size_t window_begin_ = 0;  // window_ holds input bytes [window_begin_, window_end_)
  size_t window_end_ = 0;
  size_t chunk_;             // the window's size: most bytes one Bytes() call may ask for
  size_t size_;
  size_t first_;  // first byte inside the array
  size_t block_bytes_;
  size_t scan_pos_;
  ScanState state_;
  std::vector<size_t> separators_;  // separator j at index j
  bool closed_ = false;             // separators_.back() is the array's end
};

/// Advances `state` over data[begin, end) one byte at a time. When `find_comma`, stops at the
/// first ',' at depth 1; always stops where the depth drops to 0 (the array's closing
/// bracket). Returns that position, or `end`. The reference for the 64-byte steps; O(end -
/// begin).
size_t ScanBytes(const char* data, size_t begin, size_t end, bool find_comma, ScanState* state);

/// Advances `state` over data[begin, end) 64 bytes at a time, stopping (like ScanBytes) where
/// the depth drops to 0. Returns that position, or `end`. Same result as ScanBytes with
/// find_comma false on any input without a backslash outside strings (all valid JSON).
/// O(end - begin).
size_t ScanStructure(const char* data, size_t begin, size_t end, ScanState* state);

}  // namespace depgraph
