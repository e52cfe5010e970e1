#include "depgraph_passes/task_backed_values.h"

namespace depgraph::passes {

namespace {

// The facts the fixed point runs on: base values and "v may name a task if one of these does".
struct Sources {
  std::vector<uint8_t> backed;                  // known to name a task
  std::vector<std::vector<VarId>> flows_from;  // v takes the value of any of these
};

void AddFlow(Sources* s, VarId to, const Operand& from) {
  if (to >= 0 && !from.is_const && from.var >= 0) s->flows_from[to].push_back(from.var);
}

// The yields that leave a loop or branch body: those directly in it or in its scopes.
void CollectYields(const std::vector<Stmt>& body, std::vector<const Stmt*>* yields) {
  for (const Stmt& s : body) {
    if (s.kind == StmtKind::kYield) yields->push_back(&s);
    if (s.kind == StmtKind::kScope) CollectYields(s.body, yields);
  }
}

void FlowFromYields(Sources* s, const std::vector<Stmt>& body, const std::vector<VarId>& targets) {
  std::vector<const Stmt*> yields;
  CollectYields(body, &yields);
  for (const Stmt* y : yields) {
    for (size_t i = 0; i < targets.size() && i < y->values.size(); ++i) {
      AddFlow(s, targets[i], y->values[i]);
    }
  }
}

void Walk(const std::vector<Stmt>& body, Sources* s) {
  for (const Stmt& st : body) {
    switch (st.kind) {
      case StmtKind::kAssign:
        if (st.defs.empty()) break;
        switch (st.expr.kind) {
          case ExprKind::kVar:
          case ExprKind::kAssemble:
            if (!st.expr.args.empty()) AddFlow(s, st.defs[0], st.expr.args[0]);
            break;
          case ExprKind::kSlice:
          case ExprKind::kCreate:
            break;  // a new view or buffer: no task of its own
          default:  // kernel or function calls, dynamic ops, TaskIds and TaskId arrays
            for (VarId d : st.defs) s->backed[d] = 1;
        }
        break;
      case StmtKind::kFor:
      case StmtKind::kWhile: {
        std::vector<VarId> iter_vars;
        for (const IterArg& it : st.iters) {
          iter_vars.push_back(it.var);
          AddFlow(s, it.var, it.init);
        }
        // Each iteration starts from the yields; the loop's results are the last yields, or
        // the initial values when it runs no iteration.
        FlowFromYields(s, st.body, iter_vars);
        FlowFromYields(s, st.body, st.defs);
        for (size_t i = 0; i < st.defs.size() && i < st.iters.size(); ++i) {
          AddFlow(s, st.defs[i], st.iters[i].init);
        }
        Walk(st.body, s);
        break;
      }
      case StmtKind::kIf:
        FlowFromYields(s, st.body, st.defs);
        FlowFromYields(s, st.else_body, st.defs);
        Walk(st.body, s);
        Walk(st.else_body, s);
        break;
      case StmtKind::kScope:
        Walk(st.body, s);
        break;
      default:
        break;
    }
  }
}

}  // namespace

std::vector<uint8_t> TaskBackedVars(const Program& prog, const Function& fn) {
  const size_t n = fn.vars.size();
  Sources s;
  s.backed.assign(n, 0);
  s.flows_from.assign(n, {});
  // A helper's tensor parameters hold its caller's values, which may come from tasks; the
  // entry function's come from the host and never do.
  const bool called = prog.IsCalled(fn.name);
  for (size_t v = 0; v < n; ++v) {
    const Var& var = fn.vars[v];
    if (var.kind == VarKind::kLoopVar) s.backed[v] = 1;  // an index, never an edge
    if (var.kind == VarKind::kParam &&
        (called || (var.type && var.type->kind != TypeKind::kTensor))) {
      s.backed[v] = 1;
    }
  }
  Walk(fn.body, &s);
  for (bool changed = true; changed;) {
    changed = false;
    for (size_t v = 0; v < n; ++v) {
      if (s.backed[v]) continue;
      for (VarId from : s.flows_from[v]) {
        if (s.backed[from]) {
          s.backed[v] = 1;
          changed = true;
          break;
        }
      }
    }
  }
  return s.backed;
}

}  // namespace depgraph::passes
