#include "depgraph/support/utf8.h"

namespace depgraph {

size_t DecodeUtf8(std::string_view bytes, uint32_t* code_point) {
  if (bytes.empty()) return 0;
  const auto byte = [&](size_t i) { return static_cast<unsigned char>(bytes[i]); };
  const unsigned char lead = byte(0);
  if (lead < 0x80) {
    *code_point = lead;
    return 1;
  }
  size_t length = 0;
  uint32_t cp = 0;
  // The second byte's range excludes overlong forms, surrogates and values above U+10FFFF
  // (RFC 3629 section 4); later continuation bytes are 0x80..0xBF.
  unsigned char low = 0x80, high = 0xBF;
  if (lead >= 0xC2 && lead <= 0xDF) {
    length = 2;
    cp = lead & 0x1F;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    length = 3;
    cp = lead & 0x0F;
    if (lead == 0xE0) low = 0xA0;
    if (lead == 0xED) high = 0x9F;
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    length = 4;
    cp = lead & 0x07;
    if (lead == 0xF0) low = 0x90;
    if (lead == 0xF4) high = 0x8F;
  } else {
    return 0;
  }
  if (bytes.size() < length) return 0;
  for (size_t i = 1; i < length; ++i) {
    const unsigned char c = byte(i);
    if (c < low || c > high) return 0;
    low = 0x80;
    high = 0xBF;
    cp = (cp << 6) | (c & 0x3F);
  }
  *code_point = cp;
  return length;
}

size_t FindInvalidUtf8(std::string_view bytes) {
  size_t pos = 0;
  while (pos < bytes.size()) {
    if (static_cast<unsigned char>(bytes[pos]) < 0x80) {
      ++pos;
      continue;
    }
    uint32_t cp;
    const size_t length = DecodeUtf8(bytes.substr(pos), &cp);
    if (length == 0) return pos;
    pos += length;
  }
  return pos;
}

}  // namespace depgraph
