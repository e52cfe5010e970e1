#include "depgraph/internal/message_quote.h"

#include <cstdint>
#include <cstdio>

#include "depgraph/support/utf8.h"

namespace depgraph {

namespace {

/// True for code points a terminal may act on or that reorder the text around them: C0
/// controls, DEL, C1 controls (CSI is U+009B), the bidirectional marks, embeddings,
/// overrides and isolates, and the line/paragraph separators.
bool NeedsEscape(uint32_t cp) {
  return cp < 0x20 || (cp >= 0x7F && cp <= 0x9F) || cp == 0x200E || cp == 0x200F ||
         (cp >= 0x2028 && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069);
}

/// Appends `text`, escaped; `quote_syntax` also escapes '"' and '\'. Stops before the
/// character that would take the input past `max_bytes`; returns the bytes consumed.
size_t AppendEscaped(std::string* out, std::string_view text, size_t max_bytes, bool quote_syntax) {
  size_t pos = 0;
  char buf[16];
  while (pos < text.size()) {
    uint32_t cp = 0;
    size_t length = DecodeUtf8(text.substr(pos), &cp);
    if (pos + (length == 0 ? 1 : length) > max_bytes) break;
    if (length == 0) {
      std::snprintf(buf, sizeof buf, "\\x%02X", static_cast<unsigned char>(text[pos]));
      *out += buf;
      pos += 1;
      continue;
    }
    if (quote_syntax && (cp == '"' || cp == '\\')) {
      *out += '\\';
      *out += static_cast<char>(cp);
    } else if (cp == '\n') {
      *out += "\\n";
    } else if (cp == '\r') {
      *out += "\\r";
    } else if (cp == '\t') {
      *out += "\\t";
    } else if (NeedsEscape(cp)) {
      std::snprintf(buf, sizeof buf, "\\u%04X", static_cast<unsigned>(cp));
      *out += buf;
    } else {
      out->append(text.substr(pos, length));
    }
    pos += length;
  }
  return pos;
}

}  // namespace

std::string QuoteForMessage(std::string_view text, size_t max_bytes) {
  std::string out = "\"";
  const size_t consumed = AppendEscaped(&out, text, max_bytes, /*quote_syntax=*/true);
  out += '"';
  if (consumed < text.size()) out += "...";
  return out;
}

std::string EscapeForMessage(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  AppendEscaped(&out, text, text.size(), /*quote_syntax=*/false);
  return out;
}

std::string JsonPathMember(std::string_view parent, std::string_view key) {
  bool plain = !key.empty();
  for (char c : key) {
    const bool word = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                      c == '_' || c == '-';
    if (!word) plain = false;
  }
  std::string out(parent);
  if (!plain) return out + "[" + QuoteForMessage(key) + "]";
  if (!out.empty()) out += '.';
  return out.append(key);
}

}  // namespace depgraph
