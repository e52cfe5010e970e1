// False serialization: tensormap edges between tasks whose byte sets do not conflict.
#pragma once

#include <cstdint>
#include <vector>

#include "depgraph/graph/graph.h"
#include "depgraph/graph/reachability.h"
#include "depgraph/reduce/access_model.h"

namespace depgraph {

/// Why the runtime's overlap test matched views whose bytes are disjoint (from the first
/// tensormap row of the finding).
enum class SerializationCause : uint8_t {
  kVersion,   ///< the consumer view is a newer version of the buffer: matched without geometry
  kDType,     ///< the views have different dtypes: the runtime gives up after the range test
  kStrided,   ///< different strides or a non-unit last stride (interleaved views): the
              ///< runtime only compares row-major views with equal strides
  kUnproven,  ///< same strides, but the views leave the reference shape (the runtime could
              ///< not decompose them) or the bytes are disjoint for another reason
};
/// Stable identifier for JSON ("version", "dtype", "strided", "unproven").
const char* SerializationCauseName(SerializationCause cause);

/// A set of false tensormap-only pairs connected through shared tasks: one pair, or a chain
/// of them such as an accumulator loop over disjoint rows.
struct FalseSerialization {
  std::vector<uint32_t> pairs;  ///< pair indices, ascending
  std::vector<uint32_t> tasks;  ///< node indices of the endpoints, in submit order
  SerializationCause cause = SerializationCause::kUnproven;
  TaskId tensor_id = 0;      ///< tensor of the first row
  int64_t consumer_arg = -1; ///< consumer argument of the first row
  uint8_t overlap = 0;       ///< the first row's `overlap` (index into overlap_names)
  /// At least two pairs, all rows on one tensor, and every task writes it: a loop whose
  /// iterations write disjoint parts of one buffer.
  bool accumulator = false;
  /// How much the graph's depth (in edges) shrinks with these pairs removed; -1 when not
  /// computed (over the recomputation budget).
  int64_t depth_gain = -1;
};

/// Limits of FindFalseSerialization.
struct SerializationOptions {
  /// Exact depth recomputations (O(V + E) each) allowed for findings on a longest path;
  /// 0 = automatic (at least 32, and as many as fit in about 2e8 edge visits).
  size_t max_recomputations = 0;
};

/// The outcome of the check.
struct SerializationReport {
  std::vector<FalseSerialization> findings;  ///< by their first task in submit order
  uint64_t candidates = 0;   ///< pairs whose every row is a tensormap row
  uint64_t false_pairs = 0;  ///< candidates whose endpoints' byte sets do not conflict
  /// Candidates left undecided: the byte sets meet only within a bounding range, or one task
  /// has an argument without a byte set.
  uint64_t undecided = 0;
  uint64_t depth = 0;                ///< longest path, in edges
  uint64_t depth_without_false = 0;  ///< the same with every false pair removed
  uint64_t gains_not_computed = 0;
};

/// Finds tensormap-only pairs (p, s) whose tasks' byte sets do not conflict (no byte that
/// one writes and the other reads or writes), and groups them into connected findings. A
/// pair that also has a creator or explicit row is not reported: the ordering stays.
/// Depth gains: a finding with no pair on a longest path gains 0 (top level + 1 + bottom
/// level < depth); the others are recomputed exactly, within the budget.
/// Cost: O(sum over candidates of args_p * args_s * intervals) for the byte test, O(V + E) for
/// levels, and O(V + E) per recomputed depth.
SerializationReport FindFalseSerialization(const DepGraph& graph, const AccessModel& model,
                                           const ReachabilityIndex& reach,
                                           const SerializationOptions& options = {});

}  // namespace depgraph
