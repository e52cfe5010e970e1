// Running orch_runner from the tests: built modules, fresh directories, captured output.
#pragma once

#include <string>
#include <vector>

namespace depgraph::testing {

/// Path of the built module of orchestration target `target` (lib<target>.so).
std::string Module(const std::string& target);

/// The whole file (empty if unreadable).
std::string ReadFile(const std::string& path);

/// Writes `text` to `path` (replacing it).
void WriteFile(const std::string& path, const std::string& text);

/// A fresh empty directory under the test temp dir ("" on failure), removed with its
/// contents when the test program exits.
std::string FreshDir(const std::string& name);

/// Exit code and captured output of one runner invocation.
struct RunnerRun {
  int exit_code = -1;  ///< -1 when the runner did not exit normally (a crash)
  std::string out;
  std::string err;
};

/// Runs orch_runner with `args` (killed after 120 s: a hang fails the test, exit code 124);
/// stdout and stderr are captured in files under `dir`.
RunnerRun RunRunner(const std::vector<std::string>& args, const std::string& dir);

}  // namespace depgraph::testing
