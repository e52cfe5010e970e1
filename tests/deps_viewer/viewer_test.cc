// The deps_viewer command line, run as a subprocess exactly as users run it.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <sstream>
#include <vector>

#include "graph_generator.h"
#include "test_util.h"

namespace depgraph {
namespace {

using testing::CommandResult;
using testing::Exists;
using testing::ReadFile;
using testing::TempDir;
using testing::WriteFile;

CommandResult Viewer(const TempDir& dir, const std::string& args) {
  return testing::RunCommand("'" + testing::ViewerBinary() + "' " + args, dir.path());
}

// For inputs that could block or never end: a time and a memory bound on the run.
CommandResult BoundedViewer(const TempDir& dir, const std::string& args) {
  return testing::RunCommand(
      testing::BoundedCommand(testing::ViewerBinary()) + args, dir.path());
}

size_t EntryCount(const TempDir& dir) {
  return std::distance(std::filesystem::directory_iterator(dir.path()),
                       std::filesystem::directory_iterator());
}

std::string WorkedExample() { return testing::WorkedExampleJson(); }

// Ring-1 chain a->b->c plus shortcut a->c (reference tests 31-36).
std::string RingGraph() {
  const uint64_t r = 1ull << 32;
  return testing::EdgesJson({{r + 1, r + 2, "explicit"}, {r + 2, r + 3, "explicit"},
                             {r + 1, r + 3, "explicit"}});
}

TEST(Viewer, RejectsHtmlOnlyOptionsInTextMode) {  // reference test 21, spec §6.2 G
  TempDir dir;
  for (const char* args : {"deps.json --show-tensor-info", "deps.json --engine dot",
                           "deps.json --direction=TB", "nope.json --engine dot"}) {
    CommandResult r = Viewer(dir, args);
    EXPECT_EQ(r.exit_code, 2) << args;
    EXPECT_NE(r.err.find("is only valid with --format html"), std::string::npos) << args;
  }
  CommandResult r = Viewer(dir, "deps.json --show-tensor-info");
  EXPECT_EQ(r.err, "error: --show-tensor-info is only valid with --format html\n");
}

TEST(Viewer, UsageErrorsExitTwo) {
  TempDir dir;
  for (const char* args : {"--engine=bogus", "--edge-mode sideways", "--format pdf",
                           "--no-such-flag", "--e dot"}) {
    CommandResult r = Viewer(dir, args);
    EXPECT_EQ(r.exit_code, 2) << args;
    EXPECT_NE(r.err.find("deps_viewer: error:"), std::string::npos) << args;
  }
}

TEST(Viewer, AbbreviatedHtmlOptionsSlipThroughInTextMode) {  // reference quirk 5
  TempDir dir;
  WriteFile(dir.File("deps.json"), RingGraph());
  EXPECT_EQ(Viewer(dir, "deps.json --eng dot").exit_code, 0);
  EXPECT_EQ(Viewer(dir, "deps.json --show").exit_code, 0);
  EXPECT_EQ(Viewer(dir, "deps.json --edge omitted").exit_code, 0);
  EXPECT_TRUE(Exists(dir.File("deps_viewer_omitted.txt")));
}

TEST(Viewer, MissingInputs) {
  TempDir dir;
  CommandResult r = Viewer(dir, "nope.json");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err, "nope.json not found.\n");
  r = Viewer(dir, "");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err, "No deps.json given and no candidate found under ./outputs/.\n");
}

TEST(Viewer, DefaultInputIsNewestUnderOutputs) {
  TempDir dir;
  std::filesystem::create_directories(dir.File("outputs/run1"));
  WriteFile(dir.File("outputs/run1/deps.json"), RingGraph());
  CommandResult r = Viewer(dir, "");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "Wrote outputs/run1/deps_viewer.txt (3 tasks, 3 unique edges, 3 annotated "
                   "edges, format=text)\n");
}

// Issue 25 item 7: the search under ./outputs used memory quadratic in the depth (a stack of
// iterators holding full paths). Now an explicit stack to 256 levels, with a warning for what
// is deeper; equal modification times pick the greatest path, whatever the directory order.
TEST(Viewer, DefaultInputSearchIsBoundedInDepthAndDeterministic) {
  TempDir dir;
  std::filesystem::create_directories(dir.File("outputs/a"));
  std::filesystem::create_directories(dir.File("outputs/b"));
  WriteFile(dir.File("outputs/a/deps.json"), RingGraph());
  WriteFile(dir.File("outputs/b/deps.json"), RingGraph());
  const auto when = std::filesystem::last_write_time(dir.File("outputs/a/deps.json"));
  std::filesystem::last_write_time(dir.File("outputs/b/deps.json"), when);
  testing::MakeDeepDirectory(dir.File("outputs"), 300);
  const CommandResult r = Viewer(dir, "");
  EXPECT_EQ(r.exit_code, 0) << r.err.substr(0, 400);
  EXPECT_EQ(r.out, "Wrote outputs/b/deps_viewer.txt (3 tasks, 3 unique edges, 3 annotated "
                   "edges, format=text)\n");
  EXPECT_EQ(r.err.rfind("warning: outputs/d/d/", 0), 0u) << r.err.substr(0, 400);
  EXPECT_NE(r.err.find(": more than 256 levels below outputs: not searched for deps.json files\n"),
            std::string::npos)
      << r.err.substr(0, 400);
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1);
  (void)testing::RunCommand("rm -rf outputs/d", dir.path());
}

TEST(Viewer, WorkedExampleStdoutPerMode) {  // spec §4.1, §6.2 A
  TempDir dir;
  WriteFile(dir.File("deps.json"), WorkedExample());
  CommandResult r = Viewer(dir, "deps.json --edge-mode reduced_dataflow");
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.out,
            "Dataflow-verified transitive reduction: removed 3 redundant edge(s) of 8 (5 kept)\n"
            "  - 0 -> 2\n  - 1 -> 3\n  - 1 -> 4\n"
            "Wrote deps_viewer_reduced_dataflow.txt (5 tasks, 5 unique edges, 5 annotated edges, "
            "format=text)\n");
  EXPECT_EQ(r.err, "");
  r = Viewer(dir, "deps.json --edge-mode omitted");
  EXPECT_EQ(r.out,
            "Redundant edges only: showing 2 redundant edge(s) of 8\n  - 1 -> 3\n  - 1 -> 4\n"
            "Wrote deps_viewer_omitted.txt (5 tasks, 2 unique edges, 2 annotated edges, "
            "format=text)\n");
  for (const char* stem : {"deps_viewer_reduced_dataflow.txt", "deps_viewer_omitted.txt"}) {
    EXPECT_TRUE(Exists(dir.File(stem))) << stem;
  }
  EXPECT_EQ(Viewer(dir, "deps.json").exit_code, 0);
  EXPECT_EQ(ReadFile(dir.File("deps_viewer.txt")),
            ReadFile(testing::SourceDir() + "/data/samples/worked_example/expected/deps_viewer.txt"));
}

TEST(Viewer, RingReducedAndOmitted) {  // reference tests 31, 33, 35, 36
  TempDir dir;
  WriteFile(dir.File("deps.json"), RingGraph());
  CommandResult r = Viewer(dir, "deps.json --edge-mode reduced");
  EXPECT_EQ(r.out, "Transitive reduction: removed 1 redundant edge(s) of 3 (2 kept)\n"
                   "  - (1, 1) -> (1, 3)\nWrote deps_viewer_reduced.txt (3 tasks, 2 unique "
                   "edges, 2 annotated edges, format=text)\n");
  r = Viewer(dir, "deps.json");
  EXPECT_EQ(r.out.find("Transitive reduction"), std::string::npos);
  EXPECT_NE(ReadFile(dir.File("deps_viewer.txt")).find("unique_task_edges: 3"), std::string::npos);
  r = Viewer(dir, "deps.json --edge-mode omitted");
  EXPECT_NE(r.out.find("showing 1 redundant edge(s)"), std::string::npos);
  EXPECT_TRUE(Exists(dir.File("deps_viewer_omitted.txt")));
}

TEST(Viewer, CreatorProtectionAndExplain) {  // reference test 32 + the --explain line
  TempDir dir;
  WriteFile(dir.File("deps.json"), R"({"edges":[
    {"pred":1,"succ":2,"source":"explicit"},{"pred":2,"succ":3,"source":"explicit"},
    {"pred":3,"succ":4,"source":"explicit"},
    {"pred":1,"succ":4,"source":"creator","tensor_id":"7","arg":0}]})");
  CommandResult r = Viewer(dir, "deps.json --edge-mode reduced");
  EXPECT_EQ(r.out, "Transitive reduction: removed 0 redundant edge(s) of 4 (4 kept)\n"
                   "Wrote deps_viewer_reduced.txt (4 tasks, 4 unique edges, 4 annotated edges, "
                   "format=text)\n");
  r = Viewer(dir, "deps.json --edge-mode reduced --explain");
  EXPECT_EQ(r.out, "Transitive reduction: removed 0 redundant edge(s) of 4 (4 kept)\n"
                   "(1 further redundant edge(s) retained for creator tensor lifetime)\n"
                   "Wrote deps_viewer_reduced.txt (4 tasks, 4 unique edges, 4 annotated edges, "
                   "format=text)\n");
  r = Viewer(dir, "deps.json --edge-mode retained");
  EXPECT_NE(r.out.find("  - 1 -> 4\n"), std::string::npos);
  EXPECT_TRUE(Exists(dir.File("deps_viewer_retained.txt")));
}

TEST(Viewer, CycleWarnsWritesFullGraphAndStrictFails) {  // spec §3.5, §6.2 B
  TempDir dir;
  WriteFile(dir.File("deps.json"), R"({"tasks":[{"task_id":5,"kernel_ids":[-1,-1,-1]},
    {"task_id":6,"kernel_ids":[2,-1,-1]}],"edges":[
    {"pred":1,"succ":2,"source":"explicit"},{"pred":2,"succ":3,"source":"tensormap"},
    {"pred":3,"succ":1,"source":"explicit"},{"pred":1,"succ":3,"source":"explicit"}]})");
  for (const char* mode : {"reduced", "omitted", "reduced_dataflow", "omitted_dataflow"}) {
    std::filesystem::remove(dir.File("deps_viewer.txt"));
    CommandResult r = Viewer(dir, std::string("deps.json --edge-mode ") + mode);
    EXPECT_EQ(r.exit_code, 0);
    EXPECT_EQ(r.err.substr(0, r.err.find('\n') + 1),
              std::string("warning: dependency graph has a cycle; transitive reduction skipped, "
                          "emitting full graph (--edge-mode ") + mode + " ignored)\n");
    EXPECT_NE(r.err.find("\ncycle: "), std::string::npos);
    EXPECT_EQ(r.out, "Wrote deps_viewer.txt (4 tasks, 4 unique edges, 4 annotated edges, "
                     "format=text)\n");
    EXPECT_TRUE(Exists(dir.File("deps_viewer.txt")));
  }
  CommandResult strict = Viewer(dir, "deps.json --edge-mode reduced --strict");
  EXPECT_EQ(strict.exit_code, 3);
}

// The README's `--stats --strict`: exit 3 on a cycle in every edge mode, full included; the
// output is still written and stderr says why in one line.
TEST(Viewer, StrictFailsOnACycleInEveryMode) {
  TempDir dir;
  WriteFile(dir.File("deps.json"), testing::EdgesJson({{3, 7, "x"}, {7, 3, "x"}, {1, 3, "x"}}));
  CommandResult r = Viewer(dir, "deps.json --stats --strict");
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_EQ(r.out,
            "Wrote deps_viewer.txt (3 tasks, 3 unique edges, 3 annotated edges, "
            "format=text)\nStats: tasks=3 edges=3 rows=3 cycle=yes\n");
  EXPECT_EQ(r.err,
            "error: deps.json: the dependency graph has a cycle (3 -> 7 -> 3); exit 3 "
            "under --strict\n");
  EXPECT_TRUE(Exists(dir.File("deps_viewer.txt")));
  for (const char* args : {"deps.json --strict", "deps.json --strict --format json",
                           "deps.json --strict --edge-mode omitted",
                           "deps.json --strict --format dot --edge-mode retained"}) {
    EXPECT_EQ(Viewer(dir, args).exit_code, 3) << args;
  }
  // Without --strict, and on a DAG with it, the exit status is 0.
  EXPECT_EQ(Viewer(dir, "deps.json --stats").exit_code, 0);
  WriteFile(dir.File("deps.json"), RingGraph());
  r = Viewer(dir, "deps.json --stats --strict");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "");
}

TEST(Viewer, CycleLineNamesTheCycle) {
  TempDir dir;
  WriteFile(dir.File("deps.json"), testing::EdgesJson({{3, 7, "x"}, {7, 3, "x"}, {1, 3, "x"}}));
  CommandResult r = Viewer(dir, "deps.json --edge-mode reduced");
  EXPECT_NE(r.err.find("\ncycle: 3 -> 7 -> 3\n"), std::string::npos) << r.err;
}

TEST(Viewer, BadInputWritesNoOutput) {
  TempDir dir;
  WriteFile(dir.File("deps.json"), R"({"edges":[{"pred":"0x10","succ":"2"}]})");
  CommandResult r = Viewer(dir, "deps.json -o out.txt");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err, "error: deps.json: edges[0].pred: expected an unsigned 64-bit id, got \"0x10\"\n");
  EXPECT_EQ(r.out, "");
  EXPECT_FALSE(Exists(dir.File("out.txt")));
  // An existing output is left as it was.
  WriteFile(dir.File("out.txt"), "keep");
  WriteFile(dir.File("deps.json"), "{\"edges\": [");
  r = Viewer(dir, "deps.json -o out.txt");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err, "error: deps.json: line 1:column 12: unexpected end of file inside an array\n");
  EXPECT_EQ(ReadFile(dir.File("out.txt")), "keep");
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir.path()),
                          std::filesystem::directory_iterator()),
            2);
}

TEST(Viewer, InvalidNameMapIsAnErrorUnreadableIsAWarning) {
  TempDir dir;
  WriteFile(dir.File("deps.json"), R"({"tasks":[{"task_id":1,"kernel_ids":[3,-1,-1]}]})");
  WriteFile(dir.File("names.json"), "[1]");
  CommandResult r = Viewer(dir, "deps.json --func-names names.json");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err, "error: names.json: expected a JSON object at the top level, got array\n");
  EXPECT_FALSE(Exists(dir.File("deps_viewer.txt")));
  r = Viewer(dir, "deps.json --func-names missing.json");
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_NE(r.err.find("Warning: couldn't read missing.json: "), std::string::npos);
  EXPECT_NE(ReadFile(dir.File("deps_viewer.txt")).find("func_name_map: no"), std::string::npos);
}

TEST(Viewer, UnwritableOutputIsAnError) {
  TempDir dir;
  WriteFile(dir.File("deps.json"), RingGraph());
  CommandResult r = Viewer(dir, "deps.json -o no/such/dir/out.txt");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("no/such/dir/out.txt"), std::string::npos);
  EXPECT_EQ(r.out, "");
}

TEST(Viewer, NonRegularOutputsAreRefused) {
  TempDir dir;
  WriteFile(dir.File("deps.json"), RingGraph());
  testing::MakeFifo(dir.File("out.fifo"));
  CommandResult r = Viewer(dir, "deps.json -o out.fifo");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err, "error: out.fifo: is a FIFO, not a regular file; refusing to replace it\n");
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(std::filesystem::status(dir.File("out.fifo")).type(), std::filesystem::file_type::fifo);
  WriteFile(dir.File("target.html"), "keep");
  std::filesystem::create_symlink("target.html", dir.File("link.html"));
  r = Viewer(dir, "deps.json --format html -o link.html");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err, "error: link.html: is a symlink, not a regular file; refusing to replace it\n");
  EXPECT_TRUE(std::filesystem::is_symlink(dir.File("link.html")));
  EXPECT_EQ(ReadFile(dir.File("target.html")), "keep");
  EXPECT_EQ(EntryCount(dir), 4u);  // deps.json, out.fifo, target.html, link.html: no temp file
}

TEST(Viewer, SpecialInputsAreRefused) {
  TempDir dir;
  WriteFile(dir.File("deps.json"), RingGraph());
  testing::MakeFifo(dir.File("fifo.json"));
  CommandResult r = BoundedViewer(dir, "fifo.json -o out.txt");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err, "error: fifo.json: is a FIFO, not a regular file\n");
  r = BoundedViewer(dir, "deps.json --func-names fifo.json -o out.txt");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err, "error: fifo.json: is a FIFO, not a regular file\n");
  r = BoundedViewer(dir, "deps.json --func-names /dev/zero -o out.txt");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err, "error: /dev/zero: is a character device, not a regular file\n");
  r = BoundedViewer(dir, "/dev/zero -o out.txt");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err, "error: /dev/zero: is a character device, not a regular file\n");
  EXPECT_FALSE(Exists(dir.File("out.txt")));
}

TEST(Viewer, OutputOverAnInputIsRefused) {
  TempDir dir;
  const std::string graph = RingGraph();
  WriteFile(dir.File("deps.json"), graph);
  WriteFile(dir.File("names.json"), R"({"3": "qk"})");
  std::filesystem::create_directory(dir.File("sub"));
  std::filesystem::create_symlink("deps.json", dir.File("link.json"));
  const std::string absolute = dir.File("deps.json");
  for (const std::string& output : {std::string("deps.json"), std::string("sub/../deps.json"),
                                    std::string("link.json"), absolute}) {
    CommandResult r = Viewer(dir, "deps.json -o " + output);
    EXPECT_EQ(r.exit_code, 1) << output;
    EXPECT_EQ(r.err,
              "error: " + output + ": is the input file deps.json; refusing to overwrite it\n");
    EXPECT_EQ(ReadFile(dir.File("deps.json")), graph);
  }
  CommandResult r = Viewer(dir, "deps.json --func-names names.json -o names.json");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err, "error: names.json: is the input file names.json; refusing to overwrite it\n");
  EXPECT_EQ(ReadFile(dir.File("names.json")), R"({"3": "qk"})");
  // The default output name can be the input's too.
  WriteFile(dir.File("deps_viewer.txt"), graph);
  r = Viewer(dir, "deps_viewer.txt");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(
      r.err,
      "error: deps_viewer.txt: is the input file deps_viewer.txt; refusing to overwrite it\n");
  EXPECT_EQ(ReadFile(dir.File("deps_viewer.txt")), graph);
  EXPECT_EQ(EntryCount(dir), 5u);  // no temporary file left
}

TEST(Viewer, StatsLine) {
  TempDir dir;
  WriteFile(dir.File("deps.json"), WorkedExample());
  CommandResult r = Viewer(dir, "deps.json --stats");
  EXPECT_NE(r.out.find("Stats: tasks=5 edges=8 rows=8 depth=4 width=1 redundant=4 retained=2\n"),
            std::string::npos)
      << r.out;
}

TEST(Viewer, JsonExport) {
  TempDir dir;
  WriteFile(dir.File("deps.json"), RingGraph());
  CommandResult r = Viewer(dir, "deps.json --format json --edge-mode reduced");
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_NE(r.out.find("Wrote deps_viewer_reduced.json (3 tasks, 2 unique edges"), std::string::npos);
  std::string json = ReadFile(dir.File("deps_viewer_reduced.json"));
  EXPECT_NE(json.find("\"listed\": [\n    {\"pred\": \"4294967297\", \"succ\": \"4294967299\", "
                      "\"pred_label\": \"(1, 1)\", \"succ_label\": \"(1, 3)\"}\n  ]"),
            std::string::npos)
      << json;
  EXPECT_NE(json.find("\"unique_edges\": 2"), std::string::npos);
}

TEST(Viewer, HtmlKeepsFullLayoutAndCountsVisibleEdges) {  // reference tests 34, §6.2 H
  TempDir dir;
  WriteFile(dir.File("deps.json"), RingGraph());
  const std::pair<const char*, int> modes[] = {
      {"reduced", 2}, {"omitted", 1}, {"reduced_dataflow", 2}, {"omitted_dataflow", 1}};
  for (const auto& [mode, visible] : modes) {
    CommandResult r = Viewer(dir, std::string("deps.json --format html --edge-mode ") + mode);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("HTML layout preserves all 3 edge(s); " + std::to_string(3 - visible) +
                         " unselected edge(s) are colored as background\n"),
              std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find(std::string("Wrote deps_viewer_") + mode + ".html (3 nodes, " +
                         std::to_string(visible) +
                         " visible edges, 3 layout edges, engine=dot, format=html)\n"),
              std::string::npos)
        << r.out;
    std::string page = ReadFile(dir.File(std::string("deps_viewer_") + mode + ".html"));
    EXPECT_NE(page.find("hidden-edge-layer"), std::string::npos);
    EXPECT_NE(page.find("visible-edge-layer"), std::string::npos);
  }
  CommandResult full = Viewer(dir, "deps.json --format html --engine neato --direction TB");
  EXPECT_EQ(full.out, "Wrote deps_viewer.html (3 nodes, 3 edges, engine=neato, format=html)\n");
  EXPECT_EQ(ReadFile(dir.File("deps_viewer.html")).find("class=\"hidden-edge"), std::string::npos);
}

TEST(Viewer, ShowTensorInfoSwitchesToRichNodes) {  // reference tests 22, 23
  TempDir dir;
  WriteFile(dir.File("deps.json"), WorkedExample());
  ASSERT_EQ(Viewer(dir, "deps.json --format dot").exit_code, 0);
  EXPECT_EQ(ReadFile(dir.File("deps_viewer.dot")).find("<TABLE"), std::string::npos);
  ASSERT_EQ(Viewer(dir, "deps.json --format dot --show-tensor-info").exit_code, 0);
  EXPECT_NE(ReadFile(dir.File("deps_viewer.dot")).find("<TABLE"), std::string::npos);
  CommandResult r = Viewer(dir, "deps.json --format html --show-tensor-info");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(ReadFile(dir.File("deps_viewer.html")).find("arg0 INOUT"), std::string::npos);
}

TEST(Viewer, PathsAreNormalisedLikePathlib) {
  TempDir dir;
  std::filesystem::create_directories(dir.File("a/b"));
  WriteFile(dir.File("a/b/deps.json"), RingGraph());
  CommandResult r = Viewer(dir, "./a//b/./deps.json");
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.out.substr(0, 29), "Wrote a/b/deps_viewer.txt (3 ");
  EXPECT_NE(ReadFile(dir.File("a/b/deps_viewer.txt")).find("source_deps_json: a/b/deps.json\n"),
            std::string::npos);
}

// Scripts get the (ring, local) form beside every raw id, whatever the text report prints.
TEST(Viewer, JsonExportLabelsIdsWithRingAndLocal) {
  TempDir dir;
  WriteFile(dir.File("deps.json"), testing::EdgesJson({{1, 2, "explicit"}}));
  ASSERT_EQ(Viewer(dir, "deps.json --format json").exit_code, 0);
  std::string json = ReadFile(dir.File("deps_viewer.json"));
  EXPECT_NE(json.find("\"edges\": [\n    {\"pred\": \"1\", \"succ\": \"2\", \"pred_label\": "
                      "\"(0, 1)\", \"succ_label\": \"(0, 2)\"}\n  ]"),
            std::string::npos)
      << json;
  EXPECT_NE(json.find("\"total_edges\": 1,"), std::string::npos) << json;
}

// A NUL in a kernel name or an overlap string: every format still renders (Graphviz reads
// DOT as a C string, so the DOT writer spells NUL as `\0`).
TEST(Viewer, NulInNamesAndOverlapsRendersInEveryFormat) {
  TempDir dir;
  WriteFile(dir.File("deps.json"), R"({"tasks":[
      {"task_id":1,"kernel_ids":[3,-1,-1],"args":[{"idx":0,"type":"OUTPUT"}]},
      {"task_id":2,"kernel_ids":[4,-1,-1],"args":[{"idx":0,"type":"INPUT","tensor_id":"7"}]}],
    "edges":[{"pred":1,"succ":2,"source":"tensormap","arg":0,"tensor_id":"7",
              "overlap":"part\u0000ial"}]})");
  WriteFile(dir.File("name_map.json"), R"({"3":"qk\u0000mm","4":"sf"})");
  for (const char* args :
       {"deps.json --format html", "deps.json --format html --show-tensor-info",
        "deps.json --format dot", "deps.json --format dot --show-tensor-info -o r.dot",
        "deps.json --format text", "deps.json --format json"}) {
    CommandResult r = Viewer(dir, args);
    EXPECT_EQ(r.exit_code, 0) << args << ": " << r.err;
    EXPECT_EQ(r.err, "") << args;
  }
  EXPECT_NE(ReadFile(dir.File("deps_viewer.html")).find(">1 · qk\\0mm ↓0 ↑1<"), std::string::npos);
  for (const char* file : {"deps_viewer.dot", "r.dot"}) {
    EXPECT_EQ(ReadFile(dir.File(file)).find('\0'), std::string::npos) << file;
  }
  EXPECT_NE(ReadFile(dir.File("deps_viewer.dot")).find("qk\\\\0mm"), std::string::npos);
  EXPECT_NE(ReadFile(dir.File("r.dot")).find("qk\\0mm"), std::string::npos);
  EXPECT_NE(ReadFile(dir.File("r.dot")).find("part\\\\0ial"), std::string::npos);
}

TEST(Viewer, HelpExplainsModesExamplesAndExitCodes) {
  TempDir dir;
  CommandResult r = Viewer(dir, "--help");
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.err, "");
  for (const char* text : {"usage: deps_viewer", "  full ", "  reduced ", "  omitted ",
                           "  reduced_dataflow ", "  omitted_dataflow ", "  retained ", "creator",
                           "Examples:", "Exit status:", "  3  the graph has a cycle",
                           "--dot-layout-form", "--layout-timeout", "--threads N", "--version"}) {
    EXPECT_NE(r.out.find(text), std::string::npos) << text;
  }
  size_t longest = 0;
  for (size_t begin = 0, end; (end = r.out.find('\n', begin)) != std::string::npos;
       begin = end + 1) {
    longest = std::max(longest, end - begin);
  }
  EXPECT_LE(longest, 100u);
  EXPECT_EQ(Viewer(dir, "-h").out, r.out);
}

// --threads changes how the input is loaded, never what is written: on a capture of several
// parse blocks, every output and message is the same for any thread count.
TEST(Viewer, ThreadsChangeNothingButTime) {
  TempDir dir;
  gen_graph::GenOptions gen;
  gen.tasks = 2500;  // about 4 MiB: several blocks of the parallel load
  gen_graph::GenStats stats;
  std::string err;
  ASSERT_TRUE(gen_graph::WriteGraphFile(gen, dir.File("deps.json"), &stats, &err)) << err;
  ASSERT_GT(stats.bytes, 3u << 20);
  for (const char* mode : {"full", "reduced_dataflow"}) {
    std::string first_out, first_text;
    for (const char* threads : {"1", "2", "7", "0"}) {
      const std::string out = std::string("t") + threads + ".txt";
      CommandResult r = Viewer(dir, std::string("deps.json --stats --edge-mode ") + mode +
                                        " --threads " + threads + " -o " + out);
      ASSERT_EQ(r.exit_code, 0) << r.err;
      const std::string stdout_text = r.out.substr(0, r.out.find("Wrote "));
      if (first_text.empty()) {
        first_out = stdout_text;
        first_text = ReadFile(dir.File(out));
        ASSERT_FALSE(first_text.empty());
        continue;
      }
      EXPECT_EQ(stdout_text, first_out) << mode << ", --threads " << threads;
      EXPECT_EQ(ReadFile(dir.File(out)), first_text) << mode << ", --threads " << threads;
    }
  }
}

TEST(Viewer, VersionNamesTheProject) {
  TempDir dir;
  CommandResult r = Viewer(dir, "--version");
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_TRUE(r.out.starts_with("deps_viewer 0.")) << r.out;
  EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 1);
}

// Usage errors are one line in the tool's own words: no parser internals, a suggestion for a
// misspelled option or value.
TEST(Viewer, UsageErrorsAreOneLineAndSuggest) {
  TempDir dir;
  const std::pair<const char*, const char*> cases[] = {
      {"--fromat dot deps.json", "unknown option --fromat; did you mean --format?"},
      {"deps.json --edgemode reduced", "unknown option --edgemode; did you mean --edge-mode?"},
      {"deps.json --stirct", "unknown option --stirct; did you mean --strict?"},
      {"deps.json --frobnicate",
       "unknown option --frobnicate; deps_viewer --help lists the options"},
      {"deps.json -x", "unknown option -x; deps_viewer --help lists the options"},
      {"deps.json --edge-mode reduce",
       "--edge-mode reduce: expected full, reduced, omitted, reduced_dataflow, omitted_dataflow "
       "or retained; did you mean reduced?"},
      {"deps.json --format pdf", "--format pdf: expected text, html, dot or json"},
      {"deps.json -o", "--output needs a value: a FILE"},
      {"deps.json --format", "--format needs a value: one of text, html, dot or json"},
      {"deps.json --strict=yes", "--strict takes no value"},
      {"a.json b.json", "one input expected, got 2 (a.json, b.json)"},
      {"--e dot", "--e is ambiguous: it could be --edge-mode, --engine or --explain"},
      {"deps.json --format html --layout-timeout soon",
       "--layout-timeout soon: expected a positive number of seconds"},
      {"deps.json --threads many",
       "--threads many: expected a number of threads from 0 (every core) to 1024"},
      {"deps.json --threads=4096",
       "--threads 4096: expected a number of threads from 0 (every core) to 1024"},
  };
  for (const auto& [args, message] : cases) {
    CommandResult r = Viewer(dir, args);
    EXPECT_EQ(r.exit_code, 2) << args;
    EXPECT_EQ(r.err, std::string("deps_viewer: error: ") + message + "\n") << args;
    EXPECT_EQ(r.out, "") << args;
  }
  CommandResult r = Viewer(dir, "deps.json --dot-layout-form");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "error: --dot-layout-form is only valid with --format dot\n");
}

// DOT export: a colour Graphviz knows, only the edge mode's pairs unless the layout form is
// asked for, and the SPMD badges the page draws.
TEST(Viewer, DotExportHoldsTheSelectedEdgesAndSpmdBadges) {
  TempDir dir;
  WriteFile(dir.File("deps.json"), WorkedExample());
  CommandResult r = Viewer(dir, "deps.json --format dot --edge-mode reduced");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::string dot = ReadFile(dir.File("deps_viewer_reduced.dot"));
  EXPECT_NE(dot.find("  edge [color=\"#888888\"];\n"), std::string::npos) << dot;
  EXPECT_EQ(dot.find("hidden-edge"), std::string::npos) << dot;
  size_t edges = 0;
  for (size_t at = dot.find(" -> "); at != std::string::npos; at = dot.find(" -> ", at + 1))
    ++edges;
  EXPECT_EQ(edges, 6u) << dot;
  EXPECT_EQ(dot.find("T0_1 -> T0_3"), std::string::npos);
  EXPECT_NE(dot.find("xlabel=<<FONT COLOR=\"#C62828\" POINT-SIZE=\"8\"><B>x4</B></FONT>>"),
            std::string::npos)
      << dot;

  r = Viewer(dir, "deps.json --format dot --edge-mode reduced --dot-layout-form -o layout.dot");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::string layout = ReadFile(dir.File("layout.dot"));
  EXPECT_NE(layout.find("  T0_1 -> T0_3 [class=\"hidden-edge\""), std::string::npos) << layout;
  EXPECT_EQ(layout.find("xlabel"), std::string::npos);
}

// A graph whose dot layout takes about a minute of CPU: a chain of `n` tasks where each task
// also precedes the one 50 further on (long pairs make dot's positioning graph large).
std::string SlowLayoutJson(int n) {
  std::string json = "{\"edges\":[";
  for (int i = 1; i < n; ++i) {
    if (i > 1) json += ',';
    json += "{\"pred\":" + std::to_string(i) + ",\"succ\":" + std::to_string(i + 1) + "}";
    if (i + 50 <= n) {
      json += ",{\"pred\":" + std::to_string(i) + ",\"succ\":" + std::to_string(i + 50) + "}";
    }
  }
  return json + "]}";
}

// Starts deps_viewer with `args` in `dir`, stdout and stderr into stdout.txt and stderr.txt
// there, core files off. Returns its pid.
pid_t StartViewer(const TempDir& dir, const std::vector<std::string>& args) {
  std::vector<std::string> argv_text = {testing::ViewerBinary()};
  argv_text.insert(argv_text.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& arg : argv_text) argv.push_back(arg.data());
  argv.push_back(nullptr);
  pid_t pid = fork();
  if (pid == 0) {
    rlimit no_core{0, 0};
    setrlimit(RLIMIT_CORE, &no_core);
    if (chdir(dir.path().c_str()) != 0) _exit(126);
    int out = open("stdout.txt", O_WRONLY | O_CREAT | O_TRUNC, 0644);
    int err = open("stderr.txt", O_WRONLY | O_CREAT | O_TRUNC, 0644);
    dup2(out, STDOUT_FILENO);
    dup2(err, STDERR_FILENO);
    execv(argv[0], argv.data());
    _exit(127);
  }
  return pid;
}

// The pid of a child process of `parent` (from /proc/<pid>/stat), 0 when there is none.
pid_t ChildOf(pid_t parent) {
  for (const auto& entry : std::filesystem::directory_iterator("/proc")) {
    const std::string name = entry.path().filename().string();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    const std::string stat = ReadFile(entry.path().string() + "/stat");
    const size_t paren = stat.rfind(')');
    if (paren == std::string::npos || paren + 2 > stat.size()) continue;
    std::istringstream fields(stat.substr(paren + 2));
    char state = 0;
    pid_t ppid = 0;
    if (fields >> state >> ppid && ppid == parent) return std::stoi(name);
  }
  return 0;
}

// The names of the files in `dir`, sorted.
std::vector<std::string> FilesIn(const TempDir& dir) {
  std::vector<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(dir.path())) {
    names.push_back(entry.path().filename().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

// --layout graphviz on a large graph: a warning with the estimate first, the layout in a
// child process; when the layout library crashes (here: the test sends the child SIGSEGV)
// deps_viewer says so in one line, exits 1 and leaves no file behind.
TEST(Viewer, GraphvizCrashIsOneLineAndLeavesNoFile) {
  TempDir dir;
  WriteFile(dir.File("deps.json"), SlowLayoutJson(300));
  pid_t viewer = StartViewer(
      dir, {"deps.json", "--format", "html", "--layout", "graphviz", "-o", "page.html"});
  ASSERT_GT(viewer, 0);
  pid_t child = 0;
  for (int i = 0; i < 6000 && child == 0; ++i) {
    child = ChildOf(viewer);
    if (child == 0) usleep(5000);
  }
  if (child == 0) {  // leave no deps_viewer behind
    kill(viewer, SIGKILL);
    waitpid(viewer, nullptr, 0);
    FAIL() << "deps_viewer started no child process: " << ReadFile(dir.File("stderr.txt"));
  }
  // AddressSanitizer turns a SIGSEGV into its own report and exit(1); it leaves SIGABRT
  // (a failed assertion inside Graphviz) to the default action, so a sanitizer build is
  // crashed with that.
  const bool asan = testing::UnderAddressSanitizer();
  kill(child, asan ? SIGABRT : SIGSEGV);
  int status = 0;
  ASSERT_EQ(waitpid(viewer, &status, 0), viewer);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 1);
  const std::string err = ReadFile(dir.File("stderr.txt"));
  EXPECT_TRUE(
      err.starts_with("deps_viewer: warning: Graphviz dot on 300 nodes and 549 edges "
                      "takes about "))
      << err;
  const std::string crash = err.substr(err.find('\n') + 1);
  EXPECT_TRUE(
      crash.starts_with(std::string("error: deps.json: Graphviz crashed laying out 300 nodes ") +
                        (asan ? "(signal 6, SIGABRT)" : "(signal 11, SIGSEGV)")))
      << err;
  EXPECT_TRUE(crash.ends_with("; --layout layered draws the explorer page instead\n")) << err;
  EXPECT_EQ(std::count(crash.begin(), crash.end(), '\n'), 1) << err;
  EXPECT_EQ(ReadFile(dir.File("stdout.txt")), "");
  EXPECT_EQ(FilesIn(dir), (std::vector<std::string>{"deps.json", "stderr.txt", "stdout.txt"}));
}

TEST(Viewer, LayoutTimeoutBoundsGraphviz) {
  TempDir dir;
  WriteFile(dir.File("deps.json"), SlowLayoutJson(300));
  const auto start = std::chrono::steady_clock::now();
  CommandResult r = Viewer(dir,
                           "deps.json --format html --layout graphviz --layout-timeout 1 "
                           "-o page.html");
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_LT(seconds, 30);
  const std::string last = r.err.substr(r.err.find('\n') + 1);
  EXPECT_TRUE(
      last.starts_with("error: deps.json: Graphviz dot did not finish laying out 300 "
                       "nodes within 1 s (--layout-timeout)"))
      << r.err;
  EXPECT_EQ(std::count(last.begin(), last.end(), '\n'), 1) << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(FilesIn(dir), (std::vector<std::string>{"deps.json"}));
}

}  // namespace
}  // namespace depgraph
