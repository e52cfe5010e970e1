// Python int() semantics for JSON scalars, as the reference viewer coerces ids and numbers.
#pragma once

#include <cstdint>
#include <string_view>

namespace depgraph {

/// Result of coercing one JSON scalar the way Python's int() would.
struct PyInt {
  enum Status : uint8_t {
    kOk,
    kInvalid,   ///< int() would raise (e.g. "0x10", "1.5", "", null)
    kOverflow,  ///< a valid integer too large to hold (|v| >= 2^127)
  };
  Status status = kInvalid;
  __int128 value = 0;
};

/// int() of a JSON number token: integers exactly, other numbers truncated toward zero.
PyInt PyIntFromNumber(std::string_view token);
/// int() of a JSON string: base 10, surrounding whitespace, one leading sign and single `_`
/// separators between digits allowed. O(length).
PyInt PyIntFromString(std::string_view text);
/// int() of true / false.
inline PyInt PyIntFromBool(bool value) { return PyInt{PyInt::kOk, value ? 1 : 0}; }

/// Normalises to a 64-bit id as the viewer does: negatives wrap modulo 2^64; values >= 2^64
/// are rejected (returns false), where the Python tool would keep a distinct big integer.
bool ToTaskId(const PyInt& value, uint64_t* id);
/// Clamps to int64 for small fields (arg, idx, kernel ids); false if out of range.
bool ToInt64(const PyInt& value, int64_t* out);

}  // namespace depgraph
