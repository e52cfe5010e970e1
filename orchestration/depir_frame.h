// The interpreter's variables: run-time values, one function's frame, and the helpers that
// set them up (private to apps/depgraph).
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

#include "depgraph_passes/ir.h"
#include "pto_orchestration_api.h"

namespace depgraph::depir_run {

/// A run-time error of the interpreted program (message without the file/function prefix).
struct RunError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// The value of one variable during interpretation.
struct Value {
  enum class Kind { kUnset, kTensor, kInt, kTaskId, kTaskIdArray };
  Kind kind = Kind::kUnset;
  ChipTensor tensor{};
  int64_t number = 0;
  PTO2TaskId tid = PTO2TaskId::invalid();
  std::vector<PTO2TaskId> array;
  /// For a tensor returned by a call: the call's task. A plain call has no TaskId variable,
  /// so the pass names its result as the dependency (the "synthetic" TaskId).
  PTO2TaskId producer = PTO2TaskId::invalid();

  static Value Int(int64_t n) { Value v; v.kind = Kind::kInt; v.number = n; return v; }
  static Value Tensor(const ChipTensor& t) { Value v; v.kind = Kind::kTensor; v.tensor = t; return v; }
  static Value Tid(PTO2TaskId id) { Value v; v.kind = Kind::kTaskId; v.tid = id; return v; }
};

/// Variables of one executing function.
struct Frame {
  const passes::Function* fn = nullptr;
  std::vector<Value> vals;
  std::unordered_map<std::string, int64_t> ints;       ///< latest integer value per name
  std::vector<Value> yielded;
  bool has_yield = false;
  bool returned = false;
  std::vector<Value> results;
};

/// Sets `f` up for a run of `fn`: every variable unset. O(vars).
void InitFrame(Frame* f, const passes::Function& fn);

/// depir dtype spelling -> runtime DataType (f64 has no runtime type: 8-byte INT64 stands in).
/// Throws RunError on an unknown spelling.
DataType ToDataType(const std::string& dtype);

}  // namespace depgraph::depir_run
