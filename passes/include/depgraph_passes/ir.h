// depir program model: kernels, orchestration functions, statements, expressions, variables.
//
// Variables are unique definitions: every assignment, parameter, loop variable, iter arg and
// loop/if return var is its own Var in its function's `vars` table, referred to by VarId.
// Vars are allocated in the execution order of first visit (see var_numbering.h), so VarId
// order within a function is also the `@k` order.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "depgraph_passes/ir_directive.h"
#include "depgraph_passes/ir_type.h"

namespace depgraph::passes {

/// Index of a Var in Function::vars; -1 = none.
using VarId = int32_t;

/// How a Var was defined.
enum class VarKind { kParam, kAssign, kLoopVar, kIterArg, kReturnVar };

/// One variable definition. `type` is known for parameters only (depir does not infer types).
struct Var {
  std::string name;
  VarKind kind = VarKind::kAssign;
  std::optional<Type> type;
  bool operator==(const Var&) const = default;
};

/// Call-site argument direction (pypto ArgDirection, same enum order).
enum class ArgDir { kInput = 0, kOutput = 1, kInOut = 2, kOutputExisting = 3, kNoDep = 4, kScalar = 5 };

/// depir spelling of a direction: in, out, inout, oe, nodep, scalar. O(1).
const char* ArgDirName(ArgDir dir);

/// depir spelling -> ArgDir; false when `name` is not one. O(1).
bool ParseArgDir(const std::string& name, ArgDir* out);

/// Kernel parameter direction (pypto ParamDirection).
enum class ParamDir { kIn, kOut, kInOut };

/// A value operand: a variable or an integer constant.
struct Operand {
  bool is_const = false;
  int64_t value = 0;   ///< when is_const
  VarId var = -1;      ///< when !is_const
  bool operator==(const Operand&) const = default;
  /// Operand naming a variable. O(1).
  static Operand OfVar(VarId v) { Operand o; o.var = v; return o; }
  /// Constant operand. O(1).
  static Operand OfConst(int64_t c) { Operand o; o.is_const = true; o.value = c; return o; }
};

/// Attributes of a kernel call or submit: the pass input (directions, user deps) and the
/// compiler-derived output. New attributes get a field here and a printed form in depir.md.
struct CallAttrs {
  std::vector<ArgDir> arg_directions;                       ///< one per argument
  std::vector<VarId> manual_dep_edges;                      ///< user deps (`deps=[..]`)
  std::optional<std::vector<VarId>> compiler_manual_dep_edges;  ///< `edges=[..]`; nullopt = absent
  bool scope_candidate = false;      ///< __compiler_auto_manual_scope_candidate (`mark`)
  bool allow_early_resolve = false;  ///< submit option (`early`)
  bool operator==(const CallAttrs&) const = default;
};

/// Expression kinds (right-hand sides).
enum class ExprKind {
  kVar,          ///< `x` (alias of an existing value): args[0]
  kCall,         ///< `[submit] k(args) [dirs] ...`: callee, submit, args, attrs
  kSlice,        ///< `slice(p, [shape], [offsets])`: args[0] = parent, shape, offsets
  kCreate,       ///< `create(dtype[shape]) [manual_dep]`: dtype, shape, manual_dep
  kAssemble,     ///< `assemble(base, ...)`: args
  kDynamic,      ///< `dynamic op(args)` (gather/scatter family): callee = op, args
  kTaskInvalid,  ///< `task_invalid()`
  kTaskDummy,    ///< `task_dummy(deps=[..])`: args = deps
  kArrayCreate,  ///< `array(N)`: extent
  kArraySet,     ///< `aset(arr, idx, value)`: args = {arr, idx}, nested[0] = value (kVar or kArrayGet)
  kArrayGet,     ///< `aget(arr, idx)`: args = {arr, idx}
};

/// A right-hand side expression. Only the fields listed for its kind are meaningful.
struct Expr {
  ExprKind kind = ExprKind::kVar;
  std::string callee;
  bool submit = false;
  std::vector<Operand> args;
  CallAttrs attrs;
  std::vector<Dim> shape;
  std::vector<Operand> offsets;
  std::string dtype;
  bool manual_dep = false;
  int64_t extent = 0;
  std::vector<Expr> nested;
  bool operator==(const Expr&) const = default;
};

/// Statement kinds.
enum class StmtKind { kScope, kFor, kWhile, kIf, kAssign, kEval, kYield, kReturn };

/// A loop-carried value: the IterArg var and its initial value.
struct IterArg {
  VarId var = -1;
  Operand init;
  bool operator==(const IterArg&) const = default;
};

/// Where a statement or function starts in its source file (1-based line and column; 0 when a
/// pass made it), for run-time errors. Positions never take part in program equality, so a
/// printed and re-parsed program still compares equal.
struct SourcePos {
  int line = 0;
  int col = 0;
  bool known() const { return line > 0; }
  bool operator==(const SourcePos&) const { return true; }
};

/// A statement. Fields used per kind:
///  kScope: manual, scope_candidate, body.  kFor: parallel, loop_var, start/stop/step, iters,
///  body, defs (return vars).  kWhile: cond, iters, body, defs.  kIf: cond, body, else_body
///  (has_else), defs.  kAssign: defs (LHS), expr.  kEval: expr.  kYield/kReturn: values.
struct Stmt {
  StmtKind kind = StmtKind::kAssign;
  SourcePos pos;  ///< where the statement starts (0:0 when a pass made it)
  bool manual = false;
  bool scope_candidate = false;  ///< scope attr written by MaterializeRuntimeScopes (MANUAL*)
  bool parallel = false;
  VarId loop_var = -1;
  Operand start, stop, step;
  VarId cond = -1;
  std::vector<IterArg> iters;
  std::vector<Stmt> body;
  bool has_else = false;
  std::vector<Stmt> else_body;
  std::vector<VarId> defs;
  Expr expr;
  std::vector<Operand> values;
  bool operator==(const Stmt&) const = default;
};

/// A kernel parameter.
struct KernelParam {
  std::string name;
  ParamDir dir = ParamDir::kIn;
  Type type;
  bool operator==(const KernelParam&) const = default;
};

/// An InCore kernel: one call = one runtime task. `returns` lists returned params by index.
struct Kernel {
  std::string name;
  std::vector<KernelParam> params;
  std::vector<int> returns;
  bool operator==(const Kernel&) const = default;
};

/// An orchestration function. `params` are VarIds (kind kParam, typed).
struct Function {
  std::string name;
  SourcePos pos;  ///< the function's name in the source
  std::vector<Var> vars;
  std::vector<VarId> params;
  bool auto_scope = true;        ///< false = `hand`
  bool layer_candidate = false;  ///< __compiler_auto_manual_layer_candidate (`layer_manual`)
  std::vector<Stmt> body;
  bool operator==(const Function&) const = default;
};

/// A whole depir file.
struct Program {
  std::vector<Kernel> kernels;
  std::vector<Function> functions;
  std::vector<RunDirective> runs;
  std::vector<ExpectDirective> expects;
  bool operator==(const Program&) const = default;

  /// Kernel by name, or nullptr. O(kernels).
  const Kernel* FindKernel(const std::string& name) const;
  /// Orchestration function by name, or nullptr. O(functions).
  const Function* FindFunction(const std::string& name) const;
  /// Mutable orchestration function by name, or nullptr. O(functions).
  Function* FindFunction(const std::string& name);
  /// Whether some orchestration function calls the function `name` (a helper, whose
  /// parameters then hold its caller's values). O(statements).
  bool IsCalled(const std::string& name) const;
};

}  // namespace depgraph::passes
