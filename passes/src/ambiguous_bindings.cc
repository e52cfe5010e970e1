#include "ambiguous_bindings.h"

#include <algorithm>

#include "depgraph_passes/storage_roots.h"

namespace depgraph::passes {

namespace {

const Stmt* TrailingYield(const std::vector<Stmt>& body) {
  if (!body.empty() && body.back().kind == StmtKind::kYield) return &body.back();
  return nullptr;
}

void VarsDefinedIn(const std::vector<Stmt>& body, std::set<VarId>* vars) {
  for (const Stmt& st : body) {
    vars->insert(st.defs.begin(), st.defs.end());
    for (const IterArg& it : st.iters) vars->insert(it.var);
    VarsDefinedIn(st.body, vars);
    VarsDefinedIn(st.else_body, vars);
  }
}

}  // namespace

AmbiguousBindings::AmbiguousBindings(const Function& fn, const FunctionFacts& facts)
    : fn_(fn), facts_(facts) {
  Collect(fn.body);
}

bool AmbiguousBindings::AmbiguousAt(VarId v, const std::vector<const Stmt*>& open_ifs) const {
  if (ambiguous_.count(v)) return true;
  auto it = branch_def_if_.find(v);
  if (it == branch_def_if_.end()) return false;
  return std::find(open_ifs.begin(), open_ifs.end(), it->second) == open_ifs.end();
}

void AmbiguousBindings::Collect(const std::vector<Stmt>& body) {
  for (const Stmt& st : body) {
    if (st.kind == StmtKind::kFor || st.kind == StmtKind::kWhile) {
      const Stmt* y = TrailingYield(st.body);
      for (size_t i = 0; i < st.iters.size(); ++i) {
        const bool moves = y == nullptr || i >= y->values.size() || y->values[i].is_const ||
                           !LocationWithin(y->values[i].var, st.iters[i].var);
        if (!moves) continue;
        ambiguous_.insert(st.iters[i].var);
        if (i < st.defs.size()) ambiguous_.insert(st.defs[i]);
      }
      std::set<std::string> reassigned;
      NamesDefinedIn(st.body, &reassigned);
      std::set<VarId> inside;  // the loop's own iter args and loop var, and the body's
      VarsDefinedIn(st.body, &inside);
      for (const IterArg& it : st.iters) inside.insert(it.var);
      if (st.loop_var >= 0) inside.insert(st.loop_var);
      MarkOuterReadsOf(st.body, inside, reassigned);
    }
    if (st.kind == StmtKind::kIf) {
      for (const std::vector<Stmt>* branch : {&st.body, &st.else_body}) {
        std::set<VarId> defs;
        VarsDefinedIn(*branch, &defs);
        for (VarId w : defs) {
          if (HasOtherDefinition(w)) branch_def_if_[w] = &st;
        }
      }
    }
    Collect(st.body);
    Collect(st.else_body);
  }
}

// Whether every location alternative of `inner` lies in one of `outer`'s (same root, contained
// region), and `inner`'s location is known.
bool AmbiguousBindings::LocationWithin(VarId inner, VarId outer) const {
  if (inner < 0 || outer < 0) return false;
  if (facts_.Status(Operand::OfVar(inner)) != LocStatus::kKnown) return false;
  for (const StorageAlt& a : facts_.vars[inner].loc) {
    bool inside = false;
    for (const StorageAlt& b : facts_.vars[outer].loc) {
      if (a.root == b.root && RegionContains(b.region, a.region)) inside = true;
    }
    if (!inside) return false;
  }
  return true;
}

void AmbiguousBindings::NamesDefinedIn(const std::vector<Stmt>& body,
                                       std::set<std::string>* names) const {
  for (const Stmt& st : body) {
    for (VarId d : st.defs) names->insert(fn_.vars[d].name);
    NamesDefinedIn(st.body, names);
    NamesDefinedIn(st.else_body, names);
  }
}

// Marks the call operands in `body` (recursively) that are not among the loop's `inside`
// definitions but whose name the loop body reassigns.
void AmbiguousBindings::MarkOuterReadsOf(const std::vector<Stmt>& body,
                                         const std::set<VarId>& inside,
                                         const std::set<std::string>& reassigned) {
  for (const Stmt& st : body) {
    if ((st.kind == StmtKind::kAssign || st.kind == StmtKind::kEval) &&
        st.expr.kind == ExprKind::kCall) {
      for (const Operand& op : st.expr.args) {
        if (op.is_const || op.var < 0 || inside.count(op.var)) continue;
        if (reassigned.count(fn_.vars[op.var].name)) ambiguous_.insert(op.var);
      }
    }
    MarkOuterReadsOf(st.body, inside, reassigned);
    MarkOuterReadsOf(st.else_body, inside, reassigned);
  }
}

bool AmbiguousBindings::HasOtherDefinition(VarId w) const {
  for (size_t v = 0; v < fn_.vars.size(); ++v) {
    if (static_cast<VarId>(v) != w && fn_.vars[v].name == fn_.vars[w].name) return true;
  }
  return false;
}

}  // namespace depgraph::passes
