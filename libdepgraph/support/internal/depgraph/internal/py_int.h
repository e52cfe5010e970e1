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

/// The common case of both, for what runtimes write: 1 to 20 ASCII digits and nothing else,
/// as a uint64. False for anything else or a value >= 2^64 (then call the exact functions).
/// O(length), inline.
inline bool PlainDecimal(std::string_view text, uint64_t* value) {
  if (text.empty() || text.size() > 20) return false;
  uint64_t v = 0;
  const size_t safe = text.size() < 19 ? text.size() : 19;  // 19 digits cannot overflow
  for (size_t i = 0; i < safe; ++i) {
    const unsigned digit = static_cast<unsigned char>(text[i]) - static_cast<unsigned>('0');
    if (digit > 9) return false;
    v = v * 10 + digit;
  }
  if (text.size() == 20) {
    const unsigned digit = static_cast<unsigned char>(text[19]) - static_cast<unsigned>('0');
    if (digit > 9 || __builtin_mul_overflow(v, 10, &v) || __builtin_add_overflow(v, digit, &v)) {
      return false;
    }
  }
  *value = v;
  return true;
}

/// Normalises to a 64-bit id as the viewer does: negatives wrap modulo 2^64; values >= 2^64
/// are rejected (returns false), where the Python tool would keep a distinct big integer.
inline bool ToTaskId(const PyInt& value, uint64_t* id) {
  if (value.status != PyInt::kOk) return false;
  if (value.value >= (static_cast<__int128>(1) << 64)) return false;
  *id = static_cast<uint64_t>(value.value);  // conversion to unsigned is modulo 2^64
  return true;
}
/// Clamps to int64 for small fields (arg, idx, kernel ids); false if out of range.
inline bool ToInt64(const PyInt& value, int64_t* out) {
  if (value.status != PyInt::kOk) return false;
  if (value.value > INT64_MAX || value.value < INT64_MIN) return false;
  *out = static_cast<int64_t>(value.value);
  return true;
}

}  // namespace depgraph
