#include "depgraph/internal/py_int.h"

#include <cmath>
#include <cstdlib>
#include <string>

namespace depgraph {

namespace {

constexpr __int128 kLimit = (static_cast<__int128>(1) << 126);

// Accumulates a decimal digit; false once the magnitude leaves the representable range.
bool PushDigit(__int128* value, int digit) {
  if (*value >= kLimit / 10) return false;
  *value = *value * 10 + digit;
  return true;
}

bool IsSpace(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

}  // namespace

PyInt PyIntFromNumber(std::string_view token) {
  // Fast path: a non-negative integer (no fraction, no exponent).
  uint64_t plain;
  if (PlainDecimal(token, &plain)) return PyInt{PyInt::kOk, static_cast<__int128>(plain)};
  bool integer = token.find_first_of(".eE") == std::string_view::npos;
  PyInt result;
  if (integer) {
    size_t i = 0;
    bool negative = false;
    if (i < token.size() && token[i] == '-') {
      negative = true;
      ++i;
    }
    if (i == token.size()) return result;
    __int128 value = 0;
    for (; i < token.size(); ++i) {
      if (token[i] < '0' || token[i] > '9') return result;
      if (!PushDigit(&value, token[i] - '0')) {
        result.status = PyInt::kOverflow;
        return result;
      }
    }
    result.status = PyInt::kOk;
    result.value = negative ? -value : value;
    return result;
  }
  std::string copy(token);
  double d = std::strtod(copy.c_str(), nullptr);
  if (!std::isfinite(d)) return result;
  d = std::trunc(d);
  if (std::fabs(d) >= 8.5e37) {
    result.status = PyInt::kOverflow;
    return result;
  }
  result.status = PyInt::kOk;
  result.value = static_cast<__int128>(d);
  return result;
}

PyInt PyIntFromString(std::string_view text) {
  PyInt result;
  // Fast path for what runtimes write: plain digits.
  uint64_t plain;
  if (PlainDecimal(text, &plain)) return PyInt{PyInt::kOk, static_cast<__int128>(plain)};
  size_t begin = 0, end = text.size();
  while (begin < end && IsSpace(text[begin])) ++begin;
  while (end > begin && IsSpace(text[end - 1])) --end;
  bool negative = false;
  if (begin < end && (text[begin] == '+' || text[begin] == '-')) {
    negative = text[begin] == '-';
    ++begin;
  }
  if (begin == end) return result;
  __int128 value = 0;
  bool previous_digit = false;
  bool overflow = false;
  for (size_t i = begin; i < end; ++i) {
    char c = text[i];
    if (c == '_') {
      // A separator must sit between two digits.
      if (!previous_digit || i + 1 == end) return result;
      previous_digit = false;
      continue;
    }
    if (c < '0' || c > '9') return result;
    previous_digit = true;
    if (!overflow && !PushDigit(&value, c - '0')) overflow = true;
  }
  if (!previous_digit) return result;
  if (overflow) {
    result.status = PyInt::kOverflow;
    return result;
  }
  result.status = PyInt::kOk;
  result.value = negative ? -value : value;
  return result;
}

}  // namespace depgraph
