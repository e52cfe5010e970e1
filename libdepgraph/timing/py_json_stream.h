// Streaming JSON text exactly as Python's json.dump(obj, f, indent=2) writes it (ensure_ascii on):
// containers opened and closed as they are written, no document built. Private to timing.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace depgraph {

/// Writes one JSON document with two-space indentation, `", "`-free separators (`,` + newline,
/// `": "` after keys), `{}` / `[]` for empty containers, strings with Python's ASCII escapes,
/// floats as repr(). Text is buffered and handed to `out` in blocks of about 1 MiB.
/// Cost: O(bytes written); memory O(depth) plus the buffer.
class PyJsonStream {
 public:
  explicit PyJsonStream(std::ostream& out) : out_(out) { buf_.reserve(kBlock + 4096); }
  ~PyJsonStream() { Flush(); }
  PyJsonStream(const PyJsonStream&) = delete;
  PyJsonStream& operator=(const PyJsonStream&) = delete;

  /// Containers: as a value (array element or after Key) or as the document itself.
  void BeginObject() { Open('{'); }
  void EndObject() { Close('}'); }
  void BeginArray() { Open('['); }
  void EndArray() { Close(']'); }
  /// The next member's key (inside an object).
  void Key(std::string_view key) {
    Item();
    buf_.push_back('"');
    buf_.append(key);  // keys written by the converter are plain ASCII
    buf_.append("\": ");
  }
  /// A key that may need escaping (user text).
  void EscapedKey(std::string_view key);

  /// Scalars: as an array element or after Key.
  void String(std::string_view text);
  void Int(__int128 value);
  void Float(double value);
  void Bool(bool value) {
    Value();
    buf_.append(value ? "true" : "false");
  }
  void Null() {
    Value();
    buf_.append("null");
  }
  /// Any JSON value read from an input, written as Python would write the value json.load
  /// made of it (integers beyond 64 bits excepted: nlohmann holds them as doubles).
  void Json(const nlohmann::ordered_json& value);

  /// Hands the buffered text to the stream. O(buffer).
  void Flush();
  /// Whether the stream has failed (a write error).
  bool failed() const { return out_.fail(); }

 private:
  static constexpr size_t kBlock = size_t{1} << 20;

  /// Before an array element or a key: the separator and the indentation.
  void Item() {
    if (!first_.empty()) {
      buf_.append(first_.back() ? "\n" : ",\n");
      first_.back() = false;
      buf_.append(2 * first_.size(), ' ');
    }
  }
  /// Before a value: an array element needs Item(); after Key nothing.
  void Value() {
    if (!first_.empty() && !in_object_.back()) Item();
  }
  void Open(char bracket) {
    Value();
    buf_.push_back(bracket);
    first_.push_back(true);
    in_object_.push_back(bracket == '{');
  }
  void Close(char bracket) {
    const bool empty = first_.back();
    first_.pop_back();
    in_object_.pop_back();
    if (!empty) {
      buf_.push_back('\n');
      buf_.append(2 * first_.size(), ' ');
    }
    buf_.push_back(bracket);
    if (buf_.size() >= kBlock) Flush();
  }

  std::ostream& out_;
  std::string buf_;
  std::vector<bool> first_;      ///< per open container: no item written yet
  std::vector<bool> in_object_;  ///< per open container: an object (else an array)
};

}  // namespace depgraph
