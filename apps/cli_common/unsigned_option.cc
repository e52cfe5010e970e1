#include "unsigned_option.h"

namespace depgraph::cli {

std::string UnsignedAtMostError(const std::string& text, uint64_t max) {
  const std::string bad = "Value " + text + " is not an integer in 0 to " + std::to_string(max);
  if (text.empty()) return bad;
  uint64_t value = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return bad;
    const uint64_t digit = static_cast<uint64_t>(c - '0');
    if (value > (max - digit) / 10) return bad;  // value * 10 + digit > max
    value = value * 10 + digit;
  }
  return "";
}

CLI::Validator UnsignedAtMost(uint64_t max) {
  return CLI::Validator(
      [max](std::string& text) { return UnsignedAtMostError(text, max); }, "", "UINT");
}

}  // namespace depgraph::cli
