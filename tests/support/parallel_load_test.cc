// The parallel deps.json load (load_deps.h, LoadOptions): whatever the thread count and the
// block size, the model is field for field the sequential one, and malformed input gives the
// sequential parse's first error. Tiny blocks put cuts everywhere: inside strings full of
// brackets, commas and escapes, around whitespace, in one-element and empty arrays.
#include <gtest/gtest.h>

#include <filesystem>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "depgraph/graph/load_deps.h"
#include "graph_generator.h"
#include "test_util.h"

namespace depgraph {
namespace {

namespace fs = std::filesystem;

const unsigned kThreadCounts[] = {1, 2, 3, 7};

::testing::AssertionResult Differ(const std::string& what, size_t index) {
  return ::testing::AssertionFailure() << what << " differ at " << index;
}

bool SameDims(const DimList& a, const DimList& b) {
  return a.offset == b.offset && a.size == b.size && a.state == b.state;
}

bool SameView(const View& a, const View& b) {
  return a.dtype == b.dtype && a.dtype_state == b.dtype_state &&
         a.start_offset_state == b.start_offset_state && a.start_offset == b.start_offset &&
         SameDims(a.shape, b.shape) && SameDims(a.strides, b.strides);
}

// Every field of two models, the CSR included; names the first difference.
::testing::AssertionResult SameModel(const DepGraph& a, const DepGraph& b) {
  if (a.nodes != b.nodes) return Differ("nodes", 0);
  if (a.node_task != b.node_task) return Differ("node_task", 0);
  if (a.task_index != b.task_index) return Differ("task_index", 0);
  if (a.dims != b.dims) return Differ("dims", 0);
  if (a.overlap_names != b.overlap_names) return Differ("overlap_names", 0);
  if (a.runtime != b.runtime) return Differ("runtime", 0);
  if (a.views_loaded != b.views_loaded) return Differ("views_loaded", 0);
  if (a.arg_views.size() != b.arg_views.size() ||
      a.consumer_views.size() != b.consumer_views.size()) {
    return Differ("view counts", 0);
  }
  if (a.tasks.size() != b.tasks.size()) return Differ("task counts", 0);
  for (size_t i = 0; i < a.tasks.size(); ++i) {
    const Task &x = a.tasks[i], &y = b.tasks[i];
    if (x.id != y.id || x.kernel_ids[0] != y.kernel_ids[0] || x.kernel_ids[1] != y.kernel_ids[1] ||
        x.kernel_ids[2] != y.kernel_ids[2] || x.block_num != y.block_num ||
        x.early_dispatch != y.early_dispatch || x.manual_scope != y.manual_scope ||
        x.first_arg != y.first_arg || x.num_args != y.num_args) {
      return Differ("tasks", i);
    }
  }
  if (a.args.size() != b.args.size()) return Differ("arg counts", 0);
  for (size_t i = 0; i < a.args.size(); ++i) {
    const TaskArg &x = a.args[i], &y = b.args[i];
    if (x.idx != y.idx || x.type != y.type || x.tensor_id_state != y.tensor_id_state ||
        x.tensor_id != y.tensor_id || !SameView(a.ViewOf(x), b.ViewOf(y))) {
      return Differ("args", i);
    }
  }
  if (a.tensors.size() != b.tensors.size()) return Differ("tensor counts", 0);
  for (size_t i = 0; i < a.tensors.size(); ++i) {
    const Tensor &x = a.tensors[i], &y = b.tensors[i];
    if (x.id != y.id || x.index != y.index || x.addr_state != y.addr_state ||
        x.numel_state != y.numel_state || x.buffer_addr != y.buffer_addr ||
        x.buffer_numel != y.buffer_numel || x.dtype_state != y.dtype_state ||
        x.dtype != y.dtype) {
      return Differ("tensors", i);
    }
  }
  if (a.rows.size() != b.rows.size()) return Differ("row counts", 0);
  for (size_t i = 0; i < a.rows.size(); ++i) {
    const EdgeRow &x = a.rows[i], &y = b.rows[i];
    if (x.pair != y.pair || x.source != y.source || x.arg_state != y.arg_state ||
        x.tensor_id_state != y.tensor_id_state || x.overlap != y.overlap ||
        x.flags != y.flags || x.arg != y.arg || x.tensor_id != y.tensor_id ||
        !SameView(a.ConsumerOf(x), b.ConsumerOf(y)) ||
        !SameView(a.ProducerOf(x), b.ProducerOf(y))) {
      return Differ("rows", i);
    }
  }
  if (a.pairs.size() != b.pairs.size()) return Differ("pair counts", 0);
  for (size_t i = 0; i < a.pairs.size(); ++i) {
    if (a.pairs[i].pred != b.pairs[i].pred || a.pairs[i].succ != b.pairs[i].succ) {
      return Differ("pairs", i);
    }
  }
  if (boost::num_vertices(a.graph) != boost::num_vertices(b.graph) ||
      boost::num_edges(a.graph) != boost::num_edges(b.graph)) {
    return Differ("CSR sizes", 0);
  }
  for (uint32_t v = 0; v < boost::num_vertices(a.graph); ++v) {
    auto [ai, ae] = boost::out_edges(v, a.graph);
    auto [bi, be] = boost::out_edges(v, b.graph);
    for (; ai != ae && bi != be; ++ai, ++bi) {
      if (boost::target(*ai, a.graph) != boost::target(*bi, b.graph) ||
          boost::get(boost::edge_index, a.graph, *ai) !=
              boost::get(boost::edge_index, b.graph, *bi)) {
        return Differ("CSR out-edges of vertex", v);
      }
    }
    auto [ci, ce] = boost::in_edges(v, a.graph);
    auto [di, de] = boost::in_edges(v, b.graph);
    for (; ci != ce && di != de; ++ci, ++di) {
      if (boost::source(*ci, a.graph) != boost::source(*di, b.graph) ||
          boost::get(boost::edge_index, a.graph, *ci) !=
              boost::get(boost::edge_index, b.graph, *di)) {
        return Differ("CSR in-edges of vertex", v);
      }
    }
  }
  return ::testing::AssertionSuccess();
}

LoadOptions Options(unsigned threads, size_t block_bytes) {
  LoadOptions options;
  options.threads = threads;
  options.block_bytes = block_bytes;
  return options;
}

// The sequential parse, straight from the input: what every block parse must equal.
LoadOptions Sequential() { return Options(1, SIZE_MAX); }

// Loads `text` with `options`: the model, or the error message (model empty).
std::string LoadWith(const std::string& text, const LoadOptions& options, DepGraph* graph) {
  std::string err;
  if (!LoadDepsJsonText(text, "deps.json", graph, &err, options)) return err;
  return "";
}

// The model or error of `text` with one thread equals the one with every thread count and
// each block size given.
// Returns the blocks parsed in parallel by the load with the smallest block size.
size_t ExpectSameOnAnyThreadCount(const std::string& text, const std::vector<size_t>& blocks) {
  DepGraph reference;
  const std::string reference_error = LoadWith(text, Sequential(), &reference);
  size_t parallel_blocks = 0;
  for (unsigned threads : kThreadCounts) {
    for (size_t block_bytes : blocks) {
      DepGraph graph;
      LoadStats stats;
      LoadOptions options = Options(threads, block_bytes);
      options.stats = &stats;
      const std::string error = LoadWith(text, options, &graph);
      EXPECT_EQ(error, reference_error) << threads << " threads, blocks of " << block_bytes;
      EXPECT_TRUE(SameModel(reference, graph))
          << threads << " threads, blocks of " << block_bytes << " bytes";
      // Valid input never needs the sequential fallback.
      if (reference_error.empty()) {
        EXPECT_EQ(stats.fallbacks, 0u) << block_bytes;
      }
      if (block_bytes == blocks.front()) parallel_blocks = stats.blocks;
    }
  }
  return parallel_blocks;
}

std::vector<size_t> SmallBlocks(size_t up_to) {
  std::vector<size_t> blocks;
  for (size_t b = 1; b <= up_to; ++b) blocks.push_back(b);
  blocks.push_back(0);
  return blocks;
}

TEST(ParallelLoad, RealCapturesLoadTheSameOnAnyThreadCount) {
  size_t files = 0;
  for (const char* dir : {"/data/real", "/data/samples"}) {
    for (const auto& entry : fs::recursive_directory_iterator(testing::SourceDir() + dir)) {
      const std::string name = entry.path().filename().string();
      if (!entry.is_regular_file() || !name.starts_with("deps") || !name.ends_with(".json")) {
        continue;
      }
      ++files;
      DepGraph reference;
      std::string err;
      const bool ok = LoadDepsJson(entry.path().string(), &reference, &err, Sequential());
      for (unsigned threads : kThreadCounts) {
        for (size_t block_bytes : {0, 16, 300, 4096}) {
          DepGraph graph;
          std::string error;
          EXPECT_EQ(LoadDepsJson(entry.path().string(), &graph, &error,
                                 Options(threads, block_bytes)),
                    ok);
          EXPECT_EQ(error, err);
          EXPECT_TRUE(SameModel(reference, graph))
              << entry.path() << ", " << threads << " threads, blocks of " << block_bytes;
        }
      }
    }
  }
  EXPECT_GE(files, 17u);
}

TEST(ParallelLoad, GeneratedGraphsLoadTheSameOnAnyThreadCount) {
  testing::TempDir dir;
  for (gen_graph::Shape shape : {gen_graph::Shape::kDecode, gen_graph::Shape::kChain,
                                 gen_graph::Shape::kWide, gen_graph::Shape::kRandom,
                                 gen_graph::Shape::kDense}) {
    gen_graph::GenOptions gen;
    gen.shape = shape;
    gen.tasks = shape == gen_graph::Shape::kDecode ? 4000 : 1500;
    const std::string path = dir.File(std::string(gen_graph::ShapeName(shape)) + ".json");
    gen_graph::GenStats stats;
    std::string err;
    ASSERT_TRUE(gen_graph::WriteGraphFile(gen, path, &stats, &err)) << err;
    DepGraph reference;
    ASSERT_TRUE(LoadDepsJson(path, &reference, &err, Sequential())) << err;
    EXPECT_EQ(reference.rows.size(), stats.edges);
    if (shape == gen_graph::Shape::kDense) {  // 12 reads and 4 waits a task, less at the start
      EXPECT_GT(stats.edges, 15 * gen.tasks);
      EXPECT_LE(stats.edges, 16 * gen.tasks);
    }
    for (unsigned threads : kThreadCounts) {
      for (size_t block_bytes : {0, 777, 65536}) {
        DepGraph graph;
        LoadStats stats;
        LoadOptions options = Options(threads, block_bytes);
        options.stats = &stats;
        ASSERT_TRUE(LoadDepsJson(path, &graph, &err, options)) << err;
        EXPECT_EQ(stats.fallbacks, 0u);
        if (block_bytes == 777) {
          EXPECT_GT(stats.blocks, 100u);
        }
        EXPECT_TRUE(SameModel(reference, graph))
            << gen_graph::ShapeName(shape) << ", " << threads << " threads, blocks of "
            << block_bytes;
      }
    }
  }
}

// Strings that look like element boundaries, escapes of every kind, whitespace everywhere.
std::string AdversarialDocument(int copies) {
  std::string tasks, edges, tensors;
  for (int i = 0; i < copies; ++i) {
    const std::string id = std::to_string(i + 1);
    if (i) tasks += " ,\n  ";
    tasks += "{ \"task_id\" : \"" + id + "\", \"note\": \"},{\\\"task_id\\\":\\\"99\\\"}\",\n" +
             "\"kernel_ids\":[" + std::to_string(i % 3) + ",-1 , -1], \"x\\\\\\\"y\": \"\\\\\"," +
             "\"args\":[{\"idx\":0,\"type\":\"INPUT\",\"tensor_id\":\"\\u003" +
             std::to_string(i % 10) + "\",\"shape\":[2, " + std::to_string(i + 1) +
             "],\"strides\":[3,1],\"dtype\":\"float32\",\"junk\":[[{}],[]]} ] }";
    if (i) edges += ",";
    edges += "\n\t{\"pred\":\"" + id + "\" , \"succ\": \" " + std::to_string(i + 2) +
             " \",\"source\":\"" + (i % 2 ? "creator" : "tensormap") +
             "\",\"flags\":[\"wait\",\"re\\u0074ain\"],\"overlap\":\"" +
             (i % 3 ? "a,b]" : "\\u00e9}") + "\",\"comment\":\"\\\"},{\\\"pred\\\":\\\"5\\\"\"," +
             "\"consumer_shape\":[1,2, " + std::to_string(i % 4) + "], \"arg\": " +
             std::to_string(i % 5 - 1) + "}";
    if (i % 4 == 0) {
      if (!tensors.empty()) tensors += ",";
      tensors += "{\"tensor_id\":\"" + std::to_string(i % 10 + 7) +
                 "\",\"buffer_addr\":\"0\",\"dtype\":\"INT8\",\"weird\":\"]]]}}}\\\\\"}";
    }
  }
  return "{ \"runtime\" : \"tensormap_and_ringbuffer\" ,\n \"tasks\" : [ " + tasks +
         " ] ,\n \"empty\":[], \"tensors\": [" + tensors + "],\n \"edges\" : [" + edges +
         "\n ] , \"tail\": [[[\"]\"]]] }\n";
}

// `text` with a space after every '[', ',' and ':' outside strings: the reader's compact fast
// paths (keys, short strings, shapes and strides) then never apply.
std::string Spaced(const std::string& text) {
  std::string out;
  bool in_string = false, escaped = false;
  for (char c : text) {
    out += c;
    if (in_string) {
      if (escaped) {
        escaped = false;
      } else if (c == '\\') {
        escaped = true;
      } else if (c == '"') {
        in_string = false;
      }
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == ',' || c == ':') {
      out += ' ';
    }
  }
  return out;
}

// The text of every deps*.json under data/real.
std::vector<std::string> RealCaptureTexts() {
  std::vector<std::string> texts;
  for (const auto& entry : fs::recursive_directory_iterator(testing::SourceDir() + "/data/real")) {
    const std::string name = entry.path().filename().string();
    if (entry.is_regular_file() && name.starts_with("deps") && name.ends_with(".json")) {
      texts.push_back(testing::ReadFile(entry.path().string()));
    }
  }
  return texts;
}

// The compact fast paths give the model the general paths give, on every real capture and on
// shapes and strides of every kind the fast path must leave alone (a zero, a leading zero,
// a sign, a fraction, an exponent, a string, 19 digits, more than eight dims, nesting).
TEST(ParallelLoad, CompactAndSpacedDocumentsLoadTheSame) {
  std::vector<std::string> texts = RealCaptureTexts();
  ASSERT_GE(texts.size(), 10u);
  std::string tasks;
  const char* const shapes[] = {"[1,4096]", "[]", "[0,2]", "[3,0]", "[-1,2]", "[1.5,2]",
                                "[1e2]", "[\"3\",4]", "[1234567890123456789]",
                                "[123456789012345678]", "[1,2,3,4,5,6,7,8]",
                                "[1,2,3,4,5,6,7,8,9]", "[[1],2]", "[true]", "[null]", "[7]"};
  int id = 0;
  for (const char* shape : shapes) {
    for (const char* strides : shapes) {
      tasks += std::string(tasks.empty() ? "" : ",") + R"({"task_id":")" +
               std::to_string(++id) + R"(","args":[{"idx":0,"type":"INPUT","tensor_id":"5",)" +
               R"("shape":)" + shape + R"(,"strides":)" + strides + "}]}";
    }
  }
  texts.push_back(R"({"tasks":[)" + tasks + R"(],"edges":[{"pred":"1","succ":"2",)" +
                  R"("consumer_shape":[2,2],"producer_strides":[0,01]}]})");
  texts.push_back(R"({"tasks":[)" + tasks + R"(],"edges":[{"pred":"1","succ":"2",)" +
                  R"("consumer_shape":[2,2],"producer_strides":[4,1]}]})");
  for (const std::string& text : texts) {
    DepGraph compact, spaced;
    const std::string compact_error = LoadWith(text, Sequential(), &compact);
    const std::string spaced_error = LoadWith(Spaced(text), Sequential(), &spaced);
    EXPECT_EQ(compact_error.empty(), spaced_error.empty()) << compact_error << spaced_error;
    if (compact_error.empty()) {
      EXPECT_TRUE(SameModel(compact, spaced)) << text.substr(0, 200);
    }
  }
}

// What a load without views (LoadOptions::views off) must give of `graph`: the same model
// with no view kept and no dims.
DepGraph ViewsDropped(DepGraph graph) {
  for (EdgeRow& row : graph.rows) row.producer_view = kNoProducerView;
  graph.arg_views.clear();
  graph.consumer_views.clear();
  graph.producer_views.clear();
  graph.dims.clear();
  graph.views_loaded = false;
  return graph;
}

// Without views a load gives the full model less its views, on any thread count and block
// size, and the same error for every malformed document, a view's syntax error included.
TEST(ParallelLoad, WithoutViewsOnlyTheViewsAreMissing) {
  std::vector<std::string> texts = RealCaptureTexts();
  ASSERT_GE(texts.size(), 10u);
  testing::TempDir dir;
  gen_graph::GenOptions gen;
  gen.shape = gen_graph::Shape::kDecode;
  gen.tasks = 2000;
  gen_graph::GenStats stats;
  std::string err;
  ASSERT_TRUE(gen_graph::WriteGraphFile(gen, dir.File("decode.json"), &stats, &err)) << err;
  texts.push_back(testing::ReadFile(dir.File("decode.json")));
  texts.push_back(AdversarialDocument(40));
  const size_t well_formed = texts.size();
  const std::string task = R"({"task_id":"1","args":[{"idx":0,"type":"INPUT","tensor_id":"5",)";
  for (const char* bad_view : {R"("shape":[1,})", R"("strides":[1 2])", R"("dtype":"\x")",
                               R"("start_offset":01)", R"("shape":[[1],[)"}) {
    texts.push_back(R"({"tasks":[)" + task + bad_view + "}]}]}");
    texts.push_back(R"({"edges":[{"pred":1,"succ":2,"producer_)" + std::string(bad_view + 1) +
                    "}]}");
  }
  for (size_t k = 0; k < texts.size(); ++k) {
    const std::string& text = texts[k];
    DepGraph full;
    const std::string full_error = LoadWith(text, Sequential(), &full);
    EXPECT_EQ(full_error.empty(), k < well_formed) << full_error;
    EXPECT_TRUE(full.views_loaded);
    if (full_error.empty()) {  // one view per argument and per row
      EXPECT_EQ(full.arg_views.size(), full.args.size());
      EXPECT_EQ(full.consumer_views.size(), full.rows.size());
    }
    const DepGraph expected = ViewsDropped(full);
    for (unsigned threads : {1u, 2u, 3u}) {
      for (size_t block_bytes : {0, 7, 300}) {
        LoadOptions options = Options(threads, block_bytes);
        options.views = false;
        DepGraph graph;
        EXPECT_EQ(LoadWith(text, options, &graph), full_error) << text.substr(0, 200);
        if (full_error.empty()) {
          EXPECT_TRUE(SameModel(expected, graph))
              << text.substr(0, 200) << ", " << threads << " threads, blocks of " << block_bytes;
        }
      }
    }
  }
}

TEST(ParallelLoad, CutsInsideStringsAndWhitespaceGiveTheSameModel) {
  EXPECT_GT(ExpectSameOnAnyThreadCount(AdversarialDocument(3), SmallBlocks(64)), 100u);
  EXPECT_GT(ExpectSameOnAnyThreadCount(AdversarialDocument(40), {1, 2, 3, 5, 8, 13, 100, 0}),
            1000u);
}

TEST(ParallelLoad, TinyOneElementAndEmptyArrays) {
  for (const std::string text :
       {"{}", R"({"edges":[]})", R"({"edges":[ ],"tasks":[],"tensors":[ ]})",
        R"({"edges":[{"pred":1,"succ":2}]})", R"({ "edges" : [ { "pred" : 1 , "succ" : 2 } ] })",
        R"({"tasks":[{"task_id":"1","kernel_ids":[0]}],"edges":null})",
        R"({"tensors":[{"tensor_id":"3"},{"tensor_id":"3","dtype":"INT8"}]})",
        R"({"edges":[{"pred":1,"succ":2}],"edges":[{"pred":3,"succ":4},{"pred":3,"succ":4}]})"}) {
    SCOPED_TRACE(text);
    ExpectSameOnAnyThreadCount(text, SmallBlocks(40));
  }
}

TEST(ParallelLoad, OverlapNamesKeepTheirFirstSeenIds) {
  std::string edges;
  for (int i = 0; i < 300; ++i) {
    if (i) edges += ",";
    edges += R"({"pred":1,"succ":2,"overlap":"o)" + std::to_string((i * 37) % 200) + "\"}";
  }
  EXPECT_GT(ExpectSameOnAnyThreadCount(R"({"edges":[)" + edges + "]}", {1, 7, 50, 400, 0}),
            250u);
}

// Errors in several blocks: the message is the sequential parse's first one, path and
// line:column included.
TEST(ParallelLoad, MalformedInputGivesTheSequentialError) {
  auto rows = [](int from, int to) {
    std::string out;
    for (int i = from; i < to; ++i) {
      out += R"({"pred":")" + std::to_string(i) + R"(","succ":")" + std::to_string(i + 1) +
             "\",\"note\":\"},{\"},\n";
    }
    return out;
  };
  const std::string good = rows(0, 30);
  const std::vector<std::string> documents = {
      // A bad id, then a syntax error, then a semantic error, in later blocks.
      "{\"edges\":[" + good + R"({"pred":"0x10","succ":"1"},)" + rows(40, 60) +
          R"({"pred":1 "succ":2},)" + rows(70, 80) + R"({"succ":"2"}]})",
      "{\"edges\":[" + good + R"({"succ":"2"},)" + rows(40, 60) + "{\"pred\":NaN}]}",
      "{\"edges\":[" + good + "{\"pred\":1,\"succ\":2,}]}",       // a trailing comma in a row
      "{\"edges\":[" + good + "]}" + " x",                         // data after the document
      "{\"edges\":[" + good.substr(0, good.size() - 2) + ",]}",    // a trailing comma
      "{\"edges\":[," + good.substr(0, good.size() - 2) + "]}",    // a leading comma
      "{\"edges\":[" + good.substr(0, good.size() - 2) + " {\"pred\":1,\"succ\":2}]}",
      "{\"edges\":[" + good.substr(0, good.size() - 2) + "}}",     // closed by a brace
      "{\"edges\":[" + good.substr(0, good.size() - 2),            // truncated
      "{\"edges\":[" + good + "{\"pred\":\"1\",\"succ\":\"unterminated}]}",
      "{\"edges\":[" + good + "{\"pred\":1,\"succ\":2,\"overlap\":\"bad\\x\"}]}",
      "{\"edges\":[" + good + "{\"pred\":1,\"succ\":2,\"overlap\":\"a\xff\"}]}",
      "{\"edges\":[" + good + "{\"pred\":1,\"succ\":2,\"o\\ud800\":0}]}",
      "{\"edges\":[" + good + "{\"pred\":1,\"succ\":2,\"deep\":" + std::string(600, '[') +
          std::string(600, ']') + "}]}",
      "{\"edges\":[" + good + "5," + rows(40, 50) + "7]}",
      "{\"tasks\":[{\"task_id\":\"1\"},{\"task_id\":\"2\",\"args\":null}],\"edges\":[" + good +
          "{\"pred\":\"x\",\"succ\":1}]}",
      "{\"tasks\":[" + std::string(200, ' ') + "{\"kernel_ids\":[]}],\"edges\":[" + good + "6]}",
  };
  for (const std::string& text : documents) {
    DepGraph graph;
    const std::string reference = LoadWith(text, Sequential(), &graph);
    ASSERT_FALSE(reference.empty()) << text;
    SCOPED_TRACE(reference);
    const size_t blocks = ExpectSameOnAnyThreadCount(text, {1, 2, 3, 5, 8, 13, 31, 64, 100, 0});
    // The rows before the first error were parsed in blocks, then the parse went sequential.
    if (&text == &documents.front()) {
      EXPECT_GT(blocks, 30u);
    }
  }
}

TEST(ParallelLoad, TooManyOverlapNamesAcrossBlocks) {
  std::string edges;
  for (int i = 0; i < 260; ++i) {
    if (i) edges += ",";
    edges += R"({"pred":1,"succ":2,"overlap":"o)" + std::to_string(i) + "\"}";
  }
  const std::string text = R"({"edges":[)" + edges + "]}";
  DepGraph graph;
  EXPECT_EQ(LoadWith(text, Sequential(), &graph),
            "deps.json: edges[254].overlap: more than 254 distinct overlap values");
  ExpectSameOnAnyThreadCount(text, {1, 40, 300, 2000, 0});
}

TEST(ParallelLoad, ProgressIsMonotoneAndOnTheCallingThread) {
  testing::TempDir dir;
  std::string edges;
  for (int i = 0; i < 5000; ++i) {
    if (i) edges += ",";
    edges += R"({"pred":")" + std::to_string(i) + R"(","succ":")" + std::to_string(i + 1) + "\"}";
  }
  testing::WriteFile(dir.File("deps.json"), R"({"edges":[)" + edges + "]}");
  std::vector<double> fractions;
  bool other_thread = false;
  const std::thread::id caller = std::this_thread::get_id();
  DepGraph graph;
  std::string err;
  ASSERT_TRUE(LoadDepsJson(dir.File("deps.json"), &graph, &err, Options(3, 512), [&](double f) {
    fractions.push_back(f);
    other_thread |= std::this_thread::get_id() != caller;
  })) << err;
  EXPECT_FALSE(other_thread);
  // At least one report before the end (more when the calling thread is not descheduled).
  ASSERT_GE(fractions.size(), 2u);
  EXPECT_LT(fractions.front(), 1.0);
  EXPECT_TRUE(std::is_sorted(fractions.begin(), fractions.end()));
  EXPECT_EQ(fractions.back(), 1.0);
  EXPECT_EQ(graph.rows.size(), 5000u);
}

TEST(ParallelLoad, ZeroThreadsMeansEveryCore) {
  const std::string text = AdversarialDocument(30);
  DepGraph reference, graph;
  ASSERT_EQ(LoadWith(text, Sequential(), &reference), "");
  ASSERT_EQ(LoadWith(text, Options(0, 64), &graph), "");
  EXPECT_TRUE(SameModel(reference, graph));
}

TEST(ParallelLoad, RandomCutsOfRandomDocuments) {
  std::mt19937 rng(5);
  for (int round = 0; round < 30; ++round) {
    std::string text = AdversarialDocument(1 + static_cast<int>(rng() % 25));
    if (round % 3 == 1) text[rng() % text.size()] = "{}[],\":\\x "[rng() % 10];  // break it
    DepGraph reference, graph;
    const std::string error = LoadWith(text, Sequential(), &reference);
    const LoadOptions options = Options(1 + rng() % 7, 1 + rng() % 300);
    EXPECT_EQ(LoadWith(text, options, &graph), error) << text;
    EXPECT_TRUE(SameModel(reference, graph)) << text;
  }
}

}  // namespace
}  // namespace depgraph
