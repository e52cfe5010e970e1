// The in-memory model of one deps.json: tasks, tensors, annotated edge rows and the graph of
// unique (pred, succ) task pairs.
#pragma once

#include <boost/graph/compressed_sparse_row_graph.hpp>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace depgraph {

/// A runtime task id: (ring << 32) | local.
using TaskId = uint64_t;

/// Ring of a task id as the viewer displays it (bits 32..39).
inline uint32_t RingOf(TaskId id) { return static_cast<uint32_t>((id >> 32) & 0xFF); }
/// Ring-local index of a task id (low 32 bits).
inline uint32_t LocalOf(TaskId id) { return static_cast<uint32_t>(id & 0xFFFFFFFFu); }

/// How task ids are displayed: the bare local index, "(ring, local)" (tensormap_and_ringbuffer
/// with several rings), or the host_build_graph space layout of newer captures, where an id is
/// (space << 62) | (parent << 32) | local and reads "t5" (global), "g3t5" (sub-task 5 of
/// parent 3) or "p5" (parameter) (spec/viewer.md §9).
enum class IdDisplay : uint8_t { kLocal, kRing, kHbgSpace };

/// Direction of a task argument as the runtime writes it in `args[].type`.
enum class ArgType : uint8_t {
  kInput,
  kOutput,
  kInOut,
  kOutputExisting,
  kNoDep,    ///< written as "UNKNOWN": read, not tracked by the runtime
  kOther,    ///< any other string or a non-string value
  kMissing,  ///< no `type` key
};
/// The JSON spelling of an ArgType ("INPUT", ...); "?" for kOther/kMissing.
const char* ArgTypeName(ArgType type);

/// Element type names the runtime emits. kOther covers unknown strings and null ("NONE").
enum class DType : uint8_t {
  kFloat32, kFloat16, kInt32, kInt16, kInt8, kUInt8, kBFloat16, kInt64, kUInt64, kUInt16,
  kUInt32, kBool, kFp8E4M3FN, kFp8E8M0, kFp4E2M1, kUnknown, kOther,
};
/// Parses a dtype name case-insensitively (the viewer upper-cases it); kOther if unknown.
DType ParseDType(std::string_view name);
/// Upper-case JSON name of a dtype ("FLOAT32"); "NONE" for kOther.
const char* DTypeName(DType dtype);
/// Byte size used by the dataflow proof; 0 for types outside its table (FP8, FP4, UNKNOWN).
int DTypeByteSize(DType dtype);

/// `source` of an edge row.
enum class EdgeSource : uint8_t { kCreator, kTensormap, kExplicit, kOther };

/// Whether an optional JSON field was absent, present but unusable, or present and valid.
enum class FieldState : uint8_t { kAbsent, kInvalid, kValid };

/// A list of dimensions (shape or strides) stored in DepGraph::dims.
struct DimList {
  uint32_t offset = 0;  ///< first element in DepGraph::dims
  uint16_t size = 0;    ///< number of elements
  /// kInvalid: not an array, or an element not int-coercible or <= 0.
  FieldState state = FieldState::kAbsent;
};

/// One strided view of a tensor (a task argument or the consumer/producer side of an edge row).
/// Absent fields on an edge row fall back to the consumer task's argument (dataflow proof).
struct View {
  DType dtype = DType::kOther;
  FieldState dtype_state = FieldState::kAbsent;
  FieldState start_offset_state = FieldState::kAbsent;
  int64_t start_offset = 0;  ///< elements; kInvalid if negative or not int-coercible
  DimList shape;
  DimList strides;
};

/// Every field of a View absent: what a view-less argument or row reads.
inline constexpr View kAbsentView{};

/// One entry of `tasks[].args`. 24 bytes: its view is kept apart (DepGraph::ViewOf), so that
/// what only needs ids and types reads a third of the bytes.
struct TaskArg {
  int64_t idx = INT64_MIN;  ///< INT64_MIN when missing or not an integer
  ArgType type = ArgType::kMissing;
  FieldState tensor_id_state = FieldState::kAbsent;
  TaskId tensor_id = 0;
};

/// One entry of `tasks[]`: a submitted (or dummy) task.
struct Task {
  TaskId id = 0;
  int64_t kernel_ids[3] = {-1, -1, -1};  ///< [aic, aiv0, aiv1]; active iff >= 0
  int64_t block_num = 1;                  ///< SPMD iff > 1
  bool early_dispatch = false;
  bool manual_scope = false;  ///< `"scope": "manual"`: the runtime inferred no edges for it
  uint32_t first_arg = 0;  ///< into DepGraph::args
  uint32_t num_args = 0;
  bool HasActiveKernel() const {
    return kernel_ids[0] >= 0 || kernel_ids[1] >= 0 || kernel_ids[2] >= 0;
  }
};

/// One entry of `tensors[]`: a buffer and its identity.
struct Tensor {
  TaskId id = 0;
  uint32_t index = 0;  ///< position in the raw `tensors` array; displayed as T{index}
  FieldState addr_state = FieldState::kAbsent;
  FieldState numel_state = FieldState::kAbsent;
  int64_t buffer_addr = 0;
  int64_t buffer_numel = 0;
  FieldState dtype_state = FieldState::kAbsent;
  DType dtype = DType::kOther;
};

/// Bits of EdgeRow::flags, from the row's `flags` array (tensormap_and_ringbuffer captures).
inline constexpr uint8_t kEdgeFlagWait = 1;    ///< "wait"
inline constexpr uint8_t kEdgeFlagRetain = 2;  ///< "retain"
inline constexpr uint8_t kEdgeFlagOther = 4;   ///< any other element (or a non-array value)

/// EdgeRow::producer_view of a row without producer_* fields.
inline constexpr uint32_t kNoProducerView = UINT32_MAX;

/// One row of `edges[]`, kept in file order. Several rows may map to one pair. 32 bytes: the
/// consumer view is stored apart (DepGraph::ConsumerOf), and so is the producer view, which
/// most rows lack (creator and explicit rows).
struct EdgeRow {
  uint32_t pair = 0;  ///< index of its unique (pred, succ) pair in DepGraph::pairs
  /// Index of its producer_* fields in DepGraph::producer_views, or kNoProducerView (then
  /// every producer field is absent). Read it through DepGraph::ProducerOf.
  uint32_t producer_view = kNoProducerView;
  EdgeSource source = EdgeSource::kOther;
  FieldState arg_state = FieldState::kAbsent;
  FieldState tensor_id_state = FieldState::kAbsent;
  uint8_t overlap = 0;  ///< index into DepGraph::overlap_names; 0 = no `overlap` key
  uint8_t flags = 0;    ///< kEdgeFlag* bits; 0 = no `flags` key or an empty array
  int64_t arg = -1;
  TaskId tensor_id = 0;
};

static_assert(sizeof(TaskArg) == 24 && sizeof(EdgeRow) == 32);

/// A unique dependency pair, by node index (see DepGraph::nodes).
struct Pair {
  uint32_t pred = 0;
  uint32_t succ = 0;
};

/// Boost.Graph view of the unique pairs: vertices are node indices, edge i is pairs[i].
using PairGraph = boost::compressed_sparse_row_graph<boost::bidirectionalS, boost::no_property,
                                                     boost::no_property, boost::no_property,
                                                     uint32_t, uint32_t>;

/// The whole loaded graph. Built once by LoadDepsJson; read-only afterwards.
///
/// Node indices are positions in `nodes`, which is sorted by task id, so every ordering by
/// index is the viewer's numeric ordering. Memory is O(tasks + rows + dims): 24 bytes an
/// argument and 32 a row, plus 32 for each one's view and 32 for a row with producer fields
/// when the views are loaded; no copy of the source text is kept.
struct DepGraph {
  std::vector<TaskId> nodes;        ///< rendered nodes, ascending id
  std::vector<int32_t> node_task;   ///< per node: index into tasks, or -1 (alloc)
  std::vector<Task> tasks;          ///< tasks[] entries (last wins on duplicate ids), file order
  std::vector<TaskArg> args;        ///< all task arguments, grouped by task
  std::vector<Tensor> tensors;      ///< distinct tensors, ascending id (last entry wins)
  std::vector<EdgeRow> rows;        ///< all edge rows, file order
  /// Per argument its view, parallel to `args`; per row its consumer_* fields, parallel to
  /// `rows`. Both empty when !views_loaded. Read them through ViewOf / ConsumerOf.
  std::vector<View> arg_views;
  std::vector<View> consumer_views;
  /// The producer_* fields of the rows that have any, in row order (EdgeRow::producer_view);
  /// dtype unused: the producer's dtype is the tensor's.
  std::vector<View> producer_views;
  std::vector<Pair> pairs;          ///< unique pairs, ascending (pred, succ)
  std::vector<int64_t> dims;        ///< storage for every DimList
  std::vector<std::string> overlap_names = {""};  ///< interned `overlap` values
  std::string runtime;              ///< top-level "runtime" of newer captures ("" when absent)
  /// False when loaded with LoadOptions::views off: no view is kept (arg_views,
  /// consumer_views and producer_views are empty), so nothing that reads views (the access
  /// model, the dataflow proof, the renderers of shapes) may be used.
  bool views_loaded = true;
  PairGraph graph;                  ///< CSR over pairs (edge index == pair index)

  /// Index of `id` in nodes, or -1. O(log V).
  int64_t FindNode(TaskId id) const;
  /// The task record of a node, or nullptr for alloc nodes. O(1).
  const Task* TaskOfNode(uint32_t node) const {
    return node_task[node] < 0 ? nullptr : &tasks[static_cast<size_t>(node_task[node])];
  }
  /// The task record with this id (also isolated dummies that are not nodes), or nullptr.
  /// O(log T).
  const Task* FindTask(TaskId id) const;
  /// The position in task_index of the first task with an id at or above `id`
  /// (task_index.size() if none), searched outwards from *hint, a previous answer, which it
  /// moves there. Queries near each other (rows in submit order) cost O(log distance); O(1)
  /// when the ids between the hint and the answer are consecutive (a ring's tasks).
  size_t TaskIndexLowerBound(TaskId id, size_t* hint) const;
  /// The tensor with this id, or nullptr. O(1) expected on ids spread over their range
  /// once BuildTensorIndex() ran (the loader runs it), O(log tensors) at worst.
  const Tensor* FindTensor(TaskId id) const;
  /// Hints for a FindTensor(id) to come, for loops over random ids (each lookup misses the
  /// cache twice: the index slot, then the tensor): PrefetchTensorSlot(id) a few iterations
  /// ahead of PrefetchTensor(id), which reads the slot and fetches the tensor, a few
  /// iterations ahead of the lookup. Change nothing. O(1).
  void PrefetchTensorSlot(TaskId id) const;
  void PrefetchTensor(TaskId id) const;
  /// Both hints for a loop that calls FindTensor on items[i].tensor_id for i = 0, 1, ...:
  /// the index slot of the item 2 * ahead on, the tensor of the item `ahead` on. O(1).
  template <class Item>
  void PrefetchTensorsAhead(const std::vector<Item>& items, size_t i, size_t ahead = 8) const {
    if (i + 2 * ahead < items.size()) PrefetchTensorSlot(items[i + 2 * ahead].tensor_id);
    if (i + ahead < items.size()) PrefetchTensor(items[i + ahead].tensor_id);
  }
  /// Splits `tensors` (sorted by id) into about as many equal id ranges as there are
  /// tensors, so that FindTensor searches one range instead of the whole vector (the
  /// dataflow proof looks up a tensor per row). O(tensors) time, 4 bytes per tensor.
  void BuildTensorIndex();
  /// The argument with `idx` of a task (last match wins, as a dict would), or nullptr.
  const TaskArg* FindArg(const Task& task, int64_t idx) const;
  /// The view of `arg`, an element of `args` (not a copy); every field absent when the views
  /// were not loaded. O(1).
  const View& ViewOf(const TaskArg& arg) const {
    return arg_views.empty() ? kAbsentView : arg_views[static_cast<size_t>(&arg - args.data())];
  }
  /// The consumer_* fields of `row`, an element of `rows` (not a copy); every field absent
  /// when it has none or the views were not loaded. O(1).
  const View& ConsumerOf(const EdgeRow& row) const {
    return consumer_views.empty() ? kAbsentView
                                  : consumer_views[static_cast<size_t>(&row - rows.data())];
  }
  /// The producer_* fields of a row; every field absent when it has none. O(1).
  const View& ProducerOf(const EdgeRow& row) const {
    return row.producer_view == kNoProducerView ? kAbsentView : producer_views[row.producer_view];
  }
  /// The elements of a dimension list.
  const int64_t* DimData(const DimList& list) const { return dims.data() + list.offset; }
  /// Index of pair (pred, succ) or -1. O(log out-degree) through `graph` (O(log pairs) when
  /// `graph` is not built over `pairs`).
  int64_t FindPair(uint32_t pred, uint32_t succ) const;
  /// Index of the first pair with this pred or a later one; pairs of a node are contiguous.
  /// O(1) for a node with pairs (through `graph`), else O(log pairs).
  uint32_t FirstPairOf(uint32_t node) const;
  /// Whether any node has a ring other than 0 (switches display to "(ring, local)").
  bool UsesRings() const;
  /// How this graph's ids are displayed: the host_build_graph space layout when the capture
  /// says `"runtime": "host_build_graph"` and an id has bits above 32, else "(ring, local)"
  /// when UsesRings(), else the bare local. O(V).
  IdDisplay Display() const;
  /// Per pair, the indices of its rows in file order, as a CSR (offsets has pairs+1 entries).
  void RowsByPair(std::vector<uint32_t>* offsets, std::vector<uint32_t>* row_ids) const;

  /// Tasks sorted by id with their indices, for FindTask (built by the loader).
  std::vector<std::pair<TaskId, uint32_t>> task_index;
  /// For FindTensor: tensors whose id - min has the same bits above `shift` form one range,
  /// which starts at starts[that value]; starts.back() == tensors.size(). Empty (or built
  /// for another tensors vector): FindTensor searches the whole vector.
  struct TensorIndex {
    TaskId min = 0;
    int shift = 0;
    std::vector<uint32_t> starts;
  } tensor_index;
};

/// Per task (tasks[] order), the index of its node, or UINT32_MAX for a task that is no node
/// (an isolated dummy): FindNode(tasks[t].id) for every t. O(T + V) through node_task, plus
/// O(log V) for each task that is not its node's own (an earlier entry of a repeated id, a
/// dummy).
std::vector<uint32_t> NodesOfTasks(const DepGraph& graph);

/// Makes every id of `ids` a node (ids that are nodes already are skipped), for tasks known
/// from elsewhere than the edges (the perf sidecar): the new nodes have no pairs; one that
/// names a tasks[] entry (an isolated dummy) gets it as its task, any other is an alloc node.
/// Nodes stay sorted by id, so pairs keep their order and rows their pair indices; the pairs'
/// node indices and the CSR graph are rebuilt. O(V + E + k log k) for k ids.
void AddIsolatedNodes(DepGraph* graph, std::vector<TaskId> ids);

/// Formats a task id for display: bare local when `rings` is false, "(ring, local)" otherwise.
std::string FormatTaskId(TaskId id, bool rings);
/// Formats a task id as `display` says (see IdDisplay). O(1).
std::string FormatTaskId(TaskId id, IdDisplay display);

}  // namespace depgraph
