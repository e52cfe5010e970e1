#include "depgraph/support/json_reader.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "depgraph/internal/py_int.h"
#include "depgraph/support/utf8.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace depgraph {

// Deeper documents are rejected so that SkipValue's recursion stays bounded.
constexpr size_t kMaxDepth = 512;
// How far ahead of the parse the input is prefetched into the cache, in bytes.
constexpr size_t kPrefetchDistance = 1024;

const char* JsonKindName(JsonKind kind) {
  switch (kind) {
    case JsonKind::kObject: return "object";
    case JsonKind::kArray: return "array";
    case JsonKind::kString: return "string";
    case JsonKind::kNumber: return "number";
    case JsonKind::kTrue: return "true";
    case JsonKind::kFalse: return "false";
    case JsonKind::kNull: return "null";
    case JsonKind::kInvalid: return "invalid token";
  }
  return "?";
}

JsonReader::~JsonReader() {
  if (mapped_) munmap(const_cast<char*>(data_), size_);
  if (fd_ >= 0) close(fd_);
}

bool JsonReader::Open(const std::string& path, std::string* err) {
  // O_NONBLOCK: a FIFO swapped in after the caller's CheckRegularInput must not block the
  // open; the fstat below refuses it. It has no effect on a regular file.
  int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
  if (fd < 0) {
    *err = std::strerror(errno);
    return false;
  }
  struct stat st;
  if (fstat(fd, &st) != 0) {
    *err = std::strerror(errno);
    close(fd);
    return false;
  }
  if (S_ISDIR(st.st_mode)) {
    close(fd);
    *err = "is a directory";
    return false;
  }
  if (!S_ISREG(st.st_mode)) {
    close(fd);
    *err = "not a regular file";
    return false;
  }
  size_ = static_cast<size_t>(st.st_size);
  if (size_ == 0) {
    close(fd);
    data_ = "";
    return true;
  }
  void* map = mmap(nullptr, size_, PROT_READ, MAP_PRIVATE, fd, 0);
  if (map == MAP_FAILED) {
    *err = std::strerror(errno);
    close(fd);
    return false;
  }
  madvise(map, size_, MADV_SEQUENTIAL);
  data_ = static_cast<const char*>(map);
  mapped_ = true;
  fd_ = fd;  // for ReadAt
  return true;
}

void JsonReader::OpenBuffer(std::string_view text) {
  data_ = text.data();
  size_ = text.size();
}

void JsonReader::OpenWindow(const char* window, size_t begin, size_t end) {
  // Biased so that data_[pos] is window[pos - begin]: only [begin, end) is ever read.
  data_ = window - begin;
  size_ = end;
  pos_ = begin;
  window_begin_ = begin;
  failed_ = false;
  error_.clear();
}

bool JsonReader::ReadAt(size_t offset, size_t length, char* dest) const {
  if (offset > size_ || length > size_ - offset) return false;
  if (fd_ < 0) {
    std::memcpy(dest, data_ + offset, length);
    return true;
  }
  while (length > 0) {
    const ssize_t got = pread(fd_, dest, length, static_cast<off_t>(offset));
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) return false;  // an I/O error, or the file shrank
    dest += got;
    offset += static_cast<size_t>(got);
    length -= static_cast<size_t>(got);
  }
  return true;
}

namespace {
// Pages are mapped ahead and dropped behind in steps of this size.
constexpr size_t kWindow = size_t{64} << 20;
}  // namespace

void JsonReader::ReleaseConsumed() {
  if (!mapped_) return;
  if (pos_ + kWindow / 2 > populated_) PrefetchTo(pos_ + kWindow / 2);
  ReleaseBefore(pos_);
}

void JsonReader::PrefetchTo(size_t end) {
  if (!mapped_) return;
  // Map the window ahead in one call instead of one page fault per 4 KiB page.
  while (populated_ < end && populated_ < size_) {
    size_t length = std::min(kWindow, size_ - populated_);
#ifdef MADV_POPULATE_READ
    madvise(const_cast<char*>(data_) + populated_, length, MADV_POPULATE_READ);
#endif
    populated_ += length;
  }
}

void JsonReader::ReleaseBefore(size_t pos) {
  if (!mapped_ || pos < released_ + 2 * kWindow) return;
  const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  const size_t end = (pos - kWindow) / page * page;
  madvise(const_cast<char*>(data_) + released_, end - released_, MADV_DONTNEED);
  released_ = end;
}

void JsonReader::DropPages(size_t begin, size_t end) const {
  if (!mapped_) return;
  const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  begin = (begin + page - 1) / page * page;
  end = std::min(end, size_) / page * page;
  if (begin < end) madvise(const_cast<char*>(data_) + begin, end - begin, MADV_DONTNEED);
}

void JsonReader::ResumeInArray(size_t pos, size_t depth, bool first_seen) {
  pos_ = std::min(pos, size_);
  first_seen_.assign(depth > 0 ? depth - 1 : 0, 1);
  first_seen_.push_back(first_seen ? 1 : 0);
  failed_ = false;
  error_.clear();
}

void JsonReader::LineColumn(size_t pos, size_t* line, size_t* column) const {
  size_t l = 1, last_newline = 0;
  bool seen = false;
  for (size_t i = window_begin_; i < pos && i < size_; ++i) {
    if (data_[i] == '\n') {
      ++l;
      last_newline = i;
      seen = true;
    }
  }
  *line = l;
  *column = seen ? pos - last_newline : pos + 1;
}

bool JsonReader::Fail(const std::string& what) {
  if (failed_) return false;
  failed_ = true;
  size_t line, column;
  LineColumn(pos_, &line, &column);
  error_ = "line " + std::to_string(line) + ":column " + std::to_string(column) + ": " + what;
  return false;
}

void JsonReader::SkipWhitespaceLoop() {
  while (pos_ < size_) {
    char c = data_[pos_];
    if (c == ' ' || c == '\n' || c == '\r' || c == '\t') {
      ++pos_;
    } else {
      break;
    }
  }
}

bool JsonReader::Expect(char c, const char* what) {
  if (failed_) return false;
  SkipWhitespace();
  if (pos_ >= size_) return Fail(std::string("unexpected end of file, expected ") + what);
  if (data_[pos_] != c) return Fail(std::string("expected ") + what);
  ++pos_;
  return true;
}

bool JsonReader::BeginObject() {
  if (!Expect('{', "'{'")) return false;
  if (first_seen_.size() >= kMaxDepth) return Fail("JSON nested too deeply");
  first_seen_.push_back(0);
  return true;
}

bool JsonReader::BeginArray() {
  if (!Expect('[', "'['")) return false;
  if (first_seen_.size() >= kMaxDepth) return Fail("JSON nested too deeply");
  first_seen_.push_back(0);
  return true;
}

#if defined(__SSE2__)
// Bit i set when byte i of the 16 at `at` ends a plain string: a quote, a backslash, a control
// character or a non-ASCII byte (the signed compare flags both at once).
static inline uint32_t SpecialBytes16(const char* at) {
  const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(at));
  return static_cast<uint32_t>(_mm_movemask_epi8(_mm_or_si128(
      _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('"')), _mm_cmpeq_epi8(v, _mm_set1_epi8('\\'))),
      _mm_cmplt_epi8(v, _mm_set1_epi8(0x20)))));
}
#endif

// Compact JSON's keys and short strings, found in one step: when the string whose opening
// quote is at `quote` is plain and under 32 bytes long (and 33 bytes follow the quote), its
// closing quote's position; otherwise 0, and the general scan (ParseStringRaw) takes it.
size_t JsonReader::ShortPlainStringEnd(size_t quote) const {
#if defined(__SSE2__)
  if (size_ - quote < 34) return 0;
  const uint32_t mask = SpecialBytes16(data_ + quote + 1) |
                        (SpecialBytes16(data_ + quote + 17) << 16);
  if (mask == 0) return 0;
  const size_t end = quote + 1 + static_cast<size_t>(__builtin_ctz(mask));
  return data_[end] == '"' ? end : 0;
#else
  (void)quote;
  return 0;
#endif
}

bool JsonReader::NextKey(std::string_view* key) {
  if (failed_) return false;
  // Compact JSON: `"key":` or `,"key":` with a short plain key, without the general scan.
  if (size_ - pos_ >= 36) {
    const bool more = first_seen_.back() != 0;
    const size_t quote = more && data_[pos_] == ',' ? pos_ + 1 : pos_;
    if (data_[quote] == '"' && (!more || quote != pos_)) {
      const size_t end = ShortPlainStringEnd(quote);
      if (end != 0 && data_[end + 1] == ':') {
        *key = std::string_view(data_ + quote + 1, end - quote - 1);
        first_seen_.back() = 1;
        pos_ = end + 2;
        return true;
      }
    }
  }
  SkipWhitespace();
  if (pos_ >= size_) return Fail("unexpected end of file inside an object");
  if (data_[pos_] == '}') {
    ++pos_;
    first_seen_.pop_back();
    return false;
  }
  if (first_seen_.back()) {
    if (data_[pos_] != ',') return Fail("expected ',' or '}' in object");
    ++pos_;
    SkipWhitespace();
  }
  first_seen_.back() = 1;
  if (pos_ >= size_ || data_[pos_] != '"') return Fail("expected a string key");
  if (!ParseStringRaw(key)) return false;
  if (pos_ < size_ && data_[pos_] == ':') {  // compact JSON: no whitespace before the ':'
    ++pos_;
    return true;
  }
  return Expect(':', "':' after object key");
}

bool JsonReader::NextElement() {
  if (failed_) return false;
  SkipWhitespace();
  if (pos_ >= size_) return Fail("unexpected end of file inside an array");
  if (data_[pos_] == ']') {
    ++pos_;
    first_seen_.pop_back();
    return false;
  }
  if (first_seen_.back()) {
    if (data_[pos_] != ',') return Fail("expected ',' or ']' in array");
    ++pos_;
  }
  first_seen_.back() = 1;
  return true;
}

static int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

static void AppendUtf8(std::string* out, uint32_t cp) {
  if (cp < 0x80) {
    out->push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out->push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    out->push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out->push_back(static_cast<char>(0xF0 | (cp >> 18)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

// Strings must be well-formed UTF-8 (RFC 8259 section 8.1), and a \u escape of a UTF-16
// surrogate must be a high one followed by an escaped low one: a lone half encodes nothing.
bool JsonReader::ParseStringRaw(std::string_view* out) {
  ++pos_;  // opening quote
  const size_t start = pos_;
  // Input is read once, in order: ask for it well before it is needed.
  __builtin_prefetch(data_ + std::min(pos_ + kPrefetchDistance, size_));
  // Fast path: no escapes. Skip 16 bytes (SSE2), then 8 (SWAR byte tests), at a time while
  // none of them is a quote, a backslash, a control character or a non-ASCII byte; those are
  // looked at one by one below.
  constexpr uint64_t kOnes = 0x0101010101010101ull, kHighs = 0x8080808080808080ull;
  for (;;) {
#if defined(__SSE2__)
    // Sixteen bytes a step where the input has them; the signed compare flags control
    // characters and every non-ASCII byte at once.
    while (pos_ + 16 <= size_) {
      const uint32_t mask = SpecialBytes16(data_ + pos_);
      if (mask != 0) {
        pos_ += static_cast<size_t>(__builtin_ctz(mask));
        break;
      }
      pos_ += 16;
    }
#endif
    while (pos_ + 8 <= size_) {
      uint64_t word;
      std::memcpy(&word, data_ + pos_, 8);
      uint64_t quote = word ^ (kOnes * '"');
      uint64_t backslash = word ^ (kOnes * '\\');
      uint64_t special = (((quote - kOnes) & ~quote) | ((backslash - kOnes) & ~backslash) |
                          ((word - kOnes * 0x20) & ~word) | word) &
                         kHighs;
      if (special != 0) {
        // The lowest flagged byte is exact (borrows only run upwards): go straight to it.
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
        pos_ += static_cast<size_t>(__builtin_ctzll(special)) / 8;
#endif
        break;
      }
      pos_ += 8;
    }
    if (pos_ >= size_) return Fail("unterminated string");
    const unsigned char c = static_cast<unsigned char>(data_[pos_]);
    if (c == '"') {
      *out = std::string_view(data_ + start, pos_ - start);
      ++pos_;
      return true;
    }
    if (c == '\\') break;
    if (c < 0x20) return Fail("control character in string");
    if (!SkipUtf8()) return false;
  }
  unescaped_.assign(data_ + start, pos_ - start);
  while (pos_ < size_) {
    unsigned char c = static_cast<unsigned char>(data_[pos_]);
    if (c == '"') {
      ++pos_;
      *out = unescaped_;
      return true;
    }
    if (c < 0x20) return Fail("control character in string");
    if (c != '\\') {
      const size_t from = pos_;
      if (!SkipUtf8()) return false;
      unescaped_.append(data_ + from, pos_ - from);
      continue;
    }
    if (pos_ + 1 >= size_) break;
    const size_t escape = pos_;
    char e = data_[pos_ + 1];
    pos_ += 2;
    switch (e) {
      case '"': unescaped_.push_back('"'); break;
      case '\\': unescaped_.push_back('\\'); break;
      case '/': unescaped_.push_back('/'); break;
      case 'b': unescaped_.push_back('\b'); break;
      case 'f': unescaped_.push_back('\f'); break;
      case 'n': unescaped_.push_back('\n'); break;
      case 'r': unescaped_.push_back('\r'); break;
      case 't': unescaped_.push_back('\t'); break;
      case 'u': {
        auto read_hex = [&](uint32_t* cp) {
          if (pos_ + 4 > size_) return false;
          uint32_t v = 0;
          for (int i = 0; i < 4; ++i) {
            int h = HexValue(data_[pos_ + i]);
            if (h < 0) return false;
            v = v * 16 + static_cast<uint32_t>(h);
          }
          pos_ += 4;
          *cp = v;
          return true;
        };
        uint32_t cp;
        if (!read_hex(&cp)) return Fail("invalid \\u escape in string");
        if (cp >= 0xD800 && cp < 0xE000) {
          uint32_t low = 0;
          if (cp < 0xDC00 && pos_ + 1 < size_ && data_[pos_] == '\\' && data_[pos_ + 1] == 'u') {
            pos_ += 2;
            if (!read_hex(&low)) return Fail("invalid \\u escape in string");
          }
          if (low < 0xDC00 || low >= 0xE000) {
            pos_ = escape;
            return Fail("lone UTF-16 surrogate in \\u escape");
          }
          cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
        }
        AppendUtf8(&unescaped_, cp);
        break;
      }
      default:
        pos_ -= 1;
        return Fail("invalid escape in string");
    }
  }
  return Fail("unterminated string");
}

bool JsonReader::SkipUtf8() {
  if (static_cast<unsigned char>(data_[pos_]) < 0x80) {
    ++pos_;
    return true;
  }
  uint32_t cp;
  const size_t length = DecodeUtf8(std::string_view(data_ + pos_, size_ - pos_), &cp);
  if (length == 0) return Fail("invalid UTF-8 in string");
  pos_ += length;
  return true;
}

bool JsonReader::ReadString(std::string_view* out) {
  // A short plain string right here (compact JSON): no general scan.
  if (!failed_ && pos_ < size_ && data_[pos_] == '"') {
    if (const size_t end = ShortPlainStringEnd(pos_); end != 0) {
      *out = std::string_view(data_ + pos_ + 1, end - pos_ - 1);
      pos_ = end + 1;
      return true;
    }
  }
  if (Peek() != JsonKind::kString) return Fail("expected a string");
  return ParseStringRaw(out);
}

bool JsonReader::ReadNumber(std::string_view* out) {
  if (Peek() != JsonKind::kNumber) return Fail("expected a number");
  size_t start = pos_;
  if (data_[pos_] == '-') ++pos_;
  auto digits = [&]() {
    size_t s = pos_;
    while (pos_ < size_ && data_[pos_] >= '0' && data_[pos_] <= '9') ++pos_;
    return pos_ - s;
  };
  if (pos_ < size_ && data_[pos_] == '0') {
    ++pos_;
  } else if (digits() == 0) {
    return Fail("invalid number");
  }
  if (pos_ < size_ && data_[pos_] == '.') {
    ++pos_;
    if (digits() == 0) return Fail("invalid number");
  }
  if (pos_ < size_ && (data_[pos_] == 'e' || data_[pos_] == 'E')) {
    ++pos_;
    if (pos_ < size_ && (data_[pos_] == '+' || data_[pos_] == '-')) ++pos_;
    if (digits() == 0) return Fail("invalid number");
  }
  *out = std::string_view(data_ + start, pos_ - start);
  return true;
}

namespace {

constexpr uint64_t kAsciiZeros = 0x3030303030303030ull;

// The value of eight decimal digits, one per byte (0-9 each), the most significant in the
// lowest byte: pairs, then quadruples, then the whole, each step a multiply and a shift.
inline uint64_t EightDigitsValue(uint64_t digits) {
  digits = (digits * 10 + (digits >> 8)) & 0x00FF00FF00FF00FFull;
  digits = (digits * 100 + (digits >> 16)) & 0x0000FFFF0000FFFFull;
  return (digits * 10000 + (digits >> 32)) & 0xFFFFFFFFull;
}

constexpr uint64_t kPowersOfTen[9] = {1,      10,      100,      1000,     10000,
                                      100000, 1000000, 10000000, 100000000};

}  // namespace

bool JsonReader::TryReadPlainDecimal(uint64_t* value, std::string_view* digits) {
  if (failed_) return false;
  SkipWhitespace();
  size_t p = pos_;
  const bool quoted = p < size_ && data_[p] == '"';
  if (quoted) ++p;
  const size_t start = p;
  uint64_t v = 0;
  const bool words = size_ - p >= 24;
  if (words) {
    // Up to three words of eight bytes: the digits of each word end at its first byte that
    // is not a digit (x = byte ^ '0' is 0-9 exactly for digits; the lowest flag is exact).
    for (int word = 0; word < 3; ++word) {
      uint64_t w;
      std::memcpy(&w, data_ + p, 8);
      const uint64_t x = w ^ kAsciiZeros;
      const uint64_t not_digit = ((x + 0x7676767676767676ull) | x) & 0x8080808080808080ull;
      const size_t n = not_digit == 0 ? 8 : static_cast<size_t>(__builtin_ctzll(not_digit)) / 8;
      if (n > 0) {
        // The n digits moved to the top bytes; zeros (leading digits) fill the bottom.
        const uint64_t chunk = EightDigitsValue(x << (8 * (8 - n)));
        if (__builtin_mul_overflow(v, kPowersOfTen[n], &v) ||
            __builtin_add_overflow(v, chunk, &v)) {
          return false;
        }
      }
      p += n;
      if (n < 8) break;
    }
  } else {
    while (p < size_ && data_[p] >= '0' && data_[p] <= '9') ++p;  // near the end: PlainDecimal
  }
  const size_t count = p - start;
  if (count == 0 || count > 20) return false;
  if (!words && !PlainDecimal(std::string_view(data_ + start, count), &v)) return false;
  if (quoted) {
    if (p >= size_ || data_[p] != '"') return false;
    ++p;
  } else {
    if (count > 1 && data_[start] == '0') return false;  // not JSON: let ReadNumber say so
    if (p < size_ && (data_[p] == '.' || data_[p] == 'e' || data_[p] == 'E')) return false;
  }
  *value = v;
  *digits = std::string_view(data_ + start, count);
  pos_ = p;
  return true;
}

bool JsonReader::TryReadPlainNumberArray(int64_t* out, size_t max, size_t* count) {
  if (failed_ || first_seen_.size() >= kMaxDepth) return false;  // BeginArray would fail
  size_t p = pos_;
  if (p >= size_ || data_[p] != '[') return false;
  ++p;
  if (p < size_ && data_[p] == ']') {
    *count = 0;
    pos_ = p + 1;
    return true;
  }
  for (size_t n = 0; n < max;) {
    const size_t start = p;
    int64_t v = 0;
    while (p < size_ && p - start < 18 && data_[p] >= '0' && data_[p] <= '9') {
      v = v * 10 + (data_[p] - '0');
      ++p;
    }
    if (p == start || (p - start > 1 && data_[start] == '0') || p >= size_) return false;
    out[n++] = v;
    if (data_[p] == ']') {
      *count = n;
      pos_ = p + 1;
      return true;
    }
    if (data_[p] != ',') return false;  // a 19th digit, a fraction, whitespace, ...
    ++p;
  }
  return false;
}

bool JsonReader::ReadBool(bool* out) {
  SkipWhitespace();
  if (size_ - pos_ >= 4 && std::memcmp(data_ + pos_, "true", 4) == 0) {
    pos_ += 4;
    *out = true;
    return true;
  }
  if (size_ - pos_ >= 5 && std::memcmp(data_ + pos_, "false", 5) == 0) {
    pos_ += 5;
    *out = false;
    return true;
  }
  // A word that only starts like a literal ("not json", "nul") is not JSON at all.
  return Fail(pos_ < size_ && (data_[pos_] == 't' || data_[pos_] == 'f')
                  ? "invalid JSON value"
                  : "expected true or false");
}

bool JsonReader::ReadNull() {
  SkipWhitespace();
  if (size_ - pos_ >= 4 && std::memcmp(data_ + pos_, "null", 4) == 0) {
    pos_ += 4;
    return true;
  }
  return Fail(pos_ < size_ && data_[pos_] == 'n' ? "invalid JSON value" : "expected null");
}

bool JsonReader::SkipValue() {
  switch (Peek()) {
    case JsonKind::kObject: {
      if (!BeginObject()) return false;
      std::string_view key;
      while (NextKey(&key)) {
        if (!SkipValue()) return false;
      }
      return !failed_;
    }
    case JsonKind::kArray: {
      if (!BeginArray()) return false;
      while (NextElement()) {
        if (!SkipValue()) return false;
      }
      return !failed_;
    }
    case JsonKind::kString: {
      std::string_view s;
      return ReadString(&s);
    }
    case JsonKind::kNumber: {
      std::string_view s;
      return ReadNumber(&s);
    }
    case JsonKind::kTrue:
    case JsonKind::kFalse: {
      bool b;
      return ReadBool(&b);
    }
    case JsonKind::kNull:
      return ReadNull();
    case JsonKind::kInvalid:
      if (failed_) return false;
      return Fail(pos_ >= size_ ? "unexpected end of file, expected a value"
                                : "invalid JSON value");
  }
  return false;
}

bool JsonReader::ExpectEnd() {
  if (failed_) return false;
  SkipWhitespace();
  if (pos_ != size_) return Fail("extra data after the JSON document");
  return true;
}

}  // namespace depgraph
