// Streaming JSON pull reader over a memory-mapped file.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace depgraph {

/// Kind of the next JSON value, as seen by JsonReader::Peek().
enum class JsonKind { kObject, kArray, kString, kNumber, kTrue, kFalse, kNull, kInvalid };

/// Name of a JsonKind for error messages ("object", "string", ...).
const char* JsonKindName(JsonKind kind);

/// A pull parser that walks one JSON document token by token without building a tree.
///
/// The file is mapped read-only; strings without escapes are returned as views into the
/// mapping, so reading costs O(file size) time and O(nesting depth) memory besides the pages
/// the kernel keeps resident. Call ReleaseConsumed() between large records to let the kernel
/// drop pages already parsed (bounded RSS on multi-gigabyte files).
///
/// Errors: every method returns false on malformed input and sets error() to
/// "line L:column C: <what>"; after the first error all calls fail. Strings (keys included)
/// must be well-formed UTF-8 with no lone UTF-16 surrogate in a \u escape (RFC 8259 §8),
/// checked where they are read: ASCII costs nothing extra.
class JsonReader {
 public:
  JsonReader() = default;
  ~JsonReader();
  JsonReader(const JsonReader&) = delete;
  JsonReader& operator=(const JsonReader&) = delete;

  /// Maps `path`. On failure returns false with a message in *err (no location prefix).
  bool Open(const std::string& path, std::string* err);
  /// Reads from an in-memory buffer (tests); the buffer must outlive the reader.
  void OpenBuffer(std::string_view text);
  /// Reads bytes [begin, end) of a larger input from `window`, a copy of just those bytes
  /// (ReadAt), at their positions in the input: position() and ResumeInArray speak input
  /// offsets. For the parallel loader's blocks; the window must outlive the reader. Line and
  /// column in its errors count from `begin` (a block's errors are never shown: the
  /// sequential parse reports them). Only on a reader never opened with Open; it may be
  /// re-pointed any number of times. O(1).
  void OpenWindow(const char* window, size_t begin, size_t end);
  /// Copies input bytes [offset, offset + length) to `dest`: with pread(2) from a mapped file,
  /// which costs less than a first touch of the mapping's pages (each fault of a fresh
  /// mapping is a trip to the hypervisor on the VMs we measure on), or from the buffer.
  /// False on an I/O error or a range past the end. Thread-safe. O(length).
  bool ReadAt(size_t offset, size_t length, char* dest) const;

  /// Kind of the next value without consuming it. O(whitespace).
  JsonKind Peek() {
    if (failed_) return JsonKind::kInvalid;
    SkipWhitespace();
    if (pos_ >= size_) return JsonKind::kInvalid;
    switch (data_[pos_]) {
      case '{': return JsonKind::kObject;
      case '[': return JsonKind::kArray;
      case '"': return JsonKind::kString;
      case 't': return JsonKind::kTrue;
      case 'f': return JsonKind::kFalse;
      case 'n': return JsonKind::kNull;
      case '-': return JsonKind::kNumber;
      default:
        return (data_[pos_] >= '0' && data_[pos_] <= '9') ? JsonKind::kNumber
                                                           : JsonKind::kInvalid;
    }
  }
  /// Consumes '{'. Then call NextKey() until it returns false (at '}').
  bool BeginObject();
  /// Reads the next key of the current object and the ':' after it. Returns false at the
  /// closing '}' (consumed) or on error (check failed()).
  bool NextKey(std::string_view* key);
  /// Consumes '['. Then call NextElement() before each element until it returns false.
  bool BeginArray();
  /// True if another element follows in the current array; false at ']' (consumed) or error.
  bool NextElement();
  /// Reads a string value. The view stays valid until the next call on this reader.
  bool ReadString(std::string_view* out);
  /// Reads a number token verbatim (e.g. "-12", "1.5e3").
  bool ReadNumber(std::string_view* out);
  /// The ids and sizes of deps.json, read fast. When the next value is 1 to 20 ASCII digits
  /// whose value is below 2^64, written as a JSON number (without a leading zero, fraction or
  /// exponent) or as a string holding nothing else, consumes it, sets *value, *digits (a view
  /// of the digits) and returns true. Otherwise consumes nothing (whitespace aside) and
  /// returns false: ReadNumber or ReadString then read the value, or report what is wrong
  /// with it. O(digits), eight at a time.
  bool TryReadPlainDecimal(uint64_t* value, std::string_view* digits);
  /// Shapes and strides, read fast. When the next value is a compact array (no whitespace) of
  /// at most `max` JSON numbers of 1 to 18 digits (no sign, leading zero, fraction or
  /// exponent), consumes it, stores the numbers in out[0..*count) and returns true (also for
  /// `[]`). Otherwise consumes nothing and returns false: BeginArray and the element readers
  /// then read it, or report what is wrong with it. O(digits).
  bool TryReadPlainNumberArray(int64_t* out, size_t max, size_t* count);
  /// Reads true/false.
  bool ReadBool(bool* out);
  /// Reads null.
  bool ReadNull();
  /// Skips any value, however nested. O(size of the value).
  bool SkipValue();
  /// Checks that only whitespace remains.
  bool ExpectEnd();

  /// Lets the kernel drop mapped pages before the current position and maps the pages ahead
  /// in bulk (PrefetchTo and ReleaseBefore around position()). Cheap; call often.
  void ReleaseConsumed();
  /// Maps the file up to byte `end` ahead of use, in 64 MiB steps (MADV_POPULATE_READ) instead
  /// of one page fault per page. No effect on a buffer. Not to be called concurrently with
  /// itself or ReleaseConsumed(); ReleaseBefore() may run alongside. O(pages mapped).
  void PrefetchTo(size_t end);
  /// Lets the kernel drop the mapped pages that end more than 64 MiB before `pos` (they are
  /// read back from the page cache if touched again). No effect on a buffer. O(pages dropped).
  void ReleaseBefore(size_t pos);
  /// Lets the kernel drop the mapped pages wholly inside bytes [begin, end), for a thread that
  /// reads ahead of the reader over text() (LookAhead in timing/merged_trace.cc). Touches no
  /// reader state, so any thread may call it. No effect on a buffer. O(pages dropped).
  void DropPages(size_t begin, size_t end) const;

  /// Continues reading at byte `pos` as if inside an array nested `depth` levels deep
  /// (objects and arrays counted, the array included) that has (`first_seen`) or has not yet
  /// had an element; clears any error. The parallel loader positions readers at block
  /// boundaries with it. O(depth).
  void ResumeInArray(size_t pos, size_t depth, bool first_seen);
  /// The whole input, for other readers over the same bytes (OpenBuffer). O(1).
  std::string_view text() const { return std::string_view(data_, size_); }

  bool failed() const { return failed_; }
  const std::string& error() const { return error_; }
  /// Sets an error at the current position (for semantic errors found by callers).
  bool Fail(const std::string& what);
  /// Bytes consumed so far and total size, for progress reports.
  size_t position() const { return pos_; }
  size_t size() const { return size_; }

 private:
  void SkipWhitespace() {
    // Compact JSON has no whitespace between tokens: test one byte before looping.
    if (pos_ < size_ && static_cast<unsigned char>(data_[pos_]) > ' ') return;
    SkipWhitespaceLoop();
  }
  void SkipWhitespaceLoop();
  bool Expect(char c, const char* what);
  bool ParseStringRaw(std::string_view* out);
  size_t ShortPlainStringEnd(size_t quote) const;
  // Consumes one well-formed UTF-8 character at pos_ (pos_ < size_); false with an error.
  bool SkipUtf8();
  void LineColumn(size_t pos, size_t* line, size_t* column) const;

  const char* data_ = nullptr;
  size_t size_ = 0;
  size_t pos_ = 0;
  bool mapped_ = false;
  int fd_ = -1;              // the mapped file, kept open for ReadAt
  size_t window_begin_ = 0;  // OpenWindow: the first byte the window holds
  size_t released_ = 0;
  size_t populated_ = 0;  // prefix of the mapping already mapped in ahead of the parser
  // Per nesting level: true once the first member/element has been read.
  std::string first_seen_;
  std::string unescaped_;
  bool failed_ = false;
  std::string error_;
};

}  // namespace depgraph
