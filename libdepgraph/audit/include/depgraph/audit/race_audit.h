// Races: pairs of tasks that touch the same bytes, at least one writing, with no path
// between them in the captured graph.
#pragma once

#include <cstdint>
#include <vector>

#include "depgraph/graph/graph.h"
#include "depgraph/graph/reachability.h"
#include "depgraph/reduce/access_model.h"

namespace depgraph {

/// Which access came first in submit order and which second.
enum class RaceKind : uint8_t {
  kRaw,  ///< the first task writes bytes the second reads
  kWaw,  ///< both write
  kWar,  ///< the first reads bytes the second overwrites (never tracked by the runtime)
};
/// "RAW", "WAW" or "WAR".
const char* RaceKindName(RaceKind kind);

/// Why the runtime did not order the two tasks, as far as deps.json tells.
enum class RaceCause : uint8_t {
  kWarUntracked,      ///< WAR: a writer never waits for earlier readers
  kNoDepRead,         ///< the reader passes the tensor as NO_DEP (no_dep_args)
  kNoLookupWrite,     ///< the second writer is OUTPUT_EXISTING, which does not look up writers
  kNoInferredEdges,   ///< the second task got no creator or tensormap row at all: it was
                      ///< submitted in a manual scope, or all its views are manual_dep
  kElementUnits,      ///< different element sizes: the runtime compares raw element offsets
  kUnpublished,       ///< otherwise: the first write was not published (manual scope,
                      ///< manual_dep view) or the runtime lost it
};
/// Stable identifier for JSON ("war_untracked", "no_dep_read", ...).
const char* RaceCauseName(RaceCause cause);

/// One side of a race: the task and the argument whose bytes meet the other side's.
struct RaceSide {
  uint32_t task = 0;      ///< index into DepGraph::tasks
  int64_t arg_idx = -1;
  ArgType type = ArgType::kMissing;
  TaskId tensor_id = 0;
  bool approximate = false;
};

/// One reported race.
struct Race {
  RaceKind kind = RaceKind::kRaw;
  RaceCause cause = RaceCause::kUnpublished;
  RaceSide first;   ///< earlier in submit order
  RaceSide second;  ///< later in submit order
  int64_t begin = 0;  ///< first shared byte (absolute address)
  int64_t end = 0;    ///< one past the last shared byte
  int64_t bytes = 0;  ///< number of shared bytes of the two arguments
  /// Either argument's byte set is a bounding range: the overlap may not be real.
  bool approximate = false;
};

/// Limits of FindRaces.
struct RaceOptions {
  /// Races kept in RaceReport::races; counting goes on past it.
  size_t max_races = 100000;
  /// Reader-list entries compared against a new reader to drop the ones it supersedes.
  int prune_window = 16;
  /// Threads of the sweep (0 = every core): from 2 up, its two address parts run side by side.
  /// Nothing reported depends on it.
  unsigned threads = 0;
  /// Sweep in two address parts (false: one sweep over everything). The races are the same
  /// either way; the reachability queries asked may differ.
  bool split = true;
};

/// The outcome of the sweep.
struct RaceReport {
  std::vector<Race> races;  ///< by second task, then first task (submit order)
  uint64_t total = 0;       ///< races found (also those past max_races)
  uint64_t by_kind[3] = {0, 0, 0};  ///< indexed by RaceKind
  uint64_t approximate = 0;
  bool truncated = false;
  uint64_t reads_checked = 0;   ///< read accesses meeting bytes someone writes
  uint64_t reads_skipped = 0;   ///< read accesses of bytes nobody writes (cannot race)
  uint64_t writes_checked = 0;
  uint64_t fresh_outputs = 0;   ///< OUTPUT slots placed (state of their bytes reset)
  uint64_t allocation_resets = 0;  ///< buffers of allocation nodes (state reset)
  /// Pairs whose predecessor was submitted after its successor (never in runtime captures;
  /// the sweep's completeness argument assumes there are none).
  uint64_t edges_against_submit_order = 0;
};

/// Finds races with a frontier sweep in submit order.
///
/// State, over absolute byte addresses: the last writer of every byte, and the readers since
/// that write. A read is checked against the last writer (RAW), a write against the last
/// writer (WAW) and every reader since (WAR); then the state moves on. Each reported pair is
/// a true race: the two arguments share bytes, one writes, and `reach` finds no path either
/// way. Completeness: the first racing access of every byte is reported; a later access is
/// reported when it races with the frontier (a race hidden behind an already reported one,
/// e.g. with a writer older than an unordered newer writer, is not listed again). A reader is
/// dropped from the frontier when a newer reader of the same bytes is ordered after it (if
/// the newer one is ordered before a writer, so is the older). A runtime-allocated OUTPUT
/// resets its bytes: the runtime only hands out memory whose previous users have retired.
/// So does a buffer of an allocation node, right after the last task of its ring with a
/// smaller local id (the earliest point it can have been allocated).
/// Bytes nobody writes are skipped, so weights and other read-only inputs cost nothing.
/// Per pair, one race is kept, RAW before WAW before WAR.
///
/// Cost: O(A log S + Q) time for A accesses over S segments and Q reachability queries (about
/// one per access and distinct partner on runtime graphs); O(S + live reader lists + R)
/// memory for R racing pairs (12 bytes each). Writers are kept twice, per byte and as coarse
/// segments whose writer every finer writer reaches, so a read over many rows written by one
/// chain of tasks costs one query. The sweep runs as two parts over disjoint address ranges
/// (cut where no access crosses; between written intervals when an edge goes against submit
/// order), side by side from 2 threads: the races are those of one sweep, for any thread
/// count. Queries use their own scratch and are added to reach->stats().
RaceReport FindRaces(const DepGraph& graph, const AccessModel& model, ReachabilityIndex* reach,
                     const RaceOptions& options = {});

/// A buffer of an allocation node whose bytes the sweep forgets before task `at`.
struct AllocationReset {
  uint32_t at = 0;  ///< submit index of the task before which the state is reset
  ByteInterval bytes;
};

/// What FindRaces needs from the graph alone, without the access model: computed apart so
/// that it can run beside the model (RunAudit gives it to whichever stage ends first).
struct RaceGraphFacts {
  std::vector<uint32_t> task_node;  ///< per task: its node, or UINT32_MAX
  std::vector<uint8_t> inferred_in;  ///< per node: 1 if a creator or tensormap row enters it
  std::vector<AllocationReset> resets;  ///< by task, then bytes; no duplicates
  uint64_t edges_against_submit_order = 0;  ///< RaceReport's field of that name
};

/// The graph facts of FindRaces. O(T + V + E + rows + R log R) time for T tasks, V nodes, E
/// pairs and R allocation rows (plus O(log V) per task that is not its node's own); O(T + V +
/// R) memory. Random lookups (tensors, successors) are prefetched ahead.
RaceGraphFacts PrepareRaceGraphFacts(const DepGraph& graph);

/// FindRaces with the graph facts computed beforehand by PrepareRaceGraphFacts(graph).
RaceReport FindRaces(const DepGraph& graph, const RaceGraphFacts& facts, const AccessModel& model,
                     ReachabilityIndex* reach, const RaceOptions& options = {});

}  // namespace depgraph
