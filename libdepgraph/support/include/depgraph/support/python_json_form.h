// Recognising text that is already in the form Python's json.dumps(indent=2,
// ensure_ascii=False) writes (AppendPythonJsonDump), so that a rewriter may copy it instead of
// parsing it into a DOM and writing it again: the merged trace's events.
#pragma once

#include <cstddef>
#include <string_view>

namespace depgraph {

/// Where the value of one top-level member lies in a text MatchPythonIndentedJson accepted.
struct JsonMemberSpan {
  bool found = false;
  size_t begin = 0;  ///< offset of the value's first byte in the text
  size_t end = 0;    ///< offset just past its last byte
};

/// True iff `text` is one JSON value, byte for byte what AppendPythonJsonDump(value, 2, out,
/// level) writes for the value ParseJsonDocument reads from it (so it is valid JSON: the match
/// checks strings, numbers and nesting as it goes, see below). Conservative: a string
/// with any escape, an integer of more than 18 digits and an object with a repeated key answer
/// false (the caller then takes the DOM path), as does anything not in that form. When `text`
/// is an object, spans[i] receives where the value of its member `keys[i]` lies (found = false
/// when absent). O(|text|): one pass, a float repr per non-integer number.
bool MatchPythonIndentedJson(std::string_view text, int level, const std::string_view* keys,
                             size_t key_count, JsonMemberSpan* spans);

/// The same match for a value at the start of `text` (what follows it is not looked at). The
/// syntax is checked as the form is (strings well-formed UTF-8 without control characters,
/// number tokens as RFC 8259 has them, at most 64 levels of nesting), so text nobody has
/// checked may be given. Returns the value's length, or 0 when it is not in the form or not
/// valid (the caller then reads it with a JsonReader, which says what is wrong). Spans as
/// above. O(length of the value), one scan: no reader needs to skip it first.
size_t MatchPythonIndentedJsonPrefix(std::string_view text, int level,
                                     const std::string_view* keys, size_t key_count,
                                     JsonMemberSpan* spans);

}  // namespace depgraph
