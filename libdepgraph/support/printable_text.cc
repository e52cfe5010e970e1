#include "depgraph/support/printable_text.h"

#include <cstdint>

namespace depgraph {

namespace {

void AppendEscape(unsigned char byte, std::string* out) {
  static constexpr char kHex[] = "0123456789abcdef";
  *out += "\\x";
  out->push_back(kHex[byte >> 4]);
  out->push_back(kHex[byte & 15]);
}

// Length of the valid UTF-8 sequence at text[i] (lead byte >= 0x80) and its code point; 0 when
// the bytes are no valid sequence (overlong forms, surrogates and values above U+10FFFF too).
size_t Utf8Sequence(std::string_view text, size_t i, uint32_t* code) {
  const auto b = static_cast<unsigned char>(text[i]);
  size_t len = 0;
  uint32_t c = 0, min = 0;
  if (b >= 0xc2 && b <= 0xdf) {
    len = 2, c = b & 0x1f, min = 0x80;
  } else if (b >= 0xe0 && b <= 0xef) {
    len = 3, c = b & 0x0f, min = 0x800;
  } else if (b >= 0xf0 && b <= 0xf4) {
    len = 4, c = b & 0x07, min = 0x10000;
  } else {
    return 0;
  }
  if (i + len > text.size()) return 0;
  for (size_t k = 1; k < len; ++k) {
    const auto cont = static_cast<unsigned char>(text[i + k]);
    if ((cont & 0xc0) != 0x80) return 0;
    c = (c << 6) | (cont & 0x3f);
  }
  if (c < min || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff)) return 0;
  *code = c;
  return len;
}

}  // namespace

std::string PrintableText(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size();) {
    const auto b = static_cast<unsigned char>(text[i]);
    if (b < 0x80) {
      if (b < 0x20 || b == 0x7f) {
        AppendEscape(b, &out);
      } else {
        out.push_back(static_cast<char>(b));
      }
      ++i;
      continue;
    }
    uint32_t code = 0;
    const size_t len = Utf8Sequence(text, i, &code);
    if (len == 0) {  // not UTF-8: only the bytes an 8-bit terminal takes for C1 are escaped
      if (b <= 0x9f) {
        AppendEscape(b, &out);
      } else {
        out.push_back(static_cast<char>(b));
      }
      ++i;
      continue;
    }
    for (size_t k = 0; k < len; ++k) {
      if (code <= 0x9f) {
        AppendEscape(static_cast<unsigned char>(text[i + k]), &out);
      } else {
        out.push_back(text[i + k]);
      }
    }
    i += len;
  }
  return out;
}

}  // namespace depgraph
