// AutoDeriveTaskDependencies, the Walker's walk over a function's statements: its entry points
// (Run, RunBody), the statement dispatch, AUTO scopes (analysis layers and record frames, the
// per-scope report) and loops (re-expressing the producers of records made in a loop body as
// the loop's return vars, dynamic-loop tracking). Declared in auto_derive_walker.h.
#include "auto_derive_walker.h"

#include <algorithm>
#include <map>
#include <vector>

#include "depgraph_passes/storage_roots.h"
#include "depgraph_passes/task_backed_values.h"

namespace depgraph::passes::auto_derive_detail {

namespace {

/// A fresh layer; `active` = an analysed AUTO region (false = container).
Layer NewLayer(bool active) {
  Layer l;
  l.active = active;
  return l;
}

}  // namespace

Walker::Walker(const Program& prog, Function* fn, const AutoDeriveOptions& opts, AutoDeriveReport* report)
    : prog_(prog), fn_(fn), opts_(opts), report_(report), facts_(ComputeFunctionFacts(prog, *fn)),
      task_backed_(TaskBackedVars(prog, *fn)) {
  if (opts_.sound) {
    CollectCreatedRoots(fn_->body);
    blocks_.emplace(*fn_);
    ambiguous_.emplace(*fn_, facts_);
  }
}

void Walker::Run() {
  const bool seed_callers = opts_.sound && prog_.IsCalled(fn_->name);
  if (seed_callers) {
    frames_.emplace_back();
    for (VarId p : fn_->params) {
      for (const StorageAlt& alt : facts_.vars[p].loc) {
        Record caller;
        caller.alt = alt;
        caller.kind = Access::kReadWrite;
        frames_.back().push_back(caller);
      }
    }
  }
  RunBody();
  if (seed_callers) frames_.pop_back();
}

void Walker::RunBody() {
  bool body_is_scope = fn_->body.size() == 1 && fn_->body[0].kind == StmtKind::kScope;
  if (body_is_scope && !fn_->auto_scope) {
    WalkStmt(&fn_->body[0]);
    SoundStripAfterFallback(&fn_->body);
    ApplyPending(&fn_->body);
    return;
  }
  if (fn_->auto_scope) {
    frames_.emplace_back();
    layers_.push_back(NewLayer(true));
    WalkBody(&fn_->body);
    Layer l = layers_.back();
    layers_.pop_back();
    frames_.pop_back();
    if (l.fallback) {
      Strip(&fn_->body, /*edges=*/false);
    } else {
      SoundStripAfterFallback(&fn_->body);
      ApplyPending(&fn_->body);
    }
    fn_->layer_candidate = !l.fallback && !l.layer_unsupported && l.task_call_count > 0 && !l.sound_no_layer_manual;
    report_->bodies[fn_->name] = l.reason;
    return;
  }
  frames_.emplace_back();
  layers_.push_back(NewLayer(false));
  WalkBody(&fn_->body);
  layers_.pop_back();
  frames_.pop_back();
  SoundStripAfterFallback(&fn_->body);
  ApplyPending(&fn_->body);
}

// ---- walking -------------------------------------------------------------------------
void Walker::WalkBody(std::vector<Stmt>* body) {
  for (Stmt& s : *body) WalkStmt(&s);
}

void Walker::WalkStmt(Stmt* s) {
  switch (s->kind) {
    case StmtKind::kScope: Scope(s); break;
    case StmtKind::kFor:
    case StmtKind::kWhile: Loop(s); break;
    case StmtKind::kIf:
      open_ifs_.push_back(s);
      open_branches_.emplace_back(s, false);
      WalkBody(&s->body);
      open_branches_.back().second = true;
      WalkBody(&s->else_body);
      open_branches_.pop_back();
      open_ifs_.pop_back();
      break;
    case StmtKind::kAssign:
      if (s->expr.kind == ExprKind::kCall) CallSite(&s->expr, s);
      if (s->expr.kind == ExprKind::kDynamic && opts_.sound) DynamicSite(s->expr);
      break;
    case StmtKind::kEval:
      if (s->expr.kind == ExprKind::kCall) CallSite(&s->expr, nullptr);
      break;
    default: break;
  }
}

int Walker::ScopeIndex(const Stmt* target) {
  int idx = 0, found = 0;
  Count(fn_->body, target, &idx, &found);
  return found;
}

void Walker::Count(const std::vector<Stmt>& body, const Stmt* t, int* idx, int* found) {
  for (const Stmt& s : body) {
    if (*found) return;
    if (s.kind == StmtKind::kScope) {
      ++*idx;
      if (&s == t) { *found = *idx; return; }
    }
    Count(s.body, t, idx, found);
    Count(s.else_body, t, idx, found);
  }
}

void Walker::Scope(Stmt* s) {
  if (!layers_.empty()) layers_.back().layer_unsupported = true;
  if (s->manual) return;
  frames_.emplace_back();
  layers_.push_back(NewLayer(true));
  WalkBody(&s->body);
  Layer l = layers_.back();
  layers_.pop_back();
  std::vector<Record> recs = std::move(frames_.back());
  frames_.pop_back();
  report_->scopes[fn_->name][ScopeIndex(s)] = l.reason;
  if (l.fallback) {
    Strip(&s->body, /*edges=*/true);
    unseen_accesses_ = true;
    return;
  }
  if (!frames_.empty()) {
    for (Record& r : recs) frames_.back().push_back(r);
  }
  if (l.candidate_count > 0) {
    if (!layers_.empty()) {
      layers_.back().candidate_count += l.candidate_count;
    } else {
      SoundStripAfterFallback(&s->body);
      ApplyPending(&s->body);
    }
  }
}

const Stmt* Walker::TrailingYield(const std::vector<Stmt>& body) {
  if (!body.empty() && body.back().kind == StmtKind::kYield) return &body.back();
  return nullptr;
}

std::map<VarId, RemapTarget> Walker::RemapTable(const Stmt& s) {
  std::map<VarId, RemapTarget> table;
  const Stmt* y = TrailingYield(s.body);
  if (!y) return table;
  auto add = [&](VarId src, VarId dst) {
    if (src < 0 || dst < 0) return;
    bool direct = facts_.IsTaskId(src) || facts_.IsTaskId(dst);
    auto it = table.find(src);
    if (it != table.end() && it->second.direct && !direct) return;
    table[src] = RemapTarget{dst, direct};
  };
  for (size_t i = 0; i < s.defs.size(); ++i) {
    VarId r = s.defs[i];
    if (i < y->values.size() && !y->values[i].is_const) {
      VarId yv = y->values[i].var;
      add(yv, r);
      add(facts_.CanonTid(yv), r);
    }
    if (i < s.iters.size()) add(s.iters[i].var, r);
  }
  return table;
}

bool Walker::YieldsValueMadeInBody(const Stmt& s, VarId ret) const {
  const Stmt* y = TrailingYield(s.body);
  if (!y) return false;
  for (size_t i = 0; i < s.defs.size(); ++i) {
    if (s.defs[i] != ret) continue;
    if (i >= y->values.size() || y->values[i].is_const) return false;
    return DefinedIn(s.body, y->values[i].var);
  }
  return false;
}

bool Walker::DefinedIn(const std::vector<Stmt>& body, VarId v) {
  for (const Stmt& st : body) {
    if (std::find(st.defs.begin(), st.defs.end(), v) != st.defs.end()) return true;
    if (DefinedIn(st.body, v) || DefinedIn(st.else_body, v)) return true;
  }
  return false;
}

VarId Walker::CoveringReturnVar(const Stmt& s, const StorageAlt& alt) {
  for (VarId r : s.defs) {
    if (facts_.Status(Operand::OfVar(r)) != LocStatus::kKnown) continue;
    for (const StorageAlt& a : facts_.vars[r].loc) {
      if (facts_.RootsMayAlias(a.root, alt.root) && RegionsMayOverlap(a.region, alt.region)) return r;
    }
  }
  return -1;
}

void Walker::Loop(Stmt* s) {
  bool consts = s->kind == StmtKind::kFor && s->start.is_const && s->stop.is_const && s->step.is_const;
  int64_t start = s->start.value, stop = s->stop.value, step = s->step.value;
  if (consts && step != 0) {
    // 128-bit arithmetic: no int64 bound can overflow the trip computation.
    __int128 span = static_cast<__int128>(stop) - start, st = step;
    bool single = step > 0 ? (span > 0 && span <= st) : (span < 0 && -span <= -st);
    if (single) {
      WalkBody(&s->body);
      if (frames_.empty()) return;
      auto table = RemapTable(*s);
      for (Record& r : frames_.back()) {
        auto it = table.find(r.producer);
        if (it != table.end()) {
          r.producer = it->second.target;
          r.direct = facts_.IsTaskId(r.producer);
        }
      }
      return;
    }
  }
  bool fixed = consts && step > 0;
  int depth = ++loop_depth_;
  int id = 0;
  if (!fixed) {
    id = ++next_dyn_id_;
    dyn_stack_.push_back({id, depth});
    active_dyn_.insert(id);
  }
  size_t body_begin = frames_.empty() ? 0 : frames_.back().size();
  WalkBody(&s->body);
  if (opts_.sound && !frames_.empty()) SoundCrossIteration(*s, body_begin);
  --loop_depth_;
  if (!fixed) {
    dyn_stack_.pop_back();
    active_dyn_.erase(id);
  }
  if (frames_.empty()) return;
  if (fixed) {
    __int128 trip = start >= stop ? 0 : (static_cast<__int128>(stop) - start + step - 1) / step;
    if (trip <= 0) return;
    auto table = RemapTable(*s);
    for (Record& r : frames_.back()) {
      if (!r.dynamic_producer || r.producer < 0) continue;
      // (e) Iterations are chained at runtime only through InOut lookups of the write, or
      // by user deps on the TaskId the loop carries from it.
      const bool unchained = trip > 1 && Writes(r.kind) && r.call != nullptr &&
                             r.call->attrs.arg_directions[static_cast<size_t>(r.arg_index)] != ArgDir::kInOut &&
                             !ChainedByUserDeps(*s, r);
      auto it = table.find(r.producer);
      if (it != table.end()) {
        r.producer = it->second.target;
        r.direct = facts_.IsTaskId(r.producer);
        r.dynamic_producer = !it->second.direct && r.dyn_depth > depth;
        r.last_iteration_only = r.last_iteration_only || unchained;
        continue;
      }
      VarId cover = CoveringReturnVar(*s, r.alt);
      if (cover >= 0) {
        r.producer = cover;
        r.direct = false;
        r.dynamic_producer = r.dyn_depth > depth;
        r.last_iteration_only = r.last_iteration_only || unchained;
        // (j) A loop result that yields its carried value unchanged names, at run time, the
        // task that produced the initial value, not this write: nothing names the writer.
        if (opts_.sound && !YieldsValueMadeInBody(*s, cover)) r.producer = -1;
      }
    }
    return;
  }
  if (opts_.sound) {
    // (e) After a loop of unknown trip count, its TaskId (the canonical one of an in-loop
    // submit, carried out as an iter arg) names the last iteration's task: it covers an
    // in-loop write of every iteration only when the iterations are chained (an InOut
    // lookup of the write, or user deps on the carried TaskId).
    std::vector<Record>& recs = frames_.back();
    for (size_t i = body_begin; i < recs.size(); ++i) {
      Record& r = recs[i];
      if (!r.dynamic_producer || !Writes(r.kind) || r.call == nullptr) continue;
      const ArgDir dir = r.call->attrs.arg_directions[static_cast<size_t>(r.arg_index)];
      if (dir != ArgDir::kInOut && !ChainedByUserDeps(*s, r)) r.last_iteration_only = true;
    }
  }
  if (s->kind == StmtKind::kFor && s->parallel && depth == kDynamicParallelSummaryDepth) {
    for (Record& r : frames_.back()) {
      if (!r.dynamic_producer) continue;
      VarId cover = CoveringReturnVar(*s, r.alt);
      if (cover < 0) continue;
      r.producer = cover;
      r.direct = facts_.IsTaskId(cover);
      r.dynamic_producer = false;
      r.dyn_id = 0;
      r.dyn_depth = 0;
      if (Writes(r.kind)) r.last_iteration_only = true;  // (e) parallel iterations are independent
    }
  }
}

}  // namespace depgraph::passes::auto_derive_detail
