// depgraph::DepsWriter: the runtime's deps.json byte format (runtime.md §7), from records.
#include "depgraph/graph/deps_writer.h"

#include <gtest/gtest.h>

#include <functional>
#include <sstream>
#include <string>

namespace depgraph {
namespace {

DepsViewRecord Vec(uint32_t n, uint64_t start = 0, DType dtype = DType::kFloat32) {
  DepsViewRecord v;
  v.ndims = 1;
  v.shape[0] = n;
  v.strides[0] = 1;
  v.start_offset = start;
  v.dtype = dtype;
  return v;
}

DepsViewRecord Mat(uint32_t rows, uint32_t cols, uint32_t row_stride, uint64_t start) {
  DepsViewRecord v;
  v.ndims = 2;
  v.shape[0] = rows;
  v.shape[1] = cols;
  v.strides[0] = row_stride;
  v.strides[1] = 1;
  v.start_offset = start;
  return v;
}

std::string Write(bool flags, const std::function<void(DepsWriter&)>& body) {
  std::ostringstream out;
  DepsWriter::Options options;
  options.write_flags = flags;
  DepsWriter writer(&out, options);
  body(writer);
  std::string err;
  EXPECT_TRUE(writer.Finish(&err)) << err;
  EXPECT_EQ(writer.bytes(), out.str().size());
  return out.str();
}

TEST(DepsWriter, EmptyDocument) {
  EXPECT_EQ(Write(true, [](DepsWriter&) {}), "{\"tasks\":[],\"tensors\":[],\"edges\":[]}\n");
}

TEST(DepsWriter, TaskTensorAndCreatorEdgeBytesOfTheVectorExample) {
  DepsArgRecord args[3];
  args[0].type = ArgType::kInput;
  args[0].tensor_id = 5171277938582001759ull;
  args[0].view = Vec(16384);
  args[1] = args[0];
  args[1].tensor_id = 10884787706559077336ull;
  args[2].type = ArgType::kOutput;
  DepsTaskRecord task;
  task.task_id = 0;
  task.kernel_ids[1] = 0;
  task.args = args;
  DepsTensorRecord tensor{5171277938582001759ull, 986038112, 0, DType::kFloat32, 16384};
  const DepsViewRecord consumer = Vec(16384);
  DepsEdgeRecord edge;
  edge.pred = 0;
  edge.succ = 4294967296ull;
  edge.arg = 0;
  edge.source = EdgeSource::kCreator;
  edge.tensor_id = 7638537353207449153ull;
  edge.consumer = &consumer;
  const std::string text = Write(true, [&](DepsWriter& w) {
    w.AddTask(task);
    w.AddTensor(tensor);
    w.AddEdge(edge);
  });
  EXPECT_EQ(text,
            "{\"tasks\":[{\"task_id\":\"0\",\"scope\":\"auto\",\"early_dispatch\":false,"
            "\"kernel_ids\":[-1,0,-1],\"block_num\":1,\"args\":[{\"idx\":0,\"type\":\"INPUT\","
            "\"tensor_id\":\"5171277938582001759\",\"dtype\":\"FLOAT32\",\"shape\":[16384],"
            "\"start_offset\":\"0\",\"strides\":[1]},{\"idx\":1,\"type\":\"INPUT\","
            "\"tensor_id\":\"10884787706559077336\",\"dtype\":\"FLOAT32\",\"shape\":[16384],"
            "\"start_offset\":\"0\",\"strides\":[1]},{\"idx\":2,\"type\":\"OUTPUT\"}]}],"
            "\"tensors\":[{\"tensor_id\":\"5171277938582001759\",\"buffer_addr\":\"986038112\","
            "\"version\":0,\"dtype\":\"FLOAT32\",\"buffer_numel\":\"16384\"}],"
            "\"edges\":[{\"pred\":\"0\",\"succ\":\"4294967296\",\"arg\":0,\"source\":\"creator\","
            "\"flags\":[\"wait\",\"retain\"],\"tensor_id\":\"7638537353207449153\","
            "\"consumer_dtype\":\"FLOAT32\",\"consumer_shape\":[16384],"
            "\"consumer_start_offset\":\"0\",\"consumer_strides\":[1]}]}\n");
}

TEST(DepsWriter, TensormapAndExplicitEdgeBytes) {
  const DepsViewRecord consumer = Mat(64, 64, 64, 0);
  const DepsViewRecord producer = Mat(32, 64, 64, 2048);
  DepsEdgeRecord tm;
  tm.pred = 1;
  tm.succ = 2;
  tm.arg = 0;
  tm.source = EdgeSource::kTensormap;
  tm.flags = kDepFlagWait;
  tm.overlap = DepsOverlap::kCovered;
  tm.tensor_id = 6541342960580426777ull;
  tm.consumer = &consumer;
  tm.producer = &producer;
  DepsEdgeRecord exp;
  exp.pred = 11;
  exp.succ = 14;
  const std::string text = Write(true, [&](DepsWriter& w) {
    w.AddEdge(tm);
    w.AddEdge(exp);
  });
  EXPECT_EQ(text,
            "{\"tasks\":[],\"tensors\":[],\"edges\":[{\"pred\":\"1\",\"succ\":\"2\",\"arg\":0,"
            "\"source\":\"tensormap\",\"flags\":[\"wait\"],\"overlap\":\"covered\","
            "\"tensor_id\":\"6541342960580426777\",\"consumer_dtype\":\"FLOAT32\","
            "\"consumer_shape\":[64,64],\"consumer_start_offset\":\"0\","
            "\"consumer_strides\":[64,1],\"producer_shape\":[32,64],"
            "\"producer_start_offset\":\"2048\",\"producer_strides\":[64,1]},"
            "{\"pred\":\"11\",\"succ\":\"14\",\"arg\":-1,\"source\":\"explicit\","
            "\"flags\":[\"wait\",\"retain\"]}]}\n");
}

TEST(DepsWriter, HostBuildGraphWritesNoFlags) {
  const DepsViewRecord consumer = Vec(4);
  DepsEdgeRecord edge;
  edge.source = EdgeSource::kCreator;
  edge.consumer = &consumer;
  const std::string text = Write(false, [&](DepsWriter& w) { w.AddEdge(edge); });
  EXPECT_EQ(text.find("flags"), std::string::npos);
  EXPECT_NE(text.find("\"source\":\"creator\",\"tensor_id\""), std::string::npos);
}

TEST(DepsWriter, NamesOutsideTheRuntimeEnumsPrintUnknown) {
  EXPECT_STREQ(DepsArgTypeName(ArgType::kNoDep), "UNKNOWN");
  EXPECT_STREQ(DepsArgTypeName(ArgType::kOutputExisting), "OUTPUT_EXISTING");
  EXPECT_STREQ(DepsDTypeName(DType::kFp4E2M1), "FP4E2M1");
  EXPECT_STREQ(DepsDTypeName(DType::kUnknown), "UNKNOWN");
  EXPECT_STREQ(DepsDTypeName(DType::kOther), "UNKNOWN");
  DepsArgRecord arg;
  arg.type = ArgType::kNoDep;
  arg.view = Vec(8, 3, DType::kBFloat16);
  DepsTaskRecord task;
  task.task_id = 12884901889ull;
  task.manual_scope = true;
  task.early_dispatch = true;
  task.block_num = 4;
  task.kernel_ids[0] = 1;
  task.args = std::span<const DepsArgRecord>(&arg, 1);
  const std::string text = Write(true, [&](DepsWriter& w) { w.AddTask(task); });
  EXPECT_NE(text.find("{\"task_id\":\"12884901889\",\"scope\":\"manual\",\"early_dispatch\":true,"
                      "\"kernel_ids\":[1,-1,-1],\"block_num\":4,\"args\":[{\"idx\":0,"
                      "\"type\":\"UNKNOWN\",\"tensor_id\":\"0\",\"dtype\":\"BFLOAT16\","
                      "\"shape\":[8],\"start_offset\":\"3\",\"strides\":[1]}]}"),
            std::string::npos)
      << text;
}

TEST(DepsWriter, OutOfOrderRecordsAndMissingViewsAreErrors) {
  std::ostringstream out;
  DepsWriter writer(&out);
  writer.AddTensor(DepsTensorRecord{});
  writer.AddTask(DepsTaskRecord{});
  std::string err;
  EXPECT_FALSE(writer.Finish(&err));
  EXPECT_NE(err.find("out of order"), std::string::npos);

  std::ostringstream out2;
  DepsWriter writer2(&out2);
  DepsEdgeRecord edge;
  edge.source = EdgeSource::kTensormap;
  writer2.AddEdge(edge);
  EXPECT_FALSE(writer2.Finish(&err));
  EXPECT_NE(err.find("no consumer view"), std::string::npos);
}

TEST(DepsWriter, StreamsLargeDocumentsThroughItsBuffer) {
  const DepsViewRecord consumer = Mat(16, 16, 16, 0);
  std::ostringstream out;
  DepsWriter writer(&out);
  DepsEdgeRecord edge;
  edge.source = EdgeSource::kCreator;
  edge.consumer = &consumer;
  for (int i = 0; i < 20000; ++i) {
    edge.pred = static_cast<uint64_t>(i);
    edge.succ = static_cast<uint64_t>(i + 1);
    writer.AddEdge(edge);
  }
  std::string err;
  ASSERT_TRUE(writer.Finish(&err));
  const std::string text = out.str();
  EXPECT_GT(text.size(), 2u << 20);
  EXPECT_EQ(writer.bytes(), text.size());
  EXPECT_EQ(text.substr(text.size() - 4), "}]}\n");
  EXPECT_NE(text.find("{\"pred\":\"19999\",\"succ\":\"20000\""), std::string::npos);
}

}  // namespace
}  // namespace depgraph
