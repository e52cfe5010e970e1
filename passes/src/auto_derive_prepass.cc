// Storage-root and TaskId-lineage pre-passes (spec §2.1, §2.2).
#include "auto_derive_prepass.h"

#include <algorithm>

namespace depgraph::passes {

namespace {

void AddUnique(std::vector<VarId>* out, VarId v) {
  if (v >= 0 && std::find(out->begin(), out->end(), v) == out->end()) out->push_back(v);
}

Type ScalarType(TypeKind kind) {
  Type t;
  t.kind = kind;
  return t;
}

class Prepass {
 public:
  Prepass(const Program& prog, const Function& fn) : prog_(prog), fn_(fn) {
    f_.vars.resize(fn.vars.size());
    for (size_t i = 0; i < fn.vars.size(); ++i) f_.vars[i].type = fn.vars[i].type;
  }

  FunctionFacts Run() {
    for (VarId p : fn_.params) {
      const auto& t = f_.vars[p].type;
      if (t && t->kind == TypeKind::kTensor) Register(p, Location{{p, Region{}}}, true);
      if (t && t->kind == TypeKind::kTaskIdArray) {
        f_.vars[p].array = TaskArrayLineage{};
        f_.vars[p].array->extent = t->extent;
      }
    }
    Walk(fn_.body);
    return std::move(f_);
  }

 private:
  void SetType(VarId v, const std::optional<Type>& t) {
    if (v >= 0 && !fn_.vars[v].type && t) f_.vars[v].type = t;
  }
  const std::optional<Type>& TypeOf(const Operand& op) const {
    static const std::optional<Type> kNone;
    return op.is_const ? kNone : f_.vars[op.var].type;
  }

  /// Registers a location (rule 13), optionally adjusting by type first.
  void Register(VarId v, Location loc, bool adjust) {
    if (v < 0 || loc.empty()) return;
    if (adjust) AdjustByType(f_.vars[v].type, &loc);
    if (static_cast<int>(loc.size()) > kMaxStaticRootAlternatives) {
      f_.vars[v].unsupported = true;
      return;
    }
    f_.vars[v].loc = std::move(loc);
    const auto& t = f_.vars[v].type;
    if (t && t->memref) {
      for (const StorageAlt& a : f_.vars[v].loc) f_.root_memref.emplace(a.root, *t->memref);
    }
  }
  bool HasLoc(const Operand& op) const { return !op.is_const && !f_.vars[op.var].loc.empty(); }
  const Location& LocOf(const Operand& op) const {
    static const Location kEmpty;
    return op.is_const ? kEmpty : f_.vars[op.var].loc;
  }
  /// The slice's loop-indexed band (see LoopIndexedSlice), if it is one. O(rank + alternatives).
  std::optional<LoopIndexedSlice> LoopIndexed(const Operand& parent, const Expr& e,
                                              const std::optional<std::vector<int64_t>>& shape) const {
    if (parent.is_const || !shape || shape->size() != e.offsets.size() || !HasLoc(parent)) return std::nullopt;
    for (const StorageAlt& alt : LocOf(parent)) {
      if (alt.region.kind != RegionKind::kFull && alt.region.kind != RegionKind::kBox) return std::nullopt;
    }
    std::optional<LoopIndexedSlice> band;
    for (size_t d = 0; d < e.offsets.size(); ++d) {
      const Operand& o = e.offsets[d];
      if (o.is_const) continue;
      if (band || fn_.vars[static_cast<size_t>(o.var)].kind != VarKind::kLoopVar) return std::nullopt;
      band = LoopIndexedSlice{parent.var, o.var, static_cast<int>(d), (*shape)[d]};
    }
    return band;
  }

  bool Unsupported(const Operand& op) const { return !op.is_const && f_.vars[op.var].unsupported; }

  void Walk(const std::vector<Stmt>& body) {
    for (const Stmt& s : body) WalkStmt(s);
  }

  void WalkStmt(const Stmt& s) {
    switch (s.kind) {
      case StmtKind::kScope: Walk(s.body); break;
      case StmtKind::kAssign: Assign(s); break;
      case StmtKind::kFor:
      case StmtKind::kWhile: Loop(s); break;
      case StmtKind::kIf: If(s); break;
      default: break;
    }
  }

  /// The TaskIds and slot references a value (a Var or an aget) denotes.
  void ValueTids(const Expr& value, std::vector<VarId>* tids, std::map<VarId, std::set<int64_t>>* refs) {
    if (value.kind == ExprKind::kArrayGet) {
      SlotRead(value, tids, refs);
      return;
    }
    if (value.args.empty() || value.args[0].is_const) return;
    VarId x = value.args[0].var;
    const VarFacts& fx = f_.vars[x];
    if (!fx.slot_refs.empty() || !fx.slot_tids.empty()) {
      for (VarId t : fx.slot_tids) AddUnique(tids, t);
      for (const auto& [a, ks] : fx.slot_refs) (*refs)[a].insert(ks.begin(), ks.end());
      return;
    }
    VarId c = f_.CanonTid(x);
    if (c >= 0) AddUnique(tids, c);
  }

  void SlotRead(const Expr& e, std::vector<VarId>* tids, std::map<VarId, std::set<int64_t>>* refs) {
    if (e.args.size() < 2 || e.args[0].is_const || !e.args[1].is_const) return;
    VarId a = e.args[0].var;
    const auto& rec = f_.vars[a].array;
    if (!rec) return;
    int64_t k = e.args[1].value;
    auto it = rec->static_slots.find(k);
    if (it != rec->static_slots.end()) {
      for (VarId t : it->second) AddUnique(tids, t);
    }
    auto dit = rec->static_dynamic_slots.find(k);
    if (dit != rec->static_dynamic_slots.end()) {
      for (const auto& [b, ks] : dit->second) (*refs)[b].insert(ks.begin(), ks.end());
    }
    if (!rec->full_array_task_ids.empty() || !f_.Expansion(a).empty()) (*refs)[a].insert(k);
  }

  void Assign(const Stmt& s) {
    const Expr& e = s.expr;
    VarId v = s.defs.empty() ? -1 : s.defs[0];
    switch (e.kind) {
      case ExprKind::kVar: {
        if (e.args.empty() || e.args[0].is_const) return;
        VarId w = e.args[0].var;
        SetType(v, f_.vars[w].type);
        if (f_.vars[w].unsupported) f_.vars[v].unsupported = true;
        Register(v, f_.vars[w].loc, true);
        if (f_.IsTaskId(v) || f_.IsTaskId(w)) f_.vars[v].canon_tid = f_.CanonTid(w);
        if (f_.vars[w].array) f_.vars[v].array = f_.vars[w].array;
        f_.vars[v].slot_tids = f_.vars[w].slot_tids;
        f_.vars[v].slot_refs = f_.vars[w].slot_refs;
        f_.vars[v].loop_indexed = f_.vars[w].loop_indexed;
        return;
      }
      case ExprKind::kCall: Call(s); return;
      case ExprKind::kSlice: {
        if (e.args.empty()) return;
        const Operand& p = e.args[0];
        if (!fn_.vars[v].type) {
          Type t;
          if (TypeOf(p)) t.dtype = TypeOf(p)->dtype;
          t.shape = e.shape;
          f_.vars[v].type = t;
        }
        if (Unsupported(p)) { f_.vars[v].unsupported = true; return; }
        if (!HasLoc(p)) return;
        std::optional<std::vector<int64_t>> shape = std::vector<int64_t>{}, offs = std::vector<int64_t>{};
        for (const Dim& d : e.shape) {
          if (d.symbolic) { shape.reset(); break; }
          shape->push_back(d.value);
        }
        for (const Operand& o : e.offsets) {
          if (!o.is_const) { offs.reset(); break; }
          offs->push_back(o.value);
        }
        f_.vars[v].loop_indexed = LoopIndexed(p, e, shape);
        Register(v, SliceLocation(LocOf(p), shape, offs), true);
        return;
      }
      case ExprKind::kCreate: {
        Type t;
        t.dtype = e.dtype;
        t.shape = e.shape;
        SetType(v, t);
        Register(v, Location{{v, Region{}}}, true);
        return;
      }
      case ExprKind::kAssemble:
        if (e.args.empty()) return;
        SetType(v, TypeOf(e.args[0]));
        if (Unsupported(e.args[0])) f_.vars[v].unsupported = true;
        Register(v, LocOf(e.args[0]), true);
        return;
      case ExprKind::kDynamic:
        for (VarId d : s.defs) f_.vars[d].unsupported = true;
        return;
      case ExprKind::kTaskInvalid:
      case ExprKind::kTaskDummy: SetType(v, ScalarType(TypeKind::kTaskId)); return;
      case ExprKind::kArrayCreate: {
        Type t = ScalarType(TypeKind::kTaskIdArray);
        t.extent = e.extent;
        SetType(v, t);
        f_.vars[v].array = TaskArrayLineage{};
        f_.vars[v].array->extent = e.extent;
        return;
      }
      case ExprKind::kArraySet: {
        if (e.args.size() < 2 || e.args[0].is_const || e.nested.empty()) return;
        SetType(v, f_.vars[e.args[0].var].type);
        TaskArrayLineage rec = f_.vars[e.args[0].var].array.value_or(TaskArrayLineage{});
        std::vector<VarId> tids;
        std::map<VarId, std::set<int64_t>> refs;
        ValueTids(e.nested[0], &tids, &refs);
        if (e.args[1].is_const) {
          int64_t k = e.args[1].value;
          rec.static_slots.erase(k);
          rec.static_dynamic_slots.erase(k);
          rec.unknown_static_slots.erase(k);
          if (tids.empty() && refs.empty()) rec.unknown_static_slots.insert(k);
          if (!tids.empty()) rec.static_slots[k] = tids;
          if (!refs.empty()) rec.static_dynamic_slots[k] = refs;
        } else if (!tids.empty() && refs.empty()) {
          for (VarId t : tids) AddUnique(&rec.full_array_task_ids, t);
        } else {
          rec.has_unknown_dynamic_update = true;
        }
        f_.vars[v].array = rec;
        return;
      }
      case ExprKind::kArrayGet:
        SetType(v, ScalarType(TypeKind::kTaskId));
        SlotRead(e, &f_.vars[v].slot_tids, &f_.vars[v].slot_refs);
        return;
    }
  }

  void Call(const Stmt& s) {
    const Expr& e = s.expr;
    const Kernel* k = prog_.FindKernel(e.callee);
    size_t n_out = s.defs.size();
    VarId tail = -1;
    if (e.submit && !s.defs.empty()) {
      tail = s.defs.back();
      --n_out;
      SetType(tail, ScalarType(TypeKind::kTaskId));
      f_.vars[tail].submit_tail = true;
    }
    std::vector<Location> outs;
    std::vector<bool> unsup;
    if (k) {
      bool any = false;
      for (int r : k->returns) {
        size_t idx = static_cast<size_t>(r);
        Location l = idx < e.args.size() ? LocOf(e.args[idx]) : Location{};
        unsup.push_back(idx < e.args.size() && Unsupported(e.args[idx]));
        if (!l.empty()) any = true;
        outs.push_back(l);
      }
      if (!any) {
        outs.clear();
        unsup.clear();
        for (size_t i = 0; i < k->params.size() && i < e.args.size(); ++i) {
          if (k->params[i].dir == ParamDir::kIn) continue;
          outs.push_back(LocOf(e.args[i]));
          unsup.push_back(Unsupported(e.args[i]));
        }
      }
    }
    for (size_t i = 0; i < n_out; ++i) {
      VarId d = s.defs[i];
      if (k && i < k->returns.size() && static_cast<size_t>(k->returns[i]) < k->params.size()) {
        SetType(d, k->params[k->returns[i]].type);
      }
      if (i < outs.size()) {
        if (outs[i].empty() && unsup[i]) f_.vars[d].unsupported = true;
        Register(d, outs[i], true);
      }
      if (tail >= 0) f_.vars[d].canon_tid = tail;
    }
  }

  static const Stmt* TrailingYield(const std::vector<Stmt>& body) {
    if (!body.empty() && body.back().kind == StmtKind::kYield) return &body.back();
    return nullptr;
  }

  void Loop(const Stmt& s) {
    for (const IterArg& ia : s.iters) {
      SetType(ia.var, TypeOf(ia.init));
      if (Unsupported(ia.init)) f_.vars[ia.var].unsupported = true;
      Register(ia.var, LocOf(ia.init), false);
      if (!ia.init.is_const && f_.vars[ia.init.var].array) f_.vars[ia.var].array = f_.vars[ia.init.var].array;
    }
    Walk(s.body);
    const Stmt* y = TrailingYield(s.body);
    for (size_t i = 0; i < s.defs.size() && i < s.iters.size(); ++i) {
      VarId r = s.defs[i];
      const IterArg& ia = s.iters[i];
      SetType(r, TypeOf(ia.init));
      Location loc = LocOf(ia.init);
      bool unsup = Unsupported(ia.init);
      if (y && i < y->values.size()) {
        const Operand& yv = y->values[i];
        if (!HasLoc(ia.init) || !HasLoc(yv)) {
          if (!loc.empty() || HasLoc(yv) || unsup || Unsupported(yv)) unsup = true;
          loc.clear();
        } else {
          loc = MergeLocations(loc, LocOf(yv));
        }
        if (!yv.is_const) {
          VarId c = f_.CanonTid(yv.var);
          if (c >= 0) {
            f_.vars[ia.var].canon_tid = c;
            f_.vars[r].canon_tid = c;
          }
          if (f_.vars[yv.var].array) {
            f_.vars[ia.var].array = f_.vars[yv.var].array;
            f_.vars[r].array = f_.vars[yv.var].array;
          }
        }
      } else if (!ia.init.is_const && f_.vars[ia.init.var].array) {
        f_.vars[r].array = f_.vars[ia.init.var].array;
      }
      if (unsup) { f_.vars[r].unsupported = true; continue; }
      ViewClass c = ClassifyType(f_.vars[r].type);
      bool cons = s.kind == StmtKind::kFor && c != ViewClass::kOther;
      for (StorageAlt& a : loc) a.region = Region{cons ? RegionKind::kConservative : RegionKind::kUnknown, {}, {}};
      Register(r, loc, false);
    }
  }

  void If(const Stmt& s) {
    Walk(s.body);
    Walk(s.else_body);
    const Stmt* ty = TrailingYield(s.body);
    const Stmt* ey = TrailingYield(s.else_body);
    if (!s.has_else || !ty || !ey) return;
    for (size_t i = 0; i < s.defs.size(); ++i) {
      VarId r = s.defs[i];
      if (i >= ty->values.size() || i >= ey->values.size()) continue;
      SetType(r, TypeOf(ty->values[i]));
      if (!HasLoc(ty->values[i]) || !HasLoc(ey->values[i])) {
        f_.vars[r].unsupported = true;
        continue;
      }
      Register(r, MergeLocations(LocOf(ty->values[i]), LocOf(ey->values[i])), false);
    }
  }

  const Program& prog_;
  const Function& fn_;
  FunctionFacts f_;
};

}  // namespace

bool FunctionFacts::IsTaskId(VarId v) const {
  return v >= 0 && vars[v].type && vars[v].type->kind == TypeKind::kTaskId;
}

LocStatus FunctionFacts::Status(const Operand& op) const {
  if (op.is_const) return LocStatus::kUnknown;
  const VarFacts& f = vars[op.var];
  if (f.unsupported) return LocStatus::kUnsupported;
  if (f.loc.empty()) return LocStatus::kUnknown;
  if (static_cast<int>(f.loc.size()) > kMaxStaticRootAlternatives) return LocStatus::kUnsupported;
  return LocStatus::kKnown;
}

VarId FunctionFacts::CanonTid(VarId v) const {
  if (v < 0) return -1;
  if (vars[v].canon_tid >= 0) return vars[v].canon_tid;
  return IsTaskId(v) ? v : -1;
}

std::vector<VarId> FunctionFacts::Expansion(VarId a) const {
  std::vector<VarId> out;
  if (a < 0 || !vars[a].array) return out;
  const TaskArrayLineage& r = *vars[a].array;
  bool unknown = r.has_unknown_dynamic_update || !r.unknown_static_slots.empty();
  if (!unknown) for (VarId t : r.full_array_task_ids) AddUnique(&out, t);
  for (const auto& [k, ts] : r.static_slots) for (VarId t : ts) AddUnique(&out, t);
  std::map<VarId, std::set<int64_t>> refs;
  for (const auto& [k, m] : r.static_dynamic_slots) {
    for (const auto& [b, ks] : m) refs[b].insert(ks.begin(), ks.end());
  }
  for (const auto& [b, ks] : refs) {
    if (!vars[b].array) continue;
    const TaskArrayLineage& rb = *vars[b].array;
    bool all = rb.extent > 0;
    for (int64_t i = 0; all && i < rb.extent; ++i) all = ks.count(i) > 0;
    if (all && !unknown && !rb.has_unknown_dynamic_update && rb.unknown_static_slots.empty()) {
      for (VarId t : rb.full_array_task_ids) AddUnique(&out, t);
    }
  }
  return out;
}

bool FunctionFacts::IsComplete(VarId a) const {
  if (a < 0 || !vars[a].array) return false;
  const TaskArrayLineage& r = *vars[a].array;
  if (r.extent <= 0 || r.has_unknown_dynamic_update || !r.unknown_static_slots.empty()) return false;
  std::set<int64_t> held;
  for (const auto& [k, ts] : r.static_slots) if (!ts.empty()) held.insert(k);
  for (const auto& [k, m] : r.static_dynamic_slots) if (!m.empty()) held.insert(k);
  if (static_cast<int64_t>(held.size()) != r.extent) return false;
  for (int64_t i = 0; i < r.extent; ++i) if (!held.count(i)) return false;
  return true;
}

bool FunctionFacts::RootsMayAlias(VarId a, VarId b) const {
  if (a == b) return true;
  auto ia = root_memref.find(a), ib = root_memref.find(b);
  return ia != root_memref.end() && ib != root_memref.end() && MemRefsMayAlias(ia->second, ib->second);
}

bool FunctionFacts::RootsShareBuffer(VarId a, VarId b) const {
  if (a == b) return true;
  auto ia = root_memref.find(a), ib = root_memref.find(b);
  return ia != root_memref.end() && ib != root_memref.end() && ia->second.base == ib->second.base;
}

FunctionFacts ComputeFunctionFacts(const Program& prog, const Function& fn) {
  return Prepass(prog, fn).Run();
}

}  // namespace depgraph::passes
