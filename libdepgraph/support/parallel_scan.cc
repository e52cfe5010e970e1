#include "depgraph/internal/parallel_scan.h"

#include <algorithm>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace depgraph {

namespace {

// How far ahead of a 64-byte step the input is prefetched, in bytes.
constexpr size_t kScanPrefetch = 1024;

// One bit per byte of a 64-byte step.
struct StepMasks {
  uint64_t quote = 0;
  uint64_t backslash = 0;
  uint64_t open = 0;   // '{' or '['
  uint64_t close = 0;  // '}' or ']'
};

// '{' and '[' differ only in bit 0x20, and so do '}' and ']': or-ing 0x20 folds each pair.
inline StepMasks Classify(const char* p) {
  StepMasks m;
#if defined(__SSE2__)
  const __m128i quote = _mm_set1_epi8('"');
  const __m128i backslash = _mm_set1_epi8('\\');
  const __m128i open = _mm_set1_epi8('{');
  const __m128i close = _mm_set1_epi8('}');
  const __m128i fold = _mm_set1_epi8(0x20);
  for (int k = 0; k < 4; ++k) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 16 * k));
    const __m128i folded = _mm_or_si128(v, fold);
    auto bits = [&](__m128i eq) {
      return static_cast<uint64_t>(static_cast<uint32_t>(_mm_movemask_epi8(eq))) << (16 * k);
    };
    m.quote |= bits(_mm_cmpeq_epi8(v, quote));
    m.backslash |= bits(_mm_cmpeq_epi8(v, backslash));
    m.open |= bits(_mm_cmpeq_epi8(folded, open));
    m.close |= bits(_mm_cmpeq_epi8(folded, close));
  }
#else
  for (int i = 0; i < 64; ++i) {
    const char c = p[i];
    const uint64_t bit = uint64_t{1} << i;
    if (c == '"') m.quote |= bit;
    if (c == '\\') m.backslash |= bit;
    if ((c | 0x20) == '{') m.open |= bit;
    if ((c | 0x20) == '}') m.close |= bit;
  }
#endif
  return m;
}

// The bytes escaped by a backslash in a 64-byte step. *carry: on entry, whether the first byte
// is escaped (the previous step ended in an escaping backslash); on exit, whether the next
// step's first byte is. Backslashes are rare in deps.json, so they are walked one by one.
uint64_t EscapedBytes(uint64_t backslash, bool* carry) {
  uint64_t escaped = 0;
  if (*carry) {
    escaped = 1;
    backslash &= ~uint64_t{1};  // an escaped backslash escapes nothing
  }
  *carry = false;
  while (backslash != 0) {
    const int i = __builtin_ctzll(backslash);
    if (i == 63) {
      *carry = true;
      break;
    }
    escaped |= uint64_t{1} << (i + 1);
    backslash &= i + 2 >= 64 ? 0 : ~uint64_t{0} << (i + 2);
  }
  return escaped;
}

// Bit i = xor of bits 0..i: with one bit per quote, whether byte i is past an odd number.
uint64_t PrefixXor(uint64_t x) {
  x ^= x << 1;
  x ^= x << 2;
  x ^= x << 4;
  x ^= x << 8;
  x ^= x << 16;
  x ^= x << 32;
  return x;
}

}  // namespace

size_t ScanBytes(const char* data, size_t begin, size_t end, bool find_comma, ScanState* state) {
  ScanState s = *state;
  size_t i = begin;
  for (; i < end; ++i) {
    const char c = data[i];
    if (s.in_string) {
      if (s.escaped) {
        s.escaped = false;
      } else if (c == '\\') {
        s.escaped = true;
      } else if (c == '"') {
        s.in_string = false;
      }
      continue;
    }
    if (c == '"') {
      s.in_string = true;
    } else if (c == '[' || c == '{') {
      ++s.depth;
    } else if (c == ']' || c == '}') {
      if (--s.depth == 0) break;
    } else if (c == ',' && find_comma && s.depth == 1) {
      break;
    }
  }
  *state = s;
  return i;
}

namespace {

// The 64-byte steps of ScanStructure over data[begin, end), stopping with fewer than 64 bytes
// left or where the depth drops to 0 (*closed; the return value is then that position).
// Inlined into each instruction-set variant below.
__attribute__((always_inline)) inline size_t ScanSteps(const char* data, size_t begin,
                                                       size_t end, ScanState* state,
                                                       bool* closed) {
  *closed = false;
  size_t p = begin;
  while (p <= end && end - p >= 64) {
    // The scan is the first to read the input: fetch ahead of it (never past `end`).
    __builtin_prefetch(data + p + std::min<size_t>(kScanPrefetch, end - p - 1));
    const StepMasks m = Classify(data + p);
    bool carry = state->escaped;
    const uint64_t escaped = (m.backslash != 0 || carry) ? EscapedBytes(m.backslash, &carry) : 0;
    // Bit i: byte i is inside a string (an opening quote counts as inside, a closing one not).
    const uint64_t inside = PrefixXor(m.quote & ~escaped) ^ (state->in_string ? ~uint64_t{0} : 0);
    const uint64_t open = m.open & ~inside;
    const uint64_t close = m.close & ~inside;
    const int closes = __builtin_popcountll(close);
    if (closes < state->depth) {
      state->depth += __builtin_popcountll(open) - closes;
    } else {
      // The array may close within these 64 bytes: follow its brackets in order.
      for (uint64_t brackets = open | close; brackets != 0; brackets &= brackets - 1) {
        const int i = __builtin_ctzll(brackets);
        if ((open >> i) & 1) {
          ++state->depth;
        } else if (--state->depth == 0) {
          *closed = true;
          return p + static_cast<size_t>(i);
        }
      }
    }
    state->in_string = (inside >> 63) != 0;
    state->escaped = carry;
    p += 64;
  }
  return p;
}

size_t ScanStepsBaseline(const char* data, size_t begin, size_t end, ScanState* state,
                         bool* closed) {
  return ScanSteps(data, begin, end, state, closed);
}

// x86-64's baseline has no POPCNT instruction (the builtin then calls libgcc): a variant with
// it, chosen at run time. Not `target_clones`: its ifunc resolver runs during relocation,
// before a sanitizer runtime is initialised, and crashes instrumented builds.
#if defined(__x86_64__) && defined(__GNUC__)
__attribute__((target("popcnt"))) size_t ScanStepsPopcnt(const char* data, size_t begin,
                                                         size_t end, ScanState* state,
                                                         bool* closed) {
  return ScanSteps(data, begin, end, state, closed);
}

bool CpuHasPopcnt() {
  __builtin_cpu_init();
  return __builtin_cpu_supports("popcnt");
}
#endif

}  // namespace

size_t ScanStructure(const char* data, size_t begin, size_t end, ScanState* state) {
  bool closed;
#if defined(__x86_64__) && defined(__GNUC__)
  static const bool kPopcnt = CpuHasPopcnt();
  const size_t p = kPopcnt ? ScanStepsPopcnt(data, begin, end, state, &closed)
                           : ScanStepsBaseline(data, begin, end, state, &closed);
#else
  const size_t p = ScanStepsBaseline(data, begin, end, state, &closed);
#endif
  if (closed) return p;
  return ScanBytes(data, p, end, false, state);  // the last bytes, fewer than 64
}

ArraySplitter::ArraySplitter(const char* data, size_t size, size_t open, size_t block_bytes)
    : ArraySplitter(
          [data](size_t offset, size_t length, char* dest) {
            std::memcpy(dest, data + offset, length);
            return true;
          },
          size, open, block_bytes, size) {}

ArraySplitter::ArraySplitter(ByteReader read, size_t size, size_t open, size_t block_bytes,
                             size_t window_bytes)
    : read_(std::move(read)),
      chunk_(std::max<size_t>(window_bytes, 1)),
      size_(size),
      first_(open + 1),
      block_bytes_(std::max<size_t>(block_bytes, 1)),
      scan_pos_(open + 1) {
  separators_.push_back(open);
}

const char* ArraySplitter::Bytes(size_t from, size_t to) {
  if (from >= window_begin_ && to <= window_end_) return window_.data() - window_begin_;
  const size_t end = std::min(size_, std::max(to, from + chunk_));
  window_.resize(end - from);
  if (!read_(from, end - from, window_.data())) {
    window_begin_ = window_end_ = 0;
    return nullptr;
  }
  window_begin_ = from;
  window_end_ = end;
  // Biased so that input offsets index it directly: only [from, end) is ever read.
  return window_.data() - window_begin_;
}

void ArraySplitter::FindNextSeparator() {
  const size_t j = separators_.size();
  const size_t room = size_ > first_ ? size_ - first_ : 0;
  const size_t target = j > room / block_bytes_ ? size_ : first_ + j * block_bytes_;
  if (separators_.back() >= target) {
    // No separator between the previous block's start and this one's: same cut, empty block.
    separators_.push_back(separators_.back());
    return;
  }
  // Structure up to the target, then byte by byte to the first ',' at the array's level:
  // both a window at a time. Bytes that cannot be read end the array where they start.
  size_t at = size_;
  // Runs scan(bytes, pos, to) (where it stopped, or `to`) over [from, to) a window at a time;
  // true, with `at` set, once it stops early or bytes cannot be read.
  auto stops = [&](size_t from, size_t to, auto&& scan) {
    for (size_t pos = from; pos < to;) {
      const size_t end = pos + std::min(chunk_, to - pos);
      const char* bytes = Bytes(pos, end);
      const size_t stop = bytes == nullptr ? pos : scan(bytes, pos, end);
      if (stop < end) {
        at = stop;
        return true;
      }
      pos = end;
    }
    return false;
  };
  if (!stops(scan_pos_, target, [&](const char* bytes, size_t pos, size_t end) {
        return ScanStructure(bytes, pos, end, &state_);
      })) {
    stops(target, size_, [&](const char* bytes, size_t pos, size_t end) {
      return ScanBytes(bytes, pos, end, true, &state_);
    });
  }
  separators_.push_back(at);
  const char* here = at < size_ ? Bytes(at, at + 1) : nullptr;
  if (here == nullptr || here[at] != ',') {
    closed_ = true;  // the array's closing bracket, the input's end, or what cannot be read
    scan_pos_ = std::min(at + 1, size_);
    return;
  }
  scan_pos_ = at + 1;
  state_ = ScanState{};
}

bool ArraySplitter::Block(size_t j, BlockBounds* bounds) {
  while (separators_.size() <= j + 1 && !closed_) FindNextSeparator();
  if (j + 1 >= separators_.size()) return false;
  bounds->begin = separators_[j];
  bounds->end = separators_[j + 1];
  return true;
}

}  // namespace depgraph
