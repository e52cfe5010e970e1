#include "depgraph_passes/var_numbering.h"

#include <charconv>
#include <unordered_map>

namespace depgraph::passes {
namespace {

/// Walks statements in execution order of first visit, numbering each definition.
class Numberer {
 public:
  explicit Numberer(const Function& fn) : fn_(fn), ordinals_(fn.vars.size(), 0) {}

  std::vector<int> Run() {
    for (VarId p : fn_.params) Def(p);
    Walk(fn_.body);
    return std::move(ordinals_);
  }

 private:
  void Def(VarId v) {
    if (v < 0 || static_cast<size_t>(v) >= ordinals_.size() || ordinals_[v] != 0) return;
    ordinals_[v] = ++count_[fn_.vars[v].name];
  }

  void Walk(const std::vector<Stmt>& stmts) {
    for (const Stmt& s : stmts) {
      switch (s.kind) {
        case StmtKind::kScope: Walk(s.body); break;
        case StmtKind::kFor:
        case StmtKind::kWhile:
          Def(s.loop_var);
          for (const IterArg& it : s.iters) Def(it.var);
          Walk(s.body);
          for (VarId v : s.defs) Def(v);
          break;
        case StmtKind::kIf:
          Walk(s.body);
          Walk(s.else_body);
          for (VarId v : s.defs) Def(v);
          break;
        case StmtKind::kAssign:
          for (VarId v : s.defs) Def(v);
          break;
        default: break;
      }
    }
  }

  const Function& fn_;
  std::vector<int> ordinals_;
  std::unordered_map<std::string, int> count_;
};

}  // namespace

std::vector<int> DefinitionOrdinals(const Function& fn) { return Numberer(fn).Run(); }

std::string VarRefText(const Function& fn, const std::vector<int>& ordinals, VarId v) {
  return fn.vars[v].name + "@" + std::to_string(ordinals[v]);
}

VarId ResolveVarRef(const Function& fn, const std::string& ref, std::string* err) {
  std::string name = ref;
  int k = 0;
  size_t at = ref.find('@');
  if (at != std::string::npos) {
    name = ref.substr(0, at);
    const char* b = ref.data() + at + 1;
    const char* e = ref.data() + ref.size();
    auto [p, ec] = std::from_chars(b, e, k);
    if (ec != std::errc() || p != e || k <= 0) {
      *err = "bad reference '" + ref + "'";
      return -1;
    }
  }
  std::vector<int> ord = DefinitionOrdinals(fn);
  VarId best = -1;
  for (size_t v = 0; v < fn.vars.size(); ++v) {
    if (fn.vars[v].name != name || ord[v] == 0) continue;
    if (k > 0 ? ord[v] == k : (best < 0 || ord[v] > ord[best])) best = static_cast<VarId>(v);
  }
  if (best < 0) *err = "no definition '" + ref + "' in " + fn.name;
  return best;
}

}  // namespace depgraph::passes
