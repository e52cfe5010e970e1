// The records gen_graph emits (one task, tensor or edge row of deps.json) and the sink that
// receives them.
#pragma once

#include <cstdint>
#include <span>

#include "depgraph/graph/graph.h"

namespace gen_graph {

using depgraph::ArgType;
using depgraph::DType;
using depgraph::EdgeSource;
using depgraph::TaskId;

/// The runtime's task id for local index `local` of ring `ring`: (ring << 32) | local.
inline TaskId MakeTaskId(uint32_t ring, uint32_t local) {
  return (static_cast<TaskId>(ring) << 32) | local;
}

/// A strided view of a tensor in elements: at most 3 dimensions, all strides positive.
struct GenView {
  DType dtype = DType::kBFloat16;
  int64_t start = 0;
  uint8_t ndim = 0;
  int64_t shape[3] = {0, 0, 0};
  int64_t strides[3] = {0, 0, 0};

  /// Row `row_offset .. row_offset + rows` and columns `col .. col + cols` of a row-major
  /// matrix with `row_len` elements per row, as shape [rows, cols] strides [row_len, 1].
  static GenView Matrix(DType dtype, int64_t rows, int64_t cols, int64_t row_len,
                        int64_t row_offset, int64_t col);
  /// A one-dimensional contiguous run of `count` elements from `start`.
  static GenView Run(DType dtype, int64_t count, int64_t start);
  /// First element and one past the last element the view can touch (its hull). Exact for
  /// the contiguous views the generators build. O(ndim).
  int64_t Begin() const { return start; }
  int64_t End() const;
};

/// Whether the hull of `inner` lies inside the hull of `outer`. O(ndim).
bool ViewWithin(const GenView& inner, const GenView& outer);
/// Whether the hulls of two views share an element. O(ndim).
bool ViewsOverlap(const GenView& a, const GenView& b);

/// One entry of `tensors[]`.
struct GenTensor {
  uint64_t id = 0;
  int64_t buffer_addr = 0;  ///< bytes
  int64_t version = 0;      ///< reuse generation of the address
  DType dtype = DType::kBFloat16;
  int64_t numel = 0;
};

/// One entry of `tasks[].args`. OUTPUT arguments carry no tensor and no view.
struct GenArg {
  int32_t idx = 0;
  ArgType type = ArgType::kInput;
  uint64_t tensor_id = 0;
  GenView view;
};

/// One entry of `tasks[]` (its args are passed alongside).
struct GenTask {
  TaskId id = 0;
  int32_t kernel_ids[3] = {-1, -1, -1};  ///< [aic, aiv0, aiv1]
  int32_t block_num = 1;
};

/// The `overlap` of a tensormap row: "covered" when the producer's view lies inside the
/// consumer's, "other" otherwise.
enum class Overlap : uint8_t { kNone, kCovered, kOther };

/// One row of `edges[]`. Creator rows carry a consumer view, tensormap rows also a producer
/// view and an overlap, explicit rows neither (their arg is -1).
struct GenEdge {
  TaskId pred = 0;
  TaskId succ = 0;
  int32_t arg = -1;
  EdgeSource source = EdgeSource::kExplicit;
  Overlap overlap = Overlap::kNone;
  uint64_t tensor_id = 0;
  GenView consumer;
  GenView producer;
};

/// Receives the records of one generated graph in file order. Implementations decide what
/// to keep (a writer for one section of the file, a counter, ...). Calls are O(1) amortized.
class GenSink {
 public:
  virtual ~GenSink() = default;
  virtual void OnTensor(const GenTensor& tensor) = 0;
  virtual void OnTask(const GenTask& task, std::span<const GenArg> args) = 0;
  virtual void OnEdge(const GenEdge& edge) = 0;
};

/// The JSON spelling of an overlap ("covered" / "other"); "" for kNone.
const char* OverlapName(Overlap overlap);

}  // namespace gen_graph
