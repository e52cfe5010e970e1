// DOT output: plain/rich nodes, markers, fan counts, hidden edges, ports, back-fill.
#include "depgraph/render/dot_writer.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "depgraph/graph/graph.h"
#include "depgraph/graph/name_map.h"
#include "depgraph/graph/task_label.h"
#include "deps_viewer/graphviz_render.h"
#include "test_util.h"

namespace depgraph {
namespace {

using testing::LoadText;
using testing::PairOf;

// The viewer specification's worked example (data/samples/worked_example).
const std::string kWorkedExample = testing::WorkedExampleJson();

std::string Dot(const DepGraph& graph, bool rich = false, const NameMap& names = {},
                const std::vector<uint8_t>& shown = {}) {
  DotOptions options;
  options.rich = rich;
  return WriteDot(graph, ResolveTaskLabels(graph, names), shown, options);
}

// The DOT line declaring or connecting `prefix` (the first line starting with it).
std::string LineStartingWith(const std::string& dot, const std::string& prefix) {
  size_t at = dot.find("\n" + prefix);
  if (at == std::string::npos) return "";
  size_t end = dot.find('\n', at + 1);
  return dot.substr(at + 1, end - at - 1);
}

// Per pair: 0 for the listed (pred, succ) ids, 1 otherwise.
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

TEST(DotWriterTest, HeaderLinesAndRankdir) {
  DepGraph graph = LoadText(testing::EdgesJson({{1, 2, "explicit"}}));
  DotOptions options;
  options.rankdir = "TB";
  std::string dot = WriteDot(graph, ResolveTaskLabels(graph, {}), {}, options);
  EXPECT_EQ(dot.substr(0, dot.find("  T0_1")),
            "digraph deps {\n  rankdir=TB;\n  concentrate=false;\n"
            "  node [fontname=\"Helvetica\", fontsize=10];\n  edge [color=\"#888888\"];\n");
  EXPECT_TRUE(dot.ends_with("  T0_1 -> T0_2;\n}\n"));
  EXPECT_NE(Dot(graph).find("  rankdir=LR;\n"), std::string::npos);
}

// §6.1 test 11.
TEST(DotWriterTest, SpmdNodeGetsRedOutlineWithoutExpandingLabel) {
  DepGraph graph = LoadText(R"({"tasks":[{"task_id":1,"kernel_ids":[-1,2,-1],"block_num":4}]})");
  std::string plain = Dot(graph);
  EXPECT_EQ(LineStartingWith(plain, "  T0_1 "),
            "  T0_1 [label=\"1 ↓0 ↑0\", shape=ellipse, style=\"filled\", fillcolor=\"#FFB366\", "
            "color=\"#C62828\", penwidth=1.5];");
  EXPECT_EQ(plain.find("SPMD"), std::string::npos);
  EXPECT_EQ(plain.find("4 blocks"), std::string::npos);

  std::string rich = Dot(graph, /*rich=*/true);
  EXPECT_NE(rich.find("<TABLE BORDER=\"1\" COLOR=\"#C62828\" CELLBORDER=\"1\" CELLSPACING=\"0\" "
                      "CELLPADDING=\"3\">"),
            std::string::npos);
  EXPECT_NE(rich.find("<B>1 ↓0 ↑0</B>"), std::string::npos);
  EXPECT_EQ(rich.find("SPMD"), std::string::npos);
}

// §6.1 test 14: a node without a tasks[] entry is an alloc note and fire-marked.
TEST(DotWriterTest, AllocNodeIsFireMarkedDashedNote) {
  DepGraph graph = LoadText(testing::EdgesJson({{1, 2, "creator"}}));
  std::string dot = Dot(graph);
  EXPECT_EQ(LineStartingWith(dot, "  T0_1 "),
            "  T0_1 [label=\"🔥 1 · alloc ↓0 ↑1\", shape=note, style=\"filled,dashed\", "
            "fillcolor=\"#EAEAEA\"];");
  // 2's only predecessor is an alloc: no star.
  EXPECT_NE(dot.find("label=\"🔥 2 · alloc ↓1 ↑0\""), std::string::npos);
}

// §6.1 test 15.
TEST(DotWriterTest, AllocOnlyPredecessorsDoNotEarnStar) {
  DepGraph graph = LoadText(R"({"tasks":[{"task_id":3,"kernel_ids":[-1,7,-1]}],
    "edges":[{"pred":1,"succ":3},{"pred":2,"succ":3}]})");
  std::string dot = Dot(graph);
  EXPECT_NE(dot.find("label=\"🔥 1 · alloc ↓0 ↑1\""), std::string::npos);
  EXPECT_NE(dot.find("label=\"🔥 2 · alloc ↓0 ↑1\""), std::string::npos);
  EXPECT_NE(dot.find("label=\"3 ↓2 ↑0\""), std::string::npos);
  EXPECT_EQ(dot.find("⭐"), std::string::npos);
}

// §6.1 test 16.
TEST(DotWriterTest, StarWhenAllPredecessorsFireAndOneIsNoAlloc) {
  DepGraph graph = LoadText(R"({"tasks":[{"task_id":3,"kernel_ids":[-1,7,-1]},
      {"task_id":2,"kernel_ids":[-1,6,-1],"early_dispatch":true}],
    "edges":[{"pred":1,"succ":3},{"pred":2,"succ":3}]})");
  std::string dot = Dot(graph);
  EXPECT_NE(dot.find("label=\"🔥 1 · alloc ↓0 ↑1\""), std::string::npos);
  EXPECT_NE(dot.find("label=\"🔥 2 ↓0 ↑1\""), std::string::npos);
  EXPECT_NE(dot.find("label=\"⭐ 3 ↓2 ↑0\""), std::string::npos);
}

// §6.1 test 17.
TEST(DotWriterTest, NoStarWhenAnyPredecessorLacksFire) {
  DepGraph graph = LoadText(R"({"tasks":[{"task_id":2,"kernel_ids":[-1,6,-1],"early_dispatch":true},
      {"task_id":3,"kernel_ids":[-1,5,-1]},{"task_id":4,"kernel_ids":[-1,7,-1]}],
    "edges":[{"pred":1,"succ":4},{"pred":2,"succ":4},{"pred":3,"succ":4}]})");
  std::string dot = Dot(graph);
  EXPECT_NE(dot.find("label=\"4 ↓3 ↑0\""), std::string::npos);
  EXPECT_EQ(dot.find("⭐"), std::string::npos);
}

TEST(DotWriterTest, FireAndStarCombine) {
  DepGraph graph = LoadText(R"({"tasks":[{"task_id":2,"kernel_ids":[0,-1,-1],"early_dispatch":true},
      {"task_id":3,"kernel_ids":[0,-1,-1],"early_dispatch":true}],
    "edges":[{"pred":2,"succ":3}]})");
  std::vector<std::string> markers = ComputeNodeMarkers(graph, ResolveTaskLabels(graph, {}));
  ASSERT_EQ(markers.size(), 2u);
  EXPECT_EQ(markers[0], "🔥");
  EXPECT_EQ(markers[1], "🔥⭐");
  EXPECT_NE(Dot(graph).find("label=\"🔥⭐ 3 ↓1 ↑0\""), std::string::npos);
}

// §6.1 test 19.
TEST(DotWriterTest, HiddenEdgesGetBackgroundColourAndClass) {
  DepGraph graph = LoadText(testing::EdgesJson({{1, 2, "explicit"}, {2, 3, "explicit"}}));
  std::string dot = Dot(graph, false, {}, HideOnly(graph, {{1, 2}}));
  EXPECT_NE(dot.find("\n  T0_1 -> T0_2 [class=\"hidden-edge\", color=\"#eef2f7\", "
                     "fontcolor=\"#eef2f7\"];\n"),
            std::string::npos);
  EXPECT_NE(dot.find("\n  T0_2 -> T0_3;\n"), std::string::npos);
}

TEST(DotWriterTest, FanCountsAndMarkersIgnoreHiddenEdges) {
  DepGraph graph = LoadText(testing::EdgesJson({{1, 2, "explicit"}, {2, 3, "explicit"}}));
  std::vector<uint8_t> none_shown(graph.pairs.size(), 0);
  std::string dot = Dot(graph, false, {}, none_shown);
  EXPECT_NE(dot.find("label=\"🔥 2 · alloc ↓1 ↑1\""), std::string::npos);
}

// §6.2 D: kernel names, shapes and colours by core type.
TEST(DotWriterTest, KernelNamesShapesAndColours) {
  DepGraph graph = LoadText(R"({"tasks":[{"task_id":1,"kernel_ids":[3,-1,-1]},
      {"task_id":2,"kernel_ids":[-1,4,4]},{"task_id":3,"kernel_ids":[3,4,4]}],
    "edges":[{"pred":1,"succ":2},{"pred":2,"succ":3}]})");
  NameMap names;
  names.names = {{"3", "QK"}, {"4", "SF"}};
  std::string dot = Dot(graph, false, names);
  EXPECT_EQ(LineStartingWith(dot, "  T0_1 "),
            "  T0_1 [label=\"1 · QK ↓0 ↑1\", shape=box, style=\"rounded,filled\", "
            "fillcolor=\"#66A3FF\"];");
  EXPECT_EQ(LineStartingWith(dot, "  T0_2 "),
            "  T0_2 [label=\"2 · SF ↓1 ↑1\", shape=ellipse, style=\"filled\", "
            "fillcolor=\"#FFB366\"];");
  EXPECT_EQ(LineStartingWith(dot, "  T0_3 "),
            "  T0_3 [label=\"3 · QK + SF ↓1 ↑0\", shape=diamond, style=\"filled\", "
            "fillcolor=\"#66CC99\"];");
}

TEST(DotWriterTest, LabelsAreEscapedForDot) {
  DepGraph graph = LoadText(R"({"tasks":[{"task_id":1,"kernel_ids":[3,-1,-1]}]})");
  NameMap names;
  names.names = {{"3", "a\"b\\c\nd"}};
  EXPECT_NE(Dot(graph, false, names).find("label=\"1 · a\\\"b\\\\c\\nd ↓0 ↑0\""),
            std::string::npos);
}

TEST(DotWriterTest, RingIdsUseRingNodeIdsAndPairLabels) {
  constexpr uint64_t kRing1 = uint64_t{1} << 32;
  DepGraph graph = LoadText(testing::EdgesJson({{kRing1 + 1, kRing1 + 3, "explicit"}, {0, 5, "explicit"}}));
  std::string dot = Dot(graph);
  EXPECT_NE(dot.find("  T1_1 [label=\"🔥 (1, 1) · alloc ↓0 ↑1\""), std::string::npos);
  EXPECT_NE(dot.find("  T0_5 [label=\"🔥 (0, 5) · alloc ↓1 ↑0\""), std::string::npos);
  EXPECT_NE(dot.find("\n  T1_1 -> T1_3;\n"), std::string::npos);
  EXPECT_EQ(DotNodeId(kRing1 * 255 + 4294967295u), "T255_4294967295");
  // Bits above the ring byte keep otherwise equal ids apart.
  EXPECT_NE(DotNodeId((uint64_t{1} << 40) | 7), DotNodeId(7));
}

// §6.2 H: the DOT of the worked example under reduced_dataflow.
TEST(DotWriterTest, WorkedExampleReducedDataflow) {
  DepGraph graph = LoadText(kWorkedExample);
  std::string dot = Dot(graph, false, {}, HideOnly(graph, {{0, 2}, {1, 3}, {1, 4}}));
  EXPECT_EQ(LineStartingWith(dot, "  T0_0 "),
            "  T0_0 [label=\"🔥 0 · alloc ↓0 ↑3\", shape=note, style=\"filled,dashed\", "
            "fillcolor=\"#EAEAEA\"];");
  EXPECT_EQ(LineStartingWith(dot, "  T0_2 "),
            "  T0_2 [label=\"2 ↓2 ↑1\", shape=box, style=\"rounded,filled\", fillcolor=\"#66A3FF\", "
            "color=\"#C62828\", penwidth=1.5];");
  EXPECT_EQ(LineStartingWith(dot, "  T0_4 "),
            "  T0_4 [label=\"4 · dummy ↓2 ↑0\", shape=box, style=\"rounded,filled\", "
            "fillcolor=\"#E0E0E0\"];");
  const std::string hidden = " [class=\"hidden-edge\", color=\"#eef2f7\", fontcolor=\"#eef2f7\"];";
  std::string edges = dot.substr(dot.find("  T0_0 -> "));
  EXPECT_EQ(edges,
            "  T0_0 -> T0_1;\n"
            "  T0_0 -> T0_2" + hidden + "\n"
            "  T0_0 -> T0_3;\n"
            "  T0_1 -> T0_2;\n"
            "  T0_1 -> T0_3" + hidden + "\n"
            "  T0_1 -> T0_4" + hidden + "\n"
            "  T0_2 -> T0_3;\n"
            "  T0_3 -> T0_4;\n"
            "}\n");
}

TEST(DotWriterTest, RichNodesListArgumentsAroundHeader) {
  DepGraph graph = LoadText(kWorkedExample);
  std::string dot = Dot(graph, /*rich=*/true);
  // INOUT shows on both sides of the header; OUTPUT_EXISTING only below it.
  std::string t3 = LineStartingWith(dot, "  T0_3 ");
  EXPECT_EQ(t3,
            "  T0_3 [shape=none, margin=0, label=<<TABLE BORDER=\"0\" CELLBORDER=\"1\" "
            "CELLSPACING=\"0\" CELLPADDING=\"3\">"
            "<TR><TD ALIGN=\"LEFT\" PORT=\"in_0\" BGCOLOR=\"#EAF2FF\">arg0 INOUT T0:float32"
            "<BR ALIGN=\"LEFT\"/><FONT POINT-SIZE=\"9\">storage: 8 elems<BR ALIGN=\"LEFT\"/>"
            "shape: [8]<BR ALIGN=\"LEFT\"/>strides: [1]<BR ALIGN=\"LEFT\"/>"
            "start_offset: 0 (elem)<BR ALIGN=\"LEFT\"/></FONT></TD></TR>"
            "<TR><TD ALIGN=\"CENTER\" BGCOLOR=\"#66CC99\"><B>3 ↓3 ↑1</B></TD></TR>"
            "<TR><TD ALIGN=\"LEFT\" PORT=\"out_0\" BGCOLOR=\"#FFF2E5\">arg0 INOUT T0:float32"
            "<BR ALIGN=\"LEFT\"/><FONT POINT-SIZE=\"9\">storage: 8 elems<BR ALIGN=\"LEFT\"/>"
            "shape: [8]<BR ALIGN=\"LEFT\"/>strides: [1]<BR ALIGN=\"LEFT\"/>"
            "start_offset: 0 (elem)<BR ALIGN=\"LEFT\"/></FONT></TD></TR></TABLE>>];");
  std::string t1 = LineStartingWith(dot, "  T0_1 ");
  EXPECT_EQ(t1.find("PORT=\"in_0\""), std::string::npos);
  EXPECT_NE(t1.find("PORT=\"out_0\" BGCOLOR=\"#FFF2E5\">arg0 OUTPUT_EXISTING T0:float32"),
            std::string::npos);
  // Dummy task: table with the fallback header colour and no alloc/dummy suffix.
  EXPECT_NE(LineStartingWith(dot, "  T0_4 ").find("BGCOLOR=\"#D8D8D8\"><B>4 ↓2 ↑0</B>"),
            std::string::npos);
  // The alloc node is not in tasks[]: it stays a plain note.
  EXPECT_NE(LineStartingWith(dot, "  T0_0 ").find("shape=note"), std::string::npos);
}

TEST(DotWriterTest, RichEdgesOnePerRowWithPorts) {
  DepGraph graph = LoadText(kWorkedExample);
  std::string dot = Dot(graph, /*rich=*/true, {}, HideOnly(graph, {{1, 3}}));
  std::string edges = dot.substr(dot.find("  T0_0 -> "));
  const std::string hidden = " [class=\"hidden-edge\", color=\"#eef2f7\", fontcolor=\"#eef2f7\"];";
  EXPECT_EQ(edges,
            "  T0_0 -> T0_1:in_0:w;\n"
            "  T0_0 -> T0_2:in_0:w;\n"
            "  T0_0 -> T0_3:in_0:w;\n"
            "  T0_1:out_0:e -> T0_2:in_0:w;\n"
            "  T0_1 -> T0_3" + hidden + "\n"
            "  T0_1 -> T0_4 [style=\"dashed\", color=\"#B0B0B0\"];\n"
            "  T0_2:out_0:e -> T0_3:in_0:w;\n"
            "  T0_3 -> T0_4 [style=\"dashed\", color=\"#B0B0B0\"];\n"
            "}\n");
}

TEST(DotWriterTest, RichOverlapLabelsAndHiddenRows) {
  DepGraph graph = LoadText(R"({"tasks":[{"task_id":2,"kernel_ids":[0,-1,-1],
      "args":[{"idx":1,"type":"INPUT","tensor_id":"9"}]}],
    "edges":[{"pred":1,"succ":2,"arg":1,"source":"tensormap","overlap":"partial<x>","tensor_id":"9"},
             {"pred":1,"succ":2,"arg":1,"source":"tensormap","overlap":"covered","tensor_id":"9"},
             {"pred":1,"succ":3,"arg":-1,"source":"explicit","overlap":"partial"}]})");
  std::string dot = Dot(graph, /*rich=*/true);
  EXPECT_NE(dot.find("\n  T0_1 -> T0_2:in_1:w [label=\"partial&lt;x&gt;\", fontsize=8, "
                     "fontcolor=\"#C04040\"];\n  T0_1 -> T0_2:in_1:w;\n"),
            std::string::npos);
  EXPECT_NE(dot.find("\n  T0_1 -> T0_3 [style=\"dashed\", color=\"#B0B0B0\", label=\"partial\", "
                     "fontsize=8, fontcolor=\"#C04040\"];\n"),
            std::string::npos);
  // Unknown tensor: T?{low 16 bits}.
  EXPECT_NE(dot.find("arg1 INPUT T?0009<BR"), std::string::npos);
  EXPECT_NE(dot.find("storage: ?<BR"), std::string::npos);

  std::vector<uint8_t> none_shown(graph.pairs.size(), 0);
  std::string hidden = Dot(graph, /*rich=*/true, {}, none_shown);
  EXPECT_EQ(hidden.find("label=\"partial"), std::string::npos);
  EXPECT_EQ(hidden.find("dashed\", color"), std::string::npos);
  EXPECT_NE(hidden.find("\n  T0_1 -> T0_3 [class=\"hidden-edge\", color=\"#eef2f7\", "
                        "fontcolor=\"#eef2f7\"];\n"),
            std::string::npos);
  EXPECT_NE(hidden.find("\n  T0_1 -> T0_2:in_1:w [class=\"hidden-edge\""), std::string::npos);
}

TEST(DotWriterTest, RichWithoutAnyTasksFallsBackToPlain) {
  DepGraph graph = LoadText(R"({"edges":[{"pred":1,"succ":2,"arg":0,"source":"creator","tensor_id":"7"},
    {"pred":1,"succ":2,"arg":1,"source":"creator","tensor_id":"8"}]})");
  EXPECT_EQ(Dot(graph, /*rich=*/true), Dot(graph, /*rich=*/false));
}

// §1.7: an OUTPUT slot without a tensor id takes the id of its task's creator rows.
TEST(DotWriterTest, BackfillsSingleUnassignedOutput) {
  DepGraph graph = LoadText(R"({"tasks":[
      {"task_id":5,"kernel_ids":[0,-1,-1],"args":[{"idx":0,"type":"INPUT","tensor_id":"3"},{"idx":1,"type":"OUTPUT"}]},
      {"task_id":6,"kernel_ids":[0,-1,-1],"args":[{"idx":0,"type":"INPUT","tensor_id":"9"}]}],
    "tensors":[{"tensor_id":"3"},{"tensor_id":"9","buffer_numel":16,"dtype":"FLOAT16"}],
    "edges":[{"pred":5,"succ":6,"arg":0,"source":"creator","tensor_id":"9"}]})");
  std::vector<std::pair<uint32_t, TaskId>> inferred = InferOutputTensorIds(graph);
  ASSERT_EQ(inferred.size(), 1u);
  EXPECT_EQ(graph.args[inferred[0].first].idx, 1);
  EXPECT_EQ(inferred[0].second, 9u);

  std::string dot = Dot(graph, /*rich=*/true);
  EXPECT_NE(dot.find("PORT=\"out_1\" BGCOLOR=\"#FFF2E5\">arg1 OUTPUT ? T1:float16"
                     "<BR ALIGN=\"LEFT\"/><FONT POINT-SIZE=\"9\">storage: 16 elems"
                     "<BR ALIGN=\"LEFT\"/>shape: [16]<BR ALIGN=\"LEFT\"/>strides: [1]"
                     "<BR ALIGN=\"LEFT\"/>start_offset: 0 (elem)"),
            std::string::npos);
  EXPECT_NE(dot.find("\n  T0_5:out_1:e -> T0_6:in_0:w;\n"), std::string::npos);
  // Plain mode neither needs nor shows it.
  EXPECT_EQ(Dot(graph).find("OUTPUT"), std::string::npos);
}

TEST(DotWriterTest, BackfillSkipsAmbiguousKnownAndLaterTensors) {
  // Task 5: two unassigned OUTPUTs -> ambiguous. Task 7: INOUT already carries 9 -> known.
  // Task 8: one slot; pairs go in first-seen order (8->9 before 8->6), so 12 takes it and
  // 10 then finds no free slot.
  DepGraph graph = LoadText(R"({"tasks":[
      {"task_id":5,"kernel_ids":[0,-1,-1],"args":[{"idx":0,"type":"OUTPUT"},{"idx":1,"type":"OUTPUT"}]},
      {"task_id":7,"kernel_ids":[0,-1,-1],"args":[{"idx":0,"type":"INOUT","tensor_id":"9"},{"idx":1,"type":"OUTPUT"}]},
      {"task_id":8,"kernel_ids":[0,-1,-1],"args":[{"idx":0,"type":"OUTPUT"}]}],
    "edges":[{"pred":5,"succ":6,"arg":0,"source":"creator","tensor_id":"9"},
             {"pred":7,"succ":6,"arg":0,"source":"creator","tensor_id":"9"},
             {"pred":8,"succ":9,"arg":0,"source":"tensormap","tensor_id":"11"},
             {"pred":8,"succ":6,"arg":0,"source":"creator","tensor_id":"10"},
             {"pred":8,"succ":9,"arg":0,"source":"creator","tensor_id":"12"}]})");
  std::vector<std::pair<uint32_t, TaskId>> inferred = InferOutputTensorIds(graph);
  ASSERT_EQ(inferred.size(), 1u);
  const Task* task8 = graph.FindTask(8);
  ASSERT_NE(task8, nullptr);
  EXPECT_EQ(inferred[0].first, task8->first_arg);
  EXPECT_EQ(inferred[0].second, 12u);
}

// Graphviz reads DOT as a C string: a NUL in a kernel name or an overlap string is drawn as
// the two characters `\0`, in plain and rich labels, and the text parses.
TEST(DotWriterTest, NulIsDrawnAsBackslashZero) {
  DepGraph graph = LoadText(R"({"tasks":[
      {"task_id":1,"kernel_ids":[3,-1,-1],"args":[{"idx":0,"type":"OUTPUT","tensor_id":"7"}]},
      {"task_id":2,"kernel_ids":[3,-1,-1],"args":[{"idx":0,"type":"INPUT","tensor_id":"7"}]}],
    "edges":[{"pred":1,"succ":2,"source":"tensormap","arg":0,"tensor_id":"7",
              "overlap":"part\u0000ial"}]})");
  NameMap names;
  names.names = {{"3", std::string("qk\0mm", 5)}};
  std::string plain = Dot(graph, false, names), rich = Dot(graph, true, names);
  EXPECT_NE(plain.find("label=\"1 · qk\\\\0mm ↓0 ↑1\""), std::string::npos) << plain;
  EXPECT_NE(rich.find("<B>1 · qk\\0mm ↓0 ↑1</B>"), std::string::npos) << rich;
  EXPECT_NE(rich.find("label=\"part\\\\0ial\""), std::string::npos) << rich;
  for (const std::string& dot : {plain, rich}) {
    EXPECT_EQ(dot.find('\0'), std::string::npos);
    std::string svg, err;
    EXPECT_TRUE(RenderSvgWithGraphviz(dot, "dot", &svg, &err)) << err;
    EXPECT_NE(svg.find("qk\\0mm"), std::string::npos) << svg;
  }
}

// The export form: the selected pairs only (plain and rich), an xN badge beside SPMD tasks,
// fan counts of every pair; Graphviz renders it without a warning.
TEST(DotWriterTest, ExportFormKeepsSelectedPairsAndBadgesSpmdTasks) {
  DepGraph graph = LoadText(kWorkedExample);
  std::vector<TaskLabel> labels = ResolveTaskLabels(graph, {});
  DotOptions options;
  options.form = DotForm::kExport;
  std::vector<uint8_t> shown = HideOnly(graph, {{1, 3}, {1, 4}});
  std::string dot = WriteDot(graph, labels, shown, options);
  EXPECT_EQ(dot.find("hidden-edge"), std::string::npos);
  EXPECT_EQ(dot.find("T0_1 -> T0_3"), std::string::npos);
  EXPECT_NE(dot.find("\n  T0_0 -> T0_1;\n"), std::string::npos);
  EXPECT_EQ(
      LineStartingWith(dot, "  T0_2 "),
      "  T0_2 [label=\"2 ↓2 ↑1\", shape=box, style=\"rounded,filled\", fillcolor=\"#66A3FF\", "
      "color=\"#C62828\", penwidth=1.5, xlabel=<<FONT COLOR=\"#C62828\" POINT-SIZE=\"8\">"
      "<B>x4</B></FONT>>];");
  EXPECT_NE(LineStartingWith(dot, "  T0_1 ").find("↓1 ↑3"), std::string::npos);
  std::string svg, err, warnings;
  ASSERT_TRUE(RenderSvgWithGraphviz(dot, "dot", &svg, &err, &warnings)) << err;
  EXPECT_EQ(warnings, "");
  EXPECT_NE(svg.find(">x4</text>"), std::string::npos);

  options.rich = true;
  std::string rich = WriteDot(graph, labels, shown, options);
  EXPECT_EQ(rich.find("hidden-edge"), std::string::npos);
  for (const char* hidden : {"T0_1 -> T0_3", "T0_1:out_0:e -> T0_3", "T0_1 -> T0_4"}) {
    EXPECT_EQ(rich.find(hidden), std::string::npos) << hidden;
  }
  EXPECT_NE(rich.find("T0_1:out_0:e -> T0_2:in_0:w;"), std::string::npos) << rich;
  EXPECT_NE(rich.find("</TABLE>>, xlabel=<<FONT COLOR=\"#C62828\""), std::string::npos);
  ASSERT_TRUE(RenderSvgWithGraphviz(rich, "dot", &svg, &err, &warnings)) << err;
  // Task 1's creator row 0->1 names an input port task 1 does not have (see html_page_test).
  EXPECT_EQ(warnings.find("color"), std::string::npos) << warnings;
}

// The layout form (what the page lays out) is the default and unchanged: no badges, hidden
// pairs in the background colour, a colour Graphviz knows.
TEST(DotWriterTest, LayoutFormHasNoBadgesAndNoColourWarning) {
  DepGraph graph = LoadText(kWorkedExample);
  std::string dot = Dot(graph, false, {}, HideOnly(graph, {{1, 3}}));
  EXPECT_EQ(dot.find("xlabel"), std::string::npos);
  EXPECT_NE(dot.find("T0_1 -> T0_3 [class=\"hidden-edge\""), std::string::npos);
  std::string svg, err, warnings;
  ASSERT_TRUE(RenderSvgWithGraphviz(dot, "dot", &svg, &err, &warnings)) << err;
  EXPECT_EQ(warnings, "");
}

}  // namespace
}  // namespace depgraph

namespace depgraph {
namespace {

// Issue 25 item 6: a 3 MB kernel name is cut in DOT labels (Graphviz took 16 s on it), at a
// character boundary with "..."; short names are unchanged.
TEST(DotWriterRound3, HugeKernelNamesAreCutInLabels) {
  const DepGraph graph = testing::LoadText(testing::WorkedExampleJson());
  std::vector<TaskLabel> labels = ResolveTaskLabels(graph, {});
  std::string huge(199, 'k');
  huge += "\xc3\xa9";  // a two-byte character straddles the cut at byte 200
  huge += std::string(3 << 20, 'x');
  size_t named = 0;
  for (TaskLabel& label : labels) {
    if (label.kind == TaskKind::kSubmit) label.func_name = huge, ++named;
  }
  ASSERT_GT(named, 0u);
  for (bool rich : {false, true}) {
    DotOptions options;
    options.rich = rich;
    const std::string dot = WriteDot(graph, labels, {}, options);
    EXPECT_LT(dot.size(), 100000u) << rich;
    size_t start = 0;
    while (start < dot.size()) {
      size_t end = dot.find('\n', start);
      if (end == std::string::npos) end = dot.size();
      EXPECT_LT(end - start, kMaxDotLabelBytes + 2000) << rich;
      start = end + 1;
    }
    const std::string cut = " " + std::string(199, 'k') + "...";
    EXPECT_NE(dot.find(cut), std::string::npos) << rich;
  }
  for (TaskLabel& label : labels) {
    if (label.kind == TaskKind::kSubmit) label.func_name = std::string(kMaxDotLabelBytes, 'n');
  }
  const std::string dot = WriteDot(graph, labels, {}, DotOptions{});
  EXPECT_NE(dot.find(std::string(kMaxDotLabelBytes, 'n')), std::string::npos);
  EXPECT_EQ(dot.find(std::string(kMaxDotLabelBytes, 'n') + "..."), std::string::npos);
}

}  // namespace
}  // namespace depgraph
