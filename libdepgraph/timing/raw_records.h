// A records file (`chip_swimlane_records.json`) read the way the reference readers read it:
// the two row arrays streamed into a compact form, every other member kept as an ordered DOM,
// and Python's int() / truthiness of the values. Shared by the perf sidecar and the swimlane
// reader; private to libdepgraph's timing library.
#pragma once

#include <cstdint>
#include <deque>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace depgraph {

using nlohmann::ordered_json;

// The rows of `aicore_tasks` or `aicpu_tasks` as read. A row of plain integers (what the
// collector writes) keeps its first six cells compactly; any other row (a cell that is no
// plain integer, a row that is no array) keeps its whole value as a DOM in `odd`. Runtime
// captures hold millions of rows, where a DOM would cost ~10x the memory and time.
struct RawRow {
  int64_t cells[6] = {0, 0, 0, 0, 0, 0};
  uint32_t size = 0;          ///< elements of the row (compact rows)
  uint8_t unsigned_mask = 0;  ///< compact cells that hold a uint64 above INT64_MAX
  int32_t odd = -1;           ///< index into RawRows::odd, or -1 for a compact row
};
struct RawRows {
  bool is_array = false;       ///< the key held an array: `rows` (else `value`, maybe null)
  std::deque<RawRow> rows;     ///< a deque: millions of rows grow without being copied
  std::vector<ordered_json> odd;
  ordered_json value;

  /// Rows held (0 when the key did not hold an array). O(1).
  size_t count() const { return is_array ? rows.size() : 0; }
  /// Whether row i is an array, and its length. O(1).
  bool IsArray(size_t i) const {
    return rows[i].odd < 0 || odd[static_cast<size_t>(rows[i].odd)].is_array();
  }
  size_t Size(size_t i) const {
    return rows[i].odd < 0 ? rows[i].size : odd[static_cast<size_t>(rows[i].odd)].size();
  }
  /// The DOM of a row that is not compact (rows[i].odd >= 0).
  const ordered_json& Odd(size_t i) const { return odd[static_cast<size_t>(rows[i].odd)]; }
};

// The document with the two row arrays streamed and everything else in a DOM.
struct RawDocument {
  ordered_json rest = ordered_json::object();  ///< every other member (last one wins)
  RawRows aicore, aicpu;
};

/// A JSON integer token without fraction or exponent that fits 64 bits, signed or not.
bool PlainInteger(std::string_view token, int64_t* value, bool* is_unsigned);

/// The DOM of compact cell k of `row`.
ordered_json CellJson(const RawRow& row, size_t k);

/// "key[i]", for messages.
std::string RowPath(std::string_view key, size_t i);

/// Reads the whole document: syntax errors anywhere come first, as json.load raises them
/// before the reader looks at anything. False with the message ("line L:column C: ...") in
/// *err; *top_level_object says whether the top level is an object (else doc->rest holds the
/// value). O(|text|).
bool ReadRawDocument(std::string_view text, RawDocument* doc, bool* top_level_object,
                     std::string* err);

/// Python's truthiness of a JSON value (`x or default`). O(1).
bool Truthy(const ordered_json& v);

/// Member `key` of an object, or nullptr (dict.get). O(members).
const ordered_json* Member(const ordered_json& object, std::string_view key);

/// What Python's int() makes of a JSON value (PyIntOfJsonValue).
enum class PyIntOutcome {
  kOk,          ///< a value
  kOutOfRange,  ///< a float that is not finite or at least 8.5e37, a string beyond 2^126
  kBadLiteral,  ///< a string int() rejects (a ValueError)
  kWrongType,   ///< null, an array or an object (a TypeError)
};

/// Python int() of a JSON value: integers exactly, floats truncated, booleans 0/1, strings as
/// int() parses them; callers word the failures. O(size).
PyIntOutcome PyIntOfJsonValue(const ordered_json& v, __int128* value);

/// PyIntOfJsonValue with the failure worded: false with the reason in *why ("expected an integer, got null", "invalid
/// literal for int(): \"x\"", "out of range" beyond 2^126) when int() would raise. O(size).
bool PyIntOfJson(const ordered_json& v, __int128* value, std::string* why);

/// int() of cell k of row i (k < rows.Size(i)); *why as PyIntOfJson. O(1).
bool RawCellInt(const RawRows& rows, size_t i, size_t k, __int128* value, std::string* why);

/// Python's str() of a JSON value: a string as it is, integers in decimal, floats as repr(),
/// True / False / None, lists and objects as Python prints them (`[1, 'a']`, `{'k': None}`;
/// strings inside quoted as repr() quotes them, non-ASCII characters other than C1 controls,
/// U+00A0 and U+00AD taken as printable). O(size).
std::string PyStrOfJson(const ordered_json& v);

/// Decimal text of a 128-bit integer. O(digits).
std::string Int128Text(__int128 v);

}  // namespace depgraph
