#include "depir_frame.h"

namespace depgraph::depir_run {

void InitFrame(Frame* f, const passes::Function& fn) {
  f->fn = &fn;
  f->vals.assign(fn.vars.size(), Value{});
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
