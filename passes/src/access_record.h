// The access records of AutoDeriveTaskDependencies (spec §2.3) and the relations between two of
// them that the sound mode asks about. Internal header.
#pragma once

#include <optional>
#include <utility>
#include <vector>

#include "auto_derive_prepass.h"
#include "depgraph_passes/ir.h"
#include "depgraph_passes/storage_roots.h"

namespace depgraph::passes {

/// How a call argument touches its tensor.
enum class Access { kRead, kWrite, kReadWrite };

/// Whether the access reads its bytes (so the runtime's lookup orders it after earlier writers).
inline bool Reads(Access a) { return a != Access::kWrite; }
/// Whether the access writes its bytes.
inline bool Writes(Access a) { return a != Access::kRead; }

/// An access record of §2.3.
struct Record {
  StorageAlt alt;
  Access kind = Access::kRead;
  VarId producer = -1;
  bool direct = false;
  bool dynamic_producer = false;
  int dyn_depth = 0;
  int dyn_id = 0;
  int arg_index = 0;
  Expr* call = nullptr;  ///< the recording call (sound mode: cross-iteration hazards)
  /// A write whose producer was re-expressed as a loop return var although the runtime does
  /// not chain the loop's iterations (a dynamic parallel summary, or a fixed-trip loop whose
  /// write is not InOut): the edge names the last iteration only (sound mode (e)).
  bool last_iteration_only = false;
  /// The if branches the access was made in: (if statement, else branch?). Sound mode: an
  /// access in the other branch of one of these ifs cannot meet this one in an iteration.
  std::vector<std::pair<const Stmt*, bool>> branches;
  /// The accessed value is one band of a fixed parent per iteration of a loop (rule (b)).
  std::optional<LoopIndexedSlice> loop_indexed;
};

/// Whether two accesses sit in different branches of one `if` (so at most one of them runs in
/// an iteration of the enclosing loops). O(|a| x |b|), both the if nesting depth.
inline bool InExclusiveBranches(const std::vector<std::pair<const Stmt*, bool>>& a,
                                const std::vector<std::pair<const Stmt*, bool>>& b) {
  for (const auto& [stmt, branch] : a) {
    for (const auto& [other, other_branch] : b) {
      if (stmt == other && branch != other_branch) return true;
    }
  }
  return false;
}

/// The call-site direction of a record's argument (InOut for records without a call: the
/// seeded caller records of (g) and the reads of (h), taken as both publishing and looking up).
inline ArgDir DirOf(const Record& r) {
  if (r.call == nullptr) return ArgDir::kInOut;
  return r.call->attrs.arg_directions[static_cast<size_t>(r.arg_index)];
}
/// Whether the runtime registers the record's write in its TensorMap (InOut, OutputExisting).
inline bool Publishes(const Record& r) {
  const ArgDir d = DirOf(r);
  return d == ArgDir::kInOut || d == ArgDir::kOutputExisting;
}
/// Whether the record's task looks up earlier writers (Input, InOut).
inline bool LooksUp(const Record& r) {
  const ArgDir d = DirOf(r);
  return d == ArgDir::kInput || d == ArgDir::kInOut;
}

/// Whether `a` and `b` take bands of one parent at `loop`'s index (LoopIndexedSlice):
/// different iterations touch disjoint bands when |step| is at least the extent of both. O(1).
bool DisjointAcrossIterations(const Stmt& loop, const Record& a, const Record& b);

/// Whether the submit that recorded `r` lists among its user deps an iter arg of `loop` that
/// the loop's yield sets to this submit's own TaskId, so iteration k+1 waits on k in any scope.
/// O(deps x iter args).
bool ChainedByUserDeps(const Stmt& loop, const Record& r);

}  // namespace depgraph::passes
