#include "depgraph_passes/ir.h"

namespace depgraph::passes {

const char* ArgDirName(ArgDir dir) {
  switch (dir) {
    case ArgDir::kInput: return "in";
    case ArgDir::kOutput: return "out";
    case ArgDir::kInOut: return "inout";
    case ArgDir::kOutputExisting: return "oe";
    case ArgDir::kNoDep: return "nodep";
    case ArgDir::kScalar: return "scalar";
  }
  return "in";
}

bool ParseArgDir(const std::string& name, ArgDir* out) {
  static const ArgDir kAll[] = {ArgDir::kInput,          ArgDir::kOutput, ArgDir::kInOut,
                                ArgDir::kOutputExisting, ArgDir::kNoDep,  ArgDir::kScalar};
  for (ArgDir d : kAll) {
    if (name == ArgDirName(d)) {
      *out = d;
      return true;
    }
  }
  return false;
}

const Kernel* Program::FindKernel(const std::string& name) const {
  for (const Kernel& k : kernels) {
    if (k.name == name) return &k;
  }
  return nullptr;
}

namespace {

bool CallsIn(const std::vector<Stmt>& body, const std::string& name) {
  for (const Stmt& s : body) {
    if ((s.kind == StmtKind::kAssign || s.kind == StmtKind::kEval) &&
        s.expr.kind == ExprKind::kCall && s.expr.callee == name) {
      return true;
    }
    if (CallsIn(s.body, name) || CallsIn(s.else_body, name)) return true;
  }
  return false;
}

}  // namespace

bool Program::IsCalled(const std::string& name) const {
  for (const Function& f : functions) {
    if (CallsIn(f.body, name)) return true;
  }
  return false;
}

const Function* Program::FindFunction(const std::string& name) const {
  for (const Function& f : functions) {
    if (f.name == name) return &f;
  }
  return nullptr;
}

Function* Program::FindFunction(const std::string& name) {
  for (Function& f : functions) {
    if (f.name == name) return &f;
  }
  return nullptr;
}

}  // namespace depgraph::passes
