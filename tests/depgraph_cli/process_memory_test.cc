// The tools' process settings (apps/cli_common/process_memory.h): re-executing with the heap on
// transparent huge pages changes nothing a user sees, whatever GLIBC_TUNABLES held before.
#include <gtest/gtest.h>

#include <filesystem>
#include <new>
#include <string>

#include "process_memory.h"
#include "test_util.h"

namespace depgraph {
namespace {

using testing::CommandResult;
using testing::ReadFile;
using testing::TempDir;

const char* const kCase = "/data/real/paged_attention/CaseSmall1";

// Runs deps_viewer in `dir` with GLIBC_TUNABLES as given ("-" = unset) and `args`.
CommandResult Viewer(const TempDir& dir, const std::string& tunables, const std::string& args) {
  const std::string env = tunables == "-" ? "env -u GLIBC_TUNABLES "
                                          : "env GLIBC_TUNABLES='" + tunables + "' ";
  return testing::RunCommand(env + "'" + testing::ViewerBinary() + "' " + args, dir.path());
}

// Each environment: unset (the tool may re-execute itself), the user's opt-out, and another
// tunable the re-execution must keep alongside its own.
const char* const kEnvironments[] = {"-", "glibc.malloc.hugetlb=0",
                                     "glibc.malloc.tcache_count=5"};

TEST(ProcessMemory, OutputIsTheGoldenOneInEveryEnvironment) {
  const std::string dir = testing::SourceDir() + kCase;
  for (const char* tunables : kEnvironments) {
    TempDir work;
    for (const char* file : {"deps.json", "name_map_TestPagedAttention_CaseSmall1.json"}) {
      std::filesystem::copy_file(dir + "/" + file, work.File(file));
    }
    const CommandResult run = Viewer(work, tunables, "deps.json --edge-mode reduced -o out.txt");
    EXPECT_EQ(run.exit_code, 0) << tunables << ": " << run.err;
    EXPECT_EQ(ReadFile(work.File("out.txt")), ReadFile(dir + "/expected/reduced.txt"))
        << tunables;
  }
}

TEST(ProcessMemory, ArgumentsSurviveTheReExecution) {
  // A refused argument names itself in the message: argv reached the re-executed process.
  std::string first_error;
  for (const char* tunables : kEnvironments) {
    TempDir work;
    const CommandResult run = Viewer(work, tunables, "missing.json --edge-mode 'no such mode'");
    EXPECT_NE(run.exit_code, 0) << tunables;
    EXPECT_NE(run.err.find("no such mode"), std::string::npos) << tunables << ": " << run.err;
    if (first_error.empty()) first_error = run.err;
    EXPECT_EQ(run.err, first_error) << tunables;
  }
}

// Issue 25 item 4: an allocation failure anywhere in a tool is one line and exit 1, not
// std::terminate's abort (exit 134); a body that returns keeps its exit code.
TEST(ProcessMemory, AnAllocationFailureIsOneLineAndExitOne) {
  ::testing::internal::CaptureStderr();
  const int code = cli::RunReportingOutOfMemory("tool", []() -> int { throw std::bad_alloc(); });
  const std::string err = ::testing::internal::GetCapturedStderr();
  EXPECT_EQ(code, 1);
  EXPECT_EQ(err,
            "tool: error: out of memory: the input needs more memory than this process may use\n");
  EXPECT_EQ(cli::RunReportingOutOfMemory("tool", [] { return 3; }), 3);
}

}  // namespace
}  // namespace depgraph
