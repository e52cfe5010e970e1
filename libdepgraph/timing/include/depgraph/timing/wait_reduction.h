// The runtime's bounded-bitmap WAIT-edge reduction, simulated on a capture and measured against
// the exact transitive reduction of the WAIT graph (spec/viewer.md §9, `depgraph wait-sim`).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "depgraph/graph/graph.h"

namespace depgraph {

/// Which part of a task id tells two scopes apart when counting cross-scope pairs.
enum class WaitScopeKey : uint8_t {
  kHighWord,  ///< capture names no runtime: the upper 32 bits of the id (ring, or hbg scope)
  kRing,      ///< "tensormap_and_ringbuffer": the ring, bits 32..39
  kHbgScope,  ///< "host_build_graph": space and parent, bits 62..63 and 32..51
};
/// "id>>32", "ring" or "space+parent" (the JSON spelling).
const char* WaitScopeKeyName(WaitScopeKey key);

/// The outcome of the bitmap model at one window size (bitmap length) BL.
struct WaitWindowStats {
  uint32_t window = 0;  ///< BL
  /// WAIT pairs the bitmap removes, as pair indices, ascending.
  std::vector<uint32_t> removed_pairs;
  uint64_t demote_to_retain = 0;     ///< removed pairs that also retain: the runtime keeps RETAIN
  uint64_t pure_drop = 0;            ///< removed pairs without retain: dropped entirely
  uint64_t retain_uncertain = 0;     ///< removed pairs whose retain flag is a guess (explicit rows)
  uint64_t pairs_within_window = 0;  ///< WAIT pairs with 0 <= distance <= BL
  uint64_t window_miss_pairs = 0;    ///< WAIT pairs with distance < 1 or > BL
  uint64_t redundant_window_misses = 0;  ///< redundant pairs among those: out of reach
  uint64_t bitmap_misses = 0;  ///< redundant pairs inside the window the bitmap still keeps
  uint64_t cross_scope_removed = 0;
  uint64_t cross_scope_misses = 0;  ///< redundant cross-scope pairs the bitmap keeps
};

/// Everything `depgraph wait-sim` reports about one capture.
struct WaitReductionReport {
  /// Submission order: tasks[] entries in file order, with every WAIT predecessor that is not
  /// in tasks[] (an allocation) inserted just before its first consumer. seq is a position in
  /// it; the distance of a pair (p, t) is seq[t] - seq[p].
  uint64_t tasks = 0;
  uint64_t inserted = 0;  ///< allocations inserted into the order
  /// Per pair of the graph: bit 0 WAIT, bit 1 retain, bit 2 retain uncertain (every retain
  /// comes from explicit rows, whose wait-only kind the capture does not keep), bit 3
  /// redundant in the WAIT graph, bit 4 cross-scope.
  std::vector<uint8_t> pair_class;
  uint64_t wait_pairs = 0;
  uint64_t upper_bound = 0;  ///< WAIT pairs implied by a longer WAIT path (exact reduction)
  uint64_t full_demote_to_retain = 0;
  uint64_t full_pure_drop = 0;
  uint64_t full_retain_uncertain = 0;
  /// Distances of the WAIT pairs with distance >= 0 (p50/p90/p99 = the element at
  /// floor(q * n), clamped to the last; 0 when there is none).
  uint64_t distance_count = 0;
  int64_t distance_p50 = 0, distance_p90 = 0, distance_p99 = 0, distance_max = 0;
  WaitScopeKey scope_key = WaitScopeKey::kHighWord;
  uint64_t cross_scope_wait_pairs = 0;
  uint64_t cross_scope_redundant = 0;
  std::vector<WaitWindowStats> windows;  ///< one per requested BL, in the order given
};

/// Per-pair class bits of WaitReductionReport::pair_class.
inline constexpr uint8_t kWaitPair = 1;
inline constexpr uint8_t kWaitRetain = 2;
inline constexpr uint8_t kWaitRetainUncertain = 4;
inline constexpr uint8_t kWaitRedundant = 8;
inline constexpr uint8_t kWaitCrossScope = 16;

/// Flags of one pair: the OR over its rows of the row's `flags` (a row without the key, or
/// with an empty array: creator and explicit rows wait and retain, tensormap rows wait,
/// any other source waits and retains).
///
/// Simulates the runtime's online reduction for every window in `windows` (each >= 1): in
/// submission order, task t sets, for each WAIT predecessor p at distance d in [1, BL], the
/// direct bit d-1 and, when d < BL, ORs R[p] << d into `via`; R[t] = (direct | via) masked to
/// BL bits; (p, t) is removed iff `via` has bit d-1. The exact reduction of the WAIT graph is
/// the upper bound. Returns false with a one-line message on a cyclic WAIT graph (naming the
/// cycle), a successor that has no place in the order (not in tasks[] and no predecessor of
/// anything), or a runtime name it does not know.
/// Cost: O(V + E) for the order and flags, the structural reduction (reduction.h) of the WAIT
/// graph (on `threads` threads, 0 = every core; the result does not depend on it), and per
/// window O(E * BL / 64) word operations; memory O(V + E) plus BL * BL bits per window (only
/// the last BL tasks' bitmaps are live).
bool SimulateWaitReduction(const DepGraph& graph, const std::vector<uint32_t>& windows,
                           WaitReductionReport* report, std::string* err, unsigned threads = 0);

}  // namespace depgraph
