#include "depgraph/support/json_writer.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace depgraph {

namespace {

void AppendEscaped(std::string* out, std::string_view text, bool script_safe) {
  out->push_back('"');
  for (char c : text) {
    const bool markup = c == '<' || c == '>' || c == '&';
    if (c == '"' || c == '\\') {
      out->push_back('\\');
      out->push_back(c);
    } else if (c == '\n') {
      out->append("\\n");
    } else if (static_cast<unsigned char>(c) < 0x20 || (script_safe && markup)) {
      char hex[8];
      std::snprintf(hex, sizeof hex, "\\u%04x", static_cast<unsigned>(static_cast<unsigned char>(c)));
      out->append(hex);
    } else {
      out->push_back(c);
    }
  }
  out->push_back('"');
}

}  // namespace

void AppendJsonString(std::string* out, std::string_view text) {
  AppendEscaped(out, text, /*script_safe=*/false);
}

void AppendScriptSafeJsonString(std::string* out, std::string_view text) {
  AppendEscaped(out, text, /*script_safe=*/true);
}

std::string JsonString(std::string_view text) {
  std::string out;
  AppendJsonString(&out, text);
  return out;
}

std::string JsonId(uint64_t value) { return "\"" + std::to_string(value) + "\""; }

void AppendPythonJsonString(std::string* out, std::string_view text) {
  out->push_back('"');
  for (char c : text) {
    switch (c) {
      case '"': out->append("\\\""); break;
      case '\\': out->append("\\\\"); break;
      case '\b': out->append("\\b"); break;
      case '\f': out->append("\\f"); break;
      case '\n': out->append("\\n"); break;
      case '\r': out->append("\\r"); break;
      case '\t': out->append("\\t"); break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char hex[8];
          std::snprintf(hex, sizeof hex, "\\u%04x",
                        static_cast<unsigned>(static_cast<unsigned char>(c)));
          out->append(hex);
        } else {
          out->push_back(c);
        }
    }
  }
  out->push_back('"');
}

void AppendPythonJsonStringAscii(std::string* out, std::string_view text) {
  static const char kHex[] = "0123456789abcdef";
  const auto escape = [&](uint32_t unit) {
    const char buf[6] = {'\\', 'u', kHex[(unit >> 12) & 15], kHex[(unit >> 8) & 15],
                         kHex[(unit >> 4) & 15], kHex[unit & 15]};
    out->append(buf, 6);
  };
  out->push_back('"');
  const size_t n = text.size();
  for (size_t i = 0; i < n;) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    if (c >= 0x20 && c < 0x7F && c != '"' && c != '\\') {
      size_t j = i + 1;  // a run of plain characters
      while (j < n) {
        const unsigned char d = static_cast<unsigned char>(text[j]);
        if (d < 0x20 || d >= 0x7F || d == '"' || d == '\\') break;
        ++j;
      }
      out->append(text.data() + i, j - i);
      i = j;
      continue;
    }
    switch (c) {
      case '"': out->append("\\\""); ++i; continue;
      case '\\': out->append("\\\\"); ++i; continue;
      case '\b': out->append("\\b"); ++i; continue;
      case '\f': out->append("\\f"); ++i; continue;
      case '\n': out->append("\\n"); ++i; continue;
      case '\r': out->append("\\r"); ++i; continue;
      case '\t': out->append("\\t"); ++i; continue;
      default: break;
    }
    if (c < 0x80) {
      escape(c);
      ++i;
      continue;
    }
    // A UTF-8 sequence (the readers have checked it): decode one code point.
    uint32_t cp = 0;
    size_t len = 1;
    if (c >= 0xF0) {
      cp = c & 0x07;
      len = 4;
    } else if (c >= 0xE0) {
      cp = c & 0x0F;
      len = 3;
    } else {
      cp = c & 0x1F;
      len = 2;
    }
    for (size_t k = 1; k < len && i + k < n; ++k) {
      cp = (cp << 6) | (static_cast<unsigned char>(text[i + k]) & 0x3F);
    }
    i += len;
    if (cp >= 0x10000) {
      cp -= 0x10000;
      escape(0xD800 + (cp >> 10));
      escape(0xDC00 + (cp & 0x3FF));
    } else {
      escape(cp);
    }
  }
  out->push_back('"');
}

void AppendPythonFloatRepr(std::string* out, double value) {
  if (std::isnan(value)) {
    out->append("nan");
    return;
  }
  if (std::isinf(value)) {
    out->append(value < 0 ? "-inf" : "inf");
    return;
  }
  if (std::signbit(value)) out->push_back('-');
  // Shortest round-trip digits in scientific form: "d[.ddd]e<sign><exp>".
  char buf[64];
  const auto result = std::to_chars(buf, buf + sizeof buf, std::fabs(value),
                                    std::chars_format::scientific);
  const char* end = result.ptr;
  const char* e_pos = buf;
  while (e_pos < end && *e_pos != 'e') ++e_pos;
  char digits[32];
  size_t count = 0;
  for (const char* p = buf; p < e_pos; ++p) {
    if (*p != '.') digits[count++] = *p;
  }
  int exponent = 0;
  const char* p = e_pos + 1;
  const bool negative_exp = *p == '-';
  if (*p == '-' || *p == '+') ++p;
  for (; p < end; ++p) exponent = exponent * 10 + (*p - '0');
  if (negative_exp) exponent = -exponent;
  if (exponent >= -4 && exponent < 16) {
    if (exponent >= 0) {
      const size_t int_digits = static_cast<size_t>(exponent) + 1;
      if (count <= int_digits) {
        out->append(digits, count);
        out->append(int_digits - count, '0');
        out->append(".0");
      } else {
        out->append(digits, int_digits);
        out->push_back('.');
        out->append(digits + int_digits, count - int_digits);
      }
    } else {
      out->append("0.");
      out->append(static_cast<size_t>(-exponent - 1), '0');
      out->append(digits, count);
    }
    return;
  }
  out->push_back(digits[0]);
  if (count > 1) {
    out->push_back('.');
    out->append(digits + 1, count - 1);
  }
  char exp_text[16];
  std::snprintf(exp_text, sizeof exp_text, "e%c%02d", exponent < 0 ? '-' : '+',
                exponent < 0 ? -exponent : exponent);
  out->append(exp_text);
}

std::string PythonFloatRepr(double value) {
  std::string out;
  AppendPythonFloatRepr(&out, value);
  return out;
}

void AppendPythonJsonFloat(std::string* out, double value) {
  if (std::isnan(value)) {
    out->append("NaN");
  } else if (std::isinf(value)) {
    out->append(value < 0 ? "-Infinity" : "Infinity");
  } else {
    out->append(PythonFloatRepr(value));
  }
}

}  // namespace depgraph
