// A cycle of a dependency graph as one bounded line for error messages.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>

namespace depgraph {

/// Cycles of at most this many ids (the first one repeated at the end included) are listed in
/// full; longer ones show their first and last kCycleEndIds ids around "...".
inline constexpr size_t kMaxFullCycleIds = 16;
inline constexpr size_t kCycleEndIds = 3;

/// `prefix` + ": " + the ids joined by " -> " for a cycle of `count` ids (first repeated at the
/// end), id(i) giving the i-th. A longer cycle than kMaxFullCycleIds becomes
/// `prefix of N tasks: a -> b -> c -> ... -> x -> y -> a` (N = count - 1), so the message of a
/// 200k-task cycle stays short. Cost: O(min(count, kMaxFullCycleIds)) calls of id.
std::string CycleMessage(std::string_view prefix, size_t count,
                         const std::function<std::string(size_t)>& id);

}  // namespace depgraph
