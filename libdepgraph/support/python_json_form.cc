#include "depgraph/support/python_json_form.h"

#include <charconv>
#include <system_error>
#include <string>

#include "depgraph/support/json_writer.h"
#include "depgraph/support/utf8.h"

namespace depgraph {

namespace {

/// Longest number token checked; longer ones are left to the DOM path.
constexpr size_t kMaxNumberBytes = 64;
/// Most members of one object checked for repeated keys; larger objects take the DOM path.
constexpr size_t kMaxMembers = 64;
/// Deepest nesting matched (well inside the reader's 512 levels); deeper values are left to
/// the DOM path, whose reader reports them.
constexpr int kMaxDepth = 64;

/// Whether `token` is in fixed notation as Python's repr writes its own value, decided without
/// converting it: -?(0|[1-9][0-9]*)\.[0-9]+, no trailing zero in the fraction unless the
/// fraction is "0", the value 0 or in [1e-4, 1e15), at most 15 significant digits. A decimal of
/// at most 15 significant digits (DBL_DIG) is the only one of its length or shorter that reads
/// back as its double, so it is that double's shortest repr, which Python writes in fixed
/// notation in this range. False means "not decided here" (the caller converts). O(|token|).
bool IsShortFixedRepr(std::string_view token) {
  size_t i = token[0] == '-' ? 1 : 0;
  const size_t int_begin = i;
  while (i < token.size() && token[i] >= '0' && token[i] <= '9') ++i;
  const size_t int_length = i - int_begin;
  if (int_length == 0 || (int_length > 1 && token[int_begin] == '0')) return false;
  if (i >= token.size() || token[i] != '.') return false;
  const std::string_view fraction = token.substr(i + 1);
  if (fraction.empty() || fraction.find_first_not_of("0123456789") != std::string_view::npos) {
    return false;
  }
  if (fraction.back() == '0' && fraction != "0") return false;
  if (token[int_begin] == '0') {
    if (fraction == "0") return true;  // 0.0, -0.0
    const size_t zeros = fraction.find_first_not_of('0');
    return zeros <= 3 && fraction.size() - zeros <= 15;  // below 1e-4 repr has an exponent
  }
  return int_length + (fraction == "0" ? 0 : fraction.size()) <= 15;
}

/// A recursive-descent match of the canonical form, which checks the JSON syntax as it goes
/// (strings: UTF-8 without control characters; numbers: RFC 8259 tokens), so that text it
/// accepts is valid JSON whether or not a reader has checked it.
class FormMatcher {
 public:
  explicit FormMatcher(std::string_view text) : text_(text) {}

  bool Whole(int level, const std::string_view* keys, size_t key_count, JsonMemberSpan* spans) {
    return Prefix(level, keys, key_count, spans) && pos_ == text_.size();
  }
  bool Prefix(int level, const std::string_view* keys, size_t key_count, JsonMemberSpan* spans) {
    for (size_t i = 0; i < key_count; ++i) spans[i] = JsonMemberSpan();
    return Value(level, keys, key_count, spans);
  }
  size_t position() const { return pos_; }

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
    if (pos_ >= text_.size() || depth_ >= kMaxDepth) return false;
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

  /// A string without escapes (raw bytes are as Python writes them with ensure_ascii=False):
  /// no control character, well-formed UTF-8.
  bool String(std::string_view* content) {
    const size_t start = ++pos_;
    for (;;) {
      if (pos_ >= text_.size()) return false;
      const unsigned char c = static_cast<unsigned char>(text_[pos_]);
      if (c == '"') break;
      if (c == '\\' || c < 0x20) return false;
      if (c < 0x80) {
        ++pos_;
        continue;
      }
      uint32_t code_point;
      const size_t length = DecodeUtf8(text_.substr(pos_), &code_point);
      if (length == 0) return false;
      pos_ += length;
    }
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
      for (char c : digits) {
        if (c < '0' || c > '9') return false;
      }
      if (digits[0] == '0') return token == "0";  // "-0" is written "0"
      return true;
    }
    if (IsShortFixedRepr(token)) return true;
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
    ++depth_;
    do {
      if (!Indent(level + 1) || !Value(level + 1, nullptr, 0, nullptr)) return false;
    } while (Next(','));
    --depth_;
    return Indent(level) && Next(']');
  }

  bool Object(int level, const std::string_view* keys, size_t key_count, JsonMemberSpan* spans) {
    ++pos_;
    if (Next('}')) return true;
    std::string_view seen[kMaxMembers];
    size_t seen_count = 0;
    ++depth_;
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
    --depth_;
    return Indent(level) && Next('}');
  }

  std::string_view text_;
  size_t pos_ = 0;
  int depth_ = 0;  // containers open around the current value
  std::string repr_;
};

}  // namespace

bool MatchPythonIndentedJson(std::string_view text, int level, const std::string_view* keys,
                             size_t key_count, JsonMemberSpan* spans) {
  FormMatcher matcher(text);
  return matcher.Whole(level, keys, key_count, spans);
}

size_t MatchPythonIndentedJsonPrefix(std::string_view text, int level,
                                     const std::string_view* keys, size_t key_count,
                                     JsonMemberSpan* spans) {
  FormMatcher matcher(text);
  return matcher.Prefix(level, keys, key_count, spans) ? matcher.position() : 0;
}

}  // namespace depgraph
