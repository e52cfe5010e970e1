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

/// Appends `text` as Python's json.dumps(ensure_ascii=False) writes a string: `"` and `\`
/// backslash-escaped, \b \f \n \r \t as such, other characters below U+0020 as \u00XX (lower
/// case hex), everything else (non-ASCII included) raw. O(|text|).
void AppendPythonJsonString(std::string* out, std::string_view text);

/// Appends `text` (well-formed UTF-8) as Python's json.dumps with the default
/// ensure_ascii=True writes a string: `"` and `\` backslash-escaped, \b \f \n \r \t as such,
/// every other character outside printable ASCII (U+0020..U+007E) as \uXXXX in lower-case
/// hex, characters beyond U+FFFF as a surrogate pair. O(|text|).
void AppendPythonJsonStringAscii(std::string* out, std::string_view text);

/// Appends PythonFloatRepr(value) without building a temporary string. O(1).
void AppendPythonFloatRepr(std::string* out, double value);

/// Python's repr() of a double: the shortest digits that read back to `value`, plain notation
/// with at least one fractional digit when the decimal exponent is in [-4, 16) (`0.0`,
/// `0.0001`, `1234567.0`), else `d[.ddd]e+XX` with at least two exponent digits (`1e-05`,
/// `1e+16`); `-0.0` keeps its sign; `inf`, `-inf`, `nan` for non-finite values (json.dumps
/// writes those `Infinity`, `-Infinity`, `NaN`: see AppendPythonJsonNumber). O(1).
std::string PythonFloatRepr(double value);

/// Appends a double as json.dumps writes it: PythonFloatRepr, with `Infinity`, `-Infinity` and
/// `NaN` for the non-finite values. O(1).
void AppendPythonJsonFloat(std::string* out, double value);

}  // namespace depgraph
