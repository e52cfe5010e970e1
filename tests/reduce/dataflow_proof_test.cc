// Tests for the byte-level dataflow proof (spec §3.4; §4.1 worked example, §6.1 tests 28-29,
// §6.2 F probes).
#include "depgraph/reduce/dataflow_proof.h"

#include <gtest/gtest.h>

#include "test_util.h"

#include <string>
#include <utility>
#include <vector>

#include "depgraph/graph/load_deps.h"

namespace depgraph {
namespace {

using TaskPairs = std::vector<std::pair<TaskId, TaskId>>;

// Loads `json`, marks the listed (pred, succ) pairs as structural candidates, runs the proof and
// returns the removable pairs (by task id, ascending).
TaskPairs ProveRemovable(const std::string& json, const TaskPairs& candidates) {
  DepGraph graph;
  std::string err;
  if (!LoadDepsJsonText(json, "deps.json", &graph, &err)) {
    ADD_FAILURE() << err;
    return {};
  }
  std::vector<uint8_t> marks(graph.pairs.size(), 0);
  for (const auto& [pred, succ] : candidates) {
    const int64_t p = graph.FindNode(pred);
    const int64_t s = graph.FindNode(succ);
    const int64_t pair = (p < 0 || s < 0) ? -1
                             : graph.FindPair(static_cast<uint32_t>(p), static_cast<uint32_t>(s));
    if (pair < 0) {
      ADD_FAILURE() << "no pair " << pred << " -> " << succ;
      continue;
    }
    marks[static_cast<size_t>(pair)] = 1;
  }
  const std::vector<uint8_t> removable = ProveDataflowRemovable(graph, marks);
  EXPECT_EQ(removable.size(), graph.pairs.size());
  for (unsigned threads : {2u, 3u}) {  // pair ranges split anywhere: the same decisions
    EXPECT_EQ(ProveDataflowRemovable(graph, marks, threads), removable) << threads;
  }
  TaskPairs out;
  for (size_t i = 0; i < removable.size(); ++i) {
    if (!removable[i]) continue;
    EXPECT_TRUE(marks[i]) << "non-candidate pair proven removable";
    out.emplace_back(graph.nodes[graph.pairs[i].pred], graph.nodes[graph.pairs[i].succ]);
  }
  return out;
}

// The worked example of spec §4.1 (data/samples/worked_example).
const std::string kWorkedExample = testing::WorkedExampleJson();

TEST(DataflowProofTest, WorkedExampleRemovesOnlyTheMiddleCreatorEdge) {
  // Structurally redundant: 0->2, 0->3, 1->3, 1->4; only the first two carry creator rows.
  EXPECT_EQ(ProveRemovable(kWorkedExample, {{0, 2}, {0, 3}, {1, 3}, {1, 4}}),
            (TaskPairs{{0, 2}}));
  EXPECT_EQ(ProveRemovable(kWorkedExample, {{0, 2}, {0, 3}}), (TaskPairs{{0, 2}}));
}

TEST(DataflowProofTest, NonCandidatesAndCreatorlessPairsStayZero) {
  EXPECT_EQ(ProveRemovable(kWorkedExample, {}), TaskPairs{});
  // 1->3 is a candidate without creator rows: the caller removes it, the proof leaves it 0.
  EXPECT_EQ(ProveRemovable(kWorkedExample, {{1, 3}}), TaskPairs{});
}

// One strided view as JSON fragments.
struct ViewSpec {
  std::string shape = "[8]";
  std::string strides = "[1]";
  std::string offset = "0";
  std::string dtype = "FLOAT32";
};

// The §6.1 test 28 shape: alloc 1 owns tensor 7; A=2 (OUTPUT_EXISTING), B=3 (INOUT) and
// C=4 (INOUT) each have a creator row from 1; tensormap rows A->B and B->C. Fields are knobs
// for the §6.2 F probes.
struct MiddleOutput {
  ViewSpec a, b, c;
  std::string tensor_dtype = "FLOAT32";
  int64_t numel = 128;
  std::string b_type = "INOUT";
  std::string b_creator_dtype;         // overrides consumer_dtype on the 1->3 creator row
  bool ab_producer_view = true;        // producer_* keys on the tensormap row A->B
  bool extra_b_creator_arg5 = false;   // a second creator row on 1->3 naming arg 5
  bool creator_rows_carry_views = true;  // else creator rows rely on the task-arg fallback

  static std::string ArgJson(const std::string& type, const ViewSpec& v) {
    return R"({"idx":0,"type":")" + type + R"(","tensor_id":"7","dtype":")" + v.dtype +
           R"(","shape":)" + v.shape + R"(,"start_offset":")" + v.offset + R"(","strides":)" +
           v.strides + "}";
  }
  static std::string ConsumerJson(const ViewSpec& v, const std::string& dtype = "") {
    return R"("consumer_dtype":")" + (dtype.empty() ? v.dtype : dtype) +
           R"(","consumer_shape":)" + v.shape + R"(,"consumer_start_offset":")" + v.offset +
           R"(","consumer_strides":)" + v.strides;
  }
  static std::string ProducerJson(const ViewSpec& v) {
    return R"("producer_shape":)" + v.shape + R"(,"producer_start_offset":")" + v.offset +
           R"(","producer_strides":)" + v.strides;
  }
  std::string CreatorRow(int succ, const ViewSpec& v, const std::string& dtype = "",
                         int arg = 0) const {
    std::string row = R"({"pred":1,"succ":)" + std::to_string(succ) + R"(,"arg":)" +
                      std::to_string(arg) + R"(,"source":"creator","tensor_id":"7")";
    if (creator_rows_carry_views || !dtype.empty()) row += "," + ConsumerJson(v, dtype);
    return row + "}";
  }
  std::string Json() const {
    std::string json = R"({"tasks":[)";
    json += R"({"task_id":2,"kernel_ids":[0,-1,-1],"args":[)" + ArgJson("OUTPUT_EXISTING", a) +
            "]},";
    json += R"({"task_id":3,"kernel_ids":[0,-1,-1],"args":[)" + ArgJson(b_type, b) + "]},";
    json += R"({"task_id":4,"kernel_ids":[0,-1,-1],"args":[)" + ArgJson("INOUT", c) + "]}],";
    json += R"("tensors":[{"tensor_id":"7","buffer_addr":"4096","buffer_numel":")";
    json += std::to_string(numel);
    json += R"(","dtype":")" + tensor_dtype + R"("}],"edges":[)";
    json += CreatorRow(2, a) + ",";
    json += CreatorRow(3, b, b_creator_dtype) + ",";
    json += CreatorRow(4, c) + ",";
    if (extra_b_creator_arg5) json += CreatorRow(3, b, "", 5) + ",";
    json += R"({"pred":2,"succ":3,"arg":0,"source":"tensormap","overlap":"covered",)"
            R"("tensor_id":"7",)" + ConsumerJson(b);
    if (ab_producer_view) json += "," + ProducerJson(a);
    json += "},";
    json += R"({"pred":3,"succ":4,"arg":0,"source":"tensormap","overlap":"covered",)"
            R"("tensor_id":"7",)" + ConsumerJson(c) + "," + ProducerJson(b) + "}]}";
    return json;
  }
  // Structurally redundant pairs of this shape: 1->3 (via 2) and 1->4 (via 3).
  TaskPairs Prove() const { return ProveRemovable(Json(), {{1, 3}, {1, 4}}); }
};

const TaskPairs kMiddleRemoved = {{1, 3}};

TEST(DataflowProofTest, Test28DropsOnlyFullRangeMiddleOutput) {
  MiddleOutput g;
  g.a = {"[2,4]", "[4,1]", "0"};
  g.b = {"[8]", "[1]", "0"};
  g.c = {"[4,2]", "[2,1]", "0"};
  EXPECT_EQ(g.Prove(), kMiddleRemoved);
  g.creator_rows_carry_views = false;  // views from the task args instead
  EXPECT_EQ(g.Prove(), kMiddleRemoved);
}

TEST(DataflowProofTest, Test29DoesNotCrossOutputExistingReuseBoundary) {
  auto arg = [](const char* type) {
    return std::string(R"({"idx":0,"type":")") + type +
           R"(","tensor_id":"7","dtype":"FLOAT32","shape":[8],"start_offset":0,"strides":[1]})";
  };
  const std::string view =
      R"("tensor_id":"7","consumer_dtype":"FLOAT32","consumer_shape":[8],)"
      R"("consumer_start_offset":0,"consumer_strides":[1])";
  const std::string producer =
      R"("producer_shape":[8],"producer_start_offset":0,"producer_strides":[1])";
  std::string json = R"({"tasks":[)";
  json += R"({"task_id":2,"kernel_ids":[0,-1,-1],"args":[)" + arg("OUTPUT_EXISTING") + "]},";
  json += R"({"task_id":3,"kernel_ids":[0,-1,-1],"args":[)" + arg("INOUT") + "]},";
  json += R"({"task_id":4,"kernel_ids":[0,-1,-1],"args":[)" + arg("OUTPUT_EXISTING") + "]},";
  json += R"({"task_id":5,"kernel_ids":[0,-1,-1],"args":[)" + arg("INOUT") + "]}],";
  json += R"("tensors":[{"tensor_id":"7","buffer_addr":4096,"buffer_numel":8,"dtype":"FLOAT32"}],)";
  json += R"("edges":[)";
  for (int succ = 2; succ <= 5; ++succ) {
    json += R"({"pred":1,"succ":)" + std::to_string(succ) + R"(,"arg":0,"source":"creator",)" +
            view + "},";
  }
  json += R"({"pred":2,"succ":3,"arg":0,"source":"tensormap",)" + view + "," + producer + "},";
  json += R"({"pred":4,"succ":5,"arg":0,"source":"tensormap",)" + view + "," + producer + "},";
  json += R"({"pred":3,"succ":4,"arg":-1,"source":"explicit"}]})";
  // Redundant: 1->3 (via 2), 1->4 (via 2,3), 1->5 (via 4).
  EXPECT_EQ(ProveRemovable(json, {{1, 3}, {1, 4}, {1, 5}}), TaskPairs{});
}

TEST(DataflowProofTest, ProbeBaselineAllFullViews) {
  EXPECT_EQ(MiddleOutput().Prove(), kMiddleRemoved);
}

TEST(DataflowProofTest, ProbeHalfCoverageOfCKeeps) {
  MiddleOutput g;
  g.c.shape = "[4]";
  EXPECT_EQ(g.Prove(), TaskPairs{});
}

TEST(DataflowProofTest, ProbeHalfCoverageOfAKeeps) {
  MiddleOutput g;
  g.a.shape = "[4]";
  EXPECT_EQ(g.Prove(), TaskPairs{});
}

TEST(DataflowProofTest, ProbeStridedMiddleIsRemoved) {
  MiddleOutput g;
  g.b = {"[4]", "[2]", "0"};
  EXPECT_EQ(g.Prove(), kMiddleRemoved);
}

TEST(DataflowProofTest, ProbeCreatorDtypeMismatchKeeps) {
  MiddleOutput g;
  g.b_creator_dtype = "FLOAT16";
  EXPECT_EQ(g.Prove(), TaskPairs{});
}

TEST(DataflowProofTest, ProbeFp8Keeps) {
  MiddleOutput g;
  g.tensor_dtype = g.a.dtype = g.b.dtype = g.c.dtype = "FP8E4M3FN";
  EXPECT_EQ(g.Prove(), TaskPairs{});
}

TEST(DataflowProofTest, ProbeOutOfBoundsBufferKeeps) {
  MiddleOutput g;
  g.numel = 4;
  EXPECT_EQ(g.Prove(), TaskPairs{});
}

TEST(DataflowProofTest, ProbeMissingProducerViewKeeps) {
  MiddleOutput g;
  g.ab_producer_view = false;
  EXPECT_EQ(g.Prove(), TaskPairs{});
}

TEST(DataflowProofTest, ProbeOuterCapIsInclusive) {
  MiddleOutput g;
  g.numel = 20002;
  g.a.shape = g.c.shape = "[20002]";
  g.b = {"[10000,1]", "[2,1]", "0"};
  EXPECT_EQ(g.Prove(), kMiddleRemoved);
  g.b.shape = "[10001,1]";
  EXPECT_EQ(g.Prove(), TaskPairs{});
}

TEST(DataflowProofTest, ProbeInputArgKeeps) {
  MiddleOutput g;
  g.b_type = "INPUT";
  EXPECT_EQ(g.Prove(), TaskPairs{});
}

TEST(DataflowProofTest, ProbeExtraCreatorRowWithMissingArgKeeps) {
  MiddleOutput g;
  g.extra_b_creator_arg5 = true;
  EXPECT_EQ(g.Prove(), TaskPairs{});
}

TEST(DataflowProofTest, OutputExistingMiddleKeeps) {
  MiddleOutput g;
  g.b_type = "OUTPUT_EXISTING";
  EXPECT_EQ(g.Prove(), TaskPairs{});
}

TEST(DataflowProofTest, DisjointHalvesCoveredByTwoWriters) {
  // B's bytes [0,8) arrive from two OUTPUT_EXISTING writers (halves) and leave to C.
  std::string json = R"({"tasks":[
   {"task_id":2,"kernel_ids":[0,-1,-1],"args":[{"idx":0,"type":"OUTPUT_EXISTING","tensor_id":"7","dtype":"INT8","shape":[4],"start_offset":0,"strides":[1]}]},
   {"task_id":5,"kernel_ids":[0,-1,-1],"args":[{"idx":1,"type":"OUTPUT_EXISTING","tensor_id":"7","dtype":"INT8","shape":[4],"start_offset":4,"strides":[1]}]},
   {"task_id":3,"kernel_ids":[0,-1,-1],"args":[{"idx":0,"type":"INOUT","tensor_id":"7","dtype":"INT8","shape":[8],"start_offset":0,"strides":[1]}]},
   {"task_id":4,"kernel_ids":[0,-1,-1],"args":[{"idx":2,"type":"INOUT","tensor_id":"7","dtype":"INT8","shape":[8],"start_offset":0,"strides":[1]}]}],
   "tensors":[{"tensor_id":"7","buffer_addr":0,"buffer_numel":8,"dtype":"INT8"}],
   "edges":[
   {"pred":1,"succ":2,"arg":0,"source":"creator"},
   {"pred":1,"succ":5,"arg":1,"source":"creator"},
   {"pred":1,"succ":3,"arg":0,"source":"creator"},
   {"pred":1,"succ":4,"arg":2,"source":"creator"},
   {"pred":2,"succ":3,"arg":0,"source":"tensormap","producer_shape":[4],"producer_start_offset":0,"producer_strides":[1]},
   {"pred":5,"succ":3,"arg":0,"source":"tensormap","producer_shape":[4],"producer_start_offset":4,"producer_strides":[1]},
   {"pred":3,"succ":4,"arg":2,"source":"tensormap","producer_shape":[8],"producer_start_offset":0,"producer_strides":[1]}]})";
  // Candidates: 1->3 (via 2 or 5), 1->4 (via 3).
  EXPECT_EQ(ProveRemovable(json, {{1, 3}, {1, 4}}), (TaskPairs{{1, 3}}));
  // Without the second writer's tensormap row, the upper half has no earlier writer.
  std::string one_writer = json;
  const std::string row5 =
      R"({"pred":5,"succ":3,"arg":0,"source":"tensormap","producer_shape":[4],"producer_start_offset":4,"producer_strides":[1]},)";
  one_writer.erase(one_writer.find(row5), row5.size());
  EXPECT_EQ(ProveRemovable(one_writer, {{1, 3}, {1, 4}}), TaskPairs{});
}

TEST(DataflowProofTest, LaterCoverageRequiresMatchingInoutArg) {
  // C's creator row names arg 0 (its INOUT view), but the tensormap B->C row names arg 1: the
  // later writer must hold the creator view on the same arg, so nothing is proven.
  MiddleOutput g;
  std::string json = g.Json();
  const std::string bc = R"({"pred":3,"succ":4,"arg":0,"source":"tensormap")";
  const size_t at = json.find(bc);
  ASSERT_NE(at, std::string::npos);
  json.replace(at, bc.size(), R"({"pred":3,"succ":4,"arg":1,"source":"tensormap")");
  const std::string c_args = R"("args":[{"idx":0,"type":"INOUT","tensor_id":"7")";
  const size_t c_at = json.rfind(c_args);
  ASSERT_NE(c_at, std::string::npos);
  json.insert(c_at + 8,
              R"({"idx":1,"type":"INOUT","tensor_id":"7","dtype":"FLOAT32","shape":[8],)"
              R"("start_offset":0,"strides":[1]},)");
  EXPECT_EQ(ProveRemovable(json, {{1, 3}, {1, 4}}), TaskPairs{});
}

TEST(DataflowProofTest, CreatorRowIntoAllocNodeKeeps) {
  // 1->2->3 explicit plus a creator shortcut 1->3 where 3 has no task entry.
  const std::string json = R"({"tensors":[{"tensor_id":"7","buffer_addr":0,"buffer_numel":8,"dtype":"INT8"}],
   "edges":[{"pred":1,"succ":2,"source":"explicit","arg":-1},{"pred":2,"succ":3,"source":"explicit","arg":-1},
   {"pred":1,"succ":3,"source":"creator","arg":0,"tensor_id":"7","consumer_dtype":"INT8","consumer_shape":[8],"consumer_start_offset":0,"consumer_strides":[1]}]})";
  EXPECT_EQ(ProveRemovable(json, {{1, 3}}), TaskPairs{});
}

}  // namespace
}  // namespace depgraph
