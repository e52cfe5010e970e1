// HTML page: embedded JSON, page markers, SVG edge layering, in-process Graphviz.
#include "deps_viewer/html_page.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "depgraph/graph/graph.h"
#include "depgraph/graph/name_map.h"
#include "depgraph/graph/task_label.h"
#include "deps_viewer/graphviz_render.h"
#include "deps_viewer/svg_layers.h"
#include "test_util.h"

namespace depgraph {
namespace {

using testing::LoadText;
using testing::PairOf;

// The viewer specification's worked example (data/samples/worked_example).
const std::string kWorkedExample = testing::WorkedExampleJson();

std::vector<uint8_t> HideOnly(const DepGraph& graph,
                              std::initializer_list<std::pair<uint64_t, uint64_t>> hidden) {
  std::vector<uint8_t> shown(graph.pairs.size(), 1);
  for (const auto& [pred, succ] : hidden) {
    int64_t p = PairOf(graph, pred, succ);
    EXPECT_GE(p, 0);
    if (p >= 0) shown[static_cast<size_t>(p)] = 0;
  }
  return shown;
}

size_t Count(const std::string& text, const std::string& needle) {
  size_t n = 0;
  for (size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++n;
  return n;
}

// §6.1 test 12.
TEST(HtmlPageTest, SpmdBlocksListOnlyMultiBlockTasks) {
  DepGraph graph = LoadText(R"({"tasks":[{"task_id":1,"kernel_ids":[0,-1,-1],"block_num":1},
      {"task_id":2,"kernel_ids":[0,-1,-1],"block_num":8}]})");
  EXPECT_EQ(SpmdBlocksJson(graph), R"({"T0_2":8})");
}

TEST(HtmlPageTest, SpmdBlocksKeysSortAsStrings) {
  DepGraph graph = LoadText(R"({"tasks":[{"task_id":2,"kernel_ids":[0,-1,-1],"block_num":3},
      {"task_id":10,"kernel_ids":[0,-1,-1],"block_num":5}]})");
  EXPECT_EQ(SpmdBlocksJson(graph), R"({"T0_10":5,"T0_2":3})");
  EXPECT_EQ(SpmdBlocksJson(LoadText("{}")), "{}");
}

// §6.1 test 13.
TEST(HtmlPageTest, DepStatsGroupPeersByNameHint) {
  DepGraph graph = LoadText(R"({"tasks":[{"task_id":2,"kernel_ids":[-1,7,-1]},
      {"task_id":3,"kernel_ids":[-1,8,-1]},{"task_id":4,"kernel_ids":[-1,7,-1]},
      {"task_id":5,"kernel_ids":[-1,9,-1]}],
    "edges":[{"pred":1,"succ":5},{"pred":2,"succ":5},{"pred":3,"succ":5},{"pred":4,"succ":5},
             {"pred":5,"succ":1}]})");
  NameMap names;
  names.names = {{"7", "q_proj"}, {"8", "k_proj"}, {"9", "v_proj"}};
  std::string json = DepStatsJson(graph, ResolveTaskLabels(graph, names));
  EXPECT_NE(json.find(R"("T0_5":{"id":"5","fanin":4,"fanout":1,"drawn_in":4,"drawn_out":1,)"
                      R"("label":"5","name_hint":"v_proj",)"
                      R"("preds":[["T0_1",1],["T0_2",1],["T0_3",1],["T0_4",1]],"succs":[["T0_1",1]],)"
                      R"("pred_by_hint":[["q_proj",2],["alloc",1],["k_proj",1]],)"
                      R"("succ_by_hint":[["alloc",1]]})"),
            std::string::npos)
      << json;
  EXPECT_TRUE(json.starts_with(R"({"T0_1":{"id":"1","fanin":1,"fanout":1,)")) << json;
}

TEST(HtmlPageTest, DepStatsNameHintsWithoutNames) {
  DepGraph graph = LoadText(R"({"tasks":[{"task_id":2,"kernel_ids":[-1,7,-1]},
      {"task_id":3,"kernel_ids":[-1,-1,-1]}],
    "edges":[{"pred":2,"succ":3}]})");
  std::string json = DepStatsJson(graph, ResolveTaskLabels(graph, {}));
  EXPECT_EQ(json,
            R"({"T0_2":{"id":"2","fanin":0,"fanout":1,"drawn_in":0,"drawn_out":1,"label":"2",)"
            R"("name_hint":"f7","preds":[],"succs":[["T0_3",1]],"pred_by_hint":[],)"
            R"("succ_by_hint":[["dummy",1]]},)"
            R"("T0_3":{"id":"3","fanin":1,"fanout":0,"drawn_in":1,"drawn_out":0,"label":"3",)"
            R"("name_hint":"dummy","preds":[["T0_2",1]],"succs":[],)"
            R"("pred_by_hint":[["f7",1]],"succ_by_hint":[]}})");
}

// Neighbours are listed by task id, each with whether its pair is drawn in this mode; the
// fan counts stay totals and drawn_in/drawn_out say how many of them are drawn.
TEST(HtmlPageTest, DepStatsListNeighboursAndDrawnCounts) {
  DepGraph graph = LoadText(kWorkedExample);
  std::string json = DepStatsJson(graph, ResolveTaskLabels(graph, {}),
                                  HideOnly(graph, {{1, 3}, {1, 4}}));
  EXPECT_NE(json.find(R"("T0_1":{"id":"1","fanin":1,"fanout":3,"drawn_in":1,"drawn_out":1,)"),
            std::string::npos)
      << json;
  EXPECT_NE(json.find(R"("succs":[["T0_2",1],["T0_3",0],["T0_4",0]])"), std::string::npos) << json;
  EXPECT_NE(json.find(R"("T0_4":{"id":"4","fanin":2,"fanout":0,"drawn_in":1,"drawn_out":0,)"),
            std::string::npos)
      << json;
  EXPECT_NE(json.find(R"("preds":[["T0_1",0],["T0_3",1]])"), std::string::npos) << json;
  // Without a selection every pair is drawn.
  std::string all = DepStatsJson(graph, ResolveTaskLabels(graph, {}));
  EXPECT_EQ(all.find(",0]"), std::string::npos) << all;
}

TEST(HtmlPageTest, CaptureNameIsTheFileAndTwoDirectories) {
  EXPECT_EQ(CaptureName("data/real/paged_attention/CaseSmall1/deps.json"),
            "paged_attention/CaseSmall1/deps.json");
  EXPECT_EQ(CaptureName("/abs/x/./y/deps.json"), "x/y/deps.json");
  EXPECT_EQ(CaptureName("/abs/x/z/../y/deps.json"), "x/y/deps.json");
  EXPECT_EQ(CaptureName("/run1\\deps.json"), "run1/deps.json");
  EXPECT_EQ(CaptureName("/deps.json"), "deps.json");
  EXPECT_EQ(CaptureName(""), "");
  // A relative path is named from where it really is: run in the capture's directory,
  // `deps.json` still says which capture it is.
  std::filesystem::path cwd = std::filesystem::current_path();
  if (cwd.has_parent_path() && cwd.parent_path() != cwd.root_path()) {
    std::string expected = cwd.parent_path().filename().string() + "/" + cwd.filename().string();
    EXPECT_EQ(CaptureName("deps.json"), expected + "/deps.json");
    EXPECT_EQ(CaptureName("./deps.json"), expected + "/deps.json");
  }
}

TEST(HtmlPageTest, DepStatsJsonIsAsciiAndScriptSafe) {
  constexpr uint64_t kRing1 = uint64_t{1} << 32;
  DepGraph graph = LoadText(R"({"tasks":[{"task_id":")" + std::to_string(kRing1 + 2) +
                            R"(","kernel_ids":[1,-1,-1]}]})");
  NameMap names;
  names.names = {{"1", "q\xC2\xB7k</script>\"\xF0\x9F\x94\xA5"}};
  std::string json = DepStatsJson(graph, ResolveTaskLabels(graph, names));
  EXPECT_NE(json.find(R"x("label":"(1, 2)")x"), std::string::npos) << json;
  EXPECT_NE(json.find(R"("name_hint":"q\u00b7k\u003c/script\u003e\"\ud83d\udd25")"),
            std::string::npos)
      << json;
  for (char c : json) EXPECT_LT(static_cast<unsigned char>(c), 0x80);
}

// The panel names a task as the drawing does: a NUL in a kernel name is `\0` in both.
TEST(HtmlPageTest, DepStatsShowNulAsTheDrawingDoes) {
  DepGraph graph = LoadText(R"({"tasks":[{"task_id":2,"kernel_ids":[-1,7,-1]}]})");
  NameMap names;
  names.names = {{"7", std::string("qk\0mm", 5)}};
  std::string json = DepStatsJson(graph, ResolveTaskLabels(graph, names));
  EXPECT_NE(json.find(R"("name_hint":"qk\\0mm")"), std::string::npos) << json;
  EXPECT_EQ(json.find("u0000"), std::string::npos) << json;
}

// §6.1 test 18, with a stub SVG instead of a Graphviz layout.
TEST(HtmlPageTest, PageCarriesStatsDetailPanelAndLegend) {
  DepGraph graph = LoadText(R"({"tasks":[{"task_id":2,"kernel_ids":[-1,7,-1]}],
    "edges":[{"pred":1,"succ":2}]})");
  NameMap names;
  names.names = {{"7", "q_proj"}};
  std::string page = BuildHtmlPage(graph, ResolveTaskLabels(graph, names), {}, HtmlOptions{},
                                   "<?xml version=\"1.0\"?>\n<svg><g class=\"graph\"></g></svg>\n");
  EXPECT_NE(page.find("id=\"detail\""), std::string::npos);
  EXPECT_NE(page.find("const depStats = "), std::string::npos);
  EXPECT_NE(page.find("\"T0_2\""), std::string::npos);
  EXPECT_NE(page.find("\"pred_by_hint\""), std::string::npos);
  EXPECT_NE(page.find("\"q_proj\""), std::string::npos);
  EXPECT_NE(page.find("function openDetail"), std::string::npos);
  EXPECT_NE(page.find("↓N ↑M = pred / succ"), std::string::npos);
  EXPECT_NE(page.find("const spmdBlocks = {};"), std::string::npos);
  EXPECT_NE(page.find("<title>deps.json — full: 2 nodes, 1 edges</title>"), std::string::npos);
  EXPECT_EQ(page.find("<?xml"), std::string::npos);
  EXPECT_NE(page.find("<div id=\"stage\">\n<svg>"), std::string::npos);
  for (const char* swatch : {"AIC (cube)", "AIV (vector)", ">mix<", ">alloc<", "SPMD",
                             ">dummy / no kernel<", ">early dispatch / alloc<", ">fully fed",
                             ">explicit deps=<", ">byte overlap kind<", ">not in this edge mode<"}) {
    EXPECT_NE(page.find(swatch), std::string::npos) << swatch;
  }
  // Self-contained: nothing is fetched.
  EXPECT_EQ(page.find("<script src"), std::string::npos);
  EXPECT_EQ(page.find("<link"), std::string::npos);
  EXPECT_EQ(page.find("http://"), page.find("http://www.w3.org/2000/svg"));
}

// Title and header name the capture and the mode, escaped; the page script draws the
// markers, rewrites tooltips, ghosts hidden edges, lists neighbours and fits below the header.
TEST(HtmlPageTest, PageNamesCaptureAndModeAndCarriesTheFixes) {
  DepGraph graph = LoadText(R"({"tasks":[{"task_id":2,"kernel_ids":[-1,7,-1]}],
    "edges":[{"pred":1,"succ":2}]})");
  HtmlOptions options;
  options.source = "/tmp/a&b/<run>/deps.json";
  options.edge_mode = "reduced_dataflow";
  std::string page = BuildHtmlPage(graph, ResolveTaskLabels(graph, {}), {1}, options,
                                   "<svg><g class=\"graph\"></g></svg>");
  EXPECT_NE(page.find("<title>a&amp;b/&lt;run&gt;/deps.json — reduced_dataflow: 2 nodes, 1 "
                      "edges</title>"),
            std::string::npos);
  EXPECT_NE(page.find("<span id=\"capture\">a&amp;b/&lt;run&gt;/deps.json</span>"),
            std::string::npos);
  EXPECT_NE(page.find(">reduced_dataflow</span>"), std::string::npos);
  EXPECT_NE(page.find("g.edge.hidden-edge path"), std::string::npos);  // ghost style
  EXPECT_NE(page.find("stroke-dasharray: 4 3"), std::string::npos);
  EXPECT_NE(page.find("function drawMarkers"), std::string::npos);     // 🔥/⭐ as shapes
  EXPECT_NE(page.find("function freeArea"), std::string::npos);        // fit below the header
  EXPECT_NE(page.find("'detail-preds'"), std::string::npos);
  EXPECT_NE(page.find("'detail-succs'"), std::string::npos);
  EXPECT_NE(page.find("task-link"), std::string::npos);
  EXPECT_NE(page.find("centreOn(group)"), std::string::npos);
}

// A Graphviz-shaped SVG: comments, a nested node table group, escaped class names.
constexpr const char* kStubSvg =
    "<svg width=\"10pt\" height=\"10pt\" viewBox=\"0 0 10 10\">\n"
    "<g id=\"graph0\" class=\"graph\" transform=\"translate(4 95)\">\n"
    "<title>deps</title>\n"
    "<polygon fill=\"white\" points=\"0,0\"/>\n"
    "<!-- T0_1 -->\n"
    "<g id=\"node1\" class=\"node\">\n<title>T0_1</title>\n<g id=\"a\"><text>x&gt;</text></g>\n</g>\n"
    "<!-- T0_1&#45;&gt;T0_2 -->\n"
    "<g id=\"edge1\" class=\"edge hidden&#45;edge\">\n<title>T0_1&#45;&gt;T0_2</title>\n<path d=\"M0\"/>\n</g>\n"
    "<!-- T0_2 -->\n"
    "<g id=\"node2\" class=\"node\">\n<title>T0_2</title>\n</g>\n"
    "<!-- T0_2&#45;&gt;T0_3 -->\n"
    "<g id=\"edge2\" class=\"edge\">\n<title>T0_2&#45;&gt;T0_3</title>\n</g>\n"
    "<!-- T0_1&#45;&gt;T0_3 -->\n"
    "<g id=\"edge3\" class='hidden-edge edge'>\n<title>T0_1&#45;&gt;T0_3</title>\n</g>\n"
    "</g>\n"
    "</svg>\n";

TEST(HtmlPageTest, LayerSvgEdgesPutsHiddenBelowVisibleBelowNodes) {
  std::string out = LayerSvgEdges(kStubSvg);
  size_t hidden_layer = out.find("<g class=\"edge-layer hidden-edge-layer\">");
  size_t visible_layer = out.find("<g class=\"edge-layer visible-edge-layer\">");
  size_t first_node = out.find("<g id=\"node1\"");
  ASSERT_NE(hidden_layer, std::string::npos) << out;
  ASSERT_NE(visible_layer, std::string::npos) << out;
  EXPECT_LT(out.find("<polygon fill=\"white\""), hidden_layer);
  EXPECT_LT(hidden_layer, out.find("id=\"edge1\""));
  EXPECT_LT(out.find("id=\"edge1\""), out.find("id=\"edge3\""));
  EXPECT_LT(out.find("id=\"edge3\""), visible_layer);
  EXPECT_LT(visible_layer, out.find("id=\"edge2\""));
  EXPECT_LT(out.find("id=\"edge2\""), out.find("<!-- T0_1 -->"));
  EXPECT_LT(out.find("<!-- T0_1 -->"), first_node);
  EXPECT_LT(first_node, out.find("id=\"node2\""));
  // Comments travel with their edges; nothing is lost or duplicated.
  EXPECT_LT(out.find("<!-- T0_2&#45;&gt;T0_3 -->"), out.find("id=\"edge2\""));
  EXPECT_GT(out.find("<!-- T0_2&#45;&gt;T0_3 -->"), visible_layer);
  EXPECT_EQ(out.size(), std::string(kStubSvg).size() +
                            std::string("\n<g class=\"edge-layer hidden-edge-layer\">\n</g>\n"
                                        "<g class=\"edge-layer visible-edge-layer\">\n</g>")
                                .size());
  EXPECT_TRUE(out.ends_with("</g>\n</g>\n</svg>\n"));
  EXPECT_EQ(Count(out, "<g"), Count(out, "</g>"));
}

TEST(HtmlPageTest, LayerSvgEdgesLeavesOtherSvgAlone) {
  std::string no_hidden = kStubSvg;
  for (std::string hidden : {"edge hidden&#45;edge", "hidden-edge edge"}) {
    no_hidden.replace(no_hidden.find(hidden), hidden.size(), "edge");
  }
  EXPECT_EQ(LayerSvgEdges(no_hidden), no_hidden);
  std::string unbalanced(kStubSvg);
  unbalanced.resize(unbalanced.find("</g>\n</svg>"));
  EXPECT_EQ(LayerSvgEdges(unbalanced), unbalanced);
  EXPECT_EQ(LayerSvgEdges("not svg at all"), "not svg at all");
  EXPECT_EQ(LayerSvgEdges(""), "");
}

TEST(HtmlPageTest, GraphvizRendersEveryEngineInProcess) {
  const std::string dot = "digraph deps {\n  a -> b;\n  b -> c;\n  a -> c;\n}\n";
  for (const char* engine : {"dot", "neato", "sfdp", "fdp", "circo", "twopi"}) {
    std::string svg, err;
    EXPECT_TRUE(RenderSvgWithGraphviz(dot, engine, &svg, &err)) << engine << ": " << err;
    EXPECT_NE(svg.find("<svg"), std::string::npos) << engine;
    EXPECT_EQ(Count(svg, "class=\"node\""), 3u) << engine;
  }
}

TEST(HtmlPageTest, GraphvizFailuresAreReturnedNotPrinted) {
  std::string svg, err;
  ::testing::internal::CaptureStderr();
  EXPECT_FALSE(RenderSvgWithGraphviz("digraph {\n a -> ;\n}\n", "dot", &svg, &err));
  std::string printed = ::testing::internal::GetCapturedStderr();
  EXPECT_NE(err.find("syntax error"), std::string::npos) << err;
  EXPECT_EQ(printed, "");
  EXPECT_FALSE(RenderSvgWithGraphviz("digraph { a; }", "bogus", &svg, &err));
  EXPECT_NE(err.find("bogus"), std::string::npos);
  EXPECT_FALSE(IsLayoutEngine("bogus"));
  EXPECT_TRUE(IsLayoutEngine("twopi"));

  DepGraph graph = LoadText(testing::EdgesJson({{1, 2, "explicit"}}));
  HtmlOptions options;
  options.engine = "osage";
  std::string html;
  EXPECT_FALSE(RenderHtmlPage(graph, ResolveTaskLabels(graph, {}), {}, options, &html, &err));
  EXPECT_NE(err.find("osage"), std::string::npos);
  EXPECT_TRUE(html.empty());
}

// §6.2 H: reduced mode keeps every edge in the layout and layers the hidden ones.
TEST(HtmlPageTest, WorkedExampleHiddenEdgesAreLayered) {
  DepGraph graph = LoadText(kWorkedExample);
  std::vector<TaskLabel> labels = ResolveTaskLabels(graph, {});
  std::string html, err;
  HtmlOptions options;
  options.source = "data/samples/worked_example/deps.json";
  options.edge_mode = "reduced";
  ASSERT_TRUE(RenderHtmlPage(graph, labels, HideOnly(graph, {{1, 3}, {1, 4}}), options, &html,
                             &err))
      << err;
  EXPECT_NE(html.find("<title>samples/worked_example/deps.json — reduced: 5 nodes, 6 of 8 "
                      "edges</title>"),
            std::string::npos);
  EXPECT_NE(html.find("<span id=\"edge-mode\" class=\"mode\" title=\"edge mode (--edge-mode)\">"
                      "reduced</span>"),
            std::string::npos);
  EXPECT_NE(html.find("<span class=\"count\" id=\"edge-counts\">6 of 8 edges</span>"),
            std::string::npos);
  EXPECT_NE(html.find("2 not in this mode, drawn as faint dashed ghosts"), std::string::npos);
  size_t hidden_layer = html.find("<g class=\"edge-layer hidden-edge-layer\">");
  size_t visible_layer = html.find("<g class=\"edge-layer visible-edge-layer\">");
  ASSERT_NE(hidden_layer, std::string::npos);
  ASSERT_NE(visible_layer, std::string::npos);
  EXPECT_LT(hidden_layer, visible_layer);
  EXPECT_LT(visible_layer, html.find("class=\"node\""));
  std::string hidden_part = html.substr(hidden_layer, visible_layer - hidden_layer);
  EXPECT_EQ(Count(hidden_part, "<g id=\"edge"), 2u);
  EXPECT_EQ(Count(hidden_part, "<path fill=\"none\" stroke=\"#eef2f7\""), 2u);
  EXPECT_EQ(Count(html, "<g id=\"edge"), 8u);
  EXPECT_EQ(Count(html, "class=\"node\""), 5u);
  EXPECT_NE(html.find(R"(const spmdBlocks = {"T0_2":4};)"), std::string::npos);
}

TEST(HtmlPageTest, FullModeHasNoHiddenEdges) {
  DepGraph graph = LoadText(kWorkedExample);
  std::string html, err;
  ASSERT_TRUE(RenderHtmlPage(graph, ResolveTaskLabels(graph, {}), {}, HtmlOptions{}, &html, &err))
      << err;
  EXPECT_NE(html.find("<title>deps.json — full: 5 nodes, 8 edges</title>"), std::string::npos);
  EXPECT_EQ(html.find("<span class=\"ghost-note\">"), std::string::npos);
  std::string drawing = html.substr(html.find("<div id=\"stage\">"));
  drawing.resize(drawing.find("</svg>"));
  EXPECT_EQ(drawing.find("hidden-edge"), std::string::npos);
  EXPECT_EQ(html.find("hidden&#45;edge"), std::string::npos);
  EXPECT_EQ(html.find("edge-layer"), std::string::npos);
}

TEST(HtmlPageTest, RichPageRendersAndReportsPortWarnings) {
  DepGraph graph = LoadText(kWorkedExample);
  HtmlOptions options;
  options.rich = true;
  options.rankdir = "TB";
  options.engine = "dot";
  std::string html, err, warnings;
  ::testing::internal::CaptureStderr();
  bool ok = RenderHtmlPage(graph, ResolveTaskLabels(graph, {}), {}, options, &html, &err,
                           &warnings);
  std::string printed = ::testing::internal::GetCapturedStderr();
  ASSERT_TRUE(ok) << err;
  // Task 1's argument 0 is OUTPUT_EXISTING: the creator row 0->1 names an input port it
  // does not have, which Graphviz reports (the reference tool's layout does the same).
  EXPECT_NE(warnings.find("in_0"), std::string::npos) << warnings;
  EXPECT_EQ(printed.find("in_0"), std::string::npos) << printed;
  EXPECT_NE(html.find("arg0 INOUT T0:float32"), std::string::npos);
  EXPECT_EQ(Count(html, "<g id=\"edge"), 8u);
}

}  // namespace
}  // namespace depgraph
