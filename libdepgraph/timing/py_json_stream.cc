#include "py_json_stream.h"

#include <charconv>

#include "depgraph/support/json_writer.h"

namespace depgraph {

void PyJsonStream::EscapedKey(std::string_view key) {
  Item();
  AppendPythonJsonStringAscii(&buf_, key);
  buf_.append(": ");
}

void PyJsonStream::String(std::string_view text) {
  Value();
  AppendPythonJsonStringAscii(&buf_, text);
}

void PyJsonStream::Int(__int128 value) {
  Value();
  if (value >= INT64_MIN && value <= INT64_MAX) {
    char digits[24];
    const auto end = std::to_chars(digits, digits + sizeof digits, static_cast<int64_t>(value)).ptr;
    buf_.append(digits, static_cast<size_t>(end - digits));
    return;
  }
  const bool negative = value < 0;
  unsigned __int128 u = negative ? -static_cast<unsigned __int128>(value) : value;
  char digits[48];
  size_t n = 0;
  for (; u; u /= 10) digits[n++] = static_cast<char>('0' + static_cast<int>(u % 10));
  if (negative) buf_.push_back('-');
  while (n) buf_.push_back(digits[--n]);
}

void PyJsonStream::Float(double value) {
  Value();
  AppendPythonJsonFloat(&buf_, value);
}

void PyJsonStream::Json(const nlohmann::ordered_json& value) {
  using nlohmann::ordered_json;
  switch (value.type()) {
    case ordered_json::value_t::object:
      BeginObject();
      for (auto it = value.begin(); it != value.end(); ++it) {
        EscapedKey(it.key());
        Json(it.value());
      }
      EndObject();
      return;
    case ordered_json::value_t::array:
      BeginArray();
      for (const ordered_json& e : value) Json(e);
      EndArray();
      return;
    case ordered_json::value_t::string:
      String(value.get_ref<const std::string&>());
      return;
    case ordered_json::value_t::boolean:
      Bool(value.get<bool>());
      return;
    case ordered_json::value_t::number_integer:
      Int(value.get<int64_t>());
      return;
    case ordered_json::value_t::number_unsigned:
      Int(static_cast<__int128>(value.get<uint64_t>()));
      return;
    case ordered_json::value_t::number_float:
      Float(value.get<double>());
      return;
    default:
      Null();
      return;
  }
}

void PyJsonStream::Flush() {
  if (buf_.empty()) return;
  out_.write(buf_.data(), static_cast<std::streamsize>(buf_.size()));
  buf_.clear();
}

}  // namespace depgraph
