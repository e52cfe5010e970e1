#include "depgraph/json_writer.h"

#include <cstdio>

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

}  // namespace depgraph
