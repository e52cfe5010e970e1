#include "access_record.h"

#include <algorithm>

namespace depgraph::passes {

bool DisjointAcrossIterations(const Stmt& loop, const Record& a, const Record& b) {
  if (!a.loop_indexed || !b.loop_indexed || loop.kind != StmtKind::kFor || !loop.step.is_const) return false;
  const LoopIndexedSlice& x = *a.loop_indexed;
  const LoopIndexedSlice& y = *b.loop_indexed;
  const int64_t step = loop.step.value < 0 ? -loop.step.value : loop.step.value;
  return x.index == loop.loop_var && y.index == loop.loop_var && x.parent == y.parent &&
         x.dim == y.dim && x.extent <= step && y.extent <= step;
}

bool ChainedByUserDeps(const Stmt& loop, const Record& r) {
  if (r.call == nullptr || !r.call->submit || !r.direct || r.producer < 0) return false;
  const Stmt* yield = loop.body.empty() || loop.body.back().kind != StmtKind::kYield ? nullptr : &loop.body.back();
  if (yield == nullptr) return false;
  for (size_t k = 0; k < loop.iters.size() && k < yield->values.size(); ++k) {
    const Operand& yielded = yield->values[k];
    if (yielded.is_const || yielded.var != r.producer) continue;
    const std::vector<VarId>& deps = r.call->attrs.manual_dep_edges;
    if (std::find(deps.begin(), deps.end(), loop.iters[k].var) != deps.end()) return true;
  }
  return false;
}

}  // namespace depgraph::passes
