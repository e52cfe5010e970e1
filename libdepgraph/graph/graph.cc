#include "depgraph/graph/graph.h"

#include <algorithm>
#include <cctype>

#include "depgraph/internal/gallop_search.h"

namespace depgraph {

const char* ArgTypeName(ArgType type) {
  switch (type) {
    case ArgType::kInput: return "INPUT";
    case ArgType::kOutput: return "OUTPUT";
    case ArgType::kInOut: return "INOUT";
    case ArgType::kOutputExisting: return "OUTPUT_EXISTING";
    case ArgType::kNoDep: return "UNKNOWN";
    case ArgType::kOther:
    case ArgType::kMissing: return "?";
  }
  return "?";
}

namespace {
struct DTypeInfo {
  DType dtype;
  const char* name;
  int bytes;
};
constexpr DTypeInfo kDTypes[] = {
    {DType::kFloat32, "FLOAT32", 4},   {DType::kFloat16, "FLOAT16", 2},
    {DType::kInt32, "INT32", 4},       {DType::kInt16, "INT16", 2},
    {DType::kInt8, "INT8", 1},         {DType::kUInt8, "UINT8", 1},
    {DType::kBFloat16, "BFLOAT16", 2}, {DType::kInt64, "INT64", 8},
    {DType::kUInt64, "UINT64", 8},     {DType::kUInt16, "UINT16", 2},
    {DType::kUInt32, "UINT32", 4},     {DType::kBool, "BOOL", 1},
    {DType::kFp8E4M3FN, "FP8E4M3FN", 0}, {DType::kFp8E8M0, "FP8E8M0", 0},
    {DType::kFp4E2M1, "FP4E2M1", 0},   {DType::kUnknown, "UNKNOWN", 0},
};
}  // namespace

DType ParseDType(std::string_view name) {
  // Runtimes write the exact upper-case names; try those before case-folding.
  for (const DTypeInfo& info : kDTypes) {
    if (name == info.name) return info.dtype;
  }
  for (const DTypeInfo& info : kDTypes) {
    std::string_view candidate(info.name);
    if (candidate.size() != name.size()) continue;
    bool equal = true;
    for (size_t i = 0; i < name.size(); ++i) {
      if (std::toupper(static_cast<unsigned char>(name[i])) != candidate[i]) {
        equal = false;
        break;
      }
    }
    if (equal) return info.dtype;
  }
  return DType::kOther;
}

const char* DTypeName(DType dtype) {
  for (const DTypeInfo& info : kDTypes) {
    if (info.dtype == dtype) return info.name;
  }
  return "NONE";
}

int DTypeByteSize(DType dtype) {
  for (const DTypeInfo& info : kDTypes) {
    if (info.dtype == dtype) return info.bytes;
  }
  return 0;
}

int64_t DepGraph::FindNode(TaskId id) const {
  auto it = std::lower_bound(nodes.begin(), nodes.end(), id);
  if (it == nodes.end() || *it != id) return -1;
  return it - nodes.begin();
}

std::vector<uint32_t> NodesOfTasks(const DepGraph& graph) {
  std::vector<uint32_t> node_of_task(graph.tasks.size(), UINT32_MAX);
  for (uint32_t n = 0; n < graph.node_task.size(); ++n) {
    if (graph.node_task[n] >= 0) node_of_task[static_cast<size_t>(graph.node_task[n])] = n;
  }
  for (size_t t = 0; t < graph.tasks.size(); ++t) {
    if (node_of_task[t] != UINT32_MAX) continue;
    const int64_t found = graph.FindNode(graph.tasks[t].id);
    if (found >= 0) node_of_task[t] = static_cast<uint32_t>(found);
  }
  return node_of_task;
}

const Task* DepGraph::FindTask(TaskId id) const {
  auto it = std::lower_bound(task_index.begin(), task_index.end(), std::make_pair(id, 0u));
  if (it == task_index.end() || it->first != id) return nullptr;
  return &tasks[it->second];
}

size_t DepGraph::TaskIndexLowerBound(TaskId id, size_t* hint) const {
  const size_t n = task_index.size();
  if (n == 0) return 0;
  const size_t h = std::min(*hint, n - 1);
  const TaskId at_hint = task_index[h].first;
  if (at_hint == id) return *hint = h;
  // The runtime numbers a ring's tasks consecutively, so the id difference is usually the
  // distance: one probe there before searching (ids are unique, so a match is the answer).
  if (id > at_hint ? id - at_hint < n - h : at_hint - id <= h) {
    const size_t guess = id > at_hint ? h + (id - at_hint) : h - (at_hint - id);
    if (task_index[guess].first == id) return *hint = guess;
  }
  return GallopLowerBound(n, hint, [&](size_t i) { return task_index[i].first < id; });
}

namespace {

// Whether graph.tensor_index is built for graph.tensors (else FindTensor searches them all).
bool TensorIndexBuilt(const DepGraph& graph) {
  const std::vector<uint32_t>& starts = graph.tensor_index.starts;
  return starts.size() >= 2 && starts.back() == graph.tensors.size();
}

// With the index built: the range that would hold `id`, or SIZE_MAX past either end.
size_t TensorRangeOf(const DepGraph& graph, TaskId id) {
  const DepGraph::TensorIndex& index = graph.tensor_index;
  if (id < index.min) return SIZE_MAX;
  const uint64_t range = (id - index.min) >> index.shift;
  return range + 1 < index.starts.size() ? static_cast<size_t>(range) : SIZE_MAX;
}

}  // namespace

const Tensor* DepGraph::FindTensor(TaskId id) const {
  auto first = tensors.begin(), last = tensors.end();
  if (TensorIndexBuilt(*this)) {
    const size_t range = TensorRangeOf(*this, id);
    if (range == SIZE_MAX) return nullptr;  // below the smallest id or above the largest
    first = tensors.begin() + tensor_index.starts[range];
    last = tensors.begin() + tensor_index.starts[range + 1];
  }
  auto it = std::lower_bound(first, last, id,
                             [](const Tensor& t, TaskId value) { return t.id < value; });
  if (it == last || it->id != id) return nullptr;
  return &*it;
}

void DepGraph::PrefetchTensorSlot(TaskId id) const {
  if (!TensorIndexBuilt(*this)) return;
  const size_t range = TensorRangeOf(*this, id);
  if (range != SIZE_MAX) __builtin_prefetch(&tensor_index.starts[range]);
}

void DepGraph::PrefetchTensor(TaskId id) const {
  if (!TensorIndexBuilt(*this)) return;
  const size_t range = TensorRangeOf(*this, id);
  if (range != SIZE_MAX && tensor_index.starts[range] < tensors.size()) {
    __builtin_prefetch(&tensors[tensor_index.starts[range]]);
  }
}

void DepGraph::BuildTensorIndex() {
  tensor_index = TensorIndex();
  const size_t n = tensors.size();
  if (n < 64) return;  // a binary search is as quick
  const TaskId min = tensors.front().id;
  const uint64_t span = tensors.back().id - min;
  // The smallest shift that maps the id span onto at most as many ranges as tensors (it is
  // below 64: span >> 63 <= 1 < n).
  int shift = 0;
  while ((span >> shift) >= n) ++shift;
  const size_t ranges = static_cast<size_t>(span >> shift) + 1;
  tensor_index.min = min;
  tensor_index.shift = shift;
  tensor_index.starts.assign(ranges + 1, static_cast<uint32_t>(n));
  size_t next = 0;  // the first range whose start is not set yet
  for (size_t i = 0; i < n; ++i) {
    const uint64_t range = (tensors[i].id - min) >> shift;
    for (; next <= range; ++next) tensor_index.starts[next] = static_cast<uint32_t>(i);
  }
}

const TaskArg* DepGraph::FindArg(const Task& task, int64_t idx) const {
  const TaskArg* found = nullptr;
  for (uint32_t i = 0; i < task.num_args; ++i) {
    const TaskArg& arg = args[task.first_arg + i];
    if (arg.idx == idx) found = &arg;
  }
  return found;
}

namespace {

// Whether graph.graph is the CSR over graph.pairs (edge index == pair index), as the loader
// and every graph derived from one build it; a DepGraph assembled by hand may lack it. O(1).
bool CsrOverPairs(const DepGraph& graph) {
  return boost::num_vertices(graph.graph) == graph.nodes.size() &&
         boost::num_edges(graph.graph) == graph.pairs.size();
}

}  // namespace

uint32_t DepGraph::FirstPairOf(uint32_t node) const {
  if (node < nodes.size() && CsrOverPairs(*this)) {
    const auto [begin, end] = boost::out_edges(node, graph);
    if (begin != end) return static_cast<uint32_t>(boost::get(boost::edge_index, graph, *begin));
  }
  auto it = std::lower_bound(pairs.begin(), pairs.end(), node,
                             [](const Pair& p, uint32_t n) { return p.pred < n; });
  return static_cast<uint32_t>(it - pairs.begin());
}

int64_t DepGraph::FindPair(uint32_t pred, uint32_t succ) const {
  auto first = pairs.begin(), last = pairs.end();
  if (pred < nodes.size() && CsrOverPairs(*this)) {  // pred's row only
    const auto degree = static_cast<ptrdiff_t>(boost::out_degree(pred, graph));
    if (degree == 0) return -1;
    first += FirstPairOf(pred);
    last = first + degree;
  }
  auto it = std::lower_bound(first, last, Pair{pred, succ}, [](const Pair& a, const Pair& b) {
    return a.pred != b.pred ? a.pred < b.pred : a.succ < b.succ;
  });
  if (it == last || it->pred != pred || it->succ != succ) return -1;
  return it - pairs.begin();
}

bool DepGraph::UsesRings() const {
  for (TaskId id : nodes) {
    if (RingOf(id) != 0) return true;
  }
  return false;
}

void DepGraph::RowsByPair(std::vector<uint32_t>* offsets, std::vector<uint32_t>* row_ids) const {
  offsets->assign(pairs.size() + 1, 0);
  for (const EdgeRow& row : rows) ++(*offsets)[row.pair + 1];
  for (size_t i = 1; i < offsets->size(); ++i) (*offsets)[i] += (*offsets)[i - 1];
  row_ids->assign(rows.size(), 0);
  std::vector<uint32_t> cursor(offsets->begin(), offsets->end() - 1);
  for (uint32_t r = 0; r < rows.size(); ++r) (*row_ids)[cursor[rows[r].pair]++] = r;
}

IdDisplay DepGraph::Display() const {
  if (runtime == "host_build_graph") {
    for (TaskId id : nodes) {
      if ((id >> 32) != 0) return IdDisplay::kHbgSpace;
    }
  }
  return UsesRings() ? IdDisplay::kRing : IdDisplay::kLocal;
}

void AddIsolatedNodes(DepGraph* graph, std::vector<TaskId> ids) {
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  ids.erase(std::remove_if(ids.begin(), ids.end(),
                           [&](TaskId id) { return graph->FindNode(id) >= 0; }),
            ids.end());
  if (ids.empty()) return;
  const std::vector<TaskId>& old_nodes = graph->nodes;
  std::vector<TaskId> nodes(old_nodes.size() + ids.size());
  std::merge(old_nodes.begin(), old_nodes.end(), ids.begin(), ids.end(), nodes.begin());
  // New index of every old node: the merge keeps their order.
  std::vector<uint32_t> renumber(old_nodes.size());
  std::vector<int32_t> node_task(nodes.size(), -1);
  for (size_t n = 0, old = 0; n < nodes.size(); ++n) {
    if (old < old_nodes.size() && old_nodes[old] == nodes[n]) {
      renumber[old] = static_cast<uint32_t>(n);
      node_task[n] = graph->node_task[old];
      ++old;
    } else if (const Task* task = graph->FindTask(nodes[n])) {
      node_task[n] = static_cast<int32_t>(task - graph->tasks.data());
    }
  }
  for (Pair& pair : graph->pairs) {
    pair.pred = renumber[pair.pred];
    pair.succ = renumber[pair.succ];
  }
  graph->nodes = std::move(nodes);
  graph->node_task = std::move(node_task);
  std::vector<std::pair<uint32_t, uint32_t>> edge_list;
  edge_list.reserve(graph->pairs.size());
  for (const Pair& p : graph->pairs) edge_list.emplace_back(p.pred, p.succ);
  graph->graph = PairGraph(boost::edges_are_unsorted_multi_pass, edge_list.begin(),
                           edge_list.end(), graph->nodes.size());
}

std::string FormatTaskId(TaskId id, IdDisplay display) {
  if (display != IdDisplay::kHbgSpace) return FormatTaskId(id, display == IdDisplay::kRing);
  const uint64_t space = id >> 62, parent = (id >> 32) & 0xFFFFF;
  const std::string local = std::to_string(LocalOf(id));
  switch (space) {
    case 0: return "t" + local;
    case 1: return "g" + std::to_string(parent) + "t" + local;
    case 2: return "p" + local;
    default: return "s3:" + std::to_string(id);  // no such space: show the raw id
  }
}

std::string FormatTaskId(TaskId id, bool rings) {
  if (!rings) return std::to_string(LocalOf(id));
  return "(" + std::to_string(RingOf(id)) + ", " + std::to_string(LocalOf(id)) + ")";
}

}  // namespace depgraph
