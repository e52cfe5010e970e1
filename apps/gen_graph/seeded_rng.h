// Seeded randomness for gen_graph whose output is identical on every standard library.
#pragma once

#include <cstdint>
#include <random>

namespace gen_graph {

/// A std::mt19937_64 (whose output sequence the C++ standard fixes) with simple draws built
/// from raw 64-bit values. std::uniform_int_distribution and friends are deliberately not
/// used: their algorithms differ between standard libraries, and the same seed must give
/// byte-identical graphs everywhere. Every draw costs O(1) and consumes exactly one value.
class SeededRng {
 public:
  explicit SeededRng(uint64_t seed) : engine_(seed) {}

  /// A raw 64-bit value.
  uint64_t Next() { return engine_(); }
  /// A value in [0, n) (raw value modulo n; the bias is below 2^-40 for our n). 0 if n == 0.
  uint64_t Below(uint64_t n);
  /// A value in [lo, hi], both inclusive; lo if hi < lo.
  int64_t Between(int64_t lo, int64_t hi);
  /// True with probability num / den.
  bool Chance(uint64_t num, uint64_t den) { return Below(den) < num; }
  /// A non-zero 64-bit identifier (tensor ids look like hashes in real captures).
  uint64_t NonZeroId();

 private:
  std::mt19937_64 engine_;
};

}  // namespace gen_graph
