#include "depgraph_passes/ssa_form.h"

#include <algorithm>
#include <map>
#include <set>
#include <vector>

#include "name_env.h"

namespace depgraph::passes {
namespace {

/// A value during the walk: a definition (>= 0) or a pending merge p, encoded as -(p + 1).
using ValueId = int32_t;
constexpr bool IsMerge(ValueId v) { return v < 0; }
constexpr int MergeIndex(ValueId v) { return -v - 1; }
constexpr ValueId MergeValue(int p) { return -(p + 1); }

/// Where paths meet: after an `if`, at a loop head (before the body and after each iteration)
/// and at a loop exit.
enum class MergeKind { kIf, kLoopHead, kLoopExit };

/// One name's merge at one statement. `in`: kIf = {then, else}; kLoopHead = {before the loop,
/// end of the body}; kLoopExit = {the loop head's merge, end of the body}.
struct Merge {
  MergeKind kind = MergeKind::kIf;
  int stmt = 0;  ///< pre-order index of the if / loop statement
  std::string name;
  ValueId in[2] = {0, 0};
  bool zero_trip = false;  ///< kLoopExit: the loop may run no iteration
  ValueId rep = 0;         ///< itself, or the value it turned out to equal (a trivial merge)
  bool blocked = false;    ///< cannot be written as IR (then its reads stay as they are)
  bool needed = false;     ///< a plain read sees it
  VarId var = -1;          ///< kIf: the new return var; kLoopHead: the new iter arg
  VarId exit_var = -1;     ///< kLoopHead: the new return var
};

/// Name -> the value it holds at the current point (ordered: joins are deterministic).
using State = std::map<std::string, ValueId>;

/// Names assigned anywhere in `body` (assignments and return vars; not loop-local names).
void AssignedNames(const Function& fn, const std::vector<Stmt>& body, std::set<std::string>* out) {
  for (const Stmt& s : body) {
    for (VarId d : s.defs) out->insert(fn.vars[d].name);
    AssignedNames(fn, s.body, out);
    AssignedNames(fn, s.else_body, out);
  }
}

/// Whether a loop may run no iteration (symbolic bounds, an empty range, or a while loop).
bool MayRunZeroTimes(const Stmt& s) {
  if (s.kind == StmtKind::kWhile) return true;
  if (!s.start.is_const || !s.stop.is_const || !s.step.is_const || s.step.value == 0) return true;
  return s.step.value > 0 ? s.stop.value <= s.start.value : s.stop.value >= s.start.value;
}

/// Renumbers `fn`'s vars into execution order of first visit (the `@k` order), rewriting every
/// reference. O(statements + vars).
class Renumberer {
 public:
  explicit Renumberer(Function* fn) : fn_(*fn), new_of_old_(fn->vars.size(), -1) {}

  void Run() {
    for (VarId p : fn_.params) Visit(p);
    Order(fn_.body);
    for (size_t v = 0; v < new_of_old_.size(); ++v) Visit(static_cast<VarId>(v));
    std::vector<Var> vars(fn_.vars.size());
    for (size_t v = 0; v < vars.size(); ++v) vars[static_cast<size_t>(new_of_old_[v])] = fn_.vars[v];
    fn_.vars = std::move(vars);
    for (VarId& p : fn_.params) Map(&p);
    Rewrite(fn_.body);
  }

 private:
  void Visit(VarId v) {
    if (v >= 0 && new_of_old_[static_cast<size_t>(v)] < 0) new_of_old_[static_cast<size_t>(v)] = next_++;
  }
  void Order(const std::vector<Stmt>& body) {
    for (const Stmt& s : body) {
      Visit(s.loop_var);
      for (const IterArg& it : s.iters) Visit(it.var);
      Order(s.body);
      Order(s.else_body);
      for (VarId d : s.defs) Visit(d);
    }
  }
  void Map(VarId* v) {
    if (*v >= 0) *v = new_of_old_[static_cast<size_t>(*v)];
  }
  void Map(Operand* op) {
    if (!op->is_const) Map(&op->var);
  }
  void Rewrite(Expr& e) {
    for (Operand& op : e.args) Map(&op);
    for (Operand& op : e.offsets) Map(&op);
    for (Expr& n : e.nested) Rewrite(n);
    for (VarId& v : e.attrs.manual_dep_edges) Map(&v);
    if (e.attrs.compiler_manual_dep_edges) {
      for (VarId& v : *e.attrs.compiler_manual_dep_edges) Map(&v);
    }
  }
  void Rewrite(std::vector<Stmt>& body) {
    for (Stmt& s : body) {
      Map(&s.loop_var);
      Map(&s.cond);
      Map(&s.start);
      Map(&s.stop);
      Map(&s.step);
      for (IterArg& it : s.iters) {
        Map(&it.var);
        Map(&it.init);
      }
      for (VarId& d : s.defs) Map(&d);
      for (Operand& op : s.values) Map(&op);
      Rewrite(s.expr);
      Rewrite(s.body);
      Rewrite(s.else_body);
    }
  }

  Function& fn_;
  std::vector<VarId> new_of_old_;
  VarId next_ = 0;
};

/// Converts one function: a walk that tracks, per name, the value it holds (creating merges
/// where paths meet) next to the parser's textual binding; then trivial merges are folded,
/// the merges that plain reads see are written as IR, and those reads are rebound.
class SsaBuilder {
 public:
  explicit SsaBuilder(Function* fn) : fn_(*fn) {}

  SsaReport Run() {
    State st;
    for (VarId p : fn_.params) Define(p, &st);
    Walk(fn_.body, &st);
    FoldTrivialMerges();
    BlockUnwritableMerges();
    for (const Read& r : reads_) {
      const ValueId v = Find(r.value);
      if (IsMerge(v)) Need(MergeIndex(v));
    }
    SsaReport report;
    for (Merge& m : merges_) {
      if (!m.needed || m.blocked) continue;
      if (m.kind == MergeKind::kIf) {
        m.var = NewVar(m.name, VarKind::kReturnVar);
        ++report.if_merges;
      } else if (m.kind == MergeKind::kLoopHead) {
        m.var = NewVar(m.name, VarKind::kIterArg);
        m.exit_var = NewVar(m.name, VarKind::kReturnVar);
        ++report.loop_merges;
      }
    }
    for (const Read& r : reads_) {
      const ValueId v = Find(r.value);
      if (IsMerge(v) && merges_[static_cast<size_t>(MergeIndex(v))].blocked) continue;
      const VarId bound = VarOf(v);
      if (bound >= 0 && bound != *r.slot) {
        *r.slot = bound;
        ++report.rebound;
      }
    }
    if (report.if_merges + report.loop_merges > 0) {
      for (size_t p = 0; p < merges_.size(); ++p) {
        if (merges_[p].needed && !merges_[p].blocked) written_[merges_[p].stmt].push_back(static_cast<int>(p));
      }
      next_stmt_ = 0;
      Apply(fn_.body);
    }
    if (report.changed()) Renumberer(&fn_).Run();
    return report;
  }

 private:
  /// A plain read: the slot holding its VarId and the value it sees.
  struct Read {
    VarId* slot;
    ValueId value;
  };

  // ---- walk ----
  void Define(VarId v, State* st) {
    (*st)[fn_.vars[static_cast<size_t>(v)].name] = v;
    env_.Bind(fn_.vars[static_cast<size_t>(v)].name, v);
  }

  /// Records a read when it is plain (the parser bound it by name, not as `name@k`).
  void ReadVar(VarId* slot, const State& st) {
    if (*slot < 0) return;
    const std::string& name = fn_.vars[static_cast<size_t>(*slot)].name;
    if (env_.Lookup(name) != *slot) return;
    const auto it = st.find(name);
    if (it != st.end()) reads_.push_back({slot, it->second});
  }
  void ReadOperand(Operand* op, const State& st) {
    if (!op->is_const) ReadVar(&op->var, st);
  }
  void ReadExpr(Expr& e, const State& st) {
    for (Operand& op : e.args) ReadOperand(&op, st);
    for (Operand& op : e.offsets) ReadOperand(&op, st);
    for (Expr& n : e.nested) ReadExpr(n, st);
    for (VarId& v : e.attrs.manual_dep_edges) ReadVar(&v, st);
    if (e.attrs.compiler_manual_dep_edges) {
      for (VarId& v : *e.attrs.compiler_manual_dep_edges) ReadVar(&v, st);
    }
  }

  int NewMerge(MergeKind kind, int stmt, const std::string& name, ValueId a, ValueId b) {
    Merge m;
    m.kind = kind;
    m.stmt = stmt;
    m.name = name;
    m.in[0] = a;
    m.in[1] = b;
    m.rep = MergeValue(static_cast<int>(merges_.size()));
    merges_.push_back(m);
    return static_cast<int>(merges_.size()) - 1;
  }

  void Walk(std::vector<Stmt>& body, State* st) {
    for (Stmt& s : body) {
      const int id = next_stmt_++;
      switch (s.kind) {
        case StmtKind::kScope: Walk(s.body, st); break;
        case StmtKind::kAssign:
          ReadExpr(s.expr, *st);
          for (VarId d : s.defs) Define(d, st);
          break;
        case StmtKind::kEval: ReadExpr(s.expr, *st); break;
        case StmtKind::kYield:
        case StmtKind::kReturn:
          for (Operand& op : s.values) ReadOperand(&op, *st);
          break;
        case StmtKind::kIf: WalkIf(s, id, st); break;
        case StmtKind::kFor:
        case StmtKind::kWhile: WalkLoop(s, id, st); break;
      }
    }
  }

  void WalkIf(Stmt& s, int id, State* st) {
    ReadVar(&s.cond, *st);
    State then_state = *st, else_state = *st;
    Walk(s.body, &then_state);
    Walk(s.else_body, &else_state);
    for (const auto& [name, a] : then_state) {
      const auto it = else_state.find(name);
      (*st)[name] = it == else_state.end() || it->second == a
                        ? a
                        : MergeValue(NewMerge(MergeKind::kIf, id, name, a, it->second));
    }
    for (const auto& [name, b] : else_state) st->emplace(name, b);  // defined on one path only
    for (VarId d : s.defs) Define(d, st);
  }

  void WalkLoop(Stmt& s, int id, State* st) {
    ReadOperand(&s.start, *st);
    ReadOperand(&s.stop, *st);
    ReadOperand(&s.step, *st);
    for (IterArg& it : s.iters) ReadOperand(&it.init, *st);
    const State before = *st;
    std::set<std::string> local;  // loop var and iter args: bound afresh at every iteration
    std::vector<NameEnv::Local> locals;
    if (s.loop_var >= 0) {
      env_.BindLocal(fn_.vars[static_cast<size_t>(s.loop_var)].name, s.loop_var, &locals);
      local.insert(fn_.vars[static_cast<size_t>(s.loop_var)].name);
      (*st)[fn_.vars[static_cast<size_t>(s.loop_var)].name] = s.loop_var;
    }
    for (const IterArg& it : s.iters) {
      env_.BindLocal(fn_.vars[static_cast<size_t>(it.var)].name, it.var, &locals);
      local.insert(fn_.vars[static_cast<size_t>(it.var)].name);
      (*st)[fn_.vars[static_cast<size_t>(it.var)].name] = it.var;
    }
    std::set<std::string> assigned;
    AssignedNames(fn_, s.body, &assigned);
    std::map<std::string, int> heads;
    for (const std::string& name : assigned) {
      const auto it = before.find(name);
      if (local.count(name) || it == before.end()) continue;
      heads[name] = NewMerge(MergeKind::kLoopHead, id, name, it->second, it->second);
      (*st)[name] = MergeValue(heads[name]);
    }
    if (s.kind == StmtKind::kWhile) ReadVar(&s.cond, *st);
    Walk(s.body, st);
    const State end = *st;
    for (const auto& [name, p] : heads) merges_[static_cast<size_t>(p)].in[1] = end.at(name);
    const bool zero_trip = MayRunZeroTimes(s);
    State exit = before;
    for (const auto& [name, v] : end) {
      if (local.count(name)) {
        // The DSL's loop-local names revert after the loop unless the body rebound them.
        // (value, not v: clang before 16 cannot capture a structured binding.)
        const bool rebound =
            std::none_of(locals.begin(), locals.end(),
                         [&, value = v](const NameEnv::Local& l) { return l.local == value; });
        if (rebound) exit[name] = v;
      } else if (const auto h = heads.find(name); h != heads.end()) {
        const int p = NewMerge(MergeKind::kLoopExit, id, name, MergeValue(h->second), v);
        merges_[static_cast<size_t>(p)].zero_trip = zero_trip;
        exit[name] = MergeValue(p);
      } else {
        exit[name] = v;  // unchanged, or first defined in the body (bound if it ran)
      }
    }
    *st = std::move(exit);
    env_.EndLocals(locals);
    for (VarId d : s.defs) Define(d, st);
  }

  // ---- merges ----
  ValueId Find(ValueId v) const {
    while (IsMerge(v) && merges_[static_cast<size_t>(MergeIndex(v))].rep != v) {
      v = merges_[static_cast<size_t>(MergeIndex(v))].rep;
    }
    return v;
  }

  /// A merge whose inputs (apart from itself) are one value is that value; a loop exit is the
  /// end of the body when the loop runs at least once, else the loop head. To a fixed point.
  void FoldTrivialMerges() {
    for (bool changed = true; changed;) {
      changed = false;
      for (size_t p = 0; p < merges_.size(); ++p) {
        Merge& m = merges_[p];
        const ValueId self = MergeValue(static_cast<int>(p));
        if (m.rep != self) continue;
        const ValueId a = Find(m.in[0]), b = Find(m.in[1]);
        ValueId to = self;
        if (m.kind == MergeKind::kLoopExit) {
          if (a != m.in[0]) to = a;  // the head folded: the value never changes in the loop
        } else if (a == b || b == self) {
          to = a;
        } else if (a == self) {
          to = b;
        }
        if (to != self) {
          m.rep = to;
          changed = true;
        }
      }
    }
  }

  /// A loop head cannot get an iter arg when its loop has iter args but no return names; a
  /// merge whose input cannot be written cannot be written either. To a fixed point.
  void BlockUnwritableMerges() {
    std::vector<const Stmt*> stmts;
    IndexStatements(fn_.body, &stmts);
    for (Merge& m : merges_) {
      const Stmt& s = *stmts[static_cast<size_t>(m.stmt)];
      m.blocked = m.kind == MergeKind::kLoopHead && s.defs.size() != s.iters.size();
    }
    for (bool changed = true; changed;) {
      changed = false;
      for (Merge& m : merges_) {
        if (m.blocked) continue;
        for (ValueId in : Inputs(m)) {
          const ValueId v = Find(in);
          if (IsMerge(v) && merges_[static_cast<size_t>(MergeIndex(v))].blocked) {
            m.blocked = changed = true;
            break;
          }
        }
      }
    }
  }

  static void IndexStatements(const std::vector<Stmt>& body, std::vector<const Stmt*>* out) {
    for (const Stmt& s : body) {
      out->push_back(&s);
      IndexStatements(s.body, out);
      IndexStatements(s.else_body, out);
    }
  }

  void Need(int p) {
    Merge& m = merges_[static_cast<size_t>(p)];
    if (m.needed || m.blocked) return;
    m.needed = true;
    for (ValueId in : Inputs(m)) {
      const ValueId v = Find(in);
      if (IsMerge(v) && v != MergeValue(p)) Need(MergeIndex(v));
    }
  }

  /// The inputs a merge's IR needs: a loop exit after at least one iteration is the end of
  /// the body (or the loop's return var, when its head is written anyway); else the head.
  static std::vector<ValueId> Inputs(const Merge& m) {
    if (m.kind != MergeKind::kLoopExit) return {m.in[0], m.in[1]};
    return {m.zero_trip ? m.in[0] : m.in[1]};
  }

  /// The definition that holds `v`: itself, or the var written for its merge (a loop head is
  /// read inside its body, through its iter arg; a loop exit after the loop, through the
  /// return var). -1 when the merge was not written.
  VarId VarOf(ValueId v) const {
    v = Find(v);
    if (!IsMerge(v)) return v;
    const Merge& m = merges_[static_cast<size_t>(MergeIndex(v))];
    if (m.kind != MergeKind::kLoopExit) return m.var;
    const VarId exit_var = merges_[static_cast<size_t>(MergeIndex(Find(m.in[0])))].exit_var;
    return exit_var >= 0 || m.zero_trip ? exit_var : VarOf(m.in[1]);
  }

  VarId NewVar(const std::string& name, VarKind kind) {
    fn_.vars.push_back(Var{name, kind, std::nullopt});
    return static_cast<VarId>(fn_.vars.size() - 1);
  }

  // ---- writing the merges ----
  static void AppendYield(std::vector<Stmt>* body, VarId v) {
    if (body->empty() || body->back().kind != StmtKind::kYield) {
      Stmt y;
      y.kind = StmtKind::kYield;
      body->push_back(std::move(y));
    }
    body->back().values.push_back(Operand::OfVar(v));
  }

  /// Walks in the same pre-order as Walk; a statement's new return vars, iter args and yields
  /// are added after its bodies were visited (so the numbering of what follows is unchanged).
  void Apply(std::vector<Stmt>& body) {
    for (Stmt& s : body) {
      const int id = next_stmt_++;
      Apply(s.body);
      Apply(s.else_body);
      const auto at = written_.find(id);
      if (at == written_.end()) continue;
      for (int p : at->second) {
        const Merge& m = merges_[static_cast<size_t>(p)];
        if (m.kind == MergeKind::kIf) {
          s.defs.push_back(m.var);
          AppendYield(&s.body, VarOf(m.in[0]));
          AppendYield(&s.else_body, VarOf(m.in[1]));
          s.has_else = true;
        } else if (m.kind == MergeKind::kLoopHead) {
          s.iters.push_back({m.var, Operand::OfVar(VarOf(m.in[0]))});
          s.defs.push_back(m.exit_var);
          AppendYield(&s.body, VarOf(m.in[1]));
        }
      }
    }
  }

  Function& fn_;
  NameEnv env_;  ///< the parser's binding of each name at the current point
  std::vector<Merge> merges_;
  std::vector<Read> reads_;
  std::map<int, std::vector<int>> written_;  ///< statement -> the merges written there
  int next_stmt_ = 0;
};

}  // namespace

SsaReport ConvertToSsa(Program* program) {
  SsaReport total;
  for (Function& fn : program->functions) {
    const SsaReport r = SsaBuilder(&fn).Run();
    total.if_merges += r.if_merges;
    total.loop_merges += r.loop_merges;
    total.rebound += r.rebound;
  }
  return total;
}

}  // namespace depgraph::passes
