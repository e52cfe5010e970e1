#include "depgraph/reduce/access_model.h"

#include <algorithm>
#include <vector>

#include "depgraph/internal/huge_pages.h"

namespace depgraph {

const char* UnknownReasonName(UnknownReason reason) {
  switch (reason) {
    case UnknownReason::kNoTensor: return "no tensor";
    case UnknownReason::kNoAddress: return "no buffer address";
    case UnknownReason::kBadView: return "invalid view";
    case UnknownReason::kNoDTypeSize: return "no element size";
    case UnknownReason::kBadDirection: return "unknown direction";
  }
  return "?";
}

int RuntimeElementSize(DType dtype) {
  switch (dtype) {
    case DType::kFp8E4M3FN:
    case DType::kFp8E8M0:
    case DType::kFp4E2M1:
      return 1;
    default:
      return DTypeByteSize(dtype);
  }
}

namespace {

// Lazily expanded views were checked against the model's cap when it was built.
constexpr int64_t kMaxPieceLimit = int64_t{1} << 24;

// Runtime-allocated buffers, per submitting task: the tensors its creator rows name.
struct CreatedBuffer {
  uint32_t task = 0;
  int64_t addr = 0;
  TaskId tensor_id = 0;
};

std::vector<CreatedBuffer> CollectCreatedBuffers(const DepGraph& graph) {
  std::vector<CreatedBuffer> created;
  for (const EdgeRow& row : graph.rows) {
    if (row.source != EdgeSource::kCreator || row.tensor_id_state != FieldState::kValid) continue;
    const int32_t task = graph.node_task[graph.pairs[row.pair].pred];
    if (task < 0) continue;  // an alloc node: allocates, writes nothing
    created.push_back({static_cast<uint32_t>(task), INT64_MAX, row.tensor_id});
  }
  // The addresses, by lookups prefetched ahead.
  for (size_t i = 0; i < created.size(); ++i) {
    graph.PrefetchTensorsAhead(created, i);
    const Tensor* tensor = graph.FindTensor(created[i].tensor_id);
    if (tensor != nullptr && tensor->addr_state == FieldState::kValid) {
      created[i].addr = tensor->buffer_addr;
    }
  }
  std::sort(created.begin(), created.end(), [](const CreatedBuffer& a, const CreatedBuffer& b) {
    if (a.task != b.task) return a.task < b.task;
    if (a.addr != b.addr) return a.addr < b.addr;
    return a.tensor_id < b.tensor_id;
  });
  created.erase(std::unique(created.begin(), created.end(),
                            [](const CreatedBuffer& a, const CreatedBuffer& b) {
                              return a.task == b.task && a.tensor_id == b.tensor_id;
                            }),
                created.end());
  return created;
}

class ModelBuilder {
 public:
  ModelBuilder(const DepGraph& graph, const AccessModelOptions& options, AccessModel* model)
      : graph_(graph), options_(options), model_(*model) {}

  void Run() {
    const std::vector<CreatedBuffer> created = CollectCreatedBuffers(graph_);
    size_t next_created = 0;
    model_.task_first.assign(graph_.tasks.size() + 1, 0);
    model_.task_incomplete.assign(graph_.tasks.size(), 0);
    // About one access and one stored piece per argument: sized once instead of doubling
    // (which touches twice the memory and copies it).
    ReserveLarge(&model_.accesses, graph_.args.size());
    ReserveLarge(&model_.intervals, graph_.args.size());
    std::vector<int64_t> output_slots;
    for (uint32_t t = 0; t < graph_.tasks.size(); ++t) {
      model_.task_first[t] = static_cast<uint32_t>(model_.accesses.size());
      PrefetchArgTensors(t);
      const Task& task = graph_.tasks[t];
      output_slots.clear();
      for (uint32_t i = 0; i < task.num_args; ++i) {
        const TaskArg& arg = graph_.args[task.first_arg + i];
        if (arg.type == ArgType::kOutput) {
          output_slots.push_back(arg.idx);
          continue;
        }
        AddArg(t, arg);
      }
      while (next_created < created.size() && created[next_created].task < t) ++next_created;
      graph_.PrefetchTensorsAhead(created, next_created);
      size_t end = next_created;
      while (end < created.size() && created[end].task == t) ++end;
      AddOutputs(t, output_slots, created, next_created, end);
      next_created = end;
    }
    model_.task_first[graph_.tasks.size()] = static_cast<uint32_t>(model_.accesses.size());
  }

 private:
  // Random tensor ids miss the cache twice per lookup: the index slot of the arguments of the
  // task 2 * kAhead tasks on, then the tensors of the task kAhead tasks on, are fetched early.
  void PrefetchArgTensors(uint32_t t) const {
    constexpr uint32_t kAhead = 4;  // tasks, with a few arguments each
    const size_t tasks = graph_.tasks.size();
    if (t + 2 * kAhead < tasks) {
      const Task& far = graph_.tasks[t + 2 * kAhead];
      for (uint32_t i = 0; i < far.num_args; ++i) {
        graph_.PrefetchTensorSlot(graph_.args[far.first_arg + i].tensor_id);
      }
    }
    if (t + kAhead < tasks) {
      const Task& near = graph_.tasks[t + kAhead];
      for (uint32_t i = 0; i < near.num_args; ++i) {
        graph_.PrefetchTensor(graph_.args[near.first_arg + i].tensor_id);
      }
    }
  }

  void Unknown(uint32_t t, int64_t idx, UnknownReason reason) {
    model_.unknown.push_back({t, idx, reason});
    model_.task_incomplete[t] = 1;
  }

  void AddArg(uint32_t t, const TaskArg& arg) {
    Access access;
    access.task = t;
    access.arg_idx = arg.idx;
    access.type = arg.type;
    switch (arg.type) {
      case ArgType::kInput:
        access.reads = access.looks_up = true;
        break;
      case ArgType::kInOut:
        access.reads = access.writes = access.looks_up = true;
        break;
      case ArgType::kOutputExisting:
        access.writes = true;
        break;
      case ArgType::kNoDep:
        access.reads = true;
        break;
      default:
        return Unknown(t, arg.idx, UnknownReason::kBadDirection);
    }
    if (arg.tensor_id_state != FieldState::kValid) {
      return Unknown(t, arg.idx, UnknownReason::kNoTensor);
    }
    const Tensor* tensor = graph_.FindTensor(arg.tensor_id);
    if (tensor == nullptr) return Unknown(t, arg.idx, UnknownReason::kNoTensor);
    if (tensor->addr_state != FieldState::kValid || tensor->buffer_addr < 0) {
      return Unknown(t, arg.idx, UnknownReason::kNoAddress);
    }
    const View& view = graph_.ViewOf(arg);
    if (view.start_offset_state != FieldState::kValid || view.shape.state != FieldState::kValid ||
        view.strides.state != FieldState::kValid || view.shape.size != view.strides.size) {
      return Unknown(t, arg.idx, UnknownReason::kBadView);
    }
    int size = view.dtype_state == FieldState::kValid ? RuntimeElementSize(view.dtype) : 0;
    access.dtype = view.dtype;
    if (size == 0 && tensor->dtype_state == FieldState::kValid) {
      size = RuntimeElementSize(tensor->dtype);
      access.dtype = tensor->dtype;
    }
    if (size == 0) return Unknown(t, arg.idx, UnknownReason::kNoDTypeSize);
    access.tensor_id = arg.tensor_id;

    const StridedView strided = MakeStridedView(graph_, tensor->buffer_addr, size,
                                                view.start_offset, view.shape, view.strides);
    access.elem_size = static_cast<uint8_t>(size);
    const ViewExpansion result =
        ExpandStridedView(strided, std::min(options_.stored_pieces, options_.max_pieces),
                          /*limit_elems=*/-1, &scratch_);
    if (result == ViewExpansion::kInvalid) return Unknown(t, arg.idx, UnknownReason::kBadView);
    if (result == ViewExpansion::kExact) return Store(access);
    // More pieces than are worth storing: keep the geometry and the bounding range.
    access.bounds = scratch_.front();
    if (CountViewPieces(strided, options_.max_pieces) > options_.max_pieces) {
      access.approximate = true;
      ++model_.approximate_count;
      return Store(access);
    }
    LazyView lazy;
    lazy.base_addr = tensor->buffer_addr;
    lazy.start_offset = view.start_offset;
    lazy.shape_offset = view.shape.offset;
    lazy.strides_offset = view.strides.offset;
    lazy.ndim = static_cast<uint16_t>(view.shape.size);
    access.first_interval = static_cast<uint32_t>(model_.lazy_views.size());
    access.num_intervals = 0;
    model_.lazy_views.push_back(lazy);
    model_.accesses.push_back(access);
  }

  // OUTPUT slots of task t, given the buffers created[begin, end) its creator rows name.
  void AddOutputs(uint32_t t, const std::vector<int64_t>& slots,
                  const std::vector<CreatedBuffer>& created, size_t begin, size_t end) {
    model_.output_slots += slots.size();
    if (slots.empty()) return;  // rows naming a task without OUTPUT slots: nothing to place
    const size_t found = end - begin;
    if (found < slots.size()) model_.outputs_unobserved += slots.size() - found;
    for (size_t k = 0; k < found; ++k) {
      const CreatedBuffer& buffer = created[begin + k];
      const int64_t slot = slots[std::min(k, slots.size() - 1)];
      const Tensor* tensor = graph_.FindTensor(buffer.tensor_id);
      if (tensor == nullptr) {
        Unknown(t, slot, UnknownReason::kNoTensor);
        continue;
      }
      if (tensor->addr_state != FieldState::kValid || tensor->buffer_addr < 0) {
        Unknown(t, slot, UnknownReason::kNoAddress);
        continue;
      }
      const int size =
          tensor->dtype_state == FieldState::kValid ? RuntimeElementSize(tensor->dtype) : 0;
      if (size == 0) {
        Unknown(t, slot, UnknownReason::kNoDTypeSize);
        continue;
      }
      const __int128 end_byte = static_cast<__int128>(tensor->buffer_addr) +
                                static_cast<__int128>(tensor->buffer_numel) * size;
      if (tensor->numel_state != FieldState::kValid || tensor->buffer_numel <= 0 ||
          end_byte > INT64_MAX) {
        Unknown(t, slot, UnknownReason::kBadView);
        continue;
      }
      Access access;
      access.task = t;
      access.arg_idx = slot;
      access.type = ArgType::kOutput;
      access.writes = true;
      access.fresh_output = true;
      access.dtype = tensor->dtype;
      access.elem_size = static_cast<uint8_t>(size);
      access.tensor_id = buffer.tensor_id;
      scratch_.assign(1, {tensor->buffer_addr, static_cast<int64_t>(end_byte)});
      ++model_.outputs_placed;
      Store(access);
    }
  }

  void Store(Access access) {
    access.bounds = {scratch_.front().begin, scratch_.back().end};
    access.first_interval = static_cast<uint32_t>(model_.intervals.size());
    access.num_intervals = static_cast<uint32_t>(scratch_.size());
    model_.intervals.insert(model_.intervals.end(), scratch_.begin(), scratch_.end());
    model_.accesses.push_back(access);
  }

  const DepGraph& graph_;
  const AccessModelOptions& options_;
  AccessModel& model_;
  std::vector<ByteInterval> scratch_;
};

}  // namespace

std::span<const ByteInterval> AccessModel::Bytes(const Access& access,
                                                 std::vector<ByteInterval>* scratch) const {
  if (access.num_intervals != 0) {
    return {intervals.data() + access.first_interval, access.num_intervals};
  }
  const LazyView& lazy = lazy_views[access.first_interval];
  StridedView view;
  view.base_addr = lazy.base_addr;
  view.elem_size = access.elem_size;
  view.start_offset = lazy.start_offset;
  view.shape = dims + lazy.shape_offset;
  view.strides = dims + lazy.strides_offset;
  view.ndim = lazy.ndim;
  // Valid and under the cap when the model was built, so this expansion is exact.
  ExpandStridedView(view, kMaxPieceLimit, /*limit_elems=*/-1, scratch);
  return *scratch;
}

AccessModel BuildAccessModel(const DepGraph& graph, const AccessModelOptions& options) {
  AccessModel model;
  model.dims = graph.dims.data();
  ModelBuilder(graph, options, &model).Run();
  return model;
}

}  // namespace depgraph
