#include "depgraph_passes/depir_printer.h"

#include "depgraph_passes/var_numbering.h"
#include "name_env.h"

namespace depgraph::passes {
namespace {

/// Prints one function, replaying the parser's name resolution to decide `name` vs `name@k`.
class FunctionPrinter {
 public:
  explicit FunctionPrinter(const Function& fn) : fn_(fn), ord_(DefinitionOrdinals(fn)) {}

  std::string Print() {
    out_ = "orch " + fn_.name + "(";
    for (size_t i = 0; i < fn_.params.size(); ++i) {
      VarId p = fn_.params[i];
      if (i) out_ += ", ";
      out_ += fn_.vars[p].name + ": " + (fn_.vars[p].type ? TypeText(*fn_.vars[p].type) : "index");
      env_.Bind(fn_.vars[p].name, p);
    }
    out_ += ")";
    if (!fn_.auto_scope) out_ += " hand";
    if (fn_.layer_candidate) out_ += " layer_manual";
    out_ += " {\n";
    Block(fn_.body, 1);
    out_ += "}\n";
    return std::move(out_);
  }

 private:
  std::string Ref(VarId v) const {
    if (v < 0 || static_cast<size_t>(v) >= fn_.vars.size()) return "<invalid>";
    if (env_.Lookup(fn_.vars[v].name) == v) return fn_.vars[v].name;
    return VarRefText(fn_, ord_, v);
  }
  std::string Op(const Operand& o) const { return o.is_const ? std::to_string(o.value) : Ref(o.var); }
  std::string Ops(const std::vector<Operand>& ops) const {
    std::string s;
    for (size_t i = 0; i < ops.size(); ++i) s += (i ? ", " : "") + Op(ops[i]);
    return s;
  }
  std::string Refs(const std::vector<VarId>& vs) const {
    std::string s = "[";
    for (size_t i = 0; i < vs.size(); ++i) s += (i ? ", " : "") + Ref(vs[i]);
    return s + "]";
  }
  std::string Names(const std::vector<VarId>& vs) const {
    std::string s;
    for (size_t i = 0; i < vs.size(); ++i) s += (i ? ", " : "") + fn_.vars[vs[i]].name;
    return s;
  }
  void Define(const std::vector<VarId>& vs) {
    for (VarId v : vs) env_.Bind(fn_.vars[v].name, v);
  }

  std::string ExprText(const Expr& e) const {
    switch (e.kind) {
      case ExprKind::kVar: return Ops(e.args);
      case ExprKind::kCall: {
        std::string s = (e.submit ? "submit " : "") + e.callee + "(" + Ops(e.args) + ") [";
        for (size_t i = 0; i < e.attrs.arg_directions.size(); ++i) {
          s += (i ? ", " : "") + std::string(ArgDirName(e.attrs.arg_directions[i]));
        }
        s += "]";
        if (!e.attrs.manual_dep_edges.empty()) s += " deps=" + Refs(e.attrs.manual_dep_edges);
        if (e.attrs.allow_early_resolve) s += " early";
        if (e.attrs.compiler_manual_dep_edges) s += " edges=" + Refs(*e.attrs.compiler_manual_dep_edges);
        if (e.attrs.scope_candidate) s += " mark";
        return s;
      }
      case ExprKind::kSlice:
        return "slice(" + Ops(e.args) + ", [" + DimsText(e.shape) + "], [" + Ops(e.offsets) + "])";
      case ExprKind::kCreate:
        return "create(" + e.dtype + "[" + DimsText(e.shape) + "])" + (e.manual_dep ? " manual_dep" : "");
      case ExprKind::kAssemble: return "assemble(" + Ops(e.args) + ")";
      case ExprKind::kDynamic: return "dynamic " + e.callee + "(" + Ops(e.args) + ")";
      case ExprKind::kTaskInvalid: return "task_invalid()";
      case ExprKind::kTaskDummy: {
        std::vector<VarId> deps;
        for (const Operand& o : e.args) deps.push_back(o.var);
        return "task_dummy(deps=" + Refs(deps) + ")";
      }
      case ExprKind::kArrayCreate: return "array(" + std::to_string(e.extent) + ")";
      case ExprKind::kArrayGet: return "aget(" + Ops(e.args) + ")";
      case ExprKind::kArraySet:
        return "aset(" + Ops(e.args) + ", " + (e.nested.empty() ? "" : ExprText(e.nested[0])) + ")";
    }
    return "";
  }

  void Indent(int depth) { out_.append(static_cast<size_t>(depth) * 2, ' '); }

  /// Iter list text, inits resolved in the enclosing scope (before the iter args are bound).
  std::string IterText(const Stmt& s) const {
    if (s.iters.empty()) return "";
    std::string t = " iter(";
    for (size_t i = 0; i < s.iters.size(); ++i) {
      t += (i ? ", " : "") + fn_.vars[s.iters[i].var].name + " = " + Op(s.iters[i].init);
    }
    return t + ")";
  }

  void Stmts(const Stmt& s, int depth) {
    Indent(depth);
    std::string lhs = s.defs.empty() ? "" : Names(s.defs) + " = ";
    switch (s.kind) {
      case StmtKind::kScope:
        out_ += std::string("scope ") + (s.manual ? "manual" : "auto") + (s.scope_candidate ? " candidate" : "") + " {\n";
        Block(s.body, depth + 1);
        break;
      case StmtKind::kFor: {
        std::string head = lhs + "for " + fn_.vars[s.loop_var].name + " in " +
                           (s.parallel ? "parallel(" : "range(") + Op(s.start) + ", " + Op(s.stop);
        if (s.step.is_const ? s.step.value != 1 : true) head += ", " + Op(s.step);
        head += ")" + IterText(s);
        std::vector<NameEnv::Local> locals;
        env_.BindLocal(fn_.vars[s.loop_var].name, s.loop_var, &locals);
        for (const IterArg& it : s.iters) env_.BindLocal(fn_.vars[it.var].name, it.var, &locals);
        out_ += head + " {\n";
        Block(s.body, depth + 1);
        env_.EndLocals(locals);
        Define(s.defs);
        break;
      }
      case StmtKind::kWhile: {
        std::string iters = IterText(s);
        std::vector<NameEnv::Local> locals;
        for (const IterArg& it : s.iters) env_.BindLocal(fn_.vars[it.var].name, it.var, &locals);
        out_ += lhs + "while " + Ref(s.cond) + iters + " {\n";
        Block(s.body, depth + 1);
        env_.EndLocals(locals);
        Define(s.defs);
        break;
      }
      case StmtKind::kIf:
        out_ += lhs + "if " + Ref(s.cond) + " {\n";
        Block(s.body, depth + 1);
        if (s.has_else) {
          Indent(depth);
          out_ += "} else {\n";
          Block(s.else_body, depth + 1);
        }
        Define(s.defs);
        break;
      case StmtKind::kAssign:
        if (s.defs.size() == 1 && fn_.vars[s.defs[0]].type) {
          lhs = fn_.vars[s.defs[0]].name + ": " + TypeText(*fn_.vars[s.defs[0]].type) + " = ";
        }
        out_ += lhs + ExprText(s.expr) + "\n";
        Define(s.defs);
        return;
      case StmtKind::kEval: out_ += "eval " + ExprText(s.expr) + "\n"; return;
      case StmtKind::kYield:
      case StmtKind::kReturn:
        out_ += s.kind == StmtKind::kYield ? "yield" : "return";
        if (!s.values.empty()) out_ += " " + Ops(s.values);
        out_ += "\n";
        return;
    }
    Indent(depth);
    out_ += "}\n";
  }

  void Block(const std::vector<Stmt>& body, int depth) {
    for (const Stmt& s : body) Stmts(s, depth);
  }

  const Function& fn_;
  std::vector<int> ord_;
  NameEnv env_;
  std::string out_;
};

std::string KernelText(const Kernel& k) {
  std::string s = "kernel " + k.name + "(";
  for (size_t i = 0; i < k.params.size(); ++i) {
    const KernelParam& p = k.params[i];
    s += i ? ", " : "";
    s += p.dir == ParamDir::kIn ? "in " : p.dir == ParamDir::kOut ? "out " : "inout ";
    s += p.name + ": " + TypeText(p.type);
  }
  s += ")";
  for (size_t i = 0; i < k.returns.size(); ++i) {
    int r = k.returns[i];
    s += (i ? ", " : " -> ") + (r >= 0 && static_cast<size_t>(r) < k.params.size() ? k.params[r].name : "?");
  }
  return s + "\n";
}

}  // namespace

std::string PrintFunction(const Function& fn) { return FunctionPrinter(fn).Print(); }

std::string PrintDepir(const Program& prog) {
  std::string out;
  for (const Kernel& k : prog.kernels) out += KernelText(k);
  for (const Function& f : prog.functions) {
    if (!out.empty()) out += "\n";
    out += PrintFunction(f);
  }
  if (!prog.runs.empty() || !prog.expects.empty()) out += "\n";
  for (const RunDirective& r : prog.runs) {
    out += "run";
    for (const std::string& f : r.flags) out += " " + f;
    out += "\n";
  }
  for (const ExpectDirective& e : prog.expects) {
    out += "expect " + TargetText(e.target);
    for (const Fact& f : e.facts) out += " " + FactText(f);
    out += "\n";
  }
  return out;
}

}  // namespace depgraph::passes
