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

std::string PythonFloatRepr(double value) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value < 0 ? "-inf" : "inf";
  std::string out = std::signbit(value) ? "-" : "";
  // Shortest round-trip digits in scientific form: "d[.ddd]e<sign><exp>".
  char buf[64];
  const auto result = std::to_chars(buf, buf + sizeof buf, std::fabs(value),
                                    std::chars_format::scientific);
  const std::string_view sci(buf, static_cast<size_t>(result.ptr - buf));
  const size_t e_pos = sci.find('e');
  std::string digits;
  for (char c : sci.substr(0, e_pos)) {
    if (c != '.') digits.push_back(c);
  }
  const int exponent = std::atoi(std::string(sci.substr(e_pos + 1)).c_str());
  if (exponent >= -4 && exponent < 16) {
    if (exponent >= 0) {
      const size_t int_digits = static_cast<size_t>(exponent) + 1;
      if (digits.size() <= int_digits) {
        out += digits + std::string(int_digits - digits.size(), '0') + ".0";
      } else {
        out += digits.substr(0, int_digits) + "." + digits.substr(int_digits);
      }
    } else {
      out += "0." + std::string(static_cast<size_t>(-exponent - 1), '0') + digits;
    }
    return out;
  }
  out += digits.substr(0, 1);
  if (digits.size() > 1) out += "." + digits.substr(1);
  char exp_text[16];
  std::snprintf(exp_text, sizeof exp_text, "e%c%02d", exponent < 0 ? '-' : '+',
                exponent < 0 ? -exponent : exponent);
  out += exp_text;
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
