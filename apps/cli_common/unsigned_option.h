// A strict check for unsigned 64-bit options: CLI11 converts "-1" to 2^64-1 and saturates
// 10^30 to 2^64-1 without an error for uint64_t / size_t targets (hostile flags pass, round 3).
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <string>

namespace depgraph::cli {

/// Why `text` is no decimal integer in [0, max] (digits only: no sign, space or exponent), or
/// "" when it is one. O(length of text).
std::string UnsignedAtMostError(const std::string& text, uint64_t max);

/// A CLI11 validator: the option's value is decimal digits whose value is at most `max`; else
/// a usage error "Value V is not an integer in 0 to MAX". Shown in --help as UINT.
CLI::Validator UnsignedAtMost(uint64_t max);

}  // namespace depgraph::cli
