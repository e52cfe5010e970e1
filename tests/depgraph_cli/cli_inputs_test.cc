// cli_inputs: every `depgraph` command that reads a capture refuses a document that is not
// one (timing records, a name map, a trace, `{}`) with one line naming it, exit 1.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "test_util.h"

namespace depgraph {
namespace {

struct NonCapture {
  const char* file;
  const char* text;
  const char* says;
};

const NonCapture kNonCaptures[] = {
    {"chip_swimlane_records.json",
     R"({"chip_swimlane_level": 2, "metadata": {}, "aicore_tasks": [], "aicpu_tasks": []})",
     "these are timing records"},
    {"name_map_x.json", R"({"level": 2, "callable_id_to_name": {"0": "fill"}})",
     "a kernel name map"},
    {"trace.json", R"({"traceEvents": []})", "Chrome/Perfetto trace"},
    {"empty.json", "{}", "an empty JSON object"},
};

TEST(CliInputs, EveryCaptureCommandRefusesWhatIsNotACapture) {
  testing::TempDir dir;
  testing::WriteFile(dir.File("deps.json"), testing::WorkedExampleJson());
  const std::vector<std::string> commands = {"audit {}",          "diff {} deps.json",
                                             "diff deps.json {}", "query {} --groups",
                                             "simulate {}",       "wait-sim {}"};
  for (const NonCapture& doc : kNonCaptures) {
    testing::WriteFile(dir.File(doc.file), doc.text);
    for (std::string command : commands) {
      command.replace(command.find("{}"), 2, doc.file);
      const testing::CommandResult r = testing::RunCommand(
          testing::BoundedCommand(testing::CliBinary()) + command, dir.path());
      EXPECT_EQ(r.exit_code, 1) << command << "\n" << r.out << r.err;
      const std::string start = std::string("error: ") + doc.file + ": not a deps.json capture: ";
      EXPECT_EQ(r.err.compare(0, start.size(), start), 0) << command << ": " << r.err;
      EXPECT_EQ(r.out, "") << command;
      EXPECT_NE(r.err.find(doc.says), std::string::npos) << command << ": " << r.err;
      EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << command << ": " << r.err;
    }
  }
}

TEST(CliInputs, GatesRefuseACaptureWithoutTasksUnlessAllowed) {
  testing::TempDir dir;
  testing::WriteFile(dir.File("none.json"), R"({"tasks": [], "tensors": [], "edges": []})");
  testing::WriteFile(dir.File("deps.json"), testing::WorkedExampleJson());
  for (const std::string command : {"audit none.json", "diff none.json deps.json",
                                    "diff deps.json none.json"}) {
    testing::CommandResult r = testing::RunCommand(
        "'" + testing::CliBinary() + "' " + command, dir.path());
    EXPECT_EQ(r.exit_code, 1) << command << ": " << r.out << r.err;
    EXPECT_NE(r.err.find("error: none.json: the capture has no tasks"), std::string::npos)
        << command << ": " << r.err;
    EXPECT_NE(r.err.find("--allow-empty"), std::string::npos) << r.err;
    EXPECT_EQ(r.out, "") << command;
  }
  testing::CommandResult allowed = testing::RunCommand(
      "'" + testing::CliBinary() + "' diff none.json none.json --allow-empty", dir.path());
  EXPECT_EQ(allowed.exit_code, 0) << allowed.err;
  EXPECT_NE(allowed.out.find("result: B keeps every ordering of A: exit 0"), std::string::npos)
      << allowed.out;
}

}  // namespace
}  // namespace depgraph
