// The byte-level access model of a captured graph: which bytes each task reads and writes.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "depgraph/graph/graph.h"
#include "depgraph/reduce/byte_region.h"

namespace depgraph {

/// Why an argument has no byte set in the model.
enum class UnknownReason : uint8_t {
  kNoTensor,      ///< no valid tensor_id, or the id is not in tensors[]
  kNoAddress,     ///< the tensor has no valid (non-negative) buffer_addr
  kBadView,       ///< start_offset, shape or strides missing or invalid (also empty views)
  kNoDTypeSize,   ///< neither the view's nor the tensor's dtype has a known element size
  kBadDirection,  ///< `type` missing or not a runtime direction
};
/// Short text for an UnknownReason ("no tensor", ...).
const char* UnknownReasonName(UnknownReason reason);

/// One task argument with its byte set, as the frontier sweep and the serialization check
/// see it. Byte addresses are absolute (buffer address + offset), so aliasing views of one
/// buffer under different tensor ids (versions, dtype reinterpretations) meet.
/// Views of a few pieces keep their intervals; larger ones keep their geometry and expand on
/// demand (AccessModel::Bytes), so a task reading a 4096-row slice of a weight costs 80 bytes
/// until somebody writes those bytes.
struct Access {
  uint32_t task = 0;       ///< index into DepGraph::tasks (submit order)
  ArgType type = ArgType::kMissing;
  bool reads = false;      ///< INPUT, INOUT, NO_DEP
  bool writes = false;     ///< OUTPUT, INOUT, OUTPUT_EXISTING
  /// The runtime looks this argument up in the TensorMap (INPUT, INOUT): a NO_DEP read is
  /// untracked, OUTPUT_EXISTING writes without looking up earlier writers.
  bool looks_up = false;
  /// True when the view expanded past the cap: the intervals are its bounding range.
  bool approximate = false;
  /// A runtime-allocated OUTPUT: a fresh buffer taken from the consumers' creator rows.
  bool fresh_output = false;
  DType dtype = DType::kOther;  ///< element type of the view (OUTPUT: the tensor's)
  uint8_t elem_size = 0;        ///< bytes per element used for the byte set
  int64_t arg_idx = -1;    ///< TaskArg::idx (for an OUTPUT slot: the slot it was assigned to)
  TaskId tensor_id = 0;
  ByteInterval bounds;          ///< the smallest range holding every byte
  /// Stored pieces: AccessModel::intervals[first_interval, + num_intervals); with
  /// num_intervals 0, the view expanded on demand is AccessModel::lazy_views[first_interval].
  uint32_t first_interval = 0;
  uint32_t num_intervals = 0;
};
// The small fields share the first word with `task`, and the geometry of the few views
// expanded on demand lives apart: 56 bytes (4 M accesses at 1 M tasks; the audit's fresh
// memory is much of its time).
static_assert(sizeof(Access) <= 56);

/// The geometry of a view expanded on demand: shape and strides in DepGraph::dims.
struct LazyView {
  int64_t base_addr = 0;     ///< the buffer's address
  int64_t start_offset = 0;  ///< the view's first element
  uint32_t shape_offset = 0;
  uint32_t strides_offset = 0;
  uint16_t ndim = 0;
};

/// An argument left out of the model, and why.
struct UnknownAccess {
  uint32_t task = 0;
  int64_t arg_idx = -1;
  UnknownReason reason = UnknownReason::kNoTensor;
};

/// Every task's accesses, grouped by task in submit order.
struct AccessModel {
  std::vector<Access> accesses;
  /// Per task t, its accesses are accesses[task_first[t] .. task_first[t + 1]).
  std::vector<uint32_t> task_first;
  std::vector<ByteInterval> intervals;  ///< storage for every Access
  std::vector<LazyView> lazy_views;     ///< views expanded on demand
  std::vector<UnknownAccess> unknown;   ///< arguments without a byte set
  /// Per task: 1 if any of its arguments is unknown (its byte set is incomplete).
  std::vector<uint8_t> task_incomplete;
  size_t approximate_count = 0;   ///< accesses with a bounding range only
  size_t output_slots = 0;        ///< OUTPUT arguments seen
  size_t outputs_placed = 0;      ///< OUTPUT buffers found through creator rows
  size_t outputs_unobserved = 0;  ///< OUTPUT slots no creator row names: never read by anyone

  /// The accesses of task t. O(1).
  std::span<const Access> TaskAccesses(uint32_t t) const {
    return {accesses.data() + task_first[t], accesses.data() + task_first[t + 1]};
  }
  /// DepGraph::dims of the graph the model was built from (lazily expanded views point
  /// into it): the graph must outlive the model.
  const int64_t* dims = nullptr;

  /// The byte set of an access: sorted, disjoint, non-touching intervals. Stored pieces are
  /// returned as they are (O(1)); a lazily expanded view is expanded into *scratch
  /// (O(pieces log pieces), pieces <= the cap), which the span then refers to.
  std::span<const ByteInterval> Bytes(const Access& access,
                                      std::vector<ByteInterval>* scratch) const;
};

/// Element size the runtime uses for a dtype: the proof's table plus FP8 and FP4 (1 byte
/// each); 0 for UNKNOWN and unknown names.
int RuntimeElementSize(DType dtype);

/// Limits of BuildAccessModel.
struct AccessModelOptions {
  /// Views expanding to more pieces than this get their bounding range, marked approximate
  /// (the dataflow proof's cap; it refuses such views, the audit over-approximates them).
  int64_t max_pieces = kMaxOuterIntervals;
  /// Views of at most this many pieces keep their intervals; larger ones expand on demand.
  int64_t stored_pieces = 8;
};

/// Builds the model from tasks[].args and tensors[].
///
/// Per argument: bytes = buffer_addr + (start_offset + sum(i_d * stride_d)) * elem over the
/// view's shape, elem from the view's dtype (so a reinterpreting view covers its own bytes)
/// or the tensor's when the view has none. INPUT reads, OUTPUT and OUTPUT_EXISTING write,
/// INOUT does both, NO_DEP (written "UNKNOWN") reads untracked. Runtime-allocated OUTPUT
/// slots carry no view: their buffers are the tensors named by the creator rows leaving the
/// task (the runtime makes the submitting task the owner), each taken whole
/// ([addr, addr + buffer_numel * elem), the padded allocation), assigned to the task's OUTPUT
/// slots in arg order by ascending address (the runtime packs them that way); a slot no
/// creator row names is a fresh buffer nobody else touches and is left out.
/// Views are not checked against their buffer's size: the bytes a view names are the bytes it
/// touches. Cost: O(args * ndim + rows log rows) time, stored views O(pieces log pieces);
/// memory 80 bytes per argument plus the stored pieces. A lazily expanded view costs its
/// expansion each time a caller asks for its bytes.
AccessModel BuildAccessModel(const DepGraph& graph, const AccessModelOptions& options = {});

}  // namespace depgraph
