// Echoing user-controlled text (ids, keys, names, paths, command-line values) inside one-line
// error messages, so that no input can break a message over lines or reach a terminal raw.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace depgraph {

/// Longest input QuoteForMessage shows by default, in bytes; longer text ends in "...".
inline constexpr size_t kMessageQuoteMaxBytes = 64;

/// `text` in double quotes, safe to print on one line: `"` and `\` are backslash-escaped,
/// \n \r \t as such, other C0 controls, DEL, C1 controls and the bidirectional-override
/// characters as \u00XX / \uXXXX, and bytes that are not well-formed UTF-8 as \xNN; other
/// UTF-8 passes through. At most `max_bytes` of `text` are shown (cut at a character boundary,
/// then `...` after the closing quote). O(min(|text|, max_bytes)).
std::string QuoteForMessage(std::string_view text, size_t max_bytes = kMessageQuoteMaxBytes);

/// `text` unquoted with the same escapes except that `"` and `\` stay as they are, for file
/// paths that prefix a message ("deps.json: ..."): plain text is returned unchanged, and a
/// control character or an ill-formed byte can no longer break the line. O(|text|).
std::string EscapeForMessage(std::string_view text);

/// The JSON path of member `key` of the value at `parent`, for messages: `parent.key` when
/// `key` is a plain identifier ([A-Za-z0-9_-]+; just `key` when `parent` is empty), else
/// `parent[QuoteForMessage(key)]`, e.g. `tensors[0]["na\nme"]`. O(|parent| + |key|).
std::string JsonPathMember(std::string_view parent, std::string_view key);

}  // namespace depgraph
