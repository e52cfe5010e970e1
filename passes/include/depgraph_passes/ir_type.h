// depir types: tensors (dtype, shape, optional view and memref) and the scalar kinds.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace depgraph::passes {

/// One dimension, stride or offset entry: a constant or a symbolic name (an index variable or
/// a free symbol). Symbolic entries are kept by name only; they are never resolved. O(1).
struct Dim {
  bool symbolic = false;
  int64_t value = 0;   ///< the constant when !symbolic
  std::string name;    ///< the symbol when symbolic
  bool operator==(const Dim&) const = default;
};

/// Memory layout of a tensor view (pypto TensorLayout).
enum class Layout { kND, kDN, kNZ };

/// Tensor view decoration: strides, layout, optional valid_shape and pad (pypto TensorView).
struct TensorView {
  std::vector<Dim> stride;            ///< may be empty (= packed)
  Layout layout = Layout::kND;
  std::optional<std::vector<Dim>> valid;  ///< valid_shape, when given
  std::optional<std::string> pad;         ///< pad mode name, when given
  bool operator==(const TensorView&) const = default;
};

/// MemRef decoration: a named base allocation, a byte offset (constant or symbolic) and a size.
struct MemRef {
  std::string base;
  Dim offset;
  int64_t size = 0;
  bool operator==(const MemRef&) const = default;
};

/// The kinds of value a variable can hold.
enum class TypeKind { kTensor, kIndex, kBool, kTaskId, kTaskIdArray };

/// A depir type. Tensor fields are meaningful only for kTensor, `extent` only for kTaskIdArray.
struct Type {
  TypeKind kind = TypeKind::kTensor;
  std::string dtype;          ///< depir dtype spelling, e.g. "f32" (see IsKnownDtype)
  std::vector<Dim> shape;
  std::optional<TensorView> view;
  std::optional<MemRef> memref;
  int64_t extent = 0;         ///< task_id[N]
  bool operator==(const Type&) const = default;
};

/// True for the dtype spellings depir accepts (f32, f16, bf16, f64, i8..i64, u8..u64, b8). O(1).
bool IsKnownDtype(const std::string& name);

/// Layout keyword ("ND", "DN", "NZ") -> Layout; false when `name` is none of them. O(1).
bool ParseLayout(const std::string& name, Layout* out);

/// Layout -> its keyword. O(1).
const char* LayoutName(Layout layout);

/// depir text of a dimension list without brackets, e.g. "64, n". O(size).
std::string DimsText(const std::vector<Dim>& dims);

/// depir text of a type, e.g. "f32[64, 32] view(stride=[32, 1], ND, valid=[31, 32])". O(size).
std::string TypeText(const Type& type);

/// Packed row-major strides of a constant shape ([s1*...*s(n-1), ..., s(n-1), 1]); empty
/// optional when a dimension is symbolic. O(rank).
std::optional<std::vector<int64_t>> PackedStrides(const std::vector<Dim>& shape);

}  // namespace depgraph::passes
