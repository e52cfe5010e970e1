#include "depgraph/support/json_dom.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <unordered_map>
#include <new>
#include <utility>
#include <vector>

#include "depgraph/internal/message_quote.h"
#include "depgraph/support/json_reader.h"
#include "depgraph/support/json_writer.h"

namespace depgraph {

namespace {

using nlohmann::ordered_json;

/// Longest number token echoed in an error, in bytes.
constexpr size_t kShownNumberBytes = 40;

/// Bytes a DOM node costs, as an estimate of libstdc++'s layout used only to bound a tree: a
/// value is 16 bytes in its parent's vector, half as much again for the vector's growth; an
/// array or object adds its heap-allocated vector; a member adds its key (std::string) and
/// value, with growth; a key or string longer than the small-string buffer adds its bytes.
/// Pretty-printed Chrome traces and name maps come to 4-6 estimated bytes per text byte.
constexpr uint64_t kValueBytes = 24;
constexpr uint64_t kContainerBytes = 32;
constexpr uint64_t kMemberBytes = 72;
constexpr uint64_t kStringHeapThreshold = 15;

/// The DOM budget of a `text_bytes` document: a tree may cost at most this many times its text,
/// plus a floor that lets every small document through whatever its shape.
constexpr uint64_t kDomBytesPerTextByte = 8;
constexpr uint64_t kDomFloorBytes = uint64_t{64} << 20;

/// The DOM budget of a value read out of a stream (ReadJsonValue), whose size is not known.
constexpr uint64_t kStreamedValueDomBytes = uint64_t{1} << 30;

/// Builds the DOM of one document from the reader's tokens, keeping the JSON path of the value
/// being read for messages. Recursion depth is bounded by the reader's nesting limit.
class DomBuilder {
 public:
  DomBuilder(JsonReader* reader, uint64_t budget_bytes, std::string_view path = "")
      : reader_(*reader), base_path_(path), budget_bytes_(budget_bytes) {}

  /// One whole document.
  bool Build(ordered_json* out, std::string* err) {
    if (!Value(out) || !reader_.ExpectEnd()) {
      *err = error_.empty() ? reader_.error() : error_;
      return false;
    }
    return true;
  }
  /// The next value only.
  bool BuildValue(ordered_json* out, std::string* err) {
    if (!Value(out)) {
      *err = error_.empty() ? reader_.error() : error_;
      return false;
    }
    return true;
  }

 private:
  /// Counts `bytes` more of tree; false (with the reader failed at the current place) once the
  /// tree would exceed the budget, so a hostile document is refused before it exhausts memory.
  bool Charge(uint64_t bytes) {
    used_bytes_ += bytes;
    if (used_bytes_ <= budget_bytes_) return true;
    return reader_.Fail("too large to read: its JSON tree would need more than " +
                        std::to_string(budget_bytes_ >> 20) + " MiB");
  }

  /// Reads one value of any kind into *out.
  bool Value(ordered_json* out) {
    if (!Charge(kValueBytes)) return false;
    switch (reader_.Peek()) {
      case JsonKind::kObject: {
        if (!Charge(kContainerBytes) || !reader_.BeginObject()) return false;
        *out = ordered_json::object();
        auto& members = out->get_ref<ordered_json::object_t&>();
        std::unordered_map<std::string, size_t> position;  // key -> index in members
        std::string_view key_view;
        while (reader_.NextKey(&key_view)) {
          if (!Charge(kMemberBytes + (key_view.size() > kStringHeapThreshold ? key_view.size() : 0)))
            return false;
          std::string key(key_view);
          ordered_json value;
          path_.push_back({key, 0});
          if (!Value(&value)) return false;
          path_.pop_back();
          auto [it, fresh] = position.emplace(key, members.size());
          if (fresh) {
            members.emplace_back(std::move(key), std::move(value));
          } else {
            (members.begin() + static_cast<std::ptrdiff_t>(it->second))->second = std::move(value);
          }
        }
        return !reader_.failed();
      }
      case JsonKind::kArray: {
        if (!Charge(kContainerBytes) || !reader_.BeginArray()) return false;
        *out = ordered_json::array();
        size_t index = 0;
        while (reader_.NextElement()) {
          ordered_json value;
          path_.push_back({std::nullopt, index});
          if (!Value(&value)) return false;
          path_.pop_back();
          out->push_back(std::move(value));
          ++index;
        }
        return !reader_.failed();
      }
      case JsonKind::kString: {
        std::string_view s;
        if (!reader_.ReadString(&s)) return false;
        if (s.size() > kStringHeapThreshold && !Charge(s.size())) return false;
        *out = std::string(s);
        return true;
      }
      case JsonKind::kNumber:
        return Number(out);
      case JsonKind::kTrue:
      case JsonKind::kFalse: {
        bool b = false;
        if (!reader_.ReadBool(&b)) return false;
        *out = b;
        return true;
      }
      case JsonKind::kNull:
        if (!reader_.ReadNull()) return false;
        *out = nullptr;
        return true;
      case JsonKind::kInvalid:
        return reader_.SkipValue();  // fails with the reader's message
    }
    return false;
  }

  /// Reads a number: int64 / uint64 when it is an integer that fits, else a finite double.
  bool Number(ordered_json* out) {
    std::string_view token;
    if (!reader_.ReadNumber(&token)) return false;
    const std::string text(token);
    const bool integer = text.find_first_of(".eE") == std::string::npos;
    char* end = nullptr;
    if (integer) {
      errno = 0;
      if (text[0] == '-') {
        const long long v = std::strtoll(text.c_str(), &end, 10);
        if (errno == 0) {
          *out = static_cast<int64_t>(v);
          return true;
        }
      } else {
        const unsigned long long v = std::strtoull(text.c_str(), &end, 10);
        if (errno == 0) {
          *out = static_cast<uint64_t>(v);
          return true;
        }
      }
    }
    errno = 0;
    const double d = std::strtod(text.c_str(), &end);
    if (std::isinf(d)) {
      const std::string shown =
          text.size() > kShownNumberBytes ? text.substr(0, kShownNumberBytes) + "..." : text;
      const std::string what = "number " + shown + " is out of range (beyond a double)";
      if (path_.empty() && base_path_.empty()) return reader_.Fail(what);
      error_ = PathString() + ": " + what;
      return false;
    }
    *out = d;
    return true;
  }

  /// One step of the JSON path: a member key, or an array index when `key` is empty.
  struct PathPart {
    std::optional<std::string> key;
    size_t index = 0;
  };

  /// The path of the value being read, e.g. `tensors[0].values[1]`.
  std::string PathString() const {
    std::string out(base_path_);
    for (const PathPart& part : path_) {
      out =
          part.key ? JsonPathMember(out, *part.key) : out + "[" + std::to_string(part.index) + "]";
    }
    return out;
  }

  JsonReader& reader_;
  std::string base_path_;       ///< path of the value read by BuildValue
  std::vector<PathPart> path_;  ///< path of the value being read, outermost first
  std::string error_;           ///< a semantic error (with a path), if any
  uint64_t budget_bytes_;       ///< most tree bytes this document may cost
  uint64_t used_bytes_ = 0;     ///< tree bytes counted so far (an estimate; see Charge)
};

/// The message for a tree that did not fit in memory although it was within its budget.
std::string OutOfMemoryMessage(uint64_t text_bytes) {
  return "too large to read: out of memory building the JSON tree of " +
         std::to_string(text_bytes) + " bytes";
}

}  // namespace

bool ParseJsonDocument(std::string_view text, ordered_json* out, std::string* err) {
  JsonReader reader;
  reader.OpenBuffer(text);
  DomBuilder builder(&reader, kDomFloorBytes + kDomBytesPerTextByte * uint64_t{text.size()});
  *out = ordered_json();
  try {
    return builder.Build(out, err);
  } catch (const std::bad_alloc&) {
    *out = ordered_json();
    *err = OutOfMemoryMessage(text.size());
    return false;
  }
}

bool ReadJsonValue(JsonReader* reader, std::string_view path, ordered_json* out,
                   std::string* err) {
  DomBuilder builder(reader, kStreamedValueDomBytes, path);
  *out = ordered_json();
  try {
    return builder.BuildValue(out, err);
  } catch (const std::bad_alloc&) {
    *out = ordered_json();
    *err = std::string(path) + ": too large to read: out of memory building its JSON tree";
    return false;
  }
}

namespace {

/// Appends `value` as compact JSON to *out until *out holds more than `limit` bytes; true iff
/// all of it fit. Scalars are written by nlohmann's dump (strings cut first), containers here.
bool AppendBoundedJson(const ordered_json& value, size_t limit, std::string* out) {
  if (out->size() > limit) return false;
  switch (value.type()) {
    case ordered_json::value_t::object: {
      out->push_back('{');
      bool first = true;
      for (const auto& [key, member] : value.items()) {
        if (!first) out->push_back(',');
        first = false;
        if (!AppendBoundedJson(ordered_json(key), limit, out)) return false;
        out->push_back(':');
        if (!AppendBoundedJson(member, limit, out)) return false;
      }
      out->push_back('}');
      return out->size() <= limit;
    }
    case ordered_json::value_t::array: {
      out->push_back('[');
      bool first = true;
      for (const ordered_json& item : value) {
        if (!first) out->push_back(',');
        first = false;
        if (!AppendBoundedJson(item, limit, out)) return false;
      }
      out->push_back(']');
      return out->size() <= limit;
    }
    case ordered_json::value_t::string: {
      const std::string& s = value.get_ref<const std::string&>();
      const size_t room = limit + 1 - std::min(out->size(), limit);
      const bool cut = s.size() > room;
      out->append(ordered_json(cut ? s.substr(0, room) : s)
                      .dump(-1, ' ', false, ordered_json::error_handler_t::replace));
      return !cut && out->size() <= limit;
    }
    default:
      out->append(value.dump());
      return out->size() <= limit;
  }
}

}  // namespace

std::string JsonValueForMessage(const ordered_json& value, size_t max_bytes) {
  std::string out;
  if (!AppendBoundedJson(value, max_bytes, &out)) {
    // Cut at a character boundary (never inside a UTF-8 sequence) and mark the cut.
    size_t end = std::min(out.size(), max_bytes);
    while (end > 0 && (static_cast<unsigned char>(out[end]) & 0xC0) == 0x80) --end;
    out.resize(end);
    out += "...";
  }
  return out;
}

namespace {

void DumpValue(const ordered_json& value, int indent, int level, std::string* out) {
  const auto newline = [&](int depth) {
    out->push_back('\n');
    out->append(static_cast<size_t>(indent) * static_cast<size_t>(depth), ' ');
  };
  switch (value.type()) {
    case ordered_json::value_t::object: {
      if (value.empty()) {
        out->append("{}");
        return;
      }
      out->push_back('{');
      bool first = true;
      for (auto it = value.begin(); it != value.end(); ++it) {
        if (!first) out->push_back(',');
        first = false;
        newline(level + 1);
        AppendPythonJsonString(out, it.key());
        out->append(": ");
        DumpValue(it.value(), indent, level + 1, out);
      }
      newline(level);
      out->push_back('}');
      return;
    }
    case ordered_json::value_t::array: {
      if (value.empty()) {
        out->append("[]");
        return;
      }
      out->push_back('[');
      bool first = true;
      for (const ordered_json& item : value) {
        if (!first) out->push_back(',');
        first = false;
        newline(level + 1);
        DumpValue(item, indent, level + 1, out);
      }
      newline(level);
      out->push_back(']');
      return;
    }
    case ordered_json::value_t::string:
      AppendPythonJsonString(out, value.get_ref<const std::string&>());
      return;
    case ordered_json::value_t::boolean:
      out->append(value.get<bool>() ? "true" : "false");
      return;
    case ordered_json::value_t::number_integer:
      out->append(std::to_string(value.get<int64_t>()));
      return;
    case ordered_json::value_t::number_unsigned:
      out->append(std::to_string(value.get<uint64_t>()));
      return;
    case ordered_json::value_t::number_float:
      AppendPythonJsonFloat(out, value.get<double>());
      return;
    default:
      out->append("null");
      return;
  }
}

}  // namespace

void AppendPythonJsonDump(const ordered_json& doc, int indent, std::string* out, int level) {
  DumpValue(doc, indent, level, out);
}

}  // namespace depgraph
