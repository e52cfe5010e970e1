#include "depgraph/support/json_dom.h"

#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <unordered_map>
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

/// Builds the DOM of one document from the reader's tokens, keeping the JSON path of the value
/// being read for messages. Recursion depth is bounded by the reader's nesting limit.
class DomBuilder {
 public:
  explicit DomBuilder(JsonReader* reader, std::string_view path = "")
      : reader_(*reader), base_path_(path) {}

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
  /// Reads one value of any kind into *out.
  bool Value(ordered_json* out) {
    switch (reader_.Peek()) {
      case JsonKind::kObject: {
        if (!reader_.BeginObject()) return false;
        *out = ordered_json::object();
        auto& members = out->get_ref<ordered_json::object_t&>();
        std::unordered_map<std::string, size_t> position;  // key -> index in members
        std::string_view key_view;
        while (reader_.NextKey(&key_view)) {
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
        if (!reader_.BeginArray()) return false;
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
};

}  // namespace

bool ParseJsonDocument(std::string_view text, ordered_json* out, std::string* err) {
  JsonReader reader;
  reader.OpenBuffer(text);
  DomBuilder builder(&reader);
  *out = ordered_json();
  return builder.Build(out, err);
}

bool ReadJsonValue(JsonReader* reader, std::string_view path, ordered_json* out,
                   std::string* err) {
  DomBuilder builder(reader, path);
  *out = ordered_json();
  return builder.BuildValue(out, err);
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
