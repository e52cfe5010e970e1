// UTF-8 well-formedness (RFC 3629): the one decoder the JSON reader and the message quoting use.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace depgraph {

/// Decodes the UTF-8 sequence at the start of `bytes`. Returns its length (1 to 4) and sets
/// *code_point, or returns 0 when `bytes` is empty or starts with an ill-formed sequence: a
/// stray continuation byte, C0/C1/F5..FF, an overlong form, a UTF-16 surrogate (U+D800..U+DFFF),
/// a code point above U+10FFFF, or a sequence cut short. O(1).
size_t DecodeUtf8(std::string_view bytes, uint32_t* code_point);

/// Byte offset of the first ill-formed sequence in `bytes`, or bytes.size() if it is all
/// well-formed UTF-8. O(|bytes|).
size_t FindInvalidUtf8(std::string_view bytes);

}  // namespace depgraph
