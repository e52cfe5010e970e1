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

/// True iff `text`, one JSON value valid per RFC 8259 (e.g. skipped by JsonReader::SkipValue,
/// which checks its syntax and UTF-8), is byte for byte what AppendPythonJsonDump(value, 2,
/// out, level) writes for the value ParseJsonDocument reads from it. Conservative: a string
/// with any escape, an integer of more than 18 digits and an object with a repeated key answer
/// false (the caller then takes the DOM path), as does anything not in that form. When `text`
/// is an object, spans[i] receives where the value of its member `keys[i]` lies (found = false
/// when absent). O(|text|): one pass, a float repr per non-integer number.
bool MatchPythonIndentedJson(std::string_view text, int level, const std::string_view* keys,
                             size_t key_count, JsonMemberSpan* spans);

}  // namespace depgraph
