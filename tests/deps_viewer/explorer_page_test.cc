// The explorer page: its embedded data (every node and pair, per-mode classification equal to
// SelectEdges), script safety, self-containment, determinism, and deps_viewer's choice of page.
#include "deps_viewer/explorer_page.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "depgraph/graph/load_deps.h"
#include "depgraph/graph/name_map.h"
#include "depgraph/graph/task_label.h"
#include "depgraph/reduce/edge_mode.h"
#include "depgraph/reduce/reduction.h"
#include "deps_viewer/graphviz_job.h"
#include "deps_viewer/viewer_output.h"
#include "explorer_assets.h"
#include "test_util.h"

namespace depgraph {
namespace {

using testing::CommandResult;
using testing::LoadText;
using testing::ReadFile;
using testing::TempDir;
using testing::WriteFile;

struct Page {
  std::string html;
  ExplorerPageSummary summary;
};

Page BuildPage(const DepGraph& graph, const NameMap& names = {},
               EdgeMode mode = EdgeMode::kFull, const std::string& source = "a/b/deps.json") {
  const std::vector<TaskLabel> labels = ResolveTaskLabels(graph, names);
  const StructuralReduction reduction = ReduceStructurally(graph);
  ExplorerPageOptions options;
  options.source = source;
  options.initial_mode = mode;
  std::ostringstream out;
  Page page;
  WriteExplorerPage(graph, labels, reduction, options, out, &page.summary);
  page.html = out.str();
  return page;
}

// The text between <script type="application/json" id="explorer-data"> and </script>.
std::string DataText(const std::string& html) {
  const std::string open = "<script type=\"application/json\" id=\"explorer-data\">";
  size_t start = html.find(open);
  if (start == std::string::npos) return "";
  start += open.size();
  return html.substr(start, html.find("</script>", start) - start);
}

nlohmann::json Data(const std::string& html) { return nlohmann::json::parse(DataText(html)); }

// The per-task details object (second script element).
nlohmann::json Details(const std::string& html) {
  const std::string open = "<script type=\"application/json\" id=\"explorer-details\">";
  size_t start = html.find(open);
  if (start == std::string::npos) return nullptr;
  start += open.size();
  return nlohmann::json::parse(html.substr(start, html.find("</script>", start) - start));
}

size_t Count(const std::string& text, const std::string& needle) {
  size_t n = 0;
  for (size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++n;
  return n;
}

// Per mode, how many pairs the page's classification shows (as the page computes it).
size_t PageModeCount(const nlohmann::json& data, const std::string& mode) {
  const std::string cls = data["cls"];
  if (mode == "full" || data["cycle"].get<bool>()) return cls.size();
  const int bit = mode == "reduced" ? 1 : mode == "reduced_dataflow" ? 2 : 4;
  size_t n = 0;
  for (char c : cls) n += ((c - '0') & bit) ? 1 : 0;
  return n;
}

std::vector<std::string> RealCaptures() {
  std::vector<std::string> paths;
  for (const auto& entry :
       std::filesystem::recursive_directory_iterator(testing::SourceDir() + "/data/real")) {
    if (entry.path().filename() == "deps.json") paths.push_back(entry.path().string());
  }
  std::sort(paths.begin(), paths.end());
  return paths;
}

TEST(ExplorerPage, DataCarriesEveryNodeAndPair) {
  const std::string path = testing::SourceDir() + "/data/real/paged_attention/CaseSmall1/deps.json";
  DepGraph graph;
  std::string err;
  ASSERT_TRUE(LoadDepsJson(path, &graph, &err)) << err;
  const std::string html = BuildPage(graph).html;
  const nlohmann::json data = Data(html);
  const nlohmann::json details = Details(html);
  ASSERT_EQ(data["ids"].size(), graph.nodes.size());
  for (size_t i = 0; i < graph.nodes.size(); ++i) {
    EXPECT_EQ(data["ids"][i], std::to_string(graph.nodes[i])) << i;
  }
  ASSERT_EQ(data["pairs"].size(), 2 * graph.pairs.size());
  for (size_t p = 0; p < graph.pairs.size(); ++p) {
    EXPECT_EQ(data["pairs"][2 * p], graph.pairs[p].pred);
    EXPECT_EQ(data["pairs"][2 * p + 1], graph.pairs[p].succ);
  }
  EXPECT_EQ(data["x"].size(), graph.nodes.size());
  EXPECT_EQ(data["y"].size(), graph.nodes.size());
  EXPECT_EQ(data["kc"].get<std::string>().size(), graph.nodes.size());
  EXPECT_EQ(details["det"].size(), graph.nodes.size());
  EXPECT_EQ(details["erows"].size(), 3 * graph.rows.size());
  EXPECT_EQ(data["name"], "a/b/deps.json");
}

TEST(ExplorerPage, WithoutANameMapKernelsAreNamedByTheirIds) {
  // Kernels 0..3 of paged attention, no name map: the page still has one name per kernel (so
  // colouring and search by kernel work), in the f{id} form of the text report.
  const std::string path = testing::SourceDir() + "/data/real/paged_attention/CaseSmall1/deps.json";
  DepGraph graph;
  std::string err;
  ASSERT_TRUE(LoadDepsJson(path, &graph, &err)) << err;
  const nlohmann::json data = Data(BuildPage(graph).html);
  EXPECT_EQ(data["names"], nlohmann::json({"f0", "f1", "f2", "f3"}));
  const std::vector<TaskLabel> labels = ResolveTaskLabels(graph, NameMap());
  for (uint32_t n = 0; n < graph.nodes.size(); ++n) {
    const int64_t kern = data["kern"][n].get<int64_t>();
    if (labels[n].kind != TaskKind::kSubmit) {
      EXPECT_EQ(kern, -1) << n;
      continue;
    }
    ASSERT_GE(kern, 0) << n;
    EXPECT_EQ(data["names"][kern], "f" + std::to_string(graph.TaskOfNode(n)->kernel_ids[0] >= 0
                                                              ? graph.TaskOfNode(n)->kernel_ids[0]
                                                              : graph.TaskOfNode(n)->kernel_ids[1]))
        << n;
  }
}

TEST(ExplorerPage, ModeCountsEqualSelectEdgesOnEveryRealCapture) {
  const std::vector<std::string> captures = RealCaptures();
  ASSERT_GE(captures.size(), 10u);
  for (const std::string& path : captures) {
    DepGraph graph;
    std::string err;
    ASSERT_TRUE(LoadDepsJson(path, &graph, &err)) << err;
    const StructuralReduction reduction = ReduceStructurally(graph);
    const Page page = BuildPage(graph);
    const nlohmann::json data = Data(page.html);
    for (EdgeMode mode : {EdgeMode::kFull, EdgeMode::kReduced, EdgeMode::kReducedDataflow,
                          EdgeMode::kRetained}) {
      const EdgeSelection selection = SelectEdges(graph, reduction, mode);
      const std::string name = EdgeModeName(mode);
      EXPECT_EQ(PageModeCount(data, name), selection.shown_count) << path << " " << name;
      EXPECT_EQ(data["counts"][name].get<size_t>(), selection.shown_count) << path << " " << name;
      // Pair by pair, not only the totals.
      const std::string cls = data["cls"];
      const int bit = mode == EdgeMode::kReduced ? 1 : mode == EdgeMode::kReducedDataflow ? 2 : 4;
      for (size_t p = 0; mode != EdgeMode::kFull && p < graph.pairs.size(); ++p) {
        EXPECT_EQ(((cls[p] - '0') & bit) != 0, selection.shown[p] != 0) << path << " " << p;
      }
    }
    EXPECT_EQ(page.summary.reduced, SelectEdges(graph, reduction, EdgeMode::kReduced).shown_count);
  }
}

TEST(ExplorerPage, TaskDetailsAndEdgeRowsAreEmbedded) {
  DepGraph graph = LoadText(R"({"tasks":[
      {"task_id":1,"scope":"manual","kernel_ids":[3,-1,-1],"block_num":4,"args":[
        {"idx":0,"type":"INPUT","tensor_id":"77","dtype":"FLOAT16","shape":[2,8],
         "start_offset":"16","strides":[8,1]},{"idx":1,"type":"OUTPUT"}]},
      {"task_id":2,"kernel_ids":[-1,4,-1],"args":[]}],
    "tensors":[{"tensor_id":"99"},{"tensor_id":"77"}],
    "edges":[{"pred":"1","succ":"2","arg":0,"source":"tensormap","flags":["wait"],
              "overlap":"covered","tensor_id":"77"},
             {"pred":"1","succ":"2","arg":1,"source":"creator","flags":["wait","retain"]}]})");
  ASSERT_EQ(graph.rows.size(), 2u);
  EXPECT_EQ(graph.rows[0].flags, kEdgeFlagWait);
  EXPECT_EQ(graph.rows[1].flags, kEdgeFlagWait | kEdgeFlagRetain);
  const std::string html = BuildPage(graph).html;
  const nlohmann::json data = Data(html);
  const nlohmann::json details = Details(html);
  // Argument type as a letter, dtype as an index into `dtypes`.
  EXPECT_EQ(details["det"][0], "3,-1,-1|0,I,1,1,16,2x8,8x1;1,O,,,,,");
  EXPECT_EQ(details["dtypes"][1], "FLOAT16");
  EXPECT_EQ(details["det"][1], "-1,4,-1|");
  EXPECT_EQ(data["block"], nlohmann::json::parse("[0,4]"));
  EXPECT_EQ(data["manual"], nlohmann::json::parse("[0]"));
  EXPECT_EQ(data["kc"], "12");  // submit aic, submit aiv
  // Rows of pair 0 in file order: tensormap (1) | wait (1 << 2) | overlap "covered" (1 << 5)
  // | arg 0 (1 << 13), tensor T1; then creator (0) | wait+retain (3 << 2) | arg 1 (2 << 13).
  EXPECT_EQ(details["erows"], nlohmann::json::parse("[0,8229,1,0,16396,-1]"));
  EXPECT_EQ(details["overlaps"][1], "covered");
}

TEST(ExplorerPage, PagesWithoutDetailsCarryTheGraphOnly) {
  const DepGraph graph = LoadText(testing::WorkedExampleJson());
  const std::vector<TaskLabel> labels = ResolveTaskLabels(graph, {});
  ExplorerPageOptions options;
  options.task_details = false;
  std::ostringstream out;
  ExplorerPageSummary summary;
  WriteExplorerPage(graph, labels, ReduceStructurally(graph), options, out,
                    &summary);
  EXPECT_FALSE(summary.task_details);
  const nlohmann::json data = Data(out.str());
  EXPECT_FALSE(data["details"].get<bool>());
  EXPECT_EQ(data["ids"].size(), graph.nodes.size());
  EXPECT_EQ(Details(out.str()), nlohmann::json::object());
}

TEST(ExplorerPage, FlagsOtherThanWaitAndRetainAreKeptAsOther) {
  DepGraph graph = LoadText(R"({"edges":[
      {"pred":1,"succ":2,"source":"explicit","flags":["wait","later"]},
      {"pred":2,"succ":3,"source":"explicit","flags":"wait"},
      {"pred":3,"succ":4,"source":"explicit","flags":[]},
      {"pred":4,"succ":5,"source":"explicit"}]})");
  ASSERT_EQ(graph.rows.size(), 4u);
  EXPECT_EQ(graph.rows[0].flags, kEdgeFlagWait | kEdgeFlagOther);
  EXPECT_EQ(graph.rows[1].flags, kEdgeFlagOther);
  EXPECT_EQ(graph.rows[2].flags, 0);
  EXPECT_EQ(graph.rows[3].flags, 0);
}

TEST(ExplorerPage, LessThanIsEscapedSoDataCannotCloseTheScript) {
  DepGraph graph = LoadText(R"({"tasks":[{"task_id":1,"kernel_ids":[0,-1,-1]},
      {"task_id":2,"kernel_ids":[1,-1,-1]}],"edges":[{"pred":1,"succ":2,"source":"explicit"}]})");
  NameMap names;
  names.names["0"] = "</script><script>alert(1)</script>";
  names.names["1"] = "a<!--b&c>";
  const Page page = BuildPage(graph, names, EdgeMode::kFull, "x/<b>/deps.json");
  const std::string data = DataText(page.html);
  EXPECT_EQ(data.find('<'), std::string::npos);
  EXPECT_EQ(data.find('>'), std::string::npos);
  EXPECT_NE(data.find("\\u003c/script\\u003e"), std::string::npos);
  // Only the page's own four scripts close (data, details, runs, code).
  EXPECT_EQ(Count(page.html, "</script>"), 4u);
  const nlohmann::json json = nlohmann::json::parse(data);
  EXPECT_EQ(json["names"][0], "</script><script>alert(1)</script>");
  EXPECT_EQ(json["names"][1], "a<!--b&c>");
  EXPECT_NE(page.html.find("<title>x/&lt;b&gt;/deps.json"), std::string::npos);
}

TEST(ExplorerPage, AssetsAreSelfContainedAndCannotBreakTheirElements) {
  for (std::string_view asset : {assets::kExplorerCss, assets::kExplorerJs,
                                 assets::kExplorerDataJs, assets::kExplorerRenderJs}) {
    EXPECT_EQ(asset.find("</script"), std::string_view::npos);
    EXPECT_EQ(asset.find("</style"), std::string_view::npos);
    EXPECT_EQ(asset.find("@@"), std::string_view::npos);
  }
  for (const char* key : {"@@TITLE@@", "@@CSS@@", "@@DATA@@", "@@DETAILS@@", "@@JS@@"}) {
    EXPECT_EQ(Count(std::string(assets::kExplorerHtml), key), 1u) << key;
  }
  const Page page = BuildPage(LoadText(testing::WorkedExampleJson()));
  EXPECT_EQ(page.html.find("@@"), std::string::npos);
  EXPECT_EQ(page.html.find("http://"), std::string::npos);
  EXPECT_EQ(page.html.find("https://"), std::string::npos);
  EXPECT_EQ(page.html.find("src="), std::string::npos);
  EXPECT_EQ(page.html.find("<link"), std::string::npos);
  EXPECT_EQ(page.html.find("@import"), std::string::npos);
  // The contract's DOM ids are there (docs/explorer.md).
  for (const char* id : {"id=\"view\"", "id=\"search\"", "id=\"search-results\"", "id=\"mode\"",
                         "id=\"edge-count\"", "id=\"panel\"", "id=\"color-by\"", "id=\"legend\"",
                         "id=\"minimap\""}) {
    EXPECT_NE(page.html.find(id), std::string::npos) << id;
  }
}

TEST(ExplorerPage, CycleStillProducesAPageShowingEveryPairInEveryMode) {
  DepGraph graph = LoadText(testing::EdgesJson(
      {{1, 2, "explicit"}, {2, 3, "explicit"}, {3, 1, "explicit"}, {1, 3, "explicit"}}));
  const Page page = BuildPage(graph, {}, EdgeMode::kReduced);
  const nlohmann::json data = Data(page.html);
  EXPECT_TRUE(data["cycle"].get<bool>());
  EXPECT_TRUE(page.summary.cycle);
  EXPECT_EQ(data["ids"].size(), 3u);
  for (const char* mode : {"full", "reduced", "reduced_dataflow", "retained"}) {
    EXPECT_EQ(data["counts"][mode], 4) << mode;
  }
  EXPECT_EQ(data["mode"], "reduced");
}

CommandResult Viewer(const TempDir& dir, const std::string& args) {
  return testing::RunCommand("'" + testing::ViewerBinary() + "' " + args, dir.path());
}

// A chain of n tasks (n - 1 explicit edges).
std::string Chain(size_t n) {
  std::string out = "{\"edges\":[";
  for (size_t i = 1; i < n; ++i) {
    out += (i > 1 ? ",{\"pred\":" : "{\"pred\":") + std::to_string(i) + ",\"succ\":" +
           std::to_string(i + 1) + ",\"source\":\"explicit\"}";
  }
  return out + "]}";
}

TEST(ExplorerPage, ViewerSwitchesToTheExplorerAboveTheThreshold) {
  TempDir dir;
  WriteFile(dir.File("big.json"), Chain(kGraphvizMaxTasks + 1));
  CommandResult r = Viewer(dir, "big.json --format html -o big.html --edge-mode reduced");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "deps_viewer: " + std::to_string(kGraphvizMaxTasks + 1) + " tasks > " +
                       std::to_string(kGraphvizMaxTasks) +
                       ": writing the explorer page (layered layout); --layout graphviz forces "
                       "Graphviz\n");
  const std::string html = ReadFile(dir.File("big.html"));
  EXPECT_NE(html.find("id=\"explorer-data\""), std::string::npos);
  const size_t edges = kGraphvizMaxTasks;
  EXPECT_NE(r.out.find("Explorer page carries every edge mode (full " + std::to_string(edges) +
                       ", reduced " + std::to_string(edges) + ", reduced_dataflow " +
                       std::to_string(edges) + ", retained 0 edge(s)) and opens in reduced\n"),
            std::string::npos)
      << r.out;
  EXPECT_EQ(r.out.find("HTML layout preserves"), std::string::npos);
  EXPECT_NE(r.out.find("layout=layered, format=html)"), std::string::npos);

  // At the threshold: the Graphviz page, nothing on stderr.
  WriteFile(dir.File("small.json"), Chain(kGraphvizMaxTasks));
  r = Viewer(dir, "small.json --format html -o small.html");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "");
  EXPECT_EQ(ReadFile(dir.File("small.html")).find("id=\"explorer-data\""), std::string::npos);
}

TEST(ExplorerPage, ManyPairsAlsoSwitchToTheExplorer) {
  // 60 tasks, every earlier task a predecessor of every later one: 1,770 pairs.
  std::string json = "{\"edges\":[";
  size_t pairs = 0;
  for (int a = 1; a <= 60; ++a) {
    for (int b = a + 1; b <= 60; ++b) {
      json += (pairs++ ? ",{\"pred\":" : "{\"pred\":") + std::to_string(a) +
              ",\"succ\":" + std::to_string(b) + ",\"source\":\"explicit\"}";
    }
  }
  json += "]}";
  ASSERT_GT(pairs, kGraphvizMaxEdges);
  TempDir dir;
  WriteFile(dir.File("dense.json"), json);
  CommandResult r = Viewer(dir, "dense.json --format html -o dense.html");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "deps_viewer: " + std::to_string(pairs) + " edges > " +
                       std::to_string(kGraphvizMaxEdges) +
                       ": writing the explorer page (layered layout); --layout graphviz forces "
                       "Graphviz\n");
  EXPECT_NE(ReadFile(dir.File("dense.html")).find("id=\"explorer-data\""), std::string::npos);
}

TEST(ExplorerPage, ASmallGraphThatDotWouldTakeMinutesOnGetsTheExplorer) {
  // 200 tasks in a chain, each also an edge to the last: 397 pairs, within the size limits, but
  // the long edges span ~20,000 ranks, which dot lays out in minutes.
  std::string json = "{\"edges\":[";
  for (int i = 1; i < 200; ++i) {
    json += (i > 1 ? ",{\"pred\":" : "{\"pred\":") + std::to_string(i) +
            ",\"succ\":" + std::to_string(i + 1) + ",\"source\":\"explicit\"}";
    if (i + 1 < 200) {
      json += ",{\"pred\":" + std::to_string(i) + ",\"succ\":200,\"source\":\"explicit\"}";
    }
  }
  json += "]}";
  TempDir dir;
  WriteFile(dir.File("skips.json"), json);
  DepGraph graph;
  std::string error;
  ASSERT_TRUE(LoadDepsJsonText(json, "skips.json", &graph, &error)) << error;
  ASSERT_LE(graph.nodes.size(), kGraphvizMaxTasks);
  ASSERT_LE(graph.pairs.size(), kGraphvizMaxEdges);
  const double estimate = EstimateDotSeconds(PredictDotSolverNodes(graph));
  ASSERT_GE(estimate, kGraphvizLongLayoutSeconds);
  CommandResult r = Viewer(dir, "skips.json --format html -o skips.html");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "deps_viewer: Graphviz dot would take " + ApproximateDuration(estimate) +
                       " on 200 tasks (estimated): writing the explorer page (layered layout), "
                       "ready in seconds; --layout graphviz forces Graphviz\n");
  EXPECT_NE(ReadFile(dir.File("skips.html")).find("id=\"explorer-data\""), std::string::npos);
  // Another engine is not estimated: its page stays the Graphviz one within the size limits.
  r = Viewer(dir, "skips.json --format html --engine neato -o neato.html");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err.find("would take"), std::string::npos) << r.err;
  EXPECT_EQ(ReadFile(dir.File("neato.html")).find("id=\"explorer-data\""), std::string::npos);
}

TEST(ExplorerPage, CycleOpensInFullAndTheViewerSaysSo) {
  TempDir dir;
  WriteFile(dir.File("deps.json"),
            testing::EdgesJson({{1, 2, "explicit"}, {2, 3, "explicit"}, {3, 1, "explicit"}}));
  CommandResult r = Viewer(dir, "deps.json --format html --layout layered --edge-mode reduced");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("Explorer page carries every edge mode (full 3, reduced 3, "
                       "reduced_dataflow 3, retained 3 edge(s)) and opens in full\n"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.err.find("warning: dependency graph has a cycle"), std::string::npos);
  // A cyclic reduction writes deps_viewer.html (the reference tool's quirk).
  const nlohmann::json data = Data(ReadFile(dir.File("deps_viewer.html")));
  EXPECT_EQ(data["mode"], "full");
  EXPECT_TRUE(data["cycle"].get<bool>());
}

TEST(ExplorerPage, LayoutFlagForcesEitherPage) {
  TempDir dir;
  WriteFile(dir.File("deps.json"), testing::WorkedExampleJson());
  CommandResult r = Viewer(dir, "deps.json --format html --layout layered -o x.html");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "");
  EXPECT_NE(ReadFile(dir.File("x.html")).find("id=\"explorer-data\""), std::string::npos);

  WriteFile(dir.File("big.json"), Chain(kGraphvizMaxTasks + 5));
  r = Viewer(dir, "big.json --format html --layout graphviz -o y.html");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "");
  const std::string graphviz = ReadFile(dir.File("y.html"));
  EXPECT_EQ(graphviz.find("id=\"explorer-data\""), std::string::npos);
  EXPECT_NE(graphviz.find("<svg"), std::string::npos);

  r = Viewer(dir, "deps.json --format html --layout sideways");
  EXPECT_EQ(r.exit_code, 2);
  r = Viewer(dir, "deps.json --layout layered");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "error: --layout is only valid with --format html\n");
}

TEST(ExplorerPage, OutputIsDeterministic) {
  TempDir dir;
  std::filesystem::copy(testing::SourceDir() + "/data/real/paged_attention/CaseVarSeq2",
                        dir.File("c"), std::filesystem::copy_options::recursive);
  CommandResult a = Viewer(dir, "c/deps.json --format html --layout layered -o a.html");
  CommandResult b = Viewer(dir, "c/deps.json --format html --layout layered -o b.html");
  ASSERT_EQ(a.exit_code, 0) << a.err;
  ASSERT_EQ(b.exit_code, 0) << b.err;
  const std::string first = ReadFile(dir.File("a.html"));
  EXPECT_GT(first.size(), 1000u);
  EXPECT_EQ(first, ReadFile(dir.File("b.html")));
  // The kernel names of the sibling name map made it in.
  EXPECT_NE(DataText(first).find("\"names\":[\""), std::string::npos);
}

}  // namespace
}  // namespace depgraph
