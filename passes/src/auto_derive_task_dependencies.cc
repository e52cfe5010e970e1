// AutoDeriveTaskDependencies: the main walk (spec §2.3-§2.8) over the pre-pass facts.
#include "depgraph_passes/auto_derive_task_dependencies.h"

#include <algorithm>
#include <optional>
#include <set>
#include <vector>

#include "access_record.h"
#include "ambiguous_bindings.h"
#include "auto_derive_prepass.h"
#include "depgraph_passes/task_backed_values.h"
#include "depgraph_passes/lexical_blocks.h"

namespace depgraph::passes {

const char* FallbackReasonName(FallbackReason reason) {
  switch (reason) {
    case FallbackReason::kUnresolvedLocation: return "unresolved_location";
    case FallbackReason::kPriorFromInactiveDynamicLoop: return "prior_from_inactive_dynamic_loop";
    case FallbackReason::kDynamicPriorProducerRequiresScopeLift:
      return "dynamic_prior_producer_requires_scope_lift";
    case FallbackReason::kMissingPriorTaskId: return "missing_prior_task_id";
    case FallbackReason::kPriorNamesNoTask: return "prior_names_no_task";
  }
  return "unknown";
}

namespace {

/// One analysis layer (a region or the container).
struct Layer {
  bool active = false;
  bool fallback = false;
  std::optional<FallbackReason> reason;
  int candidate_count = 0;
  int task_call_count = 0;
  bool layer_unsupported = false;
  /// Sound mode: a loop in it has uncovered cross-iteration hazards (b) or a call in it touches a
  /// created (runtime-allocated) tensor (d): no whole-body MANUAL marker.
  bool sound_no_layer_manual = false;
};

/// A fresh layer; `active` = an analysed AUTO region (false = container).
Layer NewLayer(bool active) {
  Layer l;
  l.active = active;
  return l;
}

struct RemapTarget {
  VarId target = -1;
  bool direct = false;
};

class Walker {
 public:
  Walker(const Program& prog, Function* fn, const AutoDeriveOptions& opts, AutoDeriveReport* report)
      : prog_(prog), fn_(fn), opts_(opts), report_(report), facts_(ComputeFunctionFacts(prog, *fn)),
        task_backed_(TaskBackedVars(prog, *fn)) {
    if (opts_.sound) {
      CollectCreatedRoots(fn_->body);
      blocks_.emplace(*fn_);
      ambiguous_.emplace(*fn_, facts_);
    }
  }

  /// Sound mode: a helper that another function calls starts with every parameter written
  /// and read by an earlier task of its caller, whose TaskId the helper cannot name. A hazard
  /// against it makes the region fall back (missing_prior_task_id), so the helper keeps the
  /// runtime's lookups instead of assuming its parameters have no earlier writer.
  void Run() {
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

  void RunBody() {
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

 private:
  // ---- walking -------------------------------------------------------------------------
  void WalkBody(std::vector<Stmt>* body) {
    for (Stmt& s : *body) WalkStmt(&s);
  }

  void WalkStmt(Stmt* s) {
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

  int ScopeIndex(const Stmt* target) {
    int idx = 0, found = 0;
    Count(fn_->body, target, &idx, &found);
    return found;
  }
  static void Count(const std::vector<Stmt>& body, const Stmt* t, int* idx, int* found) {
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

  void Scope(Stmt* s) {
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

  static const Stmt* TrailingYield(const std::vector<Stmt>& body) {
    if (!body.empty() && body.back().kind == StmtKind::kYield) return &body.back();
    return nullptr;
  }

  std::map<VarId, RemapTarget> RemapTable(const Stmt& s) {
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

  /// Whether the value loop `s` yields for its return var `ret` is defined by a statement of
  /// the loop body (so the return var names the task that made it in the last iteration),
  /// rather than carried unchanged from before the loop. O(body statements).
  bool YieldsValueMadeInBody(const Stmt& s, VarId ret) const {
    const Stmt* y = TrailingYield(s.body);
    if (!y) return false;
    for (size_t i = 0; i < s.defs.size(); ++i) {
      if (s.defs[i] != ret) continue;
      if (i >= y->values.size() || y->values[i].is_const) return false;
      return DefinedIn(s.body, y->values[i].var);
    }
    return false;
  }

  static bool DefinedIn(const std::vector<Stmt>& body, VarId v) {
    for (const Stmt& st : body) {
      if (std::find(st.defs.begin(), st.defs.end(), v) != st.defs.end()) return true;
      if (DefinedIn(st.body, v) || DefinedIn(st.else_body, v)) return true;
    }
    return false;
  }

  /// A loop return var with a Known location that may alias and overlap `alt`, or -1.
  VarId CoveringReturnVar(const Stmt& s, const StorageAlt& alt) {
    for (VarId r : s.defs) {
      if (facts_.Status(Operand::OfVar(r)) != LocStatus::kKnown) continue;
      for (const StorageAlt& a : facts_.vars[r].loc) {
        if (facts_.RootsMayAlias(a.root, alt.root) && RegionsMayOverlap(a.region, alt.region)) return r;
      }
    }
    return -1;
  }

  void Loop(Stmt* s) {
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

  // ---- per call --------------------------------------------------------------------------
  void Fallback(FallbackReason reason) {
    Layer& l = layers_.back();
    if (!l.fallback) l.reason = reason;
    l.fallback = true;
  }

  std::string VarText(VarId v) const {
    if (v < 0) return "null";
    return fn_->vars[v].name + "#" + std::to_string(v);
  }

  void Log(const Expr& call, size_t arg, const std::string& bucket, const std::string& extra) {
    if (!opts_.debug_log) return;
    report_->debug_log += "[auto-deps-loop-debug] [auto-no-dep-bucket] call=" + call.callee +
                          " arg_index=" + std::to_string(arg) + " bucket=" + bucket + extra + "\n";
  }

  static const char* DirText(ArgDir d) {
    switch (d) {
      case ArgDir::kInput: return "Input";
      case ArgDir::kOutput: return "Output";
      case ArgDir::kInOut: return "InOut";
      case ArgDir::kOutputExisting: return "OutputExisting";
      case ArgDir::kNoDep: return "NoDep";
      case ArgDir::kScalar: return "Scalar";
    }
    return "?";
  }
  static const char* AccessText(Access a) {
    return a == Access::kRead ? "Read" : a == Access::kWrite ? "Write" : "ReadWrite";
  }

  /// Whether a read of `v` at the current point of the walk is one of rule (k)'s bindings.
  bool AmbiguousHere(VarId v) const { return ambiguous_ && ambiguous_->AmbiguousAt(v, open_ifs_); }

  /// Sound mode (h): a `dynamic` op (gather family) is a task that reads its tensor operands
  /// whole, and the pass gives it no edges. When any of those buffers has an earlier access in
  /// the analysed region, only the runtime's lookup orders the op: no MANUAL scope may hold it
  /// (no whole-body marker, no rewrite or marker of the function, as for (c)).
  /// Its reads are recorded with no nameable producer, so a later writer of those buffers
  /// cannot be rewritten past them either. O(operands x records).
  void DynamicSite(const Expr& op) {
    if (layers_.empty() || !layers_.back().active) {
      if (!layers_.empty()) unseen_accesses_ = true;
      return;
    }
    bool ordered_by_runtime = false;
    std::vector<StorageAlt> reads;
    for (const Operand& arg : op.args) {
      if (arg.is_const || arg.var < 0) continue;
      if (facts_.Status(arg) != LocStatus::kKnown) {
        ordered_by_runtime = true;  // a buffer the pass cannot place: keep the lookup
        continue;
      }
      for (const StorageAlt& alt : facts_.vars[arg.var].loc) {
        reads.push_back(alt);
        for (const std::vector<Record>& frame : frames_) {
          for (const Record& prior : frame) {
            // The op reads an unknown part of the operand's whole allocation (docs/depir.md:
            // `depgraph run` passes it the entire buffer), so a window of the same memref base
            // counts even where its bytes are disjoint from the operand's.
            if (facts_.RootsShareBuffer(prior.alt.root, alt.root)) ordered_by_runtime = true;
          }
        }
      }
    }
    if (ordered_by_runtime) {
      // No MANUAL scope may hold the op: no whole-body marker, and (as for (c)) no call's
      // rewrite or marker, since materialised MANUAL scopes may enclose it.
      unseen_accesses_ = true;
      for (Layer& l : layers_) l.sound_no_layer_manual = true;
    }
    for (const StorageAlt& alt : reads) {
      Record read;
      read.alt = alt;
      read.kind = Access::kRead;
      read.branches = open_branches_;
      frames_.back().push_back(read);
    }
  }

  void CallSite(Expr* call, Stmt* assign) {
    if (layers_.empty() || !layers_.back().active) {
      // A call directly in a hand function's body (container mode) is never analysed.
      if (!layers_.empty()) unseen_accesses_ = true;
      return;
    }
    Layer& layer = layers_.back();
    ++layer.task_call_count;
    if (opts_.sound && prog_.FindFunction(call->callee) != nullptr) {
      // (l) A call of another orchestration function: its tasks and the scopes it opens are
      // not seen here (an AUTO scope it opens may not sit inside a MANUAL one, and its
      // returned value names only one of its tasks): no rewrite or marker of this function
      // may rely on the analysis, and no whole-body MANUAL.
      unseen_accesses_ = true;
      for (Layer& l : layers_) l.sound_no_layer_manual = true;
    }
    if (call->attrs.arg_directions.size() != call->args.size()) {
      layer.layer_unsupported = true;
      return;
    }
    // 2. producer TaskId of this call.
    // A submit: its TaskId tail (always bound in depir, `_` included). A plain call: its result
    // Var (the synthetic TaskId); for a multi-output plain call depir has no tuple temp, so the
    // first result stands for it (E7).
    VarId producer = -1;
    if (assign && !assign->defs.empty()) producer = call->submit ? assign->defs.back() : assign->defs[0];
    // 3. user edges.
    const std::vector<VarId>& raw = call->attrs.manual_dep_edges;
    std::vector<VarId> canon;
    std::map<VarId, std::set<int64_t>> refs;
    for (VarId d : raw) {
      const VarFacts& f = facts_.vars[d];
      if (!f.slot_refs.empty()) {
        for (const auto& [a, ks] : f.slot_refs) refs[a].insert(ks.begin(), ks.end());
        for (VarId t : f.slot_tids) AddUnique(&canon, t);
        continue;
      }
      if (facts_.IsTaskId(d)) AddUnique(&canon, d);
      VarId c = facts_.CanonTid(d);
      if (c >= 0) AddUnique(&canon, c);
      for (VarId t : facts_.Expansion(d)) AddUnique(&canon, t);
    }
    for (const auto& [a, ks] : refs) {
      if (FullSlots(a, ks)) for (VarId t : facts_.Expansion(a)) AddUnique(&canon, t);
    }
    // 4. accesses.
    struct Acc {
      StorageAlt alt;
      Access kind;
      size_t arg;
      VarId var;
    };
    std::vector<Acc> accs;
    for (size_t i = 0; i < call->args.size(); ++i) {
      ArgDir d = call->attrs.arg_directions[i];
      Access kind;
      if (d == ArgDir::kInput) kind = Access::kRead;
      else if (d == ArgDir::kOutput || d == ArgDir::kOutputExisting) kind = Access::kWrite;
      else if (d == ArgDir::kInOut) kind = Access::kReadWrite;
      else continue;
      const Operand& op = call->args[i];
      if (facts_.Status(op) != LocStatus::kKnown) {
        if (kind == Access::kRead && !op.is_const) {
          VarId t = facts_.CanonTid(op.var);
          if (t >= 0 && std::find(canon.begin(), canon.end(), t) != canon.end()) continue;
        }
        Log(*call, i, "fallback", std::string(" direction=") + DirText(d) + " access=" + AccessText(kind) +
                                      " fallback_reason=unresolved_location");
        Fallback(FallbackReason::kUnresolvedLocation);
        return;
      }
      if (opts_.sound && !op.is_const && AmbiguousHere(op.var)) {
        // (k) The access may be to buffers the analysis does not see: as for (c), no rewrite
        // or marker of the function may rely on the analysis, and no whole-body MANUAL.
        unseen_accesses_ = true;
        for (Layer& l : layers_) l.sound_no_layer_manual = true;
      }
      for (const StorageAlt& a : facts_.vars[op.var].loc) accs.push_back(Acc{a, kind, i, op.var});
    }
    if (accs.empty()) return;
    // 6. hazard scan.
    std::vector<VarId> edges;
    std::map<size_t, bool> covered, blocked, imprecise;
    // Sound mode: per argument, whether some access alternative is not contained in a covered
    // prior write (a); and whether the call touches a created tensor, manual_dep or not (d).
    std::map<size_t, bool> partly_uncovered;
    // Sound mode (e): per argument, whether a hazard is covered by an edge naming only the last
    // iteration of a loop whose iterations the runtime does not chain.
    std::map<size_t, bool> last_iteration_cover;
    bool relies_on_last_iteration = false;
    // Sound mode (f): per argument, whether a hazard is covered by a compiler edge that
    // generated code cannot name at this call (and so drops, spec §3.4).
    std::map<size_t, bool> invisible_cover;
    bool relies_on_invisible_edge = false;
    bool touches_manual_dep = false, touches_created = false;
    std::map<size_t, std::string> imprecise_kind;
    for (const Acc& acc : accs) {
      if (!RegionIsPrecise(acc.alt.region)) {
        imprecise[acc.arg] = true;
        imprecise_kind[acc.arg] = acc.alt.region.kind == RegionKind::kDynamic ? "dynamic_region" : "unknown_region";
      }
      if (opts_.sound && TouchesRootIn(created_roots_, acc.alt)) touches_created = true;
      if (opts_.sound && TouchesRootIn(manual_dep_roots_, acc.alt)) touches_manual_dep = true;
      bool contained = false;
      for (size_t fi = frames_.size(); fi-- > 0;) {
        for (const Record& prior : frames_[fi]) {
          if (!facts_.RootsMayAlias(prior.alt.root, acc.alt.root)) continue;
          if (!RegionsMayOverlap(prior.alt.region, acc.alt.region)) continue;
          bool hazard = (Reads(acc.kind) && Writes(prior.kind)) || (Writes(acc.kind) && Reads(prior.kind)) ||
                        (Writes(acc.kind) && Writes(prior.kind));
          if (!hazard) continue;
          VarId edge = prior.producer;
          if (prior.producer >= 0 && !prior.direct) {
            VarId c = facts_.CanonTid(prior.producer);
            if (c >= 0) edge = c;
          }
          bool is_dyn = prior.dynamic_producer;
          bool active_dyn = is_dyn && prior.dyn_id != 0 && active_dyn_.count(prior.dyn_id);
          bool inactive_dyn = prior.dyn_id != 0 && !active_dyn_.count(prior.dyn_id);
          bool complete_cover = false;
          bool partial = false;
          if (is_dyn && edge >= 0) {
            for (const auto& [a, ks] : refs) {
              auto ex = facts_.Expansion(a);
              if (std::find(ex.begin(), ex.end(), edge) == ex.end()) continue;
              if (FullSlots(a, ks)) complete_cover = true;
              else partial = true;
            }
            for (VarId d : raw) {
              if (!facts_.IsComplete(d)) continue;
              auto ex = facts_.Expansion(d);
              if (std::find(ex.begin(), ex.end(), edge) != ex.end()) complete_cover = true;
            }
          }
          bool in_canon = edge >= 0 && std::find(canon.begin(), canon.end(), edge) != canon.end();
          // The reference trusts enough scalar TaskId temps in the user deps to cover a producer
          // from a dynamic loop whatever tasks they name; sound mode (i) trusts only deps that
          // provably name the producer (its canonical TaskId, or a complete TaskId array).
          bool windowed = false;
          if (is_dyn && !opts_.sound) {
            int n = 0;
            for (VarId d : raw) {
              if (facts_.IsTaskId(d) && !facts_.vars[d].submit_tail && facts_.vars[d].slot_refs.empty()) ++n;
            }
            windowed = n >= kMinWindowedTaskIdTempDeps;
          }
          bool user_covered = (in_canon && !(is_dyn && partial)) || (is_dyn && (complete_cover || windowed));
          if (is_dyn && !active_dyn && !inactive_dyn && !complete_cover) blocked[acc.arg] = true;
          std::string extra = std::string(" direction=") + DirText(call->attrs.arg_directions[acc.arg]) +
                              " access=" + AccessText(acc.kind) + " region=" + RegionKindName(acc.alt.region.kind) +
                              " prior_edge=" + VarText(edge) + " current_task_id=" + VarText(producer);
          bool proves_cover = Writes(prior.kind) && prior.alt.root == acc.alt.root &&
                              RegionContains(prior.alt.region, acc.alt.region);
          // Sound mode keeps what the runtime orders. Its lookup orders this call after a
          // prior writer only when the call reads (Input / InOut: a write-after-read is never
          // ordered, an OutputExisting write looks nothing up), and a hazard with an access of
          // the other branch of an enclosing if cannot happen within an iteration (rule (b)
          // orders across iterations). For the other hazards how the edge is named does not
          // matter: neither (e) nor (f) applies.
          const bool runtime_orders = Reads(acc.kind) && Writes(prior.kind) &&
                                      !InExclusiveBranches(prior.branches, open_branches_);
          const bool unordered_at_runtime = opts_.sound && !runtime_orders;
          if (opts_.sound && !unordered_at_runtime && prior.last_iteration_only) {
            last_iteration_cover[acc.arg] = true;
            relies_on_last_iteration = true;
            KeepPublishing(prior);
          }
          if (user_covered) {
            covered[acc.arg] = true;
            if (proves_cover) contained = true;
            continue;
          }
          std::optional<FallbackReason> fb;
          if (inactive_dyn) fb = FallbackReason::kPriorFromInactiveDynamicLoop;
          else if (is_dyn && !active_dyn) fb = FallbackReason::kDynamicPriorProducerRequiresScopeLift;
          else if (prior.producer < 0) fb = FallbackReason::kMissingPriorTaskId;
          else if (!task_backed_[edge]) fb = FallbackReason::kPriorNamesNoTask;
          if (fb) {
            Log(*call, acc.arg, "fallback", extra + " fallback_reason=" + FallbackReasonName(*fb));
            Fallback(*fb);
            return;
          }
          AddUnique(&edges, edge);
          covered[acc.arg] = true;
          if (opts_.sound && !unordered_at_runtime && !blocks_->VisibleAt(edge, call)) {
            invisible_cover[acc.arg] = true;
            relies_on_invisible_edge = true;
            KeepPublishing(prior);
          }
          if (proves_cover) contained = true;
        }
      }
      if (!contained) partly_uncovered[acc.arg] = true;
    }
    // 7. candidates.
    std::vector<int> cands;
    for (size_t i = 0; i < call->args.size(); ++i) {
      ArgDir d = call->attrs.arg_directions[i];
      if (d != ArgDir::kInput && d != ArgDir::kInOut) continue;
      std::string bucket;
      if (imprecise[i]) bucket = imprecise_kind[i];
      else if (!covered[i]) bucket = "no_covered_hazard";
      else if (blocked[i]) bucket = "dynamic_producer_incomplete";
      else if (opts_.sound && touches_manual_dep) bucket = "sound_manual_dep";
      else if (opts_.sound && partly_uncovered[i]) bucket = "sound_partial_cover";
      else if (opts_.sound && last_iteration_cover[i]) bucket = "sound_last_iteration_only";
      else if (opts_.sound && invisible_cover[i]) bucket = "sound_edge_not_visible";
      else bucket = "applied";
      if (bucket == "applied" && static_cast<int64_t>(i) <= kMaxCandidateIndex) cands.push_back(static_cast<int>(i));
      if (covered[i] || bucket == "applied") Log(*call, i, bucket, "");
    }
    // 8. record.
    int dyn_depth = dyn_stack_.empty() ? 0 : dyn_stack_.back().second;
    int dyn_id = dyn_stack_.empty() ? 0 : dyn_stack_.back().first;
    for (const Acc& acc : accs) {
      VarId p = producer;
      if (!assign) {
        p = -1;
        if (Writes(acc.kind)) {
          for (size_t i = 0; i < call->args.size() && p < 0; ++i) {
            ArgDir d = call->attrs.arg_directions[i];
            if (d != ArgDir::kOutputExisting && d != ArgDir::kInOut) continue;
            const Operand& op = call->args[i];
            if (facts_.Status(op) != LocStatus::kKnown) continue;
            for (const StorageAlt& a : facts_.vars[op.var].loc) {
              if (facts_.RootsMayAlias(a.root, acc.alt.root) && RegionsMayOverlap(a.region, acc.alt.region)) {
                p = op.var;
                break;
              }
            }
          }
        }
      }
      frames_.back().push_back(Record{acc.alt, acc.kind, p, facts_.IsTaskId(p), loop_depth_ > 0, dyn_depth,
                                      dyn_id, static_cast<int>(acc.arg), call, false, open_branches_,
                                      facts_.vars[acc.var].loop_indexed});
    }
    // 9. attach.
    const bool keep_runtime_scope =
        opts_.sound && (touches_created || relies_on_last_iteration || relies_on_invisible_edge);
    if (keep_runtime_scope) {
      for (Layer& l : layers_) l.sound_no_layer_manual = true;
    }
    if (!edges.empty()) {
      call->attrs.compiler_manual_dep_edges = edges;
      call->attrs.scope_candidate = !keep_runtime_scope;
    }
    if (!cands.empty()) {
      pending_[call] = cands;
      ++layer.candidate_count;
    }
  }

  bool FullSlots(VarId a, const std::set<int64_t>& ks) const {
    if (!facts_.vars[a].array) return false;
    int64_t ext = facts_.vars[a].array->extent;
    if (ext <= 0) return false;
    for (int64_t i = 0; i < ext; ++i) if (!ks.count(i)) return false;
    return true;
  }

  static void AddUnique(std::vector<VarId>* out, VarId v) {
    if (v >= 0 && std::find(out->begin(), out->end(), v) == out->end()) out->push_back(v);
  }

  // ---- sound mode (AutoDeriveOptions::sound) -----------------------------------------------
  /// (e), (f) The current call keeps its runtime lookup because the edge to `prior`'s task does
  /// not cover the hazard; the lookup only finds that task if it publishes, which it does only
  /// outside a MANUAL scope: its call marker goes (markers already set are on earlier calls).
  static void KeepPublishing(const Record& prior) {
    if (prior.call != nullptr) prior.call->attrs.scope_candidate = false;
  }

  /// Roots (and MemRef aliases) of every `create` in `body`, recursively; those of
  /// `create(..) manual_dep` also into manual_dep_roots_.
  void CollectCreatedRoots(const std::vector<Stmt>& body) {
    for (const Stmt& s : body) {
      if (s.kind == StmtKind::kAssign && s.expr.kind == ExprKind::kCreate) {
        for (VarId d : s.defs) {
          if (d < 0) continue;
          for (const StorageAlt& a : facts_.vars[d].loc) {
            created_roots_.insert(a.root);
            if (s.expr.manual_dep) manual_dep_roots_.insert(a.root);
          }
        }
      }
      CollectCreatedRoots(s.body);
      CollectCreatedRoots(s.else_body);
    }
  }

  /// (d) True when `alt` may alias the storage of one of `roots`. O(|roots|).
  bool TouchesRootIn(const std::set<VarId>& roots, const StorageAlt& alt) const {
    for (VarId r : roots) {
      if (facts_.RootsMayAlias(r, alt.root)) return true;
    }
    return false;
  }

  /// (b) After walking a counted loop's body: every pair of records of the body (a record with
  /// itself included) that alias, overlap and conflict is a hazard between two iterations, which
  /// the pass never covers with an edge. The calls involved keep their runtime lookups (their
  /// rewrite candidates and call markers are dropped) and every enclosing layer loses the
  /// whole-body marker. Two kinds of pairs are ordered or disjoint without the runtime: bands
  /// of one parent at the loop's own index (disjoint when the step is at least the band's
  /// extent), and a submit with itself when its user deps name the loop-carried TaskId that the
  /// loop yields from that submit (`deps=[last]`, `yield tid`: iteration k+1 waits on k).
  /// O(body records^2).
  void SoundCrossIteration(const Stmt& loop, size_t begin) {
    std::vector<Record>& recs = frames_.back();
    std::set<Expr*> involved;
    for (size_t i = begin; i < recs.size(); ++i) {
      for (size_t j = i; j < recs.size(); ++j) {
        const Record& a = recs[i];
        const Record& b = recs[j];
        if (DisjointAcrossIterations(loop, a, b)) continue;
        if (a.call == b.call && ChainedByUserDeps(loop, a)) continue;
        // Only what the runtime orders across iterations can be lost by a MANUAL scope: a
        // publisher (InOut, OutputExisting) followed by a lookup (Input, InOut) of the next
        // iteration. WAR and OutputExisting-after-write pairs are races at run time too.
        const bool ordered = (Publishes(a) && LooksUp(b)) || (Publishes(b) && LooksUp(a));
        if (!ordered) continue;
        if (!facts_.RootsMayAlias(a.alt.root, b.alt.root)) continue;
        if (!RegionsMayOverlap(a.alt.region, b.alt.region)) continue;
        involved.insert(a.call);
        involved.insert(b.call);
      }
    }
    involved.erase(nullptr);
    if (involved.empty()) return;
    for (Expr* c : involved) {
      pending_.erase(c);
      c->attrs.scope_candidate = false;
    }
    for (Layer& l : layers_) l.sound_no_layer_manual = true;
  }

  /// (c) Once any scope of the function fell back (or a hand function has a call outside any
  /// scope), those accesses were never seen by the rest of the analysis: drop every rewrite
  /// candidate and call marker of `body` (edges stay).
  void SoundStripAfterFallback(std::vector<Stmt>* body) {
    if (opts_.sound && unseen_accesses_) Strip(body, /*edges=*/false);
  }

  // ---- stripping and application ---------------------------------------------------------
  void Strip(std::vector<Stmt>* body, bool edges) {
    for (Stmt& s : *body) {
      if (s.kind == StmtKind::kAssign || s.kind == StmtKind::kEval) {
        if (s.expr.kind == ExprKind::kCall) {
          pending_.erase(&s.expr);
          s.expr.attrs.scope_candidate = false;
          if (edges) s.expr.attrs.compiler_manual_dep_edges.reset();
        }
      }
      Strip(&s.body, edges);
      Strip(&s.else_body, edges);
    }
  }

  void ApplyPending(std::vector<Stmt>* body) {
    for (Stmt& s : *body) {
      if ((s.kind == StmtKind::kAssign || s.kind == StmtKind::kEval) && s.expr.kind == ExprKind::kCall) {
        auto it = pending_.find(&s.expr);
        if (it != pending_.end()) {
          for (int i : it->second) {
            ArgDir& d = s.expr.attrs.arg_directions[i];
            if (d == ArgDir::kInput) d = ArgDir::kNoDep;
            else if (d == ArgDir::kInOut) d = ArgDir::kOutputExisting;
          }
          pending_.erase(it);
        }
      }
      ApplyPending(&s.body);
      ApplyPending(&s.else_body);
    }
  }

  const Program& prog_;
  Function* fn_;
  const AutoDeriveOptions& opts_;
  AutoDeriveReport* report_;
  FunctionFacts facts_;
  std::vector<uint8_t> task_backed_;  ///< per var: may name a task at run time
  std::optional<AmbiguousBindings> ambiguous_;  ///< sound (k)
  std::vector<const Stmt*> open_ifs_;           ///< the ifs the walk is inside
  std::vector<std::pair<const Stmt*, bool>> open_branches_;  ///< and in which branch of each
  std::vector<std::vector<Record>> frames_;
  std::vector<Layer> layers_;
  int loop_depth_ = 0;
  int next_dyn_id_ = 0;
  std::vector<std::pair<int, int>> dyn_stack_;  ///< (id, depth)
  std::set<int> active_dyn_;
  std::map<const Expr*, std::vector<int>> pending_;  ///< transient candidate indices
  /// Some scope of the function fell back, or a hand function's call outside any scope was
  /// skipped: accesses the analysis never recorded (sound mode strips rewrites and markers).
  bool unseen_accesses_ = false;
  std::set<VarId> manual_dep_roots_;                 ///< sound mode: roots of manual_dep tensors
  std::set<VarId> created_roots_;                    ///< sound mode: roots of every created tensor
  std::optional<LexicalBlocks> blocks_;              ///< sound mode: what a call can name
};

}  // namespace

void AutoDeriveTaskDependencies(Program* prog, const AutoDeriveOptions& options, AutoDeriveReport* report) {
  AutoDeriveReport local;
  if (!report) report = &local;
  if (!options.analyze_auto_scopes) return;
  for (Function& fn : prog->functions) {
    if (fn.body.empty()) continue;
    Walker(*prog, &fn, options, report).Run();
  }
}

}  // namespace depgraph::passes
