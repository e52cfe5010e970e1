// What the fuzz harnesses share: the input bound and the check that turns a broken invariant
// into an abort() libFuzzer reports.
#pragma once

#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <string_view>

namespace depgraph::fuzz {

/// Largest input a harness looks at; larger ones return at once, so every run is bounded work.
inline constexpr size_t kMaxInputBytes = 64 * 1024;

/// Aborts with `what` on stderr unless `ok`: the fuzzer (or the replay test) reports the input
/// as a crash. O(1).
inline void Require(bool ok, std::string_view what) {
  if (ok) return;
  std::fprintf(stderr, "fuzz invariant broken: %.*s\n", static_cast<int>(what.size()), what.data());
  std::abort();
}

/// The message of a failed load is one non-empty line. O(message).
inline void RequireOneLineMessage(std::string_view message) {
  Require(!message.empty(), "a failure without a message");
  Require(message.find('\n') == std::string_view::npos, "a message of more than one line");
}

}  // namespace depgraph::fuzz
