#include "depgraph_passes/ir_type.h"

#include <array>

namespace depgraph::passes {

bool IsKnownDtype(const std::string& name) {
  static const std::array<const char*, 13> kDtypes = {"f32", "f16", "bf16", "f64", "i8",  "i16", "i32",
                                                      "i64", "u8",  "u16",  "u32", "u64", "b8"};
  for (const char* d : kDtypes) {
    if (name == d) return true;
  }
  return false;
}

bool ParseLayout(const std::string& name, Layout* out) {
  if (name == "ND") { *out = Layout::kND; return true; }
  if (name == "DN") { *out = Layout::kDN; return true; }
  if (name == "NZ") { *out = Layout::kNZ; return true; }
  return false;
}

const char* LayoutName(Layout layout) {
  switch (layout) {
    case Layout::kND: return "ND";
    case Layout::kDN: return "DN";
    case Layout::kNZ: return "NZ";
  }
  return "ND";
}

std::string DimsText(const std::vector<Dim>& dims) {
  std::string out;
  for (size_t i = 0; i < dims.size(); ++i) {
    if (i) out += ", ";
    out += dims[i].symbolic ? dims[i].name : std::to_string(dims[i].value);
  }
  return out;
}

std::string TypeText(const Type& type) {
  switch (type.kind) {
    case TypeKind::kIndex: return "index";
    case TypeKind::kBool: return "bool";
    case TypeKind::kTaskId: return "task_id";
    case TypeKind::kTaskIdArray: return "task_id[" + std::to_string(type.extent) + "]";
    case TypeKind::kTensor: break;
  }
  std::string out = type.dtype + "[" + DimsText(type.shape) + "]";
  if (type.view) {
    const TensorView& v = *type.view;
    out += " view(stride=[" + DimsText(v.stride) + "], " + LayoutName(v.layout);
    if (v.valid) out += ", valid=[" + DimsText(*v.valid) + "]";
    if (v.pad) out += ", pad=" + *v.pad;
    out += ")";
  }
  if (type.memref) {
    const MemRef& m = *type.memref;
    out += " memref(" + m.base + ", " + DimsText({m.offset}) + ", " + std::to_string(m.size) + ")";
  }
  return out;
}

std::optional<std::vector<int64_t>> PackedStrides(const std::vector<Dim>& shape) {
  std::vector<int64_t> strides(shape.size(), 1);
  int64_t acc = 1;
  for (size_t i = shape.size(); i-- > 0;) {
    if (shape[i].symbolic) return std::nullopt;
    strides[i] = acc;
    acc *= shape[i].value;
  }
  return strides;
}

}  // namespace depgraph::passes
