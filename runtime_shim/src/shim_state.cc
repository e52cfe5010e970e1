#include "shim_state.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <cstring>

#include "depgraph_shim/tensor_id.h"

namespace depgraph::shim {

namespace {

constexpr uint64_t kInvalidTaskId = ~uint64_t{0};

// "0x1000 (shape [64,64], FLOAT32, start_offset 0, owner 4294967296)".
std::string DescribeTensor(const ChipTensor& t) {
  char head[64];
  std::snprintf(head, sizeof head, "0x%" PRIx64 " (shape [", t.buffer.addr);
  std::string text = head;
  for (uint32_t i = 0; i < std::min<uint32_t>(t.ndims, MAX_TENSOR_DIMS); ++i) {
    if (i) text += ',';
    text += std::to_string(t.shapes[i]);
  }
  text += "], ";
  text += get_dtype_name(t.dtype);
  text += ", start_offset " + std::to_string(t.start_offset);
  if (t.owner_task_id.is_valid()) text += ", produced by task " + std::to_string(t.owner_task_id.raw);
  text += ')';
  return text;
}

const char* ArgTypeText(TensorArgType type) {
  switch (type) {
    case TensorArgType::INPUT: return "INPUT";
    case TensorArgType::OUTPUT: return "OUTPUT";
    case TensorArgType::INOUT: return "INOUT";
    case TensorArgType::OUTPUT_EXISTING: return "OUTPUT_EXISTING";
    case TensorArgType::NO_DEP: return "NO_DEP";
  }
  return "?";
}

ArgType ToArgType(TensorArgType type) {
  switch (type) {
    case TensorArgType::INPUT: return ArgType::kInput;
    case TensorArgType::OUTPUT: return ArgType::kOutput;
    case TensorArgType::INOUT: return ArgType::kInOut;
    case TensorArgType::OUTPUT_EXISTING: return ArgType::kOutputExisting;
    case TensorArgType::NO_DEP: return ArgType::kNoDep;
  }
  return ArgType::kOther;
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// SeenSet

void SeenSet::Clear() {
  ids_.clear();
  if (indexed_) {
    index_.Reset(6);
    indexed_ = false;
  }
}

bool SeenSet::Contains(uint64_t id) const {
  if (indexed_) return index_.Find(id) != FlatIndex::kNil;
  for (uint64_t seen : ids_) {
    if (seen == id) return true;
  }
  return false;
}

void SeenSet::Add(uint64_t id) {
  if (Contains(id)) return;
  ids_.push_back(id);
  if (!indexed_ && ids_.size() > kLinear) {
    bool inserted = false;
    for (uint64_t seen : ids_) index_.FindOrInsert(seen, 0, &inserted);
    indexed_ = true;
  } else if (indexed_) {
    bool inserted = false;
    index_.FindOrInsert(id, 0, &inserted);
  }
}

// ---------------------------------------------------------------------------------------------
// ShimState

ShimState::ShimState(const ShimConfig& config)
    : config_(config),
      hbg_(config.flavor == RuntimeFlavor::kHostBuildGraph),
      heaps_(config.heap_base, config.ring_heap_size),
      entry_addresses_(config.entry_base, config.heap_base) {
  tasks_.reserve(1024);
  args_.reserve(4096);
  edges_.reserve(4096);
}

void ShimState::Fatal(int32_t code, const char* func, const std::string& message) {
  if (fatal_) return;
  fatal_ = true;
  fatal_code_ = code;
  fatal_message_ = func && *func ? std::string(func) + ": " + message : message;
  std::replace(fatal_message_.begin(), fatal_message_.end(), '\n', ' ');
}

void ShimState::ScopeBegin(uint8_t mode, const char* file, int line) {
  if (fatal_) return;
  const std::string where =
      file && *file ? std::string(" at ") + file + ":" + std::to_string(line) : std::string();
  if (mode > static_cast<uint8_t>(PTO2ScopeMode::MANUAL)) {
    Fatal(PTO2_ERROR_INVALID_ARGS, "rt_scope_begin",
          "unknown scope mode " + std::to_string(mode) + where);
    return;
  }
  const bool manual = mode == static_cast<uint8_t>(PTO2ScopeMode::MANUAL);
  if (!manual && manual_scopes_ > 0) {
    Fatal(PTO2_ERROR_INVALID_ARGS, "rt_scope_begin",
          "AUTO scope opened inside a MANUAL scope" + where +
              " (scopes nested in a MANUAL scope must be MANUAL)");
    return;
  }
  scopes_.push_back(Scope{manual, outputs_.mark()});
  if (manual) ++manual_scopes_;
}

void ShimState::ScopeEnd() {
  if (fatal_) return;
  if (scopes_.empty()) {
    Fatal(PTO2_ERROR_INVALID_ARGS, "rt_scope_end", "no scope is open");
    return;
  }
  const Scope scope = scopes_.back();
  scopes_.pop_back();
  if (scope.manual) --manual_scopes_;
  outputs_.Release(scope.outputs);
}

bool ShimState::Validate(const PtoShimTaskDesc& d, int32_t kernel_ids[3]) {
  const char* api = d.api ? d.api : "submit";
  if (scopes_.empty()) {
    Fatal(PTO2_ERROR_INVALID_ARGS, api,
          "task submitted outside any scope (the executor's outer scope is not open)");
    return false;
  }
  if (d.has_error) {
    Fatal(PTO2_ERROR_INVALID_ARGS, api,
          std::string("invalid task arguments: ") + (d.error_msg ? d.error_msg : "error"));
    return false;
  }
  if (d.tensor_count < 0 || (d.tensor_count > 0 && (d.tensors == nullptr || d.tags == nullptr)) ||
      (d.dep_count > 0 && d.deps == nullptr)) {
    Fatal(PTO2_ERROR_INVALID_ARGS, api, "malformed task descriptor");
    return false;
  }
  for (int32_t i = 0; i < d.tensor_count; ++i) {
    const TensorArgType tag = d.tags[i];
    if (static_cast<uint32_t>(tag) > static_cast<uint32_t>(TensorArgType::NO_DEP)) {
      Fatal(PTO2_ERROR_INVALID_ARGS, api, "argument " + std::to_string(i) + " has no direction");
      return false;
    }
    if (d.kind == PTO_SHIM_ALLOC_TASK && tag != TensorArgType::OUTPUT) {
      Fatal(PTO2_ERROR_INVALID_ARGS, api,
            "alloc_tensors accepts only OUTPUT create-infos; argument " + std::to_string(i) +
                " is " + ArgTypeText(tag));
      return false;
    }
    if (tag != TensorArgType::OUTPUT && d.tensors[i].ref().ndims > MAX_TENSOR_DIMS) {
      Fatal(PTO2_ERROR_INVALID_ARGS, api,
            "argument " + std::to_string(i) + " has " + std::to_string(d.tensors[i].ref().ndims) +
                " dimensions (at most 5)");
      return false;
    }
  }
  if (d.kind == PTO_SHIM_ALLOC_TASK) {
    if (d.scalar_count > 0 || d.dep_count > 0) {
      Fatal(PTO2_ERROR_INVALID_ARGS, api,
            "alloc_tensors accepts only OUTPUT create-infos (no scalars, no dependencies)");
      return false;
    }
    kernel_ids[0] = kernel_ids[1] = kernel_ids[2] = INVALID_KERNEL_ID;
    return true;
  }
  if (d.kind == PTO_SHIM_DUMMY_TASK) {
    kernel_ids[0] = kernel_ids[1] = kernel_ids[2] = INVALID_KERNEL_ID;
  } else {
    kernel_ids[0] = d.kernel_ids[0];
    kernel_ids[1] = d.kernel_ids[1];
    kernel_ids[2] = d.kernel_ids[2];
    // Only aiv1 active: it runs as aiv0 (normalised before anything is recorded).
    if (kernel_ids[0] < 0 && kernel_ids[1] < 0 && kernel_ids[2] >= 0) {
      kernel_ids[1] = kernel_ids[2];
      kernel_ids[2] = INVALID_KERNEL_ID;
    }
    if (kernel_ids[0] < 0 && kernel_ids[1] < 0 && kernel_ids[2] < 0) {
      Fatal(PTO2_ERROR_INVALID_ARGS, api, "no active kernel slot (all kernel ids are -1)");
      return false;
    }
  }
  if (d.block_num < 1) {
    Fatal(PTO2_ERROR_INVALID_ARGS, api,
          "block_num must be at least 1 (got " + std::to_string(d.block_num) + ")");
    return false;
  }
  if (d.require_sync_start) {
    const bool aiv_only = kernel_ids[0] < 0;
    const int32_t available = aiv_only ? config_.available_aiv : config_.available_clusters;
    if (d.block_num > available) {
      Fatal(PTO2_ERROR_REQUIRE_SYNC_START_INVALID, api,
            "require_sync_start with block_num " + std::to_string(d.block_num) + " > " +
                std::to_string(available) + " available " + (aiv_only ? "AIV cores" : "clusters"));
      return false;
    }
  }
  return true;
}

bool ShimState::Materialise(const PtoShimTaskDesc& d, int ring, uint64_t task_id,
                            PtoShimOutputs* out) {
  uint32_t count = 0;
  uint64_t block_bytes = 0;
  for (int32_t i = 0; i < d.tensor_count; ++i) {
    if (d.tags[i] != TensorArgType::OUTPUT) continue;
    ++count;
    block_bytes += OutputSlotBytes(d.tensors[i].create_info().buffer_size_bytes());
  }
  if (count == 0) return true;
  uint64_t block = 0;
  const int heap_ring = hbg_ ? 0 : ring;
  if (!heaps_.Allocate(heap_ring, block_bytes, &block)) {
    Fatal(PTO2_ERROR_HEAP_RING_DEADLOCK, d.api ? d.api : "submit",
          "ring " + std::to_string(heap_ring) + " heap exhausted: task " +
              std::to_string(task_id) + " needs " + std::to_string(block_bytes) + " bytes, " +
              std::to_string(heaps_.used(heap_ring)) + " of " +
              std::to_string(config_.ring_heap_size) +
              " used (addresses are never reused; raise ShimConfig::ring_heap_size)");
    return false;
  }
  ChipTensor* views = outputs_.Allocate(count);
  uint64_t offset = 0;
  uint32_t k = 0;
  for (int32_t i = 0; i < d.tensor_count; ++i) {
    if (d.tags[i] != TensorArgType::OUTPUT) continue;
    const TensorCreateInfo& ci = d.tensors[i].create_info();
    const uint64_t slot = OutputSlotBytes(ci.buffer_size_bytes());
    ChipTensor& t = views[k++];
    t = ChipTensor{};
    t.buffer.addr = block + offset;
    t.buffer.size = slot;
    t.owner_task_id = PTO2TaskId{task_id};
    t.start_offset = 0;
    t.version = 0;
    t.ndims = std::min<uint32_t>(ci.ndims, MAX_TENSOR_DIMS);
    t.dtype = ci.dtype;
    t.manual_dep = ci.manual_dep;
    t.address_space = AddressSpace::DEVICE;
    uint32_t stride = 1;
    for (uint32_t j = t.ndims; j-- > 0;) {
      t.shapes[j] = ci.shapes[j];
      t.strides[j] = stride;
      stride *= ci.shapes[j];
    }
    t.refresh_layout();
    offset += slot;
  }
  out->count = count;
  out->tensors = views;
  return true;
}

void ShimState::RegisterTensor(const ChipTensor& t, uint64_t tensor_id) {
  bool inserted = false;
  tensor_index_.FindOrInsert(tensor_id, static_cast<uint32_t>(tensors_.size()), &inserted);
  if (!inserted) return;
  DepsTensorRecord record;
  record.tensor_id = tensor_id;
  record.buffer_addr = t.buffer.addr;
  record.version = t.version;
  record.dtype = static_cast<DType>(t.dtype);
  const uint64_t elem = get_element_size(t.dtype);
  record.buffer_numel = elem ? t.buffer.size / elem : 0;
  tensors_.push_back(record);
}

void ShimState::Capture(const PtoShimTaskDesc& d, uint64_t task_id, const int32_t kernel_ids[3]) {
  TaskRow row;
  row.id = task_id;
  row.kernel_ids[0] = kernel_ids[0];
  row.kernel_ids[1] = kernel_ids[1];
  row.kernel_ids[2] = kernel_ids[2];
  row.block_num = static_cast<uint32_t>(d.block_num);
  row.first_arg = static_cast<uint32_t>(args_.size());
  row.num_args = static_cast<uint32_t>(d.tensor_count);
  row.manual = manual_scopes_ > 0;
  row.early_dispatch = d.allow_early_resolve;
  for (int32_t i = 0; i < d.tensor_count; ++i) {
    DepsArgRecord& a = args_.emplace_back();
    a.type = ToArgType(d.tags[i]);
    if (d.tags[i] == TensorArgType::OUTPUT) continue;
    const ChipTensor& t = d.tensors[i].ref();
    a.view.start_offset = t.start_offset;
    a.view.ndims = static_cast<uint8_t>(std::min<uint32_t>(t.ndims, MAX_TENSOR_DIMS));
    a.view.dtype = static_cast<DType>(t.dtype);
    for (uint8_t j = 0; j < a.view.ndims; ++j) {
      a.view.shape[j] = t.shapes[j];
      a.view.strides[j] = t.strides[j];
    }
    a.tensor_id = TensorId(t.buffer.addr, t.version);
    RegisterTensor(t, a.tensor_id);
  }
  // The row goes in last, so a failure above never leaves it pointing past args_.
  tasks_.push_back(row);
}

void ShimState::FanIn(const PtoShimTaskDesc& d, uint64_t task_id, uint32_t first_arg) {
  seen_.Clear();
  // STEP 1: explicit dependencies, in order, deduplicated (also in MANUAL scopes).
  for (uint32_t j = 0; j < d.dep_count; ++j) {
    const uint64_t pred = d.deps[j].raw;
    if (pred == kInvalidTaskId || seen_.Contains(pred)) continue;
    EdgeRow& e = edges_.emplace_back();
    e.pred = pred;
    e.succ = task_id;
    e.arg = -1;
    e.source = EdgeSource::kExplicit;
    seen_.Add(pred);
  }
  if (manual_scopes_ > 0) return;  // MANUAL: no creator, no lookup, no publish.

  // STEP 3: per argument, creator retention then TensorMap lookup.
  for (int32_t i = 0; i < d.tensor_count; ++i) {
    const TensorArgType tag = d.tags[i];
    if (tag == TensorArgType::OUTPUT) continue;
    const ChipTensor& t = d.tensors[i].ref();
    const uint32_t arg_index = first_arg + static_cast<uint32_t>(i);
    const uint64_t owner = t.owner_task_id.raw;
    if (owner != kInvalidTaskId && !seen_.Contains(owner)) {
      EdgeRow& e = edges_.emplace_back();
      e.pred = owner;
      e.succ = task_id;
      e.arg = i;
      e.source = EdgeSource::kCreator;
      e.consumer_arg = arg_index;
      seen_.Add(owner);
    }
    if ((tag != TensorArgType::INPUT && tag != TensorArgType::INOUT) || t.manual_dep) continue;
    const bool inout = tag == TensorArgType::INOUT;
    tensor_map_.Lookup(t.buffer.addr, ShapeOf(t), t.buffer.size,
                       [&](const TensorMap::Entry& e, OverlapKind kind) {
                         EdgeRow& row = edges_.emplace_back();
                         row.pred = e.producer;
                         row.succ = task_id;
                         row.arg = i;
                         row.source = EdgeSource::kTensormap;
                         row.overlap = kind;
                         row.consumer_arg = arg_index;
                         row.producer_arg = e.producer_arg;
                         seen_.Add(e.producer);
                         // An INOUT consumer removes the entries it covers.
                         return inout && kind == OverlapKind::kCovered;
                       });
  }

  // STEP 4: publish INOUT and OUTPUT_EXISTING views (after every lookup).
  for (int32_t i = 0; i < d.tensor_count; ++i) {
    const TensorArgType tag = d.tags[i];
    if (tag != TensorArgType::INOUT && tag != TensorArgType::OUTPUT_EXISTING) continue;
    const ChipTensor& t = d.tensors[i].ref();
    if (t.manual_dep) continue;
    tensor_map_.Insert(t.buffer.addr, ShapeOf(t), task_id, first_arg + static_cast<uint32_t>(i));
  }
}

void ShimState::Submit(const PtoShimTaskDesc& d, PtoShimOutputs* out) {
  out->task_id = PTO2TaskId::invalid();
  out->count = 0;
  out->tensors = nullptr;
  if (fatal_) return;
  int32_t kernel_ids[3];
  if (!Validate(d, kernel_ids)) return;

  // Task id: the next local id of the current ring (every submit, dummy and alloc).
  const size_t depth = scopes_.size() - 1;
  const int ring = hbg_ ? 0 : static_cast<int>(std::min<size_t>(depth, RingHeaps::kRings - 1));
  if (next_local_[ring] > 0xFFFFFFFFull) {
    Fatal(PTO2_ERROR_SCOPE_TASKS_OVERFLOW, d.api, "ring " + std::to_string(ring) +
                                                      " ran out of task ids");
    return;
  }
  const uint64_t task_id = (static_cast<uint64_t>(ring) << 32) | next_local_[ring]++;

  PtoShimOutputs outputs{PTO2TaskId{task_id}, 0, nullptr};
  if (!Materialise(d, ring, task_id, &outputs)) return;
  if (d.kind == PTO_SHIM_ALLOC_TASK) {
    ++alloc_count_;
    *out = outputs;
    return;
  }
  const uint32_t first_arg = static_cast<uint32_t>(args_.size());
  Capture(d, task_id, kernel_ids);
  FanIn(d, task_id, first_arg);
  *out = outputs;
}

// ---------------------------------------------------------------------------------------------
// Host data

void* ShimState::ElementPointer(const ChipTensor& t, uint32_t ndims, const uint32_t* indices,
                                const char* api) {
  if (fatal_) return nullptr;
  const uint64_t elem = get_element_size(t.dtype);
  if (elem == 0) {
    Fatal(PTO2_ERROR_INVALID_ARGS, api, "tensor " + DescribeTensor(t) + " has an unknown dtype");
    return nullptr;
  }
  if (ndims > std::min<uint32_t>(t.ndims, MAX_TENSOR_DIMS) || (ndims > 0 && indices == nullptr)) {
    Fatal(PTO2_ERROR_INVALID_ARGS, api,
          std::to_string(ndims) + " indices for tensor " + DescribeTensor(t));
    return nullptr;
  }
  uint64_t offset = t.start_offset;
  for (uint32_t i = 0; i < ndims; ++i) {
    if (indices[i] >= t.shapes[i]) {
      Fatal(PTO2_ERROR_INVALID_ARGS, api,
            "index " + std::to_string(indices[i]) + " out of range in dimension " +
                std::to_string(i) + " of tensor " + DescribeTensor(t));
      return nullptr;
    }
    offset += static_cast<uint64_t>(indices[i]) * t.strides[i];
  }
  void* p = host_memory_.HostRange(t.buffer.addr + offset * elem, elem);
  if (p == nullptr) {
    Fatal(PTO2_ERROR_INVALID_ARGS, api,
          "tensor " + DescribeTensor(t) +
              " has no host data (only entry tensors the runner was given data for can be "
              "read or written)");
  }
  return p;
}

uint64_t ShimState::ReadElement(const ChipTensor& t, uint32_t ndims, const uint32_t* indices) {
  void* p = ElementPointer(t, ndims, indices, "get_tensor_data");
  if (p == nullptr) return 0;
  uint64_t bits = 0;
  std::memcpy(&bits, p, get_element_size(t.dtype));
  return bits;
}

void ShimState::WriteElement(const ChipTensor& t, uint32_t ndims, const uint32_t* indices,
                             uint64_t bits) {
  void* p = ElementPointer(t, ndims, indices, "set_tensor_data");
  if (p != nullptr) std::memcpy(p, &bits, get_element_size(t.dtype));
}

void* ShimState::HostPointer(uint64_t addr) const {
  void* p = host_memory_.HostPointer(addr);
  return p ? p : reinterpret_cast<void*>(static_cast<uintptr_t>(addr));
}

uint64_t ShimState::DeviceAddress(const void* pointer) const {
  uint64_t addr = 0;
  if (!host_memory_.empty() && host_memory_.DeviceAddress(pointer, &addr)) return addr;
  return static_cast<uint64_t>(reinterpret_cast<uintptr_t>(pointer));
}

bool ShimState::RegisterHostBuffer(uint64_t addr, void* data, uint64_t size) {
  if (host_memory_.Register(addr, data, size)) return true;
  char text[160];
  std::snprintf(text, sizeof text,
                "cannot register %" PRIu64 " bytes at 0x%" PRIx64
                ": empty, or overlaps another registration",
                size, addr);
  Fatal(PTO2_ERROR_INVALID_ARGS, "RegisterHostBuffer", text);
  return false;
}

uint64_t ShimState::AllocateEntryAddress(uint64_t size) {
  uint64_t addr = 0;
  if (entry_addresses_.Allocate(size, &addr)) return addr;
  Fatal(PTO2_ERROR_INVALID_ARGS, "AllocateEntryAddress",
        "entry tensor address range exhausted (" + std::to_string(size) + " bytes requested)");
  return 0;
}

// ---------------------------------------------------------------------------------------------
// deps.json

bool ShimState::WriteDepsJson(std::ostream& out, std::string* err) const {
  DepsWriter::Options options;
  options.write_flags = !hbg_;
  DepsWriter writer(&out, options);
  for (const TaskRow& row : tasks_) {
    DepsTaskRecord task;
    task.task_id = row.id;
    task.manual_scope = row.manual;
    task.early_dispatch = row.early_dispatch;
    task.kernel_ids[0] = row.kernel_ids[0];
    task.kernel_ids[1] = row.kernel_ids[1];
    task.kernel_ids[2] = row.kernel_ids[2];
    task.block_num = row.block_num;
    task.args = std::span<const DepsArgRecord>(args_.data() + row.first_arg, row.num_args);
    writer.AddTask(task);
  }
  for (const DepsTensorRecord& tensor : tensors_) writer.AddTensor(tensor);
  for (const EdgeRow& row : edges_) {
    DepsEdgeRecord edge;
    edge.pred = row.pred;
    edge.succ = row.succ;
    edge.arg = row.arg;
    edge.source = row.source;
    if (row.source == EdgeSource::kTensormap) {
      edge.flags = kDepFlagWait;
      edge.overlap = row.overlap == OverlapKind::kCovered ? DepsOverlap::kCovered
                                                          : DepsOverlap::kOther;
      edge.consumer = &args_[row.consumer_arg].view;
      edge.producer = &args_[row.producer_arg].view;
      edge.tensor_id = args_[row.producer_arg].tensor_id;
    } else if (row.source == EdgeSource::kCreator) {
      edge.flags = kDepFlagWait | kDepFlagRetain;
      edge.consumer = &args_[row.consumer_arg].view;
      edge.tensor_id = args_[row.consumer_arg].tensor_id;
    } else {
      edge.flags = kDepFlagWait | kDepFlagRetain;
    }
    writer.AddEdge(edge);
  }
  return writer.Finish(err);
}

}  // namespace depgraph::shim
