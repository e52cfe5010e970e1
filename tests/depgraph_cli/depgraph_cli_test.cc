// The files of `depgraph audit` and `depgraph diff` (apps/depgraph/depgraph_cli.cc): special
// inputs refused before they can block, `-o` never replacing a non-regular file or an input.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "graph_generator.h"
#include "test_util.h"

namespace depgraph {
namespace {

using testing::CommandResult;
using testing::ReadFile;
using testing::TempDir;
using testing::WriteFile;

// Bounded in time and memory: without the refusals these inputs block or never end.
CommandResult Depgraph(const TempDir& dir, const std::string& args) {
  return testing::RunCommand(
      testing::BoundedCommand(testing::CliBinary()) + args, dir.path());
}

size_t EntryCount(const TempDir& dir) {
  return std::distance(std::filesystem::directory_iterator(dir.path()),
                       std::filesystem::directory_iterator());
}

class DepgraphCliFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    graph_ = testing::CaptureJson({{1, 2, "explicit"}, {2, 3, "explicit"}});
    WriteFile(dir_.File("a.json"), graph_);
    WriteFile(dir_.File("b.json"), graph_);
  }
  TempDir dir_;
  std::string graph_;
};

TEST_F(DepgraphCliFiles, NonRegularOutputsAreRefused) {
  testing::MakeFifo(dir_.File("out.fifo"));
  WriteFile(dir_.File("target.txt"), "keep");
  std::filesystem::create_symlink("target.txt", dir_.File("link.txt"));
  for (const std::string command : {"audit a.json", "diff a.json b.json"}) {
    CommandResult r = Depgraph(dir_, command + " -o out.fifo");
    EXPECT_EQ(r.exit_code, 1) << command;
    EXPECT_EQ(r.err, "error: out.fifo: is a FIFO, not a regular file; refusing to replace it\n");
    EXPECT_EQ(r.out, "");
    r = Depgraph(dir_, command + " --json -o link.txt");
    EXPECT_EQ(r.exit_code, 1) << command;
    EXPECT_EQ(r.err, "error: link.txt: is a symlink, not a regular file; refusing to replace it\n");
  }
  EXPECT_EQ(std::filesystem::status(dir_.File("out.fifo")).type(),
            std::filesystem::file_type::fifo);
  EXPECT_TRUE(std::filesystem::is_symlink(dir_.File("link.txt")));
  EXPECT_EQ(ReadFile(dir_.File("target.txt")), "keep");
  EXPECT_EQ(EntryCount(dir_), 5u);  // no temporary file left
}

TEST_F(DepgraphCliFiles, SpecialInputsAreRefused) {
  testing::MakeFifo(dir_.File("fifo.json"));
  CommandResult r = Depgraph(dir_, "audit fifo.json");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err, "error: fifo.json: is a FIFO, not a regular file\n");
  r = Depgraph(dir_, "diff a.json fifo.json");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err, "error: fifo.json: is a FIFO, not a regular file\n");
  r = Depgraph(dir_, "query fifo.json --grep x");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err, "error: fifo.json: is a FIFO, not a regular file\n");
  r = Depgraph(dir_, "audit a.json --func-names fifo.json");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err, "error: fifo.json: is a FIFO, not a regular file\n");
  r = Depgraph(dir_, "audit a.json --func-names /dev/zero");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err, "error: /dev/zero: is a character device, not a regular file\n");
  r = Depgraph(dir_, "audit .");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err, "error: .: is a directory\n");
}

TEST_F(DepgraphCliFiles, OutputOverAnInputIsRefused) {
  std::filesystem::create_directory(dir_.File("sub"));
  std::filesystem::create_symlink("a.json", dir_.File("link.json"));
  WriteFile(dir_.File("names.json"), R"({"1": "fill"})");
  struct Case {
    std::string args;
    std::string output;
    std::string input;
  };
  for (const Case& c :
       {Case{"audit a.json", "a.json", "a.json"}, Case{"audit a.json", "sub/../a.json", "a.json"},
        Case{"audit a.json", "link.json", "a.json"},
        Case{"audit a.json", dir_.File("a.json"), "a.json"},
        Case{"audit a.json --func-names names.json", "names.json", "names.json"},
        Case{"diff a.json b.json", "./b.json", "b.json"},
        Case{"diff a.json b.json", "link.json", "a.json"}}) {
    CommandResult r = Depgraph(dir_, c.args + " -o " + c.output);
    EXPECT_EQ(r.exit_code, 1) << c.args << " -o " << c.output;
    EXPECT_EQ(r.err, "error: " + c.output + ": is the input file " + c.input +
                         "; refusing to overwrite it\n");
    EXPECT_EQ(r.out, "");
  }
  EXPECT_EQ(ReadFile(dir_.File("a.json")), graph_);
  EXPECT_EQ(ReadFile(dir_.File("b.json")), graph_);
  EXPECT_EQ(ReadFile(dir_.File("names.json")), R"({"1": "fill"})");
  EXPECT_EQ(EntryCount(dir_), 5u);  // a.json, b.json, sub, link.json, names.json
}

// The name map audit finds by itself beside the capture is an input as much as one given with
// --func-names: -o naming it is refused and the file is left as it was.
TEST_F(DepgraphCliFiles, OutputOverTheDiscoveredNameMapIsRefused) {
  WriteFile(dir_.File("name_map_run.json"), R"({"1": "fill"})");
  CommandResult r = Depgraph(dir_, "audit a.json -o name_map_run.json");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err, "error: name_map_run.json: is the input file ./name_map_run.json; refusing to "
                   "overwrite it\n");
  EXPECT_EQ(ReadFile(dir_.File("name_map_run.json")), R"({"1": "fill"})");
}

// --threads of audit, diff and query: the same reports for any count; a bad count is a
// usage error.
TEST(DepgraphCliThreads, ReportsDoNotDependOnTheThreadCount) {
  TempDir dir;
  gen_graph::GenOptions gen;
  gen.tasks = 2500;  // several blocks of the parallel load
  gen_graph::GenStats stats;
  std::string err;
  ASSERT_TRUE(gen_graph::WriteGraphFile(gen, dir.File("deps.json"), &stats, &err)) << err;
  for (const char* command :
       {"audit deps.json --json", "diff deps.json deps.json --json", "query deps.json --grep mm",
        "query deps.json --task 7 --depth 2"}) {
    CommandResult one = Depgraph(dir, std::string(command) + " --threads 1");
    ASSERT_FALSE(one.out.empty()) << command << ": " << one.err;
    for (const char* threads : {"2", "5", "0"}) {
      CommandResult more = Depgraph(dir, std::string(command) + " --threads " + threads);
      EXPECT_EQ(more.exit_code, one.exit_code) << command << " --threads " << threads;
      EXPECT_EQ(more.out, one.out) << command << " --threads " << threads;
      EXPECT_EQ(more.err, one.err) << command << " --threads " << threads;
    }
  }
  for (const char* bad : {"audit deps.json --threads lots", "diff deps.json deps.json --threads -2",
                          "query deps.json --grep mm --threads 99999"}) {
    CommandResult r = Depgraph(dir, bad);
    EXPECT_EQ(r.exit_code, 2) << bad;
    EXPECT_NE(r.err.find("--threads"), std::string::npos) << bad << ": " << r.err;
  }
}

}  // namespace
}  // namespace depgraph
