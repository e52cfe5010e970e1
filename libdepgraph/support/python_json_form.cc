#include "depgraph/support/python_json_form.h"

#include <charconv>
#include <system_error>
#include <string>

#include "depgraph/support/json_writer.h"

namespace depgraph {

namespace {

/// Longest number token checked; longer ones are left to the DOM path.
constexpr size_t kMaxNumberBytes = 64;
/// Most members of one object checked for repeated keys; larger objects take the DOM path.
constexpr size_t kMaxMembers = 64;

/// A recursive-descent match of the canonical form; the nesting depth is bounded by the
/// reader that checked the text (512 levels).
class FormMatcher {
 public:
  explicit FormMatcher(std::string_view text) : text_(text) {}

  bool Whole(int level, const std::string_view* keys, size_t key_count, JsonMemberSpan* spans) {
    for (size_t i = 0; i < key_count; ++i) spans[i] = JsonMemberSpan();
    return Value(level, keys, key_count, spans) && pos_ == text_.size();
  }

 private:
  bool Next(char c) {
    if (pos_ >= text_.size() || text_[pos_] != c) return false;
    ++pos_;
    return true;
  }
  /// "\n" and 2 x level spaces.
  bool Indent(int level) {
    if (!Next('\n')) return false;
    const size_t n = 2 * static_cast<size_t>(level);
    if (text_.size() - pos_ < n) return false;
    for (size_t i = 0; i < n; ++i) {
      if (text_[pos_ + i] != ' ') return false;
    }
    pos_ += n;
    return true;
  }

  bool Value(int level, const std::string_view* keys, size_t key_count, JsonMemberSpan* spans) {
    if (pos_ >= text_.size()) return false;
    switch (text_[pos_]) {
      case '{': return Object(level, keys, key_count, spans);
      case '[': return Array(level);
      case '"': return String(nullptr);
      case 't': return Literal("true");
      case 'f': return Literal("false");
      case 'n': return Literal("null");
      default: return Number();
    }
  }

  bool Literal(std::string_view word) {
    if (text_.substr(pos_, word.size()) != word) return false;
    pos_ += word.size();
    return true;
  }

  /// A string without escapes (raw bytes are as Python writes them with ensure_ascii=False).
  bool String(std::string_view* content) {
    const size_t start = ++pos_;
    while (pos_ < text_.size() && text_[pos_] != '"') {
      if (text_[pos_] == '\\') return false;
      ++pos_;
    }
    if (pos_ >= text_.size()) return false;
    if (content != nullptr) *content = text_.substr(start, pos_ - start);
    ++pos_;
    return true;
  }

  /// An integer as std::to_string writes it (no "-0"), or a double as Python's repr.
  bool Number() {
    const size_t start = pos_;
    bool integer = true;
    while (pos_ < text_.size()) {
      const char c = text_[pos_];
      if (c == '.' || c == 'e' || c == 'E' || c == '+') {
        integer = false;
      } else if (!(c == '-' || (c >= '0' && c <= '9'))) {
        break;
      }
      ++pos_;
    }
    const std::string_view token = text_.substr(start, pos_ - start);
    if (token.empty() || token.size() > kMaxNumberBytes) return false;
    if (integer) {
      const std::string_view digits = token[0] == '-' ? token.substr(1) : token;
      if (digits.empty() || digits.size() > 18) return false;
      if (digits[0] == '0') return token == "0";  // "-0" is written "0"
      return true;
    }
    // Correctly rounded, as ParseJsonDocument's strtod: the same double.
    double value = 0;
    const auto [end, error] = std::from_chars(token.data(), token.data() + token.size(), value);
    if (error != std::errc() || end != token.data() + token.size()) return false;
    repr_.clear();
    AppendPythonJsonFloat(&repr_, value);
    return repr_ == token;
  }

  bool Array(int level) {
    ++pos_;
    if (Next(']')) return true;
    do {
      if (!Indent(level + 1) || !Value(level + 1, nullptr, 0, nullptr)) return false;
    } while (Next(','));
    return Indent(level) && Next(']');
  }

  bool Object(int level, const std::string_view* keys, size_t key_count, JsonMemberSpan* spans) {
    ++pos_;
    if (Next('}')) return true;
    std::string_view seen[kMaxMembers];
    size_t seen_count = 0;
    do {
      std::string_view key;
      if (!Indent(level + 1) || pos_ >= text_.size() || text_[pos_] != '"' || !String(&key)) {
        return false;
      }
      for (size_t i = 0; i < seen_count; ++i) {
        if (seen[i] == key) return false;  // a repeated key: the DOM keeps one of them
      }
      if (seen_count == kMaxMembers) return false;
      seen[seen_count++] = key;
      if (!Next(':') || !Next(' ')) return false;
      const size_t begin = pos_;
      if (!Value(level + 1, nullptr, 0, nullptr)) return false;
      for (size_t i = 0; i < key_count; ++i) {
        if (keys[i] == key) spans[i] = JsonMemberSpan{true, begin, pos_};
      }
    } while (Next(','));
    return Indent(level) && Next('}');
  }

  std::string_view text_;
  size_t pos_ = 0;
  std::string repr_;
};

}  // namespace

bool MatchPythonIndentedJson(std::string_view text, int level, const std::string_view* keys,
                             size_t key_count, JsonMemberSpan* spans) {
  FormMatcher matcher(text);
  return matcher.Whole(level, keys, key_count, spans);
}

}  // namespace depgraph
