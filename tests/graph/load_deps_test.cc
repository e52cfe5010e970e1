#include "depgraph/graph/load_deps.h"

#include <gtest/gtest.h>

#include "test_util.h"

namespace depgraph {
namespace {

using testing::LoadText;

std::string LoadError(const std::string& text) {
  DepGraph graph;
  std::string err;
  EXPECT_FALSE(LoadDepsJsonText(text, "deps.json", &graph, &err));
  EXPECT_TRUE(graph.nodes.empty());
  return err;
}

TEST(LoadDeps, EmptyObjectIsAnEmptyGraph) {
  DepGraph g = LoadText("{}");
  EXPECT_TRUE(g.nodes.empty());
  EXPECT_TRUE(g.pairs.empty());
}

TEST(LoadDeps, CollapsesRowsOntoSortedUniquePairs) {
  DepGraph g = LoadText(R"({"edges":[
    {"pred":"3","succ":"4","source":"tensormap","arg":0},
    {"pred":"1","succ":"2","source":"creator","arg":0},
    {"pred":"3","succ":"4","source":"creator","arg":1},
    {"pred":"1","succ":"3","source":"explicit","arg":-1}]})");
  ASSERT_EQ(g.nodes, (std::vector<TaskId>{1, 2, 3, 4}));
  ASSERT_EQ(g.pairs.size(), 3u);
  EXPECT_EQ(g.rows.size(), 4u);
  EXPECT_EQ(g.rows[0].pair, g.rows[2].pair);
  EXPECT_EQ(g.rows[0].source, EdgeSource::kTensormap);
  EXPECT_EQ(g.rows[2].source, EdgeSource::kCreator);
  // The Boost CSR keeps edge index == pair index.
  for (size_t p = 0; p < g.pairs.size(); ++p) {
    auto [it, end] = boost::out_edges(g.pairs[p].pred, g.graph);
    bool found = false;
    for (; it != end; ++it) {
      if (boost::target(*it, g.graph) == g.pairs[p].succ) {
        EXPECT_EQ(boost::get(boost::edge_index, g.graph, *it), p);
        found = true;
      }
    }
    EXPECT_TRUE(found);
  }
}

TEST(LoadDeps, CoercesIdsLikePythonInt) {
  // Spec §6.2 C, minus the rows the reference tool silently drops (we reject those).
  DepGraph g = LoadText(R"({"edges":[
    {"pred":" 12 ","succ":"1_000"},
    {"pred":1.9,"succ":true},
    {"pred":"-1","succ":"+5"},
    {"pred":4294967296,"succ":4294967297}]})");
  EXPECT_EQ(g.nodes, (std::vector<TaskId>{1, 5, 12, 1000, 4294967296ull, 4294967297ull,
                                           UINT64_MAX}));
  EXPECT_EQ(g.pairs.size(), 4u);
  EXPECT_TRUE(g.FindPair(g.FindNode(1), g.FindNode(1)) >= 0);  // self loop kept
  EXPECT_TRUE(g.UsesRings());
  EXPECT_EQ(FormatTaskId(UINT64_MAX, true), "(255, 4294967295)");
}

TEST(LoadDeps, NodesAreEdgeEndpointsAndActiveTasks) {
  DepGraph g = LoadText(R"({"tasks":[
    {"task_id":"5","kernel_ids":[-1,-1,-1]},
    {"task_id":"6","kernel_ids":[2,-1,-1]},
    {"task_id":"7","kernel_ids":"bad","block_num":"x"},
    {"task_id":"8","kernel_ids":[0],"block_num":4,"early_dispatch":"false","scope":"manual"}],
    "edges":[{"pred":"1","succ":"2"}]})");
  EXPECT_EQ(g.nodes, (std::vector<TaskId>{1, 2, 6, 8}));
  const Task* t8 = g.FindTask(8);
  ASSERT_NE(t8, nullptr);
  EXPECT_EQ(t8->kernel_ids[0], 0);
  EXPECT_EQ(t8->kernel_ids[1], -1);
  EXPECT_EQ(t8->block_num, 4);
  EXPECT_TRUE(t8->early_dispatch);  // Python truthiness of the string "false"
  EXPECT_TRUE(t8->manual_scope);
  EXPECT_FALSE(g.FindTask(6)->manual_scope);
  EXPECT_EQ(g.FindTask(7)->block_num, 1);
  EXPECT_NE(g.FindTask(5), nullptr);  // known task, just not rendered
}

TEST(LoadDeps, ReadsViewsTensorsAndDuplicatesLastWins) {
  DepGraph g = LoadText(R"({"tasks":[
    {"task_id":"2","kernel_ids":[1,-1,-1],"args":[{"idx":0,"type":"INOUT","tensor_id":"7",
      "dtype":"float32","shape":[2,4],"start_offset":"3","strides":[4,1]},
      {"idx":1,"type":"OUTPUT"},{"idx":2,"type":"UNKNOWN","tensor_id":null}]}],
    "tensors":[{"tensor_id":"7","buffer_addr":"1","buffer_numel":"8","dtype":"INT8"},
               {"tensor_id":"8"},
               {"tensor_id":"7","buffer_addr":"4096","buffer_numel":"128","dtype":"FLOAT32"}],
    "edges":[{"pred":"1","succ":"2","arg":0,"source":"creator","tensor_id":"7",
      "consumer_shape":[0],"consumer_strides":null,"producer_start_offset":-1,
      "overlap":"other"}]})");
  ASSERT_EQ(g.tensors.size(), 2u);
  EXPECT_EQ(g.FindTensor(7)->buffer_addr, 4096);
  EXPECT_EQ(g.FindTensor(7)->index, 2u);
  EXPECT_EQ(g.FindTensor(8)->addr_state, FieldState::kAbsent);
  const Task* t = g.FindTask(2);
  ASSERT_EQ(t->num_args, 3u);
  const TaskArg* a0 = g.FindArg(*t, 0);
  EXPECT_EQ(a0->type, ArgType::kInOut);
  EXPECT_EQ(g.ViewOf(*a0).dtype, DType::kFloat32);
  EXPECT_EQ(g.ViewOf(*a0).start_offset, 3);
  ASSERT_EQ(g.ViewOf(*a0).shape.state, FieldState::kValid);
  EXPECT_EQ(g.DimData(g.ViewOf(*a0).shape)[1], 4);
  EXPECT_EQ(g.FindArg(*t, 1)->tensor_id_state, FieldState::kAbsent);
  EXPECT_EQ(g.FindArg(*t, 2)->type, ArgType::kNoDep);
  EXPECT_EQ(g.FindArg(*t, 2)->tensor_id_state, FieldState::kInvalid);
  const EdgeRow& row = g.rows[0];
  EXPECT_EQ(g.ConsumerOf(row).shape.state, FieldState::kInvalid);
  EXPECT_EQ(g.ConsumerOf(row).strides.state, FieldState::kInvalid);
  EXPECT_EQ(g.ConsumerOf(row).dtype_state, FieldState::kAbsent);
  EXPECT_EQ(g.ProducerOf(row).start_offset_state, FieldState::kInvalid);
  EXPECT_EQ(g.overlap_names[row.overlap], "other");
}

// Small integer fields at the edge of int64, plain and quoted (the fast path of ReadSmallInt),
// beside the forms only the general path reads; what follows each is still read.
TEST(LoadDeps, SmallIntegersAtTheEdgeOfInt64) {
  DepGraph g = LoadText(R"({"tasks":[
    {"task_id":"2","block_num":9223372036854775808,"kernel_ids":[9223372036854775807,
      "9223372036854775808",18446744073709551615],"args":[
      {"idx":9223372036854775808,"type":"INPUT","tensor_id":"7","start_offset":"9223372036854775807"},
      {"idx":"9223372036854775807","type":"OUTPUT","start_offset":9223372036854775808},
      {"idx":" 3 ","type":"INPUT","start_offset":2.0}]}],
    "edges":[{"pred":"1","succ":"2","arg":9223372036854775808,"tensor_id":"7"},
             {"pred":"1","succ":"2","arg":"9223372036854775807","tensor_id":"8"}]})");
  const Task* t = g.FindTask(2);
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(t->block_num, 1);  // not an int64: the default
  EXPECT_EQ(t->kernel_ids[0], INT64_MAX);
  EXPECT_EQ(t->kernel_ids[1], -1);
  EXPECT_EQ(t->kernel_ids[2], -1);
  ASSERT_EQ(t->num_args, 3u);
  const TaskArg& a0 = g.args[t->first_arg];
  EXPECT_EQ(a0.idx, INT64_MIN);  // unusable
  EXPECT_EQ(a0.tensor_id, 7u);
  EXPECT_EQ(g.ViewOf(a0).start_offset, INT64_MAX);
  EXPECT_EQ(g.ViewOf(a0).start_offset_state, FieldState::kValid);
  const TaskArg& a1 = g.args[t->first_arg + 1];
  EXPECT_EQ(a1.idx, INT64_MAX);
  EXPECT_EQ(a1.type, ArgType::kOutput);
  EXPECT_EQ(g.ViewOf(a1).start_offset_state, FieldState::kInvalid);
  const TaskArg& a2 = g.args[t->first_arg + 2];
  EXPECT_EQ(a2.idx, 3);  // int(" 3 ")
  EXPECT_EQ(g.ViewOf(a2).start_offset, 2);
  ASSERT_EQ(g.rows.size(), 2u);
  EXPECT_EQ(g.rows[0].arg_state, FieldState::kInvalid);
  EXPECT_EQ(g.rows[0].tensor_id, 7u);
  EXPECT_EQ(g.rows[1].arg_state, FieldState::kValid);
  EXPECT_EQ(g.rows[1].arg, INT64_MAX);
  EXPECT_EQ(g.rows[1].tensor_id, 8u);
}

// Equal shapes and strides are stored once (dim_interner.h): the second task's [2,4] and the
// row's consumer shape share the first list; a list that only starts the same does not.
TEST(LoadDeps, StoresEachDistinctDimensionListOnce) {
  DepGraph g = LoadText(R"({"tasks":[
    {"task_id":"1","kernel_ids":[1,-1,-1],"args":[{"idx":0,"type":"OUTPUT","tensor_id":"7",
      "shape":[2,4],"strides":[4,1]}]},
    {"task_id":"2","kernel_ids":[1,-1,-1],"args":[{"idx":0,"type":"INPUT","tensor_id":"7",
      "strides":[4,1],"shape":[2,4]},{"idx":1,"type":"INPUT","tensor_id":"7","shape":[2,4,1],
      "strides":[0]}]}],
    "edges":[{"pred":"1","succ":"2","arg":0,"source":"tensormap","tensor_id":"7",
      "consumer_shape":[2,4],"consumer_strides":[4,1,1],"producer_shape":[2,-4]}]})");
  const TaskArg* first = g.FindArg(*g.FindTask(1), 0);
  const TaskArg* second = g.FindArg(*g.FindTask(2), 0);
  const TaskArg* third = g.FindArg(*g.FindTask(2), 1);
  EXPECT_EQ(g.ViewOf(*second).shape.offset, g.ViewOf(*first).shape.offset);
  EXPECT_EQ(g.ViewOf(*second).strides.offset, g.ViewOf(*first).strides.offset);
  EXPECT_EQ(g.ConsumerOf(g.rows[0]).shape.offset, g.ViewOf(*first).shape.offset);
  ASSERT_EQ(g.ViewOf(*third).shape.size, 3u);
  EXPECT_EQ(std::vector<int64_t>(g.DimData(g.ViewOf(*third).shape), g.DimData(g.ViewOf(*third).shape) + 3),
            (std::vector<int64_t>{2, 4, 1}));
  EXPECT_EQ(g.ViewOf(*third).strides.state, FieldState::kInvalid);  // 0 is not a dimension
  EXPECT_EQ(g.ProducerOf(g.rows[0]).shape.state, FieldState::kInvalid);
  // [2,4], [4,1], [2,4,1], [4,1,1]: 2 + 2 + 3 + 3 elements.
  EXPECT_EQ(g.dims.size(), 10u);
}

// One test per class of bad input: the message names the file and the place.
TEST(LoadDepsErrors, InvalidJsonGivesLineAndColumn) {
  EXPECT_EQ(LoadError("{\"edges\": [\n {\"pred\": 1,}]}"),
            "deps.json: line 2:column 13: expected a string key");
  EXPECT_EQ(LoadError(""), "deps.json: line 1:column 1: unexpected end of file, expected a value");
  EXPECT_EQ(LoadError("{\"edges\":[{\"pred\":NaN}]}"),
            "deps.json: line 1:column 19: invalid JSON value");
  EXPECT_EQ(LoadError("{} x"), "deps.json: line 1:column 4: extra data after the JSON document");
}

TEST(LoadDepsErrors, TopLevelMustBeAnObject) {
  EXPECT_EQ(LoadError("[]"), "deps.json: expected a JSON object at the top level, got array");
}

// A file that is not JSON at all is a syntax error at its line and column ("not json" only
// starts like null); a well-formed document of the wrong kind stays a semantic error.
TEST(LoadDepsErrors, NotJsonIsASyntaxErrorAtItsPlace) {
  EXPECT_EQ(LoadError("not json"), "deps.json: line 1:column 1: invalid JSON value");
  EXPECT_EQ(LoadError("\n  nope"), "deps.json: line 2:column 3: invalid JSON value");
  EXPECT_EQ(LoadError("[1,\n2"),
            "deps.json: line 2:column 2: unexpected end of file inside an array");
  EXPECT_EQ(LoadError("null"), "deps.json: expected a JSON object at the top level, got null");
  EXPECT_EQ(LoadError("\"x\" 1"), "deps.json: line 1:column 5: extra data after the JSON document");
}

// RFC 8259 input is UTF-8: invalid bytes, overlong forms, raw surrogates and lone surrogate
// escapes are rejected at their line and column instead of reaching the outputs raw.
TEST(LoadDepsErrors, InvalidUtf8IsRejected) {
  EXPECT_EQ(LoadError("{\"edges\":[{\"pred\":1,\"succ\":2,\"overlap\":\"a\xff\"}]}"),
            "deps.json: line 1:column 42: invalid UTF-8 in string");
  EXPECT_EQ(LoadError("{\"edges\":[{\"pred\":1,\"succ\":2,\"overlap\":\"\xc0\xaf\"}]}"),
            "deps.json: line 1:column 41: invalid UTF-8 in string");
  EXPECT_EQ(LoadError("{\"tasks\":[{\"task_id\":1,\"scope\":\"\xed\xa0\x80\"}]}"),
            "deps.json: line 1:column 33: invalid UTF-8 in string");
  EXPECT_EQ(LoadError("{\"tasks\":[{\"task_id\":1,\"x\\ud800\":0}]}"),
            "deps.json: line 1:column 26: lone UTF-16 surrogate in \\u escape");
}

// Strings echoed into messages are escaped and cut short: one line, nothing raw.
TEST(LoadDepsErrors, EchoedStringsAreEscaped) {
  EXPECT_EQ(LoadError(R"({"edges":[{"pred":"1\n\u001b[2J\"","succ":2}]})"),
            "deps.json: edges[0].pred: expected an unsigned 64-bit id, got \"1\\n\\u001B[2J\\\"\"");
  EXPECT_EQ(LoadError(R"({"edges":")" + std::string(100, 'x') + R"("})"),
            "deps.json: edges: expected an array, got \"" + std::string(40, 'x') + "\"...");
  DepGraph graph;
  std::string err;
  EXPECT_FALSE(LoadDepsJsonText("[]", "dir\nname\x1b.json", &graph, &err));
  EXPECT_EQ(err, "dir\\nname\\u001B.json: expected a JSON object at the top level, got array");
}

TEST(LoadDepsErrors, SectionsMustBeArrays) {
  EXPECT_EQ(LoadError(R"({"edges":"abc"})"), "deps.json: edges: expected an array, got \"abc\"");
  EXPECT_EQ(LoadError(R"({"edges":7})"), "deps.json: edges: expected an array, got 7");
  EXPECT_EQ(LoadError(R"({"tasks":{}})"), "deps.json: tasks: expected an array, got an object");
}

TEST(LoadDepsErrors, RowsMustBeObjects) {
  EXPECT_EQ(LoadError(R"({"edges":[{"pred":1,"succ":2},5]})"),
            "deps.json: edges[1]: expected an object, got 5");
}

TEST(LoadDepsErrors, InvalidIdNamesTheField) {
  std::string rows;
  for (int i = 0; i < 17; ++i) rows += R"({"pred":"1","succ":"2"},)";
  EXPECT_EQ(LoadError(R"({"edges":[)" + rows + R"({"pred":"0x10","succ":"2"}]})"),
            "deps.json: edges[17].pred: expected an unsigned 64-bit id, got \"0x10\"");
  EXPECT_EQ(LoadError(R"({"edges":[{"pred":"1","succ":null}]})"),
            "deps.json: edges[0].succ: expected an unsigned 64-bit id, got null");
}

TEST(LoadDepsErrors, IdsOf2To64AndAboveAreRejected) {
  EXPECT_EQ(LoadError(R"({"edges":[{"pred":"18446744073709551616","succ":"0"}]})"),
            "deps.json: edges[0].pred: expected an unsigned 64-bit id, got "
            "\"18446744073709551616\"");
  EXPECT_EQ(LoadError(R"({"tensors":[{"tensor_id":1e30}]})"),
            "deps.json: tensors[0].tensor_id: expected an unsigned 64-bit id, got 1e30");
}

TEST(LoadDepsErrors, MissingRequiredIds) {
  EXPECT_EQ(LoadError(R"({"edges":[{"succ":"2"}]})"), "deps.json: edges[0].pred: missing");
  EXPECT_EQ(LoadError(R"({"tasks":[{"kernel_ids":[]}]})"),
            "deps.json: tasks[0].task_id: missing");
}

TEST(LoadDepsErrors, NullArgsIsAnErrorNotACrash) {
  EXPECT_EQ(LoadError(R"({"tasks":[{"task_id":"1","args":null}]})"),
            "deps.json: tasks[0].args: expected an array, got null");
  EXPECT_EQ(LoadError(R"({"tasks":[{"task_id":"1","args":[{"idx":0,"tensor_id":"x"}]}]})"),
            "deps.json: tasks[0].args[0].tensor_id: expected an unsigned 64-bit id, got \"x\"");
}

TEST(LoadDepsErrors, UnreadableFiles) {
  DepGraph g;
  std::string err;
  EXPECT_FALSE(LoadDepsJson("/nonexistent/deps.json", &g, &err));
  EXPECT_EQ(err, "/nonexistent/deps.json: No such file or directory");
  testing::TempDir dir;
  EXPECT_FALSE(LoadDepsJson(dir.path(), &g, &err));
  EXPECT_EQ(err, dir.path() + ": is a directory");
}

TEST(LoadDepsErrors, SpecialFilesAreRefusedBeforeTheyAreOpened) {
  testing::TempDir dir;
  const std::string fifo = dir.File("deps.json");
  testing::MakeFifo(fifo);
  testing::FifoUnblocker unblocker(fifo);  // without the refusal: end-of-file, not a hang
  DepGraph g;
  std::string err;
  EXPECT_FALSE(LoadDepsJson(fifo, &g, &err));
  EXPECT_EQ(err, fifo + ": is a FIFO, not a regular file");
  EXPECT_FALSE(LoadDepsJson("/dev/zero", &g, &err));
  EXPECT_EQ(err, "/dev/zero: is a character device, not a regular file");
}

TEST(LoadDeps, ReadsFromDiskWithProgress) {
  testing::TempDir dir;
  testing::WriteFile(dir.File("deps.json"), testing::EdgesJson({{1, 2, "explicit"}}));
  DepGraph g;
  std::string err;
  double last = -1;
  ASSERT_TRUE(LoadDepsJson(dir.File("deps.json"), &g, &err, [&](double f) { last = f; }));
  EXPECT_EQ(g.pairs.size(), 1u);
  EXPECT_EQ(last, 1.0);
}


// Newer captures (spec/viewer.md §9) carry a top-level "runtime"; host_build_graph ids then use
// the space layout (space << 62) | (parent << 32) | local, shown t / g<parent>t / p.
TEST(LoadDeps, NewerCaptureLayoutWithRuntimeKey) {
  const uint64_t global = 5, sub = (uint64_t{1} << 62) | (uint64_t{3} << 32) | 7,
                 param = (uint64_t{2} << 62) | 5;
  const std::string text =
      "{\"runtime\":\"host_build_graph\",\"edges\":["
      "{\"pred\":\"" + std::to_string(global) + "\",\"succ\":\"" + std::to_string(sub) +
      "\",\"arg\":-1,\"source\":\"explicit\"},"
      "{\"pred\":\"" + std::to_string(param) + "\",\"succ\":\"" + std::to_string(sub) +
      "\",\"arg\":-1,\"source\":\"explicit\"}]}";
  DepGraph graph = testing::LoadText(text);
  EXPECT_EQ(graph.runtime, "host_build_graph");
  ASSERT_EQ(graph.Display(), IdDisplay::kHbgSpace);
  EXPECT_EQ(FormatTaskId(global, graph.Display()), "t5");
  EXPECT_EQ(FormatTaskId(sub, graph.Display()), "g3t7");
  EXPECT_EQ(FormatTaskId(param, graph.Display()), "p5");  // distinct from the global t5
  // The same ids without the key keep today's display; a ring capture keeps "(ring, local)".
  DepGraph old = testing::LoadText(text.substr(0, 1) + text.substr(text.find("\"edges\"")));
  EXPECT_EQ(old.runtime, "");
  EXPECT_EQ(old.Display(), IdDisplay::kRing);
  EXPECT_EQ(FormatTaskId(uint64_t{1} << 32 | 4, IdDisplay::kRing), "(1, 4)");
  DepGraph tmr = testing::LoadText("{\"runtime\":\"tensormap_and_ringbuffer\"," +
                                   testing::EdgesJson({{1, (uint64_t{1} << 32) | 2, "tensormap"}}).substr(1));
  EXPECT_EQ(tmr.Display(), IdDisplay::kRing);
}

}  // namespace
}  // namespace depgraph
