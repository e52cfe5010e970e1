#include "depir_frame.h"

#include <algorithm>

namespace depgraph::depir_run {

using passes::Stmt;
using passes::StmtKind;
using passes::VarId;

void InitFrame(Frame* f, const passes::Function& fn) {
  f->fn = &fn;
  f->vals.assign(fn.vars.size(), Value{});
  f->stamp.assign(fn.vars.size(), 0);
  for (size_t i = 0; i < fn.vars.size(); ++i) f->by_name[fn.vars[i].name].push_back(static_cast<VarId>(i));
}

void ComputeMarks(const std::vector<Stmt>& body, VarId* next,
                  std::unordered_map<const Stmt*, VarId>* marks) {
  auto see = [&](VarId v) { *next = std::max(*next, v + 1); };
  for (const Stmt& s : body) {
    (*marks)[&s] = *next;
    if (s.kind == StmtKind::kFor) see(s.loop_var);
    for (const passes::IterArg& it : s.iters) see(it.var);
    ComputeMarks(s.body, next, marks);
    ComputeMarks(s.else_body, next, marks);
    for (VarId d : s.defs) see(d);
  }
}

DataType ToDataType(const std::string& dtype) {
  static const std::unordered_map<std::string, DataType> kTypes = {
      {"f32", DataType::FLOAT32}, {"f16", DataType::FLOAT16}, {"bf16", DataType::BFLOAT16},
      {"f64", DataType::INT64},   {"i8", DataType::INT8},     {"i16", DataType::INT16},
      {"i32", DataType::INT32},   {"i64", DataType::INT64},   {"u8", DataType::UINT8},
      {"u16", DataType::UINT16},  {"u32", DataType::UINT32},  {"u64", DataType::UINT64},
      {"b8", DataType::BOOL}};
  auto it = kTypes.find(dtype);
  if (it == kTypes.end()) throw RunError("unsupported dtype '" + dtype + "'");
  return it->second;
}

}  // namespace depgraph::depir_run
