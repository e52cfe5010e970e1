#include "depgraph_passes/lexical_blocks.h"

namespace depgraph::passes {

LexicalBlocks::LexicalBlocks(const Function& fn) {
  const int body = NewBlock(-1);
  for (VarId p : fn.params) defs_[p] = {body, 0};
  Index(fn.body, body);
}

int LexicalBlocks::NewBlock(int parent) {
  parent_.push_back(parent);
  return static_cast<int>(parent_.size()) - 1;
}

void LexicalBlocks::Index(const std::vector<Stmt>& body, int block) {
  for (const Stmt& s : body) {
    const Place here{block, ++statements_};
    for (VarId d : s.defs) {
      if (d >= 0) defs_[d] = here;
    }
    switch (s.kind) {
      case StmtKind::kAssign:
      case StmtKind::kEval:
        calls_[&s.expr] = here;
        break;
      case StmtKind::kScope:
        Index(s.body, NewBlock(block));
        break;
      case StmtKind::kFor:
      case StmtKind::kWhile: {
        const int inner = NewBlock(block);
        if (s.loop_var >= 0) defs_[s.loop_var] = {inner, here.order};
        for (const IterArg& it : s.iters) {
          if (it.var >= 0) defs_[it.var] = {inner, here.order};
        }
        Index(s.body, inner);
        break;
      }
      case StmtKind::kIf:
        Index(s.body, NewBlock(block));
        Index(s.else_body, NewBlock(block));
        break;
      default:
        break;
    }
  }
}

bool LexicalBlocks::VisibleAt(VarId def, const Expr* call) const {
  const auto d = defs_.find(def);
  const auto c = calls_.find(call);
  if (d == defs_.end() || c == calls_.end()) return true;
  if (d->second.order >= c->second.order) return false;
  for (int b = c->second.block; b >= 0; b = parent_[static_cast<size_t>(b)]) {
    if (b == d->second.block) return true;
  }
  return false;
}

}  // namespace depgraph::passes
