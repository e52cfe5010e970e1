// Small helpers for writing JSON text by hand (the reports stream; no DOM is built).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace depgraph {

/// Appends `text` as a JSON string literal (quotes, backslash escapes, \u00XX for control
/// characters; other bytes pass through, so UTF-8 stays UTF-8). O(|text|).
void AppendJsonString(std::string* out, std::string_view text);

/// Like AppendJsonString, with `<`, `>` and `&` also \u-escaped, so the literal is safe inside
/// an HTML <script> element (no `</script>`, no `<!--`). O(|text|).
void AppendScriptSafeJsonString(std::string* out, std::string_view text);

/// `text` as a JSON string literal. O(|text|).
std::string JsonString(std::string_view text);

/// A 64-bit id or address as a quoted decimal string, the runtime's convention for u64.
std::string JsonId(uint64_t value);

}  // namespace depgraph
