// Storage regions and locations of spec §2.1: (root Var, region) alternatives, overlap,
// type adjustment and merging. Pure value helpers; the flow-insensitive walk that assigns
// locations lives in passes/src/auto_derive_prepass.cc.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "depgraph_passes/ir.h"

namespace depgraph::passes {

/// A location with more alternatives than this is Unsupported (spec §2.9).
inline constexpr int kMaxStaticRootAlternatives = 4;

/// Region kinds of spec §2.1.
enum class RegionKind { kFull, kBox, kConservative, kDynamic, kUnknown };

/// Name of a region kind as the debug log spells it ("Full", "Box", ...). O(1).
const char* RegionKindName(RegionKind kind);

/// A part of a root: kind plus, for kBox, absolute constant offsets and shape.
struct Region {
  RegionKind kind = RegionKind::kFull;
  std::vector<int64_t> offsets;
  std::vector<int64_t> shape;
  bool operator==(const Region&) const = default;
};

/// One alternative of a location: a root Var and the region of it.
struct StorageAlt {
  VarId root = -1;
  Region region;
  bool operator==(const StorageAlt&) const = default;
};

/// A location: alternatives in first-seen order; empty = none known.
using Location = std::vector<StorageAlt>;

/// True when two regions may overlap (boxes: intersection test, overflow = overlap). O(rank).
bool RegionsMayOverlap(const Region& a, const Region& b);

/// True for Full, Box and Conservative (precise enough for a direction rewrite). O(1).
bool RegionIsPrecise(const Region& r);

/// True when `outer` provably contains all of `inner` on the same root: `outer` is Full, or both
/// are Boxes of equal rank with `inner` inside `outer` in every dimension. Conservative, Dynamic
/// and Unknown never prove containment (used by the sound mode of AutoDeriveTaskDependencies).
/// O(rank).
bool RegionContains(const Region& outer, const Region& inner);

/// Type classes of spec §1.2.
enum class ViewClass { kPackedND, kConservativeND, kOther };

/// Classifies a tensor type (no type known = packed-ND). O(rank).
ViewClass ClassifyType(const std::optional<Type>& type);

/// "Adjust by type" of §2.1 applied in place. O(alternatives).
void AdjustByType(const std::optional<Type>& type, Location* loc);

/// Merge of §2.1 (if/loop merges): b's alternatives appended, same root with a different
/// region -> Unknown. O(|a| * |b|).
Location MergeLocations(const Location& a, const Location& b);

/// Slices every alternative of `parent` (rule 3 of §2.1); `offsets`/`shape` empty optional
/// when not all constant. O(alternatives * rank).
Location SliceLocation(const Location& parent, const std::optional<std::vector<int64_t>>& shape,
                       const std::optional<std::vector<int64_t>>& offsets);

/// MemRef may-alias of §1.2: same base and (symbolic offset or intersecting byte ranges). O(1).
bool MemRefsMayAlias(const MemRef& a, const MemRef& b);

}  // namespace depgraph::passes
