#include "test_util.h"

#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

namespace depgraph::testing {

TempDir::TempDir() {
  std::string pattern = (std::filesystem::temp_directory_path() / "depgraph_test_XXXXXX").string();
  std::vector<char> name(pattern.begin(), pattern.end());
  name.push_back('\0');
  path_ = mkdtemp(name.data());
}

TempDir::~TempDir() {
  std::error_code ec;
  std::filesystem::remove_all(path_, ec);
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

void WriteFile(const std::string& path, const std::string& content) {
  std::ofstream(path, std::ios::binary) << content;
}

bool Exists(const std::string& path) {
  std::error_code ec;
  return std::filesystem::exists(path, ec);
}

CommandResult RunCommand(const std::string& command, const std::string& cwd) {
  TempDir capture;
  std::string full = "cd '" + cwd + "' && " + command + " >'" + capture.File("out") + "' 2>'" +
                     capture.File("err") + "' </dev/null";
  int status = std::system(full.c_str());
  CommandResult result;
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  result.out = ReadFile(capture.File("out"));
  result.err = ReadFile(capture.File("err"));
  return result;
}

std::string ViewerBinary() { return DEPGRAPH_VIEWER_BIN; }
std::string SourceDir() { return DEPGRAPH_SOURCE_DIR; }

}  // namespace depgraph::testing
