// AutoDeriveTaskDependencies, the Walker at a call or `dynamic` op: the accesses it makes, the
// hazard scan against the earlier records (fallback, or compiler edges), its direction-rewrite
// candidates and the records it leaves, plus the debug log. Declared in auto_derive_walker.h.
#include "auto_derive_walker.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "depgraph_passes/storage_roots.h"

namespace depgraph::passes::auto_derive_detail {

// ---- per call --------------------------------------------------------------------------
void Walker::Fallback(FallbackReason reason) {
  Layer& l = layers_.back();
  if (!l.fallback) l.reason = reason;
  l.fallback = true;
}

std::string Walker::VarText(VarId v) const {
  if (v < 0) return "null";
  return fn_->vars[v].name + "#" + std::to_string(v);
}

void Walker::Log(const Expr& call, size_t arg, const std::string& bucket, const std::string& extra) {
  if (!opts_.debug_log) return;
  report_->debug_log += "[auto-deps-loop-debug] [auto-no-dep-bucket] call=" + call.callee +
                        " arg_index=" + std::to_string(arg) + " bucket=" + bucket + extra + "\n";
}

const char* Walker::DirText(ArgDir d) {
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

const char* Walker::AccessText(Access a) {
  return a == Access::kRead ? "Read" : a == Access::kWrite ? "Write" : "ReadWrite";
}

bool Walker::AmbiguousHere(VarId v) const { return ambiguous_ && ambiguous_->AmbiguousAt(v, open_ifs_); }

void Walker::DynamicSite(const Expr& op) {
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

void Walker::CallSite(Expr* call, Stmt* assign) {
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

bool Walker::FullSlots(VarId a, const std::set<int64_t>& ks) const {
  if (!facts_.vars[a].array) return false;
  int64_t ext = facts_.vars[a].array->extent;
  if (ext <= 0) return false;
  for (int64_t i = 0; i < ext; ++i) if (!ks.count(i)) return false;
  return true;
}

void Walker::AddUnique(std::vector<VarId>* out, VarId v) {
  if (v >= 0 && std::find(out->begin(), out->end(), v) == out->end()) out->push_back(v);
}

}  // namespace depgraph::passes::auto_derive_detail
