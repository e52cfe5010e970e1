#include "runner_test_util.h"

#include <gtest/gtest.h>
#include <stdlib.h>
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <sstream>

namespace depgraph::testing {

namespace {

/// `s` quoted for /bin/sh.
std::string Quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

/// The directories FreshDir made; removed when the test program exits. Never destroyed, so
/// it outlives the exit handler that reads it.
std::vector<std::string>& MadeDirectories() {
  static auto* dirs = new std::vector<std::string>;
  return *dirs;
}

void RemoveMadeDirectories() {
  for (const std::string& dir : MadeDirectories()) {
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
  }
}

}  // namespace

std::string Module(const std::string& target) {
  return std::string(ORCH_MODULE_DIR) + "/lib" + target + ".so";
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

void WriteFile(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

std::string FreshDir(const std::string& name) {
  std::string pattern = ::testing::TempDir() + "/orch_" + name + "_XXXXXX";
  std::vector<char> buf(pattern.begin(), pattern.end());
  buf.push_back('\0');
  if (mkdtemp(buf.data()) == nullptr) return "";
  static std::once_flag registered;
  std::call_once(registered, [] { std::atexit(RemoveMadeDirectories); });
  MadeDirectories().push_back(buf.data());
  return buf.data();
}

RunnerRun RunRunner(const std::vector<std::string>& args, const std::string& dir) {
  // Bounded: a runner that hangs (or reads without end) fails the test instead of stalling it.
  std::string cmd = "timeout -k 5 120 " + Quote(ORCH_RUNNER_BIN);
  for (const std::string& a : args) {
    cmd += ' ';
    cmd += Quote(a);
  }
  cmd += " >" + Quote(dir + "/stdout.txt") + " 2>" + Quote(dir + "/stderr.txt") + " </dev/null";
  RunnerRun r;
  int status = std::system(cmd.c_str());
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.out = ReadFile(dir + "/stdout.txt");
  r.err = ReadFile(dir + "/stderr.txt");
  return r;
}

}  // namespace depgraph::testing
