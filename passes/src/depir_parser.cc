#include "depgraph_passes/depir_parser.h"

#include <optional>

#include "depgraph/support/input_file.h"
#include "depgraph_passes/depir_lexer.h"
#include "directive_reader.h"
#include "name_env.h"

namespace depgraph::passes {
namespace {

constexpr int kMaxDepth = 256;

/// The gather/scatter family accepted without the `dynamic` keyword.
bool IsDynamicOpName(const std::string& s) {
  return s == "gather" || s == "gather_mask" || s == "gather_compare" || s == "scatter_update" ||
         s == "mscatter";
}

/// Recursive-descent parser; every Parse* returns false after recording the first error.
class Parser : public DirectiveReader {
 public:
  using DirectiveReader::DirectiveReader;

  bool ParseFile(Program* prog) {
    prog_ = prog;
    while (!AtEof()) {
      const Token& t = Peek();
      if (IsId("kernel")) {
        if (!ParseKernel()) return false;
      } else if (IsId("orch")) {
        if (!ParseOrch()) return false;
      } else if (IsId("run")) {
        if (!ParseRun()) return false;
      } else if (IsId("expect")) {
        if (!ParseExpect()) return false;
      } else {
        return Fail(t, "expected 'kernel', 'orch', 'run' or 'expect'");
      }
    }
    return CheckLex(Peek());
  }

 private:
  // ---- top level (kernels and functions; directives in DirectiveReader) ----
  bool ParseKernel() {
    Take();
    Kernel k;
    const Token& name_tok = Peek();
    if (!TakeId(&k.name, "kernel name")) return false;
    if (prog_->FindKernel(k.name)) return Fail(name_tok, "duplicate kernel '" + k.name + "'");
    if (!Expect("(")) return false;
    if (!IsPunct(")")) {
      while (true) {
        KernelParam p;
        const Token& d = Peek();
        std::string dir;
        if (!TakeId(&dir, "'in', 'out' or 'inout'")) return false;
        if (dir == "in") p.dir = ParamDir::kIn;
        else if (dir == "out") p.dir = ParamDir::kOut;
        else if (dir == "inout") p.dir = ParamDir::kInOut;
        else return Fail(d, "expected 'in', 'out' or 'inout'");
        if (!TakeId(&p.name, "parameter name") || !Expect(":") || !ParseType(&p.type)) return false;
        k.params.push_back(std::move(p));
        if (IsPunct(",")) {
          Take();
          continue;
        }
        break;
      }
    }
    if (!Expect(")")) return false;
    if (IsPunct("->")) {
      Take();
      while (true) {
        const Token& t = Peek();
        std::string name;
        if (!TakeId(&name, "parameter name")) return false;
        int idx = -1;
        for (size_t i = 0; i < k.params.size(); ++i) {
          if (k.params[i].name == name) idx = static_cast<int>(i);
        }
        if (idx < 0) return Fail(t, "unknown parameter '" + name + "'");
        k.returns.push_back(idx);
        if (!IsPunct(",")) break;
        Take();
      }
    }
    prog_->kernels.push_back(std::move(k));
    return true;
  }

  bool ParseOrch() {
    Take();
    Function fn;
    const Token& name_tok = Peek();
    fn.pos = {name_tok.line, name_tok.col};
    if (!TakeId(&fn.name, "function name")) return false;
    if (prog_->FindFunction(fn.name)) return Fail(name_tok, "duplicate function '" + fn.name + "'");
    fn_ = &fn;
    env_ = NameEnv();
    if (!Expect("(")) return false;
    if (!IsPunct(")")) {
      while (true) {
        Var v;
        v.kind = VarKind::kParam;
        Type ty;
        const Token& pt = Peek();
        if (!TakeId(&v.name, "parameter name")) return false;
        if (env_.Lookup(v.name) >= 0) return Fail(pt, "duplicate parameter '" + v.name + "'");
        if (!Expect(":") || !ParseType(&ty)) return false;
        v.type = ty;
        VarId id = NewVar(v.name, VarKind::kParam);
        fn.vars[id].type = ty;
        fn.params.push_back(id);
        env_.Bind(v.name, id);
        if (IsPunct(",")) {
          Take();
          continue;
        }
        break;
      }
    }
    if (!Expect(")")) return false;
    while (true) {
      if (IsId("hand")) {
        Take();
        fn.auto_scope = false;
      } else if (IsId("layer_manual")) {
        Take();
        fn.layer_candidate = true;
      } else {
        break;
      }
    }
    if (!ParseBlock(&fn.body, 0)) return false;
    fn_ = nullptr;
    prog_->functions.push_back(std::move(fn));
    return true;
  }

  // ---- variables ----
  VarId NewVar(const std::string& name, VarKind kind) {
    Var v;
    v.name = name;
    v.kind = kind;
    fn_->vars.push_back(std::move(v));
    return static_cast<VarId>(fn_->vars.size() - 1);
  }
  /// ref := ID ['@' INT]; resolved now (a use is always after its definition).
  bool ParseRef(VarId* out) {
    const Token& t = Peek();
    std::string name;
    if (!TakeId(&name)) return false;
    if (IsPunct("@")) {
      Take();
      int64_t k;
      if (!TakeInt(&k)) return false;
      int64_t seen = 0;
      for (size_t v = 0; v < fn_->vars.size(); ++v) {
        if (fn_->vars[v].name == name && ++seen == k) {
          *out = static_cast<VarId>(v);
          return true;
        }
      }
      return Fail(t, "no definition '" + name + "@" + std::to_string(k) + "'");
    }
    *out = env_.Lookup(name);
    if (*out < 0) return Fail(t, "undefined variable '" + name + "'");
    return true;
  }
  /// operand := INT | ref
  bool ParseOperand(Operand* out) {
    if (Peek().kind == TokKind::kInt) {
      *out = Operand::OfConst(Take().value);
      return true;
    }
    if (Peek().kind != TokKind::kId) return Fail(Peek(), "expected integer or identifier");
    out->is_const = false;
    return ParseRef(&out->var);
  }
  /// '[' [ref {',' ref}] ']'
  bool ParseRefList(std::vector<VarId>* out) {
    if (!Expect("[")) return false;
    if (!IsPunct("]")) {
      while (true) {
        VarId v;
        if (!ParseRef(&v)) return false;
        out->push_back(v);
        if (!IsPunct(",")) break;
        Take();
      }
    }
    return Expect("]");
  }
  /// Operands up to ')' (the '(' already taken).
  bool ParseArgs(std::vector<Operand>* out) { return ParseOperandsUntil(")", out); }
  /// Operands up to `close` (the opening bracket already taken).
  bool ParseOperandsUntil(const char* close, std::vector<Operand>* out) {
    if (!IsPunct(close)) {
      while (true) {
        Operand o;
        if (!ParseOperand(&o)) return false;
        out->push_back(o);
        if (!IsPunct(",")) break;
        Take();
      }
    }
    return Expect(close);
  }

  // ---- statements ----
  bool ParseBlock(std::vector<Stmt>* body, int depth) {
    if (depth >= kMaxDepth) return Fail(Peek(), "nesting too deep");
    if (!Expect("{")) return false;
    while (!IsPunct("}")) {
      if (AtEof()) return Fail(Peek(), "expected '}'");
      Stmt s;
      if (!ParseStmt(&s, depth)) return false;
      body->push_back(std::move(s));
    }
    Take();
    return true;
  }

  bool StartsAssignment() const {
    return Peek().kind == TokKind::kId && (IsPunct("=", 1) || IsPunct(",", 1) || IsPunct(":", 1));
  }

  bool ParseStmt(Stmt* s, int depth) {
    const Token& t = Peek();
    s->pos = {t.line, t.col};
    if (StartsAssignment()) {
      std::vector<std::string> lhs;
      std::optional<Type> annotated;
      while (true) {
        std::string name;
        if (!TakeId(&name)) return false;
        lhs.push_back(std::move(name));
        if (lhs.size() == 1 && IsPunct(":")) {  // typed single assignment `x: type = rhs`
          Take();
          annotated.emplace();
          if (!ParseType(&*annotated)) return false;
          break;
        }
        if (!IsPunct(",")) break;
        Take();
      }
      if (!Expect("=")) return false;
      if (annotated) {
        s->kind = StmtKind::kAssign;
        if (!ParseRhs(&s->expr)) return false;
        VarId v = NewVar(lhs[0], VarKind::kAssign);
        fn_->vars[v].type = annotated;
        s->defs.push_back(v);
        env_.Bind(lhs[0], v);
        return true;
      }
      if (IsId("for") && Peek(1).kind == TokKind::kId && IsId("in", 2)) return ParseFor(s, &lhs, depth);
      if (IsId("while") && Peek(1).kind == TokKind::kId) return ParseWhile(s, &lhs, depth);
      if (IsId("if") && Peek(1).kind == TokKind::kId) return ParseIf(s, &lhs, depth);
      s->kind = StmtKind::kAssign;
      if (!ParseRhs(&s->expr)) return false;
      for (const std::string& name : lhs) {
        VarId v = NewVar(name, VarKind::kAssign);
        s->defs.push_back(v);
        env_.Bind(name, v);
      }
      return true;
    }
    if (t.kind != TokKind::kId) return Fail(t, "expected statement");
    if (t.text == "scope") {
      Take();
      s->kind = StmtKind::kScope;
      if (IsId("manual")) {
        s->manual = true;
      } else if (!IsId("auto")) {
        return Fail(Peek(), "expected 'auto' or 'manual'");
      }
      Take();
      if (IsId("candidate")) {
        Take();
        s->scope_candidate = true;
      }
      return ParseBlock(&s->body, depth + 1);
    }
    if (t.text == "for") return ParseFor(s, nullptr, depth);
    if (t.text == "while") return ParseWhile(s, nullptr, depth);
    if (t.text == "if") return ParseIf(s, nullptr, depth);
    if (t.text == "eval") {
      Take();
      s->kind = StmtKind::kEval;
      const Token& c = Peek();
      if (!ParseRhs(&s->expr)) return false;
      if (s->expr.kind != ExprKind::kCall) return Fail(c, "expected call after 'eval'");
      return true;
    }
    if (t.text == "yield" || t.text == "return") {
      int line = Take().line;
      s->kind = t.text == "yield" ? StmtKind::kYield : StmtKind::kReturn;
      if ((Peek().kind == TokKind::kId || Peek().kind == TokKind::kInt) && Peek().line == line) {
        while (true) {
          Operand o;
          if (!ParseOperand(&o)) return false;
          s->values.push_back(o);
          if (!IsPunct(",")) break;
          Take();
        }
      }
      return true;
    }
    return Fail(t, "expected statement");
  }

  /// Defines the return vars of a for/while/if after its body.
  bool DefineReturns(Stmt* s, const std::vector<std::string>* lhs) {
    if (!lhs) return true;
    for (const std::string& name : *lhs) {
      VarId v = NewVar(name, VarKind::kReturnVar);
      s->defs.push_back(v);
      env_.Bind(name, v);
    }
    return true;
  }

  /// iter '(' ID '=' ref {',' ...} ')': names in *names, inits resolved in the outer scope.
  bool ParseIter(std::vector<std::string>* names, std::vector<Operand>* inits) {
    Take();
    if (!Expect("(")) return false;
    while (true) {
      std::string name;
      Operand init;
      if (!TakeId(&name) || !Expect("=") || !ParseOperand(&init)) return false;
      names->push_back(std::move(name));
      inits->push_back(init);
      if (!IsPunct(",")) break;
      Take();
    }
    return Expect(")");
  }
  void BindIters(Stmt* s, const std::vector<std::string>& names, const std::vector<Operand>& inits,
                 std::vector<NameEnv::Local>* locals) {
    for (size_t i = 0; i < names.size(); ++i) {
      VarId v = NewVar(names[i], VarKind::kIterArg);
      s->iters.push_back({v, inits[i]});
      env_.BindLocal(names[i], v, locals);
    }
  }
  bool CheckReturnCount(const Token& at, const Stmt& s, const std::vector<std::string>* lhs) {
    if (lhs && lhs->size() != s.iters.size()) {
      return Fail(at, "loop has " + std::to_string(s.iters.size()) + " iter args but " +
                          std::to_string(lhs->size()) + " return names");
    }
    return true;
  }

  bool ParseFor(Stmt* s, const std::vector<std::string>* lhs, int depth) {
    const Token& at = Take();
    s->kind = StmtKind::kFor;
    std::string var_name, kind;
    if (!TakeId(&var_name, "loop variable") || !ExpectWord("in")) return false;
    const Token& kt = Peek();
    if (!TakeId(&kind, "'range' or 'parallel'")) return false;
    if (kind != "range" && kind != "parallel") return Fail(kt, "expected 'range' or 'parallel'");
    s->parallel = kind == "parallel";
    std::vector<Operand> bounds;
    if (!Expect("(")) return false;
    const Token& bt = Peek();
    if (!ParseArgs(&bounds)) return false;
    if (bounds.empty() || bounds.size() > 3) return Fail(bt, "expected 1 to 3 loop bounds");
    s->start = bounds.size() == 1 ? Operand::OfConst(0) : bounds[0];
    s->stop = bounds.size() == 1 ? bounds[0] : bounds[1];
    s->step = bounds.size() == 3 ? bounds[2] : Operand::OfConst(1);
    std::vector<std::string> names;
    std::vector<Operand> inits;
    if (IsId("iter") && !ParseIter(&names, &inits)) return false;
    std::vector<NameEnv::Local> locals;
    s->loop_var = NewVar(var_name, VarKind::kLoopVar);
    env_.BindLocal(var_name, s->loop_var, &locals);
    BindIters(s, names, inits, &locals);
    if (!CheckReturnCount(at, *s, lhs)) return false;
    if (!ParseBlock(&s->body, depth + 1)) return false;
    env_.EndLocals(locals);
    return DefineReturns(s, lhs);
  }

  bool ParseWhile(Stmt* s, const std::vector<std::string>* lhs, int depth) {
    const Token& at = Take();
    s->kind = StmtKind::kWhile;
    size_t cond_pos = pos_;
    if (Peek().kind != TokKind::kId) return Fail(Peek(), "expected identifier");
    Take();  // condition name, resolved once the iter args are visible
    if (IsPunct("@")) {
      Take();
      Take();
    }
    std::vector<std::string> names;
    std::vector<Operand> inits;
    if (IsId("iter") && !ParseIter(&names, &inits)) return false;
    std::vector<NameEnv::Local> locals;
    BindIters(s, names, inits, &locals);
    size_t resume = pos_;
    pos_ = cond_pos;
    if (!ParseRef(&s->cond)) return false;
    pos_ = resume;
    if (!CheckReturnCount(at, *s, lhs)) return false;
    if (!ParseBlock(&s->body, depth + 1)) return false;
    env_.EndLocals(locals);
    return DefineReturns(s, lhs);
  }

  bool ParseIf(Stmt* s, const std::vector<std::string>* lhs, int depth) {
    Take();
    s->kind = StmtKind::kIf;
    if (!ParseRef(&s->cond)) return false;
    if (!ParseBlock(&s->body, depth + 1)) return false;
    if (IsId("else")) {
      Take();
      s->has_else = true;
      if (!ParseBlock(&s->else_body, depth + 1)) return false;
    }
    return DefineReturns(s, lhs);
  }

  // ---- expressions ----
  bool ParseRhs(Expr* e) {
    const Token& t = Peek();
    if (t.kind != TokKind::kId) return Fail(t, "expected expression");
    if (t.text == "submit") {
      Take();
      e->submit = true;
      std::string callee;
      if (!TakeId(&callee, "kernel name")) return false;
      return ParseCall(e, callee);
    }
    if (t.text == "dynamic") {
      Take();
      e->kind = ExprKind::kDynamic;
      if (!TakeId(&e->callee, "operation name") || !Expect("(")) return false;
      return ParseArgs(&e->args);
    }
    if (!IsPunct("(", 1)) {
      e->kind = ExprKind::kVar;
      VarId v;
      if (!ParseRef(&v)) return false;
      e->args.push_back(Operand::OfVar(v));
      return true;
    }
    std::string word = Take().text;
    Take();  // '('
    if (word == "slice") {
      e->kind = ExprKind::kSlice;
      Operand parent;
      if (!ParseOperand(&parent) || !Expect(",") || !ParseDims(&e->shape) || !Expect(",") ||
          !Expect("[")) {
        return false;
      }
      e->args.push_back(parent);
      return ParseOperandsUntil("]", &e->offsets) && Expect(")");
    }
    if (word == "create") {
      e->kind = ExprKind::kCreate;
      const Token& dt = Peek();
      if (!TakeId(&e->dtype, "dtype")) return false;
      if (!IsKnownDtype(e->dtype)) return Fail(dt, "unknown dtype '" + e->dtype + "'");
      if (!ParseDims(&e->shape) || !Expect(")")) return false;
      if (IsId("manual_dep") && !IsPunct("=", 1) && !IsPunct(",", 1)) {
        Take();
        e->manual_dep = true;
      }
      return true;
    }
    if (word == "assemble") {
      e->kind = ExprKind::kAssemble;
      return ParseArgs(&e->args);
    }
    if (word == "task_invalid") {
      e->kind = ExprKind::kTaskInvalid;
      return Expect(")");
    }
    if (word == "task_dummy") {
      e->kind = ExprKind::kTaskDummy;
      std::vector<VarId> deps;
      if (IsId("deps") && IsPunct("=", 1)) {
        Take();
        Take();
        if (!ParseRefList(&deps) || !Expect(")")) return false;
        for (VarId v : deps) e->args.push_back(Operand::OfVar(v));
        return true;
      }
      return ParseArgs(&e->args);
    }
    if (word == "array") {
      e->kind = ExprKind::kArrayCreate;
      return TakeInt(&e->extent) && Expect(")");
    }
    if (word == "aget") return ParseAgetRest(e);
    if (word == "aset") {
      e->kind = ExprKind::kArraySet;
      Operand arr, idx;
      if (!ParseOperand(&arr) || !Expect(",") || !ParseOperand(&idx) || !Expect(",")) return false;
      e->args = {arr, idx};
      Expr value;
      if (IsId("aget") && IsPunct("(", 1)) {
        Take();
        Take();
        if (!ParseAgetRest(&value)) return false;
      } else {
        value.kind = ExprKind::kVar;
        Operand o;
        if (!ParseOperand(&o)) return false;
        value.args.push_back(o);
      }
      e->nested.push_back(std::move(value));
      return Expect(")");
    }
    return ParseCall(e, word, /*open_taken=*/true);
  }

  /// After "aget(": arr ',' idx ')'.
  bool ParseAgetRest(Expr* e) {
    e->kind = ExprKind::kArrayGet;
    Operand arr, idx;
    if (!ParseOperand(&arr) || !Expect(",") || !ParseOperand(&idx) || !Expect(")")) return false;
    e->args = {arr, idx};
    return true;
  }

  bool ParseCall(Expr* e, const std::string& callee, bool open_taken = false) {
    e->kind = ExprKind::kCall;
    e->callee = callee;
    if (!open_taken && !Expect("(")) return false;
    if (!ParseArgs(&e->args)) return false;
    if (!e->submit && !IsPunct("[") && IsDynamicOpName(callee)) {
      e->kind = ExprKind::kDynamic;
      return true;
    }
    const Token& dt = Peek();
    if (!Expect("[")) return false;
    if (!IsPunct("]")) {
      while (true) {
        const Token& d = Peek();
        std::string word;
        ArgDir dir;
        if (!TakeId(&word, "direction")) return false;
        if (!ParseArgDir(word, &dir)) return Fail(d, "unknown direction '" + word + "'");
        e->attrs.arg_directions.push_back(dir);
        if (!IsPunct(",")) break;
        Take();
      }
    }
    if (!Expect("]")) return false;
    if (e->attrs.arg_directions.size() != e->args.size()) {
      return Fail(dt, "call to '" + callee + "' has " + std::to_string(e->args.size()) +
                          " arguments but " + std::to_string(e->attrs.arg_directions.size()) +
                          " directions");
    }
    while (true) {
      bool keyed_list = IsPunct("=", 1) && IsPunct("[", 2);
      bool flag = !IsPunct("=", 1) && !IsPunct(",", 1);
      if (IsId("deps") && keyed_list) {
        Take();
        Take();
        if (!ParseRefList(&e->attrs.manual_dep_edges)) return false;
      } else if (IsId("edges") && keyed_list) {
        Take();
        Take();
        e->attrs.compiler_manual_dep_edges.emplace();
        if (!ParseRefList(&*e->attrs.compiler_manual_dep_edges)) return false;
      } else if (IsId("early") && flag) {
        Take();
        e->attrs.allow_early_resolve = true;
      } else if (IsId("mark") && flag) {
        Take();
        e->attrs.scope_candidate = true;
      } else {
        return true;
      }
    }
  }

  Function* fn_ = nullptr;
  NameEnv env_;
};

}  // namespace

bool ParseDepir(std::string_view text, const std::string& filename, Program* out, std::string* err) {
  Parser p(LexDepir(text), filename);
  Program prog;
  if (!p.ParseFile(&prog)) {
    *err = p.error();
    return false;
  }
  *out = std::move(prog);
  return true;
}

bool ParseDepirFile(const std::string& path, Program* out, std::string* err) {
  std::string text;
  InputFileError read_error;
  if (!ReadInputFile(path, kMaxSmallInputBytes, &text, &read_error)) {
    *err = read_error.message;
    return false;
  }
  return ParseDepir(text, path, out, err);
}

}  // namespace depgraph::passes
