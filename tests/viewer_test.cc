// The deps_viewer command line, run as a subprocess exactly as users run it.
#include <gtest/gtest.h>

#include <filesystem>

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
      "ulimit -v 2000000 && timeout 20 '" + testing::ViewerBinary() + "' " + args, dir.path());
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
  EXPECT_EQ(Viewer(dir, "deps.json --strict").exit_code, 0);  // full mode reduces nothing
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
  EXPECT_NE(json.find("\"listed\": [\n    {\"pred\": \"4294967297\", \"succ\": \"4294967299\"}\n  ]"),
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

}  // namespace
}  // namespace depgraph
