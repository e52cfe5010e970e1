// MaterializeRuntimeScopes and the E6 scope-tree text.
#include "depgraph_passes/materialize_runtime_scopes.h"

#include <utility>
#include <vector>

namespace depgraph::passes {

namespace {

bool IsCall(const Stmt& s) {
  return (s.kind == StmtKind::kAssign || s.kind == StmtKind::kEval) && s.expr.kind == ExprKind::kCall;
}

/// Counts calls, marked calls and scopes under `body` (recursively).
void Survey(const std::vector<Stmt>& body, int* calls, int* marked, int* scopes) {
  for (const Stmt& s : body) {
    if (IsCall(s)) {
      ++*calls;
      if (s.expr.attrs.scope_candidate) ++*marked;
    }
    if (s.kind == StmtKind::kScope) ++*scopes;
    Survey(s.body, calls, marked, scopes);
    Survey(s.else_body, calls, marked, scopes);
  }
}

/// Moves `body` (minus a trailing yield/return) into one scope statement.
void Wrap(std::vector<Stmt>* body, bool manual, bool candidate) {
  Stmt scope;
  scope.kind = StmtKind::kScope;
  scope.manual = manual;
  scope.scope_candidate = candidate;
  std::vector<Stmt> tail;
  if (!body->empty() && (body->back().kind == StmtKind::kYield || body->back().kind == StmtKind::kReturn)) {
    tail.push_back(std::move(body->back()));
    body->pop_back();
  }
  scope.body = std::move(*body);
  body->clear();
  body->push_back(std::move(scope));
  for (Stmt& t : tail) body->push_back(std::move(t));
}

void WrapBody(std::vector<Stmt>* body);

void WrapRegion(std::vector<Stmt>* body) {
  if (body->size() >= 1 && body->front().kind == StmtKind::kScope && !body->front().manual &&
      (body->size() == 1 || (body->size() == 2 && body->back().kind == StmtKind::kYield))) {
    WrapBody(&body->front().body);
    return;
  }
  int calls = 0, marked = 0, scopes = 0;
  Survey(*body, &calls, &marked, &scopes);
  if (calls == 0) return;
  if (marked > 0 && marked == calls && scopes == 0) {
    Wrap(body, true, true);
    return;
  }
  WrapBody(body);
  Wrap(body, false, false);
}

void WrapBody(std::vector<Stmt>* body) {
  for (Stmt& s : *body) {
    if (s.kind == StmtKind::kScope) {
      if (!s.manual) WrapBody(&s.body);
    } else if (s.kind == StmtKind::kFor) {
      WrapRegion(&s.body);
    } else if (s.kind == StmtKind::kIf) {
      WrapRegion(&s.body);
      WrapRegion(&s.else_body);
    } else if (s.kind == StmtKind::kWhile) {
      WrapBody(&s.body);
    }
  }
}

void StripMarkers(std::vector<Stmt>* body) {
  for (Stmt& s : *body) {
    if (IsCall(s)) s.expr.attrs.scope_candidate = false;
    StripMarkers(&s.body);
    StripMarkers(&s.else_body);
  }
}

void TreeText(const std::vector<Stmt>& body, std::string* out) {
  for (const Stmt& s : body) {
    if (IsCall(s)) {
      *out += " " + s.expr.callee;
    } else if (s.kind == StmtKind::kScope) {
      *out += s.manual ? (s.scope_candidate ? " MANUAL*{" : " MANUAL{") : " AUTO{";
      TreeText(s.body, out);
      *out += " }";
    } else if (s.kind == StmtKind::kFor) {
      *out += s.parallel ? " parallel{" : " range{";
      TreeText(s.body, out);
      *out += " }";
    } else if (s.kind == StmtKind::kWhile) {
      *out += " while{";
      TreeText(s.body, out);
      *out += " }";
    } else if (s.kind == StmtKind::kIf) {
      *out += " if{";
      TreeText(s.body, out);
      *out += " |";
      TreeText(s.else_body, out);
      *out += " }";
    }
  }
}

}  // namespace

void MaterializeRuntimeScopes(Program* prog) {
  for (Function& fn : prog->functions) {
    if (!fn.auto_scope) continue;
    if (fn.layer_candidate) {
      Wrap(&fn.body, true, false);
    } else {
      WrapBody(&fn.body);
      bool single = !fn.body.empty() && fn.body.front().kind == StmtKind::kScope && !fn.body.front().manual &&
                    (fn.body.size() == 1 || (fn.body.size() == 2 && fn.body.back().kind == StmtKind::kReturn));
      if (!single) Wrap(&fn.body, false, false);
    }
    StripMarkers(&fn.body);
    fn.auto_scope = false;
  }
}

std::string ScopeTreeText(const Function& fn) {
  std::string out;
  TreeText(fn.body, &out);
  return out.empty() ? out : out.substr(1);
}

}  // namespace depgraph::passes
