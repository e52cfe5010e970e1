#include "lexical_blocks.h"

namespace depgraph::passes {

LexicalBlocks::LexicalBlocks(const Function& fn) {
  const int body = NewBlock(-1);
  for (VarId p : fn.params) def_block_[p] = body;
  Index(fn.body, body);
}

int LexicalBlocks::NewBlock(int parent) {
  parent_.push_back(parent);
  return static_cast<int>(parent_.size()) - 1;
}

void LexicalBlocks::Index(const std::vector<Stmt>& body, int block) {
  for (const Stmt& s : body) {
    for (VarId d : s.defs) {
      if (d >= 0) def_block_[d] = block;
    }
    switch (s.kind) {
      case StmtKind::kAssign:
      case StmtKind::kEval:
        call_block_[&s.expr] = block;
        break;
      case StmtKind::kScope:
        Index(s.body, NewBlock(block));
        break;
      case StmtKind::kFor:
      case StmtKind::kWhile: {
        const int inner = NewBlock(block);
        if (s.loop_var >= 0) def_block_[s.loop_var] = inner;
        for (const IterArg& it : s.iters) {
          if (it.var >= 0) def_block_[it.var] = inner;
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
  const auto d = def_block_.find(def);
  const auto c = call_block_.find(call);
  if (d == def_block_.end() || c == call_block_.end()) return true;
  for (int b = c->second; b >= 0; b = parent_[static_cast<size_t>(b)]) {
    if (b == d->second) return true;
  }
  return false;
}

}  // namespace depgraph::passes
