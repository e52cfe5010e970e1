// Parsing of depir types (dims, tensor types with view and memref, scalar kinds).
#pragma once

#include <vector>

#include "depgraph_passes/ir_type.h"
#include "token_cursor.h"

namespace depgraph::passes {

/// Adds type parsing to TokenCursor. Each Parse* returns false after recording the first
/// error; cost O(tokens read).
class TypeReader : public TokenCursor {
 public:
  using TokenCursor::TokenCursor;

 protected:
  /// dim := INT | ID
  bool ParseDim(Dim* d) {
    if (Peek().kind == TokKind::kInt) {
      d->value = Take().value;
      return true;
    }
    if (Peek().kind == TokKind::kId) {
      d->symbolic = true;
      d->name = Take().text;
      return true;
    }
    return Fail(Peek(), "expected integer or identifier");
  }
  /// '[' [dim {',' dim}] ']'
  bool ParseDims(std::vector<Dim>* dims) {
    if (!Expect("[")) return false;
    if (IsPunct("]")) {
      Take();
      return true;
    }
    while (true) {
      Dim d;
      if (!ParseDim(&d)) return false;
      dims->push_back(d);
      if (IsPunct(",")) {
        Take();
        continue;
      }
      return Expect("]");
    }
  }
  /// A depir type (grammar in docs/depir.md).
  bool ParseType(Type* ty) {
    const Token& t = Peek();
    if (t.kind != TokKind::kId) return Fail(t, "expected type");
    std::string word = Take().text;
    if (word == "index") { ty->kind = TypeKind::kIndex; return true; }
    if (word == "bool") { ty->kind = TypeKind::kBool; return true; }
    if (word == "task_id") {
      ty->kind = TypeKind::kTaskId;
      if (IsPunct("[")) {
        Take();
        ty->kind = TypeKind::kTaskIdArray;
        if (!TakeInt(&ty->extent) || !Expect("]")) return false;
      }
      return true;
    }
    if (!IsKnownDtype(word)) return Fail(t, "unknown type '" + word + "'");
    ty->kind = TypeKind::kTensor;
    ty->dtype = word;
    if (!ParseDims(&ty->shape)) return false;
    while (true) {
      if (IsId("view") && !ty->view) {
        if (!ParseView(ty)) return false;
      } else if (IsId("memref") && !ty->memref) {
        if (!ParseMemRef(ty)) return false;
      } else {
        return true;
      }
    }
  }
  /// view '(' items ')' at the `view` keyword.
  bool ParseView(Type* ty) {
    Take();
    if (!Expect("(")) return false;
    TensorView v;
    while (true) {
      const Token& t = Peek();
      std::string word;
      if (!TakeId(&word, "view item")) return false;
      if (word == "stride") {
        if (!Expect("=") || !ParseDims(&v.stride)) return false;
      } else if (word == "valid" || word == "valid_shape") {
        v.valid.emplace();
        if (!Expect("=") || !ParseDims(&*v.valid)) return false;
      } else if (word == "pad") {
        std::string pad;
        if (!Expect("=") || !TakeId(&pad)) return false;
        v.pad = pad;
      } else if (!ParseLayout(word, &v.layout)) {
        return Fail(t, "unknown view item '" + word + "'");
      }
      if (IsPunct(",")) {
        Take();
        continue;
      }
      if (!Expect(")")) return false;
      ty->view = std::move(v);
      return true;
    }
  }
  /// memref '(' base, offset, size ')' at the `memref` keyword.
  bool ParseMemRef(Type* ty) {
    Take();
    MemRef m;
    if (!Expect("(") || !TakeId(&m.base) || !Expect(",") || !ParseDim(&m.offset) || !Expect(",") ||
        !TakeInt(&m.size) || !Expect(")")) {
      return false;
    }
    ty->memref = std::move(m);
    return true;
  }
};

}  // namespace depgraph::passes
