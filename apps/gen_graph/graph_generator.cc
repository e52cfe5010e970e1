#include "graph_generator.h"

#include "decode_shape.h"
#include "deps_json_writer.h"
#include "depgraph/atomic_file.h"
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
  }
}

bool WriteGraphFile(const GenOptions& options, const std::string& path, GenStats* stats,
                    std::string* err) {
  depgraph::AtomicFile file;
  if (!file.Open(path, err)) return false;
  GenStats result;
  for (Section section : {Section::kTasks, Section::kTensors, Section::kEdges}) {
    DepsJsonWriter writer(&file.stream(), section);
    writer.Begin();
    GenerateGraph(options, &writer);
    if (!writer.Finish()) {
      *err = path + ": write failed";
      return false;
    }
    result.bytes += writer.bytes();
    switch (section) {
      case Section::kTasks: result.tasks = writer.count(); break;
      case Section::kTensors: result.tensors = writer.count(); break;
      case Section::kEdges: result.edges = writer.count(); break;
    }
  }
  if (!file.Commit(err)) return false;
  if (stats) *stats = result;
  return true;
}

}  // namespace gen_graph
