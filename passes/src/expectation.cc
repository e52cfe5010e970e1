// Evaluation of `expect` facts.
#include "depgraph_passes/expectation.h"

#include <functional>
#include <optional>

#include "depgraph_passes/materialize_runtime_scopes.h"
#include "depgraph_passes/var_numbering.h"

namespace depgraph::passes {

CaseRun RunCase(const Program& prog) {
  CaseRun run;
  run.original = prog;
  run.derived = prog;
  AutoDeriveOptions opts;
  for (const RunDirective& r : prog.runs) {
    if (r.Has("analyze")) opts.analyze_auto_scopes = true;
    if (r.Has("noanalyze")) opts.analyze_auto_scopes = false;
    if (r.Has("debug")) opts.debug_log = true;
    if (r.Has("sound")) opts.sound = true;
  }
  AutoDeriveTaskDependencies(&run.derived, opts, &run.report);
  run.materialized = run.derived;
  MaterializeRuntimeScopes(&run.materialized);
  return run;
}

namespace {

struct Found {
  const Function* fn = nullptr;
  const Stmt* stmt = nullptr;
};

void ForEachStmt(const std::vector<Stmt>& body, const std::function<bool(const Stmt&)>& f) {
  for (const Stmt& s : body) {
    if (f(s)) return;
    ForEachStmt(s.body, f);
    ForEachStmt(s.else_body, f);
  }
}

Found FindCall(const Program& p, const std::string& kernel, int64_t n) {
  Found out;
  int64_t seen = 0;
  for (const Function& fn : p.functions) {
    bool done = false;
    std::function<void(const std::vector<Stmt>&)> walk = [&](const std::vector<Stmt>& body) {
      for (const Stmt& s : body) {
        if (done) return;
        if ((s.kind == StmtKind::kAssign || s.kind == StmtKind::kEval) && s.expr.kind == ExprKind::kCall &&
            s.expr.callee == kernel && ++seen == n) {
          out = Found{&fn, &s};
          done = true;
          return;
        }
        walk(s.body);
        walk(s.else_body);
      }
    };
    walk(fn.body);
    if (done) break;
  }
  return out;
}

Found FindScope(const Program& p, int64_t n, int* index_out) {
  for (const Function& fn : p.functions) {
    int64_t seen = 0;
    Found out;
    std::function<void(const std::vector<Stmt>&)> walk = [&](const std::vector<Stmt>& body) {
      for (const Stmt& s : body) {
        if (out.stmt) return;
        if (s.kind == StmtKind::kScope && ++seen == n) {
          out = Found{&fn, &s};
          return;
        }
        walk(s.body);
        walk(s.else_body);
      }
    };
    walk(fn.body);
    if (out.stmt) {
      *index_out = static_cast<int>(n);
      return out;
    }
  }
  return Found{};
}

std::string Join(const std::vector<std::string>& items) {
  std::string s = "[";
  for (size_t i = 0; i < items.size(); ++i) s += (i ? ", " : "") + items[i];
  return s + "]";
}

std::string OutcomeText(const RegionOutcome& o) {
  return o ? std::string("fallback=") + FallbackReasonName(*o) : "nofallback";
}

class Evaluator {
 public:
  Evaluator(const ExpectDirective& e, const CaseRun& run) : e_(e), run_(run), line_(Line()) {}

  std::vector<ExpectFailure> Run() {
    switch (e_.target.kind) {
      case TargetKind::kCall: Call(); break;
      case TargetKind::kScope: Scope(); break;
      case TargetKind::kFunc: Func(); break;
      case TargetKind::kStderr: Stderr(); break;
      case TargetKind::kMat: Mat(); break;
    }
    return std::move(failures_);
  }

 private:
  std::string Line() const {
    std::string s = "expect " + TargetText(e_.target);
    for (const Fact& f : e_.facts) s += " " + FactText(f);
    return s;
  }
  void Fail(const Fact* f, const std::string& expected, const std::string& actual) {
    failures_.push_back(ExpectFailure{line_, f ? FactText(*f) : "", expected, actual});
  }

  std::string Refs(const Function& fn, const std::vector<VarId>& vars) {
    auto ord = DefinitionOrdinals(fn);
    std::vector<std::string> items;
    for (VarId v : vars) items.push_back(v >= 0 ? VarRefText(fn, ord, v) : "<none>");
    return Join(items);
  }

  void CheckRefs(const Fact& f, const Function& fn, const std::vector<VarId>& actual) {
    std::vector<VarId> expected;
    for (const std::string& item : f.items) {
      std::string err;
      VarId v = ResolveVarRef(fn, item, &err);
      if (v < 0) {
        Fail(&f, FactText(f), "unresolvable reference: " + err);
        return;
      }
      expected.push_back(v);
    }
    if (expected != actual) Fail(&f, Join(f.items), Refs(fn, actual));
  }

  void Call() {
    Found c = FindCall(run_.derived, e_.target.name, e_.target.index);
    if (!c.stmt) {
      Fail(nullptr, "call " + TargetText(e_.target), "no such call");
      return;
    }
    const CallAttrs& a = c.stmt->expr.attrs;
    for (const Fact& f : e_.facts) {
      if (f.key == "edges" && f.form == FactForm::kList) {
        CheckRefs(f, *c.fn, a.compiler_manual_dep_edges.value_or(std::vector<VarId>{}));
      } else if (f.key == "udeps" && f.form == FactForm::kList) {
        CheckRefs(f, *c.fn, a.manual_dep_edges);
      } else if (f.key == "dirs" && f.form == FactForm::kList) {
        std::vector<std::string> actual;
        for (ArgDir d : a.arg_directions) actual.push_back(ArgDirName(d));
        if (actual != f.items) Fail(&f, Join(f.items), Join(actual));
      } else if (f.form == FactForm::kFlag && (f.key == "mark" || f.key == "nomark")) {
        if (a.scope_candidate != (f.key == "mark")) Fail(&f, f.key, a.scope_candidate ? "mark" : "nomark");
      } else if (f.form == FactForm::kFlag && f.key == "submit") {
        if (!c.stmt->expr.submit) Fail(&f, "submit", "plain call");
      } else if (f.form == FactForm::kFlag && f.key == "early") {
        if (!a.allow_early_resolve) Fail(&f, "early", "no early");
      } else {
        Fail(&f, FactText(f), "unknown call fact");
      }
    }
  }

  void Scope() {
    int index = 0;
    Found s = FindScope(run_.derived, e_.target.index, &index);
    if (!s.stmt) {
      Fail(nullptr, TargetText(e_.target), "no such scope");
      return;
    }
    std::optional<RegionOutcome> outcome;
    auto fit = run_.report.scopes.find(s.fn->name);
    if (fit != run_.report.scopes.end()) {
      auto it = fit->second.find(index);
      if (it != fit->second.end()) outcome = it->second;
    }
    for (const Fact& f : e_.facts) {
      if (f.form == FactForm::kFlag && (f.key == "auto" || f.key == "manual")) {
        if (s.stmt->manual != (f.key == "manual")) Fail(&f, f.key, s.stmt->manual ? "manual" : "auto");
      } else {
        CheckOutcome(f, outcome);
      }
    }
  }

  void CheckOutcome(const Fact& f, const std::optional<RegionOutcome>& outcome) {
    bool is_fb = f.form == FactForm::kValue && f.key == "fallback";
    bool is_nofb = f.form == FactForm::kFlag && f.key == "nofallback";
    if (!is_fb && !is_nofb) {
      Fail(&f, FactText(f), "unknown fact");
      return;
    }
    std::string actual = outcome ? OutcomeText(*outcome) : "not analysed";
    if (actual != FactText(f)) Fail(&f, FactText(f), actual);
  }

  void Func() {
    const Function* fn = run_.derived.FindFunction(e_.target.name);
    const Function* orig = run_.original.FindFunction(e_.target.name);
    if (!fn || !orig) {
      Fail(nullptr, TargetText(e_.target), "no such function");
      return;
    }
    for (const Fact& f : e_.facts) {
      if (f.form == FactForm::kFlag && f.key == "unchanged") {
        if (!(*fn == *orig)) Fail(&f, "unchanged", "changed");
      } else if (f.form == FactForm::kFlag && (f.key == "layer_manual" || f.key == "no_layer_manual")) {
        if (fn->layer_candidate != (f.key == "layer_manual")) {
          Fail(&f, f.key, fn->layer_candidate ? "layer_manual" : "no_layer_manual");
        }
      } else if (f.form == FactForm::kFlag && f.key == "nocandidates") {
        // Candidate indices are kept outside the IR by construction; nothing can remain.
      } else {
        std::optional<RegionOutcome> outcome;
        auto it = run_.report.bodies.find(fn->name);
        if (it != run_.report.bodies.end()) outcome = it->second;
        CheckOutcome(f, outcome);
      }
    }
  }

  void Stderr() {
    const std::string& log = run_.report.debug_log;
    for (const Fact& f : e_.facts) {
      if (f.form == FactForm::kString && f.key.empty()) {
        if (log.find(f.text) == std::string::npos) Fail(&f, "contains \"" + f.text + "\"", "log:\n" + log);
      } else if (f.form == FactForm::kString && f.key == "absent") {
        if (log.find(f.text) != std::string::npos) Fail(&f, "absent \"" + f.text + "\"", "log:\n" + log);
      } else if (f.form == FactForm::kValue && f.key == "lines" && !f.items.empty()) {
        int n = 0;
        size_t start = 0;
        while (start < log.size()) {
          size_t end = log.find('\n', start);
          if (end == std::string::npos) end = log.size();
          if (log.substr(start, end - start).find("[auto-no-dep-bucket]") != std::string::npos) ++n;
          start = end + 1;
        }
        if (std::to_string(n) != f.items[0]) Fail(&f, f.items[0] + " bucket lines", std::to_string(n) + " in:\n" + log);
      } else {
        Fail(&f, FactText(f), "unknown stderr fact");
      }
    }
  }

  void Mat() {
    const Function* fn = run_.materialized.FindFunction(e_.target.name);
    if (!fn) {
      Fail(nullptr, TargetText(e_.target), "no such function");
      return;
    }
    std::string tree = ScopeTreeText(*fn);
    for (const Fact& f : e_.facts) {
      if (f.form != FactForm::kString || !f.key.empty()) {
        Fail(&f, FactText(f), "unknown mat fact");
      } else if (tree != f.text) {
        Fail(&f, f.text, tree);
      }
    }
  }

  const ExpectDirective& e_;
  const CaseRun& run_;
  std::string line_;
  std::vector<ExpectFailure> failures_;
};

}  // namespace

std::vector<ExpectFailure> EvaluateExpectation(const ExpectDirective& expect, const CaseRun& run) {
  return Evaluator(expect, run).Run();
}

}  // namespace depgraph::passes
