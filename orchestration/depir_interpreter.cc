#include "depgraph_orchestration/depir_interpreter.h"

#include <algorithm>
#include <set>
#include <stdexcept>
#include <unordered_map>

#include "depgraph_passes/lexical_blocks.h"
#include "depgraph_shim/shim_runtime.h"
#include "depir_frame.h"
#include "depgraph_orchestration/depir_work_bound.h"
#include "pto_orchestration_api.h"

namespace depgraph {

namespace {

using passes::ArgDir;
using passes::Dim;
using passes::Expr;
using passes::ExprKind;
using passes::Function;
using passes::Kernel;
using passes::Operand;
using passes::Program;
using passes::SourcePos;
using passes::Stmt;
using passes::StmtKind;
using passes::Type;
using passes::TypeKind;
using passes::VarId;
using depir_run::Frame;
using depir_run::InitFrame;
using depir_run::RunError;
using depir_run::ToDataType;
using depir_run::Value;

// Loops longer than this are almost certainly a wrong binding, not a program to unroll.
constexpr int64_t kMaxTrips = int64_t{1} << 22;

void CollectDynamicOps(const std::vector<Stmt>& body, std::vector<std::string>* ops) {
  for (const Stmt& s : body) {
    if ((s.kind == StmtKind::kAssign || s.kind == StmtKind::kEval) &&
        s.expr.kind == ExprKind::kDynamic &&
        std::find(ops->begin(), ops->end(), s.expr.callee) == ops->end()) {
      ops->push_back(s.expr.callee);
    }
    CollectDynamicOps(s.body, ops);
    CollectDynamicOps(s.else_body, ops);
  }
}

// The interpreter proper: one instance per run.
class Interpreter {
 public:
  Interpreter(const Program& program, const DepirRunOptions& options, shim::ShimRuntime* runtime,
              DepirRunTrace* trace)
      : program_(program),
        options_(options),
        rt_(runtime),
        trace_(trace),
        work_(options.max_iterations, options.max_tasks) {
    for (const auto& [id, name] : DepirKernelNames(program)) {
      if (id >= static_cast<int32_t>(program.kernels.size())) dynamic_ids_[name] = id;
    }
  }

  // Runs `entry` inside the outer AUTO scope.
  void Run(const Function& entry) {
    current_fn_ = entry.name;
    Frame frame;
    InitFrame(&frame, entry);
    PlaceMemrefBases(frame);
    for (VarId p : entry.params) BindEntryParam(&frame, p);
    rt_->BeginScope(0);
    CheckFatal("outer scope");
    ExecBlock(&frame, entry.body);
    rt_->EndScope();
    CheckFatal("outer scope end");
  }

  const std::string& current_function() const { return current_fn_; }
  /// The statement an error escaped from (unknown when it came from no statement).
  const SourcePos& error_pos() const { return error_pos_; }

 private:
  void CheckFatal(const std::string& where) {
    if (rt_->fatal()) throw RunError("runtime error at " + where + ": " + rt_->fatal_message());
  }

  int64_t SetValue(const std::string& name, const std::string& what) const {
    auto it = options_.sets.find(name);
    if (it == options_.sets.end()) {
      throw RunError(what + " '" + name + "' is unbound (give it with --set " + name + "=...)");
    }
    return it->second;
  }

  int64_t ResolveDim(const Frame& f, const Dim& d) const {
    if (!d.symbolic) return d.value;
    if (auto it = f.ints.find(d.name); it != f.ints.end()) return it->second;
    return SetValue(d.name, "symbol");
  }

  std::vector<uint32_t> ResolveShape(const Frame& f, const std::vector<Dim>& dims) const {
    if (dims.empty() || dims.size() > MAX_TENSOR_DIMS) {
      throw RunError("tensor rank " + std::to_string(dims.size()) + " is not 1.." +
                     std::to_string(MAX_TENSOR_DIMS));
    }
    std::vector<uint32_t> out;
    for (const Dim& d : dims) {
      const int64_t v = ResolveDim(f, d);
      if (v < 0 || v > UINT32_MAX) throw RunError("dimension " + std::to_string(v) + " out of range");
      out.push_back(static_cast<uint32_t>(v));
    }
    return out;
  }

  const std::string& VarName(const Frame& f, VarId v) const { return f.fn->vars[v].name; }

  void Assign(Frame* f, VarId v, const Value& value) {
    if (v < 0 || v >= static_cast<VarId>(f->vals.size())) throw RunError("bad variable id");
    f->vals[v] = value;
    if (value.kind == Value::Kind::kInt) f->ints[VarName(*f, v)] = value.number;
  }

  // A read of `v` sees the value of that definition: programs run in SSA form
  // (passes::ConvertToSsa makes a source program's names mean what the DSL's Python
  // semantics say before it runs), so the bound definition is the one that holds the name.
  const Value& Get(const Frame& f, VarId v) const {
    if (v < 0 || v >= static_cast<VarId>(f.vals.size())) throw RunError("bad variable id");
    const Value& value = f.vals[v];
    if (value.kind == Value::Kind::kUnset) {
      throw RunError("variable '" + VarName(f, v) + "' has no value here");
    }
    return value;
  }

  Value Eval(const Frame& f, const Operand& op) const {
    return op.is_const ? Value::Int(op.value) : Get(f, op.var);
  }

  int64_t EvalInt(const Frame& f, const Operand& op, const char* what) const {
    const Value v = Eval(f, op);
    if (v.kind != Value::Kind::kInt) throw RunError(std::string(what) + " is not an integer");
    return v.number;
  }

  const ChipTensor& TensorOf(const Frame& f, const Operand& op, const std::string& what) const {
    if (op.is_const) throw RunError(what + " is a constant, not a tensor");
    const Value& v = Get(f, op.var);
    if (v.kind != Value::Kind::kTensor) {
      throw RunError(what + " '" + VarName(f, op.var) + "' is not a tensor");
    }
    return v.tensor;
  }

  // One entry allocation per memref base, large enough for every parameter placed in it.
  void PlaceMemrefBases(const Frame& f) {
    std::map<std::string, uint64_t> bytes;
    for (VarId p : f.fn->params) {
      const passes::Var& var = f.fn->vars[p];
      if (!var.type || var.type->kind != TypeKind::kTensor || !var.type->memref) continue;
      const passes::MemRef& m = *var.type->memref;
      const int64_t off = ResolveDim(f, m.offset);
      if (off < 0) throw RunError("parameter '" + var.name + "': negative memref offset");
      const std::vector<uint32_t> shape = ResolveShape(f, var.type->shape);
      uint64_t numel = 1;
      for (uint32_t d : shape) numel *= d;
      const uint64_t need = static_cast<uint64_t>(off) +
                            std::max<uint64_t>(static_cast<uint64_t>(std::max<int64_t>(m.size, 0)),
                                               numel * get_element_size(ToDataType(var.type->dtype)));
      bytes[m.base] = std::max(bytes[m.base], need);
    }
    for (const auto& [base, size] : bytes) {
      memref_base_[base] = {rt_->AllocateEntryAddress(size), size};
      CheckFatal("memref base '" + base + "'");
    }
  }

  void BindEntryParam(Frame* f, VarId p) {
    const passes::Var& var = f->fn->vars[p];
    if (!var.type) throw RunError("parameter '" + var.name + "' has no type");
    const Type& type = *var.type;
    switch (type.kind) {
      case TypeKind::kIndex:
      case TypeKind::kBool:
        Assign(f, p, Value::Int(SetValue(var.name, "parameter")));
        return;
      case TypeKind::kTaskId:
        Assign(f, p, Value::Tid(PTO2TaskId::invalid()));
        return;
      case TypeKind::kTaskIdArray: {
        Value v;
        v.kind = Value::Kind::kTaskIdArray;
        v.array.assign(static_cast<size_t>(std::max<int64_t>(type.extent, 0)),
                       PTO2TaskId::invalid());
        Assign(f, p, v);
        return;
      }
      case TypeKind::kTensor:
        break;
    }
    const std::vector<uint32_t> shape = ResolveShape(*f, type.shape);
    const DataType dtype = ToDataType(type.dtype);
    std::vector<uint32_t> strides;
    if (type.view && !type.view->stride.empty()) {
      if (type.view->stride.size() != shape.size()) {
        throw RunError("parameter '" + var.name + "': stride rank differs from shape rank");
      }
      for (const Dim& d : type.view->stride) strides.push_back(static_cast<uint32_t>(ResolveDim(*f, d)));
    }
    const uint32_t ndims = static_cast<uint32_t>(shape.size());
    if (type.memref) {
      // A window of the shared base allocation: same buffer, start offset in elements.
      const auto& [base_addr, base_size] = memref_base_.at(type.memref->base);
      const uint64_t elem = get_element_size(dtype);
      const uint64_t off = static_cast<uint64_t>(ResolveDim(*f, type.memref->offset));
      if (off % elem != 0) {
        throw RunError("parameter '" + var.name + "': memref offset is not a multiple of the "
                       "element size");
      }
      ChipTensor t = strides.empty()
                         ? make_tensor_external(reinterpret_cast<const void*>(base_addr),
                                                shape.data(), ndims, dtype)
                         : make_tensor_strided(reinterpret_cast<const void*>(base_addr),
                                               shape.data(), strides.data(), ndims, dtype);
      t.buffer.size = base_size;
      t.start_offset = off / elem;
      Assign(f, p, Value::Tensor(t));
      return;
    }
    // Size the buffer from a throw-away view at address 0, then place it.
    ChipTensor probe = strides.empty()
                           ? make_tensor_external(nullptr, shape.data(), ndims, dtype)
                           : make_tensor_strided(nullptr, shape.data(), strides.data(), ndims, dtype);
    const uint64_t addr = rt_->AllocateEntryAddress(probe.buffer.size);
    CheckFatal("entry tensor '" + var.name + "'");
    const void* ptr = reinterpret_cast<const void*>(addr);
    ChipTensor t = strides.empty()
                       ? make_tensor_external(ptr, shape.data(), ndims, dtype)
                       : make_tensor_strided(ptr, shape.data(), strides.data(), ndims, dtype);
    Assign(f, p, Value::Tensor(t));
  }

  // Generated code allocates a scope's tensors with one batched alloc_tensors at the scope's
  // start. Each executed block (scope body, loop iteration, branch, function body) does the
  // same for the `create`s directly in it, except one whose shape names a variable the block
  // assigns (its value is not known yet) or does not resolve: that one is allocated alone where
  // it stands (and reports its error there).
  void AllocateCreatesOf(const Frame& f, const std::vector<Stmt>& body) {
    std::set<std::string> assigned;
    for (const Stmt& s : body) {
      for (VarId d : s.defs) {
        if (d >= 0) assigned.insert(VarName(f, d));
      }
    }
    std::vector<std::pair<const Expr*, std::vector<uint32_t>>> creates;
    for (const Stmt& s : body) {
      if (s.kind != StmtKind::kAssign || s.expr.kind != ExprKind::kCreate) continue;
      const bool known = std::none_of(s.expr.shape.begin(), s.expr.shape.end(), [&](const Dim& d) {
        return d.symbolic && assigned.count(d.name) > 0;
      });
      if (!known) continue;
      try {
        creates.emplace_back(&s.expr, ResolveShape(f, s.expr.shape));
      } catch (const RunError&) {
      }
    }
    if (!creates.empty()) Allocate(creates);
  }

  // One alloc_tensors for `creates` (create expressions with their resolved shapes); each
  // tensor and the allocation's id wait in preallocated_ for their create to run.
  void Allocate(const std::vector<std::pair<const Expr*, std::vector<uint32_t>>>& creates) {
    std::vector<TensorCreateInfo> infos;
    for (const auto& [e, shape] : creates) {
      infos.emplace_back(shape.data(), static_cast<uint32_t>(shape.size()), ToDataType(e->dtype),
                         e->manual_dep);
    }
    work_.Task();
    const TaskOutputTensors out = alloc_tensors(infos.data(), static_cast<uint32_t>(infos.size()));
    CheckFatal("create");
    for (size_t i = 0; i < creates.size(); ++i) {
      preallocated_[creates[i].first] = {out.get_ref(static_cast<uint32_t>(i)), out.task_id().raw};
    }
  }

  void ExecBlock(Frame* f, const std::vector<Stmt>& body) {
    AllocateCreatesOf(*f, body);
    for (const Stmt& s : body) {
      if (f->returned) return;
      Exec(f, s);
    }
  }

  // Runs a loop body once with the carried values in the iter args; returns the yield.
  std::vector<Value> RunIteration(Frame* f, const Stmt& s, const std::vector<Value>& carried) {
    for (size_t i = 0; i < s.iters.size(); ++i) Assign(f, s.iters[i].var, carried[i]);
    f->has_yield = false;
    ExecBlock(f, s.body);
    if (s.iters.empty()) return {};
    if (!f->has_yield || f->yielded.size() != s.iters.size()) {
      throw RunError("loop body yields " + std::to_string(f->has_yield ? f->yielded.size() : 0) +
                     " values for " + std::to_string(s.iters.size()) + " iter args");
    }
    f->has_yield = false;
    return f->yielded;
  }

  void ExecLoop(Frame* f, const Stmt& s) {
    std::vector<Value> carried;
    for (const passes::IterArg& it : s.iters) carried.push_back(Eval(*f, it.init));
    if (s.kind == StmtKind::kFor) {
      const int64_t start = EvalInt(*f, s.start, "loop start");
      const int64_t stop = EvalInt(*f, s.stop, "loop stop");
      const int64_t step = EvalInt(*f, s.step, "loop step");
      if (step == 0) throw RunError("loop step is 0");
      int64_t trips = 0;
      for (int64_t i = start; step > 0 ? i < stop : i > stop; i += step) {
        if (++trips > kMaxTrips) throw RunError("loop runs more than 2^22 iterations");
        work_.Iteration();
        Assign(f, s.loop_var, Value::Int(i));
        carried = RunIteration(f, s, carried);
        if (f->returned) return;
      }
    } else {
      const std::string& cond = VarName(*f, s.cond);
      const int64_t trips = SetValue(cond, "while trip count");
      if (trips < 0 || trips > kMaxTrips) throw RunError("while trip count out of range");
      for (int64_t i = 0; i < trips; ++i) {
        work_.Iteration();
        carried = RunIteration(f, s, carried);
        if (f->returned) return;
      }
    }
    for (size_t i = 0; i < s.defs.size() && i < carried.size(); ++i) Assign(f, s.defs[i], carried[i]);
  }

  void ExecIf(Frame* f, const Stmt& s) {
    const std::string& name = VarName(*f, s.cond);
    int64_t cond = 0;
    if (auto it = options_.sets.find(name); it != options_.sets.end()) {
      cond = it->second;
    } else {
      const Value& v = f->vals[s.cond];
      if (v.kind != Value::Kind::kInt) {
        throw RunError("if condition '" + name + "' is unbound (give it with --set " + name +
                       "=true|false)");
      }
      cond = v.number;
    }
    f->has_yield = false;
    ExecBlock(f, cond != 0 ? s.body : s.else_body);
    if (f->returned || s.defs.empty()) return;
    if (!f->has_yield || f->yielded.size() != s.defs.size()) {
      throw RunError("the taken branch of 'if " + name + "' does not yield " +
                     std::to_string(s.defs.size()) + " values");
    }
    f->has_yield = false;
    for (size_t i = 0; i < s.defs.size(); ++i) Assign(f, s.defs[i], f->yielded[i]);
  }

  // Runs one statement; an error escaping it is attributed to the innermost statement with a
  // source position (and its function), for the message's file:line:col.
  void Exec(Frame* f, const Stmt& s) {
    try {
      ExecStmt(f, s);
    } catch (...) {
      if (!error_pos_.known() && s.pos.known()) error_pos_ = s.pos;
      throw;
    }
  }

  void ExecStmt(Frame* f, const Stmt& s) {
    switch (s.kind) {
      case StmtKind::kScope:
        rt_->BeginScope(s.manual ? 1 : 0);
        CheckFatal(std::string("scope ") + (s.manual ? "manual" : "auto"));
        ExecBlock(f, s.body);
        rt_->EndScope();
        CheckFatal("scope end");
        return;
      case StmtKind::kFor:
      case StmtKind::kWhile:
        ExecLoop(f, s);
        return;
      case StmtKind::kIf:
        ExecIf(f, s);
        return;
      case StmtKind::kAssign:
      case StmtKind::kEval: {
        std::vector<Value> results = EvalExpr(f, s.expr, s.defs);
        AssignResults(f, s, results);
        return;
      }
      case StmtKind::kYield:
        f->yielded.clear();
        for (const Operand& op : s.values) f->yielded.push_back(Eval(*f, op));
        f->has_yield = true;
        return;
      case StmtKind::kReturn:
        f->results.clear();
        for (const Operand& op : s.values) f->results.push_back(Eval(*f, op));
        f->returned = true;
        return;
    }
  }

  // Binds the LHS names: a submit's last name takes the TaskId (the last result), the others
  // take the results in order; a single name takes the first result.
  void AssignResults(Frame* f, const Stmt& s, const std::vector<Value>& results) {
    if (s.kind != StmtKind::kAssign) return;
    const bool submit = s.expr.kind == ExprKind::kCall && s.expr.submit &&
                        program_.FindKernel(s.expr.callee) != nullptr;
    std::vector<Value> values = results;
    if (submit && !values.empty()) {
      const Value tid = values.back();
      values.pop_back();
      if (s.defs.size() - 1 > values.size()) {
        throw RunError("submit of '" + s.expr.callee + "' binds " + std::to_string(s.defs.size()) +
                       " names but the kernel returns " + std::to_string(values.size()));
      }
      values.resize(s.defs.size() - 1);
      values.push_back(tid);
    }
    if (values.size() < s.defs.size()) {
      throw RunError("'" + VarName(*f, s.defs[0]) + "': the right-hand side gives " +
                     std::to_string(values.size()) + " value(s) for " +
                     std::to_string(s.defs.size()) + " name(s)");
    }
    for (size_t i = 0; i < s.defs.size(); ++i) {
      if (values[i].kind != Value::Kind::kUnset) Assign(f, s.defs[i], values[i]);
    }
  }

  // Whether generated code could name, at `call`, the definition a read of `v` sees: it ran,
  // and it stands before the call in the call's block or one enclosing it (LexicalBlocks).
  bool DefinitionVisible(const Frame& f, VarId v, const Expr& call) {
    if (v < 0 || v >= static_cast<VarId>(f.vals.size())) return false;
    if (f.vals[v].kind == Value::Kind::kUnset) return false;
    auto it = blocks_.find(f.fn);
    if (it == blocks_.end()) it = blocks_.emplace(f.fn, passes::LexicalBlocks(*f.fn)).first;
    return it->second.VisibleAt(v, &call);
  }

  // Explicit dependencies of TaskId / TaskId-array variables, valid ids only, deduplicated.
  std::vector<PTO2TaskId> CollectDeps(const Frame& f, const std::vector<VarId>& vars) const {
    std::vector<PTO2TaskId> out;
    auto add = [&](PTO2TaskId id) {
      if (!id.is_valid()) return;
      for (const PTO2TaskId& have : out) {
        if (have.raw == id.raw) return;
      }
      out.push_back(id);
    };
    for (VarId v : vars) {
      const Value& value = Get(f, v);
      if (value.kind == Value::Kind::kTaskId) {
        add(value.tid);
      } else if (value.kind == Value::Kind::kTaskIdArray) {
        for (PTO2TaskId id : value.array) add(id);
      } else if (value.kind == Value::Kind::kTensor && value.producer.is_valid()) {
        add(value.producer);
      } else {
        throw RunError("dependency '" + VarName(f, v) + "' is not a TaskId or TaskId array");
      }
    }
    return out;
  }

  std::vector<Value> EvalExpr(Frame* f, const Expr& e, const std::vector<VarId>& defs) {
    switch (e.kind) {
      case ExprKind::kVar:
      case ExprKind::kAssemble:
        if (e.args.empty()) throw RunError("missing operand");
        return {Eval(*f, e.args[0])};
      case ExprKind::kCall:
        if (const Kernel* k = program_.FindKernel(e.callee)) return SubmitKernel(f, *k, e);
        if (const Function* fn = program_.FindFunction(e.callee)) return CallFunction(*f, *fn, e);
        throw RunError("call to unknown kernel or function '" + e.callee + "'");
      case ExprKind::kSlice:
        return {Slice(*f, e)};
      case ExprKind::kCreate: {
        if (!preallocated_.count(&e)) Allocate({{&e, ResolveShape(*f, e.shape)}});
        const auto it = preallocated_.find(&e);
        const Created created = it->second;
        preallocated_.erase(it);
        if (trace_ != nullptr) {
          trace_->creates.push_back({created.alloc_id, created.tensor.buffer.addr});
        }
        return {Value::Tensor(created.tensor)};
      }
      case ExprKind::kDynamic:
        return DynamicTask(*f, e, defs);
      case ExprKind::kTaskInvalid:
        return {Value::Tid(PTO2TaskId::invalid())};
      case ExprKind::kTaskDummy: {
        std::vector<VarId> vars;
        for (const Operand& op : e.args) {
          if (op.is_const) throw RunError("task_dummy dependency is a constant");
          vars.push_back(op.var);
        }
        const std::vector<PTO2TaskId> deps = CollectDeps(*f, vars);
        CoreTaskArgs args;
        if (!deps.empty()) args.set_dependencies(deps.data(), static_cast<uint32_t>(deps.size()));
        work_.Task();
        const TaskOutputTensors out = rt_submit_dummy_task(args);
        CheckFatal("task_dummy");
        return {Value::Tid(out.task_id())};
      }
      case ExprKind::kArrayCreate: {
        Value v;
        v.kind = Value::Kind::kTaskIdArray;
        v.array.assign(static_cast<size_t>(std::max<int64_t>(e.extent, 0)), PTO2TaskId::invalid());
        return {v};
      }
      case ExprKind::kArraySet: {
        if (e.args.size() < 2 || e.nested.empty()) throw RunError("malformed aset");
        Value arr = ArrayOf(*f, e.args[0]);
        const int64_t idx = CheckedIndex(arr, EvalInt(*f, e.args[1], "aset index"));
        const Value value = EvalExpr(f, e.nested[0], {}).at(0);
        if (value.kind != Value::Kind::kTaskId) throw RunError("aset value is not a TaskId");
        arr.array[static_cast<size_t>(idx)] = value.tid;
        return {arr};
      }
      case ExprKind::kArrayGet: {
        if (e.args.size() < 2) throw RunError("malformed aget");
        const Value arr = ArrayOf(*f, e.args[0]);
        const int64_t idx = CheckedIndex(arr, EvalInt(*f, e.args[1], "aget index"));
        return {Value::Tid(arr.array[static_cast<size_t>(idx)])};
      }
    }
    throw RunError("unknown expression");
  }

  Value ArrayOf(const Frame& f, const Operand& op) const {
    const Value v = Eval(f, op);
    if (v.kind != Value::Kind::kTaskIdArray) throw RunError("not a TaskId array");
    return v;
  }

  static int64_t CheckedIndex(const Value& arr, int64_t idx) {
    if (idx < 0 || idx >= static_cast<int64_t>(arr.array.size())) {
      throw RunError("TaskId array index " + std::to_string(idx) + " out of range [0, " +
                     std::to_string(arr.array.size()) + ")");
    }
    return idx;
  }

  Value Slice(const Frame& f, const Expr& e) const {
    if (e.args.empty()) throw RunError("slice without a parent");
    const ChipTensor& parent = TensorOf(f, e.args[0], "slice parent");
    const std::vector<uint32_t> shape = ResolveShape(f, e.shape);
    if (shape.size() != parent.ndims || e.offsets.size() != parent.ndims) {
      throw RunError("slice of a rank-" + std::to_string(parent.ndims) + " tensor has " +
                     std::to_string(shape.size()) + " sizes and " +
                     std::to_string(e.offsets.size()) + " offsets");
    }
    std::vector<uint32_t> offsets;
    for (size_t i = 0; i < shape.size(); ++i) {
      const int64_t off = EvalInt(f, e.offsets[i], "slice offset");
      if (off < 0 || off + shape[i] > parent.shapes[i]) {
        throw RunError("slice [" + std::to_string(off) + ", " + std::to_string(off + shape[i]) +
                       ") of dimension " + std::to_string(i) + " exceeds its size " +
                       std::to_string(parent.shapes[i]));
      }
      offsets.push_back(static_cast<uint32_t>(off));
    }
    return Value::Tensor(parent.view(shape.data(), offsets.data(), parent.manual_dep));
  }

  // One kernel call or submit: a task with one add_* per argument direction.
  std::vector<Value> SubmitKernel(Frame* f, const Kernel& k, const Expr& e) {
    const std::string where = "call to '" + k.name + "'";
    if (e.args.size() != k.params.size()) {
      throw RunError(where + " has " + std::to_string(e.args.size()) + " arguments, the kernel " +
                     std::to_string(k.params.size()) + " parameters");
    }
    if (e.attrs.arg_directions.size() != e.args.size()) {
      throw RunError(where + " has no direction for every argument");
    }
    const size_t n = e.args.size();
    std::vector<ChipTensor> tensors(n);
    std::vector<TensorCreateInfo> infos(n);
    std::vector<int> output_index(n, -1);
    std::vector<uint64_t> scalars;
    CoreTaskArgs args;
    int outputs = 0;
    for (size_t i = 0; i < n; ++i) {
      const ArgDir dir = e.attrs.arg_directions[i];
      if (dir == ArgDir::kScalar) {
        const Value v = Eval(*f, e.args[i]);
        scalars.push_back(v.kind == Value::Kind::kInt ? static_cast<uint64_t>(v.number) : 0);
        continue;
      }
      tensors[i] = TensorOf(*f, e.args[i], where + ": argument " + std::to_string(i + 1));
      switch (dir) {
        case ArgDir::kInput: args.add_input(tensors[i]); break;
        case ArgDir::kInOut: args.add_inout(tensors[i]); break;
        case ArgDir::kOutputExisting: args.add_output(tensors[i]); break;
        case ArgDir::kNoDep: args.add_no_dep(tensors[i]); break;
        case ArgDir::kOutput:
          infos[i] = TensorCreateInfo(tensors[i].shapes, tensors[i].ndims, tensors[i].dtype,
                                      tensors[i].manual_dep);
          args.add_output(infos[i]);
          output_index[i] = outputs++;
          break;
        case ArgDir::kScalar: break;
      }
    }
    for (uint64_t s : scalars) args.add_scalar(s);
    std::vector<VarId> dep_vars = e.attrs.manual_dep_edges;
    if (e.attrs.compiler_manual_dep_edges) {
      // Codegen drops a compiler edge whose TaskId is not visible at the call (defined in a
      // block that has closed, or not run at all); user deps are kept as written.
      for (VarId v : *e.attrs.compiler_manual_dep_edges) {
        if (DefinitionVisible(*f, v, e)) {
          dep_vars.push_back(v);
        } else if (trace_ != nullptr) {
          trace_->dropped_edges.push_back({current_fn_, k.name, VarName(*f, v)});
        }
      }
    }
    const std::vector<PTO2TaskId> deps = CollectDeps(*f, dep_vars);
    if (!deps.empty()) args.set_dependencies(deps.data(), static_cast<uint32_t>(deps.size()));
    if (e.attrs.allow_early_resolve) args.set_allow_early_resolve(true);
    const int32_t kernel_id = static_cast<int32_t>(&k - program_.kernels.data());
    work_.Task();
    const TaskOutputTensors out = rt_submit_aiv_task(kernel_id, args);
    CheckFatal(where);

    std::vector<Value> results;
    for (int r : k.returns) {
      if (r < 0 || static_cast<size_t>(r) >= n) throw RunError(where + ": bad returned parameter");
      if (e.attrs.arg_directions[r] == ArgDir::kScalar) {
        results.push_back(Eval(*f, e.args[r]));
      } else if (output_index[r] >= 0) {
        results.push_back(Value::Tensor(out.get_ref(static_cast<uint32_t>(output_index[r]))));
      } else {
        results.push_back(Value::Tensor(tensors[r]));
      }
    }
    for (Value& result : results) {
      if (result.kind == Value::Kind::kTensor) result.producer = out.task_id();
    }
    if (e.submit) results.push_back(Value::Tid(out.task_id()));
    return results;
  }

  // A gather/scatter-family op: one task that reads every tensor argument whole and writes a
  // runtime-allocated result of the annotated type (else the first argument's shape).
  std::vector<Value> DynamicTask(const Frame& f, const Expr& e, const std::vector<VarId>& defs) {
    const std::string where = "dynamic " + e.callee;
    std::vector<ChipTensor> tensors(e.args.size());
    CoreTaskArgs args;
    for (size_t i = 0; i < e.args.size(); ++i) {
      if (e.args[i].is_const) continue;
      const Value& v = Get(f, e.args[i].var);
      if (v.kind != Value::Kind::kTensor) continue;
      tensors[i] = v.tensor;
      // The whole source buffer, not only the view the op names.
      uint32_t whole = static_cast<uint32_t>(
          std::max<uint64_t>(v.tensor.buffer.size / std::max<uint64_t>(get_element_size(v.tensor.dtype), 1), 1));
      tensors[i] = make_tensor_external(reinterpret_cast<const void*>(v.tensor.buffer.addr),
                                        &whole, 1, v.tensor.dtype);
      tensors[i].owner_task_id = v.tensor.owner_task_id;
      tensors[i].version = v.tensor.version;
      args.add_input(tensors[i]);
    }
    TensorCreateInfo info;
    const bool has_result = !defs.empty();
    if (has_result) {
      const passes::Var& var = f.fn->vars[defs[0]];
      if (var.type && var.type->kind == TypeKind::kTensor) {
        const std::vector<uint32_t> shape = ResolveShape(f, var.type->shape);
        info = TensorCreateInfo(shape.data(), static_cast<uint32_t>(shape.size()),
                                ToDataType(var.type->dtype));
      } else if (!e.args.empty() && tensors[0].ndims > 0) {
        const ChipTensor& src = Get(f, e.args[0].var).tensor;
        info = TensorCreateInfo(src.shapes, src.ndims, src.dtype);
      } else {
        throw RunError(where + ": result has no type annotation and no tensor source");
      }
      args.add_output(info);
    }
    work_.Task();
    const TaskOutputTensors out = rt_submit_aiv_task(dynamic_ids_.at(e.callee), args);
    CheckFatal(where);
    if (!has_result) return {};
    return {Value::Tensor(out.get_ref(0))};
  }

  // A call of another orchestration function: its body runs in the caller's scope.
  std::vector<Value> CallFunction(const Frame& caller, const Function& fn, const Expr& e) {
    if (++depth_ > 64) throw RunError("function calls nested deeper than 64");
    if (e.args.size() != fn.params.size()) {
      throw RunError("call to '" + fn.name + "' has " + std::to_string(e.args.size()) +
                     " arguments for " + std::to_string(fn.params.size()) + " parameters");
    }
    Frame frame;
    InitFrame(&frame, fn);
    for (size_t i = 0; i < e.args.size(); ++i) Assign(&frame, fn.params[i], Eval(caller, e.args[i]));
    const std::string saved = current_fn_;
    current_fn_ = fn.name;
    ExecBlock(&frame, fn.body);
    current_fn_ = saved;
    --depth_;
    return frame.results;
  }

  const Program& program_;
  const DepirRunOptions& options_;
  shim::ShimRuntime* rt_;
  DepirRunTrace* trace_;  ///< optional: receives every create's allocation
  /// A tensor allocated ahead by its block's batched alloc_tensors, and that allocation's id.
  struct Created {
    ChipTensor tensor;
    uint64_t alloc_id = 0;
  };
  std::unordered_map<const Expr*, Created> preallocated_;  ///< by create expression
  std::unordered_map<const Function*, passes::LexicalBlocks> blocks_;  ///< built on first use
  std::unordered_map<std::string, int32_t> dynamic_ids_;
  std::map<std::string, std::pair<uint64_t, uint64_t>> memref_base_;  // base -> (addr, bytes)
  std::string current_fn_;
  SourcePos error_pos_;  ///< innermost statement an error escaped from
  int depth_ = 0;
  depir_run::WorkBound work_;  ///< loop iterations and tasks against the run's bound
};

}  // namespace

std::vector<std::pair<int32_t, std::string>> DepirKernelNames(const Program& program) {
  std::vector<std::pair<int32_t, std::string>> names;
  for (size_t i = 0; i < program.kernels.size(); ++i) {
    names.emplace_back(static_cast<int32_t>(i), program.kernels[i].name);
  }
  std::vector<std::string> ops;
  for (const Function& fn : program.functions) CollectDynamicOps(fn.body, &ops);
  for (const std::string& op : ops) {
    names.emplace_back(static_cast<int32_t>(names.size()), op);
  }
  return names;
}

bool RunDepirOnShim(const Program& program, const DepirRunOptions& options,
                    shim::ShimRuntime* runtime, std::string* err, DepirRunTrace* trace) {
  const std::string prefix = options.filename.empty() ? "" : options.filename + ": ";
  const Function* entry = nullptr;
  if (!options.entry.empty()) {
    entry = program.FindFunction(options.entry);
  } else {
    entry = program.FindFunction("main");
    if (entry == nullptr && program.functions.size() == 1) entry = &program.functions[0];
  }
  if (entry == nullptr) {
    *err = prefix + "no entry function '" + (options.entry.empty() ? "main" : options.entry) + "'";
    return false;
  }
  runtime->Bind();
  Interpreter interp(program, options, runtime, trace);
  bool ok = true;
  try {
    interp.Run(*entry);
  } catch (const std::exception& e) {
    // "<file>:<line>:<col>: <function>: <message>"; an error outside any statement (binding
    // the entry parameters) is placed at the entry function's name.
    const SourcePos pos = interp.error_pos().known() ? interp.error_pos() : entry->pos;
    std::string where = options.filename;
    if (pos.known()) {
      where += (where.empty() ? "" : ":") + std::to_string(pos.line) + ":" + std::to_string(pos.col);
    }
    *err = (where.empty() ? "" : where + ": ") + interp.current_function() + ": " + e.what();
    ok = false;
  }
  shim::ShimRuntime::Unbind();
  if (ok && runtime->fatal()) {
    *err = prefix + entry->name + ": runtime error: " + runtime->fatal_message();
    ok = false;
  }
  return ok;
}

}  // namespace depgraph
