// Storage regions and locations (spec §2.1).
#include "depgraph_passes/storage_roots.h"

namespace depgraph::passes {

const char* RegionKindName(RegionKind kind) {
  switch (kind) {
    case RegionKind::kFull: return "Full";
    case RegionKind::kBox: return "Box";
    case RegionKind::kConservative: return "Conservative";
    case RegionKind::kDynamic: return "Dynamic";
    case RegionKind::kUnknown: return "Unknown";
  }
  return "Unknown";
}

bool RegionsMayOverlap(const Region& a, const Region& b) {
  if (a.kind != RegionKind::kBox || b.kind != RegionKind::kBox) return true;
  if (a.offsets.size() != b.offsets.size() || a.shape.size() != b.shape.size() ||
      a.offsets.size() != a.shape.size()) {
    return true;
  }
  for (size_t d = 0; d < a.offsets.size(); ++d) {
    int64_t end_a = 0, end_b = 0;
    if (__builtin_add_overflow(a.offsets[d], a.shape[d], &end_a) ||
        __builtin_add_overflow(b.offsets[d], b.shape[d], &end_b)) {
      return true;
    }
    if (end_a <= b.offsets[d] || end_b <= a.offsets[d]) return false;
  }
  return true;
}

bool RegionIsPrecise(const Region& r) {
  return r.kind == RegionKind::kFull || r.kind == RegionKind::kBox ||
         r.kind == RegionKind::kConservative;
}

bool RegionContains(const Region& outer, const Region& inner) {
  if (outer.kind == RegionKind::kFull) return true;
  if (outer.kind != RegionKind::kBox || inner.kind != RegionKind::kBox) return false;
  size_t rank = outer.offsets.size();
  if (inner.offsets.size() != rank || outer.shape.size() != rank || inner.shape.size() != rank) return false;
  for (size_t d = 0; d < rank; ++d) {
    // 128-bit ends: no int64 box can overflow the comparison.
    __int128 o_lo = outer.offsets[d], o_hi = o_lo + outer.shape[d];
    __int128 i_lo = inner.offsets[d], i_hi = i_lo + inner.shape[d];
    if (i_lo < o_lo || i_hi > o_hi) return false;
  }
  return true;
}

namespace {
bool PackedStridesMatch(const Type& t) {
  const TensorView& v = *t.view;
  if (v.stride.empty()) return true;
  auto packed = PackedStrides(t.shape);
  if (!packed || packed->size() != v.stride.size()) return false;
  for (size_t i = 0; i < v.stride.size(); ++i) {
    if (v.stride[i].symbolic || v.stride[i].value != (*packed)[i]) return false;
  }
  return true;
}
}  // namespace

ViewClass ClassifyType(const std::optional<Type>& type) {
  if (!type || type->kind != TypeKind::kTensor || !type->view) return ViewClass::kPackedND;
  const TensorView& v = *type->view;
  if (v.layout != Layout::kND || v.pad || !PackedStridesMatch(*type)) return ViewClass::kOther;
  return v.valid ? ViewClass::kConservativeND : ViewClass::kPackedND;
}

void AdjustByType(const std::optional<Type>& type, Location* loc) {
  ViewClass c = ClassifyType(type);
  if (c == ViewClass::kPackedND) return;
  for (StorageAlt& a : *loc) {
    a.region = Region{c == ViewClass::kConservativeND ? RegionKind::kConservative : RegionKind::kUnknown, {}, {}};
  }
}

Location MergeLocations(const Location& a, const Location& b) {
  Location out;
  auto add = [&](const StorageAlt& alt) {
    for (StorageAlt& o : out) {
      if (o.root == alt.root) {
        if (!(o.region == alt.region)) o.region = Region{RegionKind::kUnknown, {}, {}};
        return;
      }
    }
    out.push_back(alt);
  };
  for (const StorageAlt& x : a) add(x);
  for (const StorageAlt& x : b) add(x);
  return out;
}

Location SliceLocation(const Location& parent, const std::optional<std::vector<int64_t>>& shape,
                       const std::optional<std::vector<int64_t>>& offsets) {
  Location out;
  for (const StorageAlt& p : parent) {
    StorageAlt a{p.root, {}};
    bool consts = shape && offsets && shape->size() == offsets->size();
    if (!consts) {
      a.region.kind = p.region.kind == RegionKind::kUnknown ? RegionKind::kUnknown : RegionKind::kDynamic;
    } else if (p.region.kind == RegionKind::kFull) {
      a.region = Region{RegionKind::kBox, *offsets, *shape};
    } else if (p.region.kind == RegionKind::kBox) {
      a.region = Region{RegionKind::kBox, {}, *shape};
      if (p.region.offsets.size() != offsets->size()) {
        a.region = Region{RegionKind::kDynamic, {}, {}};
      } else {
        for (size_t i = 0; i < offsets->size(); ++i) {
          int64_t s = 0;
          if (__builtin_add_overflow(p.region.offsets[i], (*offsets)[i], &s)) {
            a.region = Region{RegionKind::kDynamic, {}, {}};
            break;
          }
          a.region.offsets.push_back(s);
        }
      }
    } else {
      a.region = Region{p.region.kind, {}, {}};
    }
    out.push_back(a);
  }
  return out;
}

bool MemRefsMayAlias(const MemRef& a, const MemRef& b) {
  if (a.base != b.base) return false;
  if (a.offset.symbolic || b.offset.symbolic) return true;
  int64_t ea = 0, eb = 0;
  if (__builtin_add_overflow(a.offset.value, a.size, &ea) ||
      __builtin_add_overflow(b.offset.value, b.size, &eb)) {
    return true;
  }
  return a.offset.value < eb && b.offset.value < ea;
}

}  // namespace depgraph::passes
