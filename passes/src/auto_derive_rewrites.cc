// AutoDeriveTaskDependencies, what becomes of the Walker's rewrites: the sound-mode rules that
// take rewrite candidates and call markers away (created and manual_dep roots, cross-iteration
// hazards, stripping after a fallback), and stripping or applying the pending rewrites of a
// body. Declared in auto_derive_walker.h.
#include "auto_derive_walker.h"

#include <set>
#include <vector>

#include "depgraph_passes/storage_roots.h"

namespace depgraph::passes::auto_derive_detail {

// ---- sound mode (AutoDeriveOptions::sound) -----------------------------------------------
void Walker::KeepPublishing(const Record& prior) {
  if (prior.call != nullptr) prior.call->attrs.scope_candidate = false;
}

void Walker::CollectCreatedRoots(const std::vector<Stmt>& body) {
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

bool Walker::TouchesRootIn(const std::set<VarId>& roots, const StorageAlt& alt) const {
  for (VarId r : roots) {
    if (facts_.RootsMayAlias(r, alt.root)) return true;
  }
  return false;
}

void Walker::SoundCrossIteration(const Stmt& loop, size_t begin) {
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

void Walker::SoundStripAfterFallback(std::vector<Stmt>* body) {
  if (opts_.sound && unseen_accesses_) Strip(body, /*edges=*/false);
}

// ---- stripping and application ---------------------------------------------------------
void Walker::Strip(std::vector<Stmt>* body, bool edges) {
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

void Walker::ApplyPending(std::vector<Stmt>* body) {
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

}  // namespace depgraph::passes::auto_derive_detail
