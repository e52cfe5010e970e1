#include "graph_builder.h"

namespace gen_graph {

TaskId GraphBuilder::NewId(uint32_t ring) {
  if (ring >= next_local_.size()) next_local_.resize(ring + 1, 0);
  return MakeTaskId(ring, next_local_[ring]++);
}

TaskId GraphBuilder::BeginTask(uint32_t ring, int32_t aic, int32_t aiv0, int32_t aiv1,
                               int32_t block_num) {
  task_ = GenTask();
  task_.id = NewId(ring);
  task_.kernel_ids[0] = aic;
  task_.kernel_ids[1] = aiv0;
  task_.kernel_ids[2] = aiv1;
  task_.block_num = block_num;
  args_.clear();
  edges_.clear();
  tensors_.clear();
  return task_.id;
}

int32_t GraphBuilder::AddArg(ArgType type, TrackedBuffer& buffer, const GenView& view) {
  GenArg arg;
  arg.idx = static_cast<int32_t>(args_.size());
  arg.type = type;
  arg.tensor_id = buffer.tensor.id;
  arg.view = view;
  args_.push_back(arg);
  if (!buffer.listed) {
    buffer.listed = true;
    tensors_.push_back(buffer.tensor);
  }
  if (buffer.has_owner && buffer.owner != task_.id) {
    GenEdge edge;
    edge.pred = buffer.owner;
    edge.succ = task_.id;
    edge.arg = arg.idx;
    edge.source = EdgeSource::kCreator;
    edge.tensor_id = buffer.tensor.id;
    edge.consumer = view;
    edges_.push_back(edge);
  }
  if (type == ArgType::kInput || type == ArgType::kInOut) {
    for (const TrackedBuffer::Writer& writer : buffer.writers) {
      if (writer.task == task_.id || !ViewsOverlap(writer.view, view)) continue;
      GenEdge edge;
      edge.pred = writer.task;
      edge.succ = task_.id;
      edge.arg = arg.idx;
      edge.source = EdgeSource::kTensormap;
      edge.overlap = ViewWithin(writer.view, view) ? Overlap::kCovered : Overlap::kOther;
      edge.tensor_id = buffer.tensor.id;
      edge.consumer = view;
      edge.producer = writer.view;
      edges_.push_back(edge);
    }
  }
  return arg.idx;
}

void GraphBuilder::Track(TrackedBuffer& buffer, const GenView& view) {
  auto& writers = buffer.writers;
  size_t kept = 0;
  for (size_t i = 0; i < writers.size(); ++i) {
    if (!ViewWithin(writers[i].view, view)) writers[kept++] = writers[i];
  }
  writers.resize(kept);
  writers.push_back({task_.id, view});
  if (writers.size() > buffer.window) writers.erase(writers.begin());
}

void GraphBuilder::Read(TrackedBuffer& buffer, const GenView& view) {
  AddArg(ArgType::kInput, buffer, view);
}

void GraphBuilder::Modify(TrackedBuffer& buffer, const GenView& view) {
  AddArg(ArgType::kInOut, buffer, view);
  Track(buffer, view);
}

void GraphBuilder::Overwrite(TrackedBuffer& buffer, const GenView& view) {
  AddArg(ArgType::kOutputExisting, buffer, view);
  Track(buffer, view);
}

void GraphBuilder::Create(TrackedBuffer& buffer) {
  GenArg arg;
  arg.idx = static_cast<int32_t>(args_.size());
  arg.type = ArgType::kOutput;
  args_.push_back(arg);
  buffer.has_owner = true;
  buffer.owner = task_.id;
  buffer.listed = false;
  buffer.writers.clear();
}

void GraphBuilder::Depend(TaskId pred) {
  GenEdge edge;
  edge.pred = pred;
  edge.succ = task_.id;
  edge.arg = -1;
  edge.source = EdgeSource::kExplicit;
  edges_.push_back(edge);
}

void GraphBuilder::EndTask() {
  if (full_ || emitted_ >= max_tasks_) {
    full_ = true;
    return;
  }
  for (const GenTensor& tensor : tensors_) sink_->OnTensor(tensor);
  sink_->OnTask(task_, args_);
  for (const GenEdge& edge : edges_) sink_->OnEdge(edge);
  ++emitted_;
  if (emitted_ >= max_tasks_) full_ = true;
}

}  // namespace gen_graph
