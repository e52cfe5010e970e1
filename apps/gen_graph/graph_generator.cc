#include "graph_generator.h"

#include "decode_shape.h"
#include <vector>

#include "depgraph/graph/deps_writer.h"
#include "depgraph/support/atomic_file.h"
#include "graph_builder.h"
#include "simple_shapes.h"

namespace gen_graph {

namespace {
constexpr struct {
  Shape shape;
  const char* name;
} kShapes[] = {
    {Shape::kDecode, "decode"},
    {Shape::kChain, "chain"},
    {Shape::kWide, "wide"},
    {Shape::kRandom, "random"},
    {Shape::kChainToLast, "chain_to_last"},
    {Shape::kHub, "hub"},
    {Shape::kDense, "dense"},
};
// Forwards the records of one deps.json section to a shared DepsWriter. The generator is
// deterministic, so running it once per section, in file order, writes the whole document
// without holding any of it. O(1) memory per record.
class SectionSink final : public GenSink {
 public:
  enum class Section { kTasks, kTensors, kEdges };
  SectionSink(depgraph::DepsWriter* writer, Section section) : writer_(writer), section_(section) {}

  void OnTask(const GenTask& task, std::span<const GenArg> args) override {
    if (section_ != Section::kTasks) return;
    args_.resize(args.size());
    for (size_t i = 0; i < args.size(); ++i) {
      args_[i].type = args[i].type;
      args_[i].tensor_id = args[i].tensor_id;
      args_[i].view = ToRecord(args[i].view);
    }
    depgraph::DepsTaskRecord record;
    record.task_id = task.id;
    for (int i = 0; i < 3; ++i) record.kernel_ids[i] = task.kernel_ids[i];
    record.block_num = static_cast<uint32_t>(task.block_num);
    record.args = args_;
    writer_->AddTask(record);
    ++count_;
  }
  void OnTensor(const GenTensor& tensor) override {
    if (section_ != Section::kTensors) return;
    writer_->AddTensor({tensor.id, static_cast<uint64_t>(tensor.buffer_addr),
                        static_cast<int32_t>(tensor.version), tensor.dtype,
                        static_cast<uint64_t>(tensor.numel)});
    ++count_;
  }
  void OnEdge(const GenEdge& edge) override {
    if (section_ != Section::kEdges) return;
    consumer_ = ToRecord(edge.consumer);
    producer_ = ToRecord(edge.producer);
    depgraph::DepsEdgeRecord record;
    record.pred = edge.pred;
    record.succ = edge.succ;
    record.arg = edge.arg;
    record.source = edge.source;
    record.flags = edge.source == EdgeSource::kTensormap
                       ? depgraph::kDepFlagWait
                       : depgraph::kDepFlagWait | depgraph::kDepFlagRetain;
    record.overlap = edge.overlap == Overlap::kOther ? depgraph::DepsOverlap::kOther
                                                     : depgraph::DepsOverlap::kCovered;
    record.tensor_id = edge.tensor_id;
    record.consumer = &consumer_;
    record.producer = &producer_;
    writer_->AddEdge(record);
    ++count_;
  }
  uint64_t count() const { return count_; }

 private:
  static depgraph::DepsViewRecord ToRecord(const GenView& view) {
    depgraph::DepsViewRecord record;
    record.dtype = view.dtype;
    record.start_offset = static_cast<uint64_t>(view.start);
    record.ndims = view.ndim;
    for (int d = 0; d < view.ndim; ++d) {
      record.shape[d] = static_cast<uint32_t>(view.shape[d]);
      record.strides[d] = static_cast<uint32_t>(view.strides[d]);
    }
    return record;
  }

  depgraph::DepsWriter* writer_;
  Section section_;
  std::vector<depgraph::DepsArgRecord> args_;
  depgraph::DepsViewRecord consumer_, producer_;
  uint64_t count_ = 0;
};

}  // namespace

bool ParseShape(std::string_view text, Shape* shape) {
  for (const auto& entry : kShapes) {
    if (text == entry.name) {
      *shape = entry.shape;
      return true;
    }
  }
  return false;
}

const char* ShapeName(Shape shape) {
  for (const auto& entry : kShapes) {
    if (entry.shape == shape) return entry.name;
  }
  return "?";
}

void GenerateGraph(const GenOptions& options, GenSink* sink) {
  GraphBuilder builder(options.tasks, sink);
  if (options.tasks == 0) return;
  switch (options.shape) {
    case Shape::kDecode: GenerateDecode(options.seed, &builder); break;
    case Shape::kChain: GenerateChain(options.seed, &builder); break;
    case Shape::kWide: GenerateWide(options.seed, options.tasks, &builder); break;
    case Shape::kRandom: GenerateRandom(options.seed, &builder); break;
    case Shape::kChainToLast: GenerateChainToLast(options.seed, options.tasks, &builder); break;
    case Shape::kHub: GenerateHub(options.seed, &builder); break;
    case Shape::kDense: GenerateDense(options.seed, &builder); break;
  }
}

bool WriteGraphFile(const GenOptions& options, const std::string& path, GenStats* stats,
                    std::string* err) {
  depgraph::AtomicFile file;
  if (!file.Open(path, err)) return false;
  GenStats result;
  depgraph::DepsWriter writer(&file.stream());
  using Section = SectionSink::Section;
  for (Section section : {Section::kTasks, Section::kTensors, Section::kEdges}) {
    SectionSink sink(&writer, section);
    GenerateGraph(options, &sink);
    switch (section) {
      case Section::kTasks: result.tasks = sink.count(); break;
      case Section::kTensors: result.tensors = sink.count(); break;
      case Section::kEdges: result.edges = sink.count(); break;
    }
  }
  std::string write_error;
  if (!writer.Finish(&write_error)) {
    *err = path + ": " + write_error;
    return false;
  }
  result.bytes = writer.bytes();
  if (!file.Commit(err)) return false;
  if (stats) *stats = result;
  return true;
}

}  // namespace gen_graph
