#include "test_util.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>
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

void MakeFifo(const std::string& path) {
  if (mkfifo(path.c_str(), 0600) != 0) {
    ADD_FAILURE() << "mkfifo " << path << ": " << std::strerror(errno);
  }
}

void MakeDeepDirectory(const std::string& dir, int levels, const char* name) {
  int fd = open(dir.c_str(), O_RDONLY | O_DIRECTORY);
  if (fd < 0) {
    ADD_FAILURE() << "open " << dir << ": " << std::strerror(errno);
    return;
  }
  for (int i = 0; i < levels; ++i) {
    const int next = mkdirat(fd, name, 0700) == 0 ? openat(fd, name, O_RDONLY | O_DIRECTORY) : -1;
    close(fd);
    if (next < 0) {
      ADD_FAILURE() << "level " << i << " under " << dir << ": " << std::strerror(errno);
      return;
    }
    fd = next;
  }
  close(fd);
}

int RunUnprivileged(const std::function<int()>& body) {
  const pid_t child = fork();
  if (child < 0) return 98;
  if (child == 0) {
    if (geteuid() == 0 && (setgid(65534) != 0 || setuid(65534) != 0)) _exit(99);
    _exit(body());
  }
  int status = 0;
  if (waitpid(child, &status, 0) != child) return 98;
  return WIFEXITED(status) ? WEXITSTATUS(status) : 100 + WTERMSIG(status);
}

bool Exists(const std::string& path) {
  std::error_code ec;
  return std::filesystem::exists(path, ec);
}

struct FifoUnblocker::State {
  std::atomic<bool> stop{false};
  std::thread thread;
};

FifoUnblocker::FifoUnblocker(std::string path) : state_(new State) {
  state_->thread = std::thread([state = state_, path = std::move(path)] {
    while (!state->stop.load()) {
      int fd = open(path.c_str(), O_WRONLY | O_NONBLOCK | O_CLOEXEC);  // ENXIO: no reader yet
      if (fd >= 0) close(fd);
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
  });
}

FifoUnblocker::~FifoUnblocker() {
  state_->stop.store(true);
  state_->thread.join();
  delete state_;
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
std::string CliBinary() { return DEPGRAPH_CLI_BIN; }
std::string SourceDir() { return DEPGRAPH_SOURCE_DIR; }

#if defined(__SANITIZE_ADDRESS__)
constexpr bool kAddressSanitizer = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool kAddressSanitizer = true;
#else
constexpr bool kAddressSanitizer = false;
#endif
#else
constexpr bool kAddressSanitizer = false;
#endif

bool UnderAddressSanitizer() { return kAddressSanitizer; }

std::string BoundedCommand(const std::string& binary) {
  return std::string(kAddressSanitizer ? "" : "ulimit -v 2000000 && ") + "timeout 20 '" +
         binary + "' ";
}

}  // namespace depgraph::testing

#include <gtest/gtest.h>

#include "depgraph/graph/load_deps.h"

namespace depgraph::testing {

std::string EdgesJson(std::initializer_list<std::tuple<uint64_t, uint64_t, const char*>> edges) {
  std::string out = "{\"edges\":[";
  bool first = true;
  for (const auto& [pred, succ, source] : edges) {
    if (!first) out += ",";
    first = false;
    out += "{\"pred\":\"" + std::to_string(pred) + "\",\"succ\":\"" + std::to_string(succ) +
           "\",\"arg\":-1,\"source\":\"" + source + "\"}";
  }
  return out + "]}";
}

std::string CaptureJson(std::initializer_list<std::tuple<uint64_t, uint64_t, const char*>> edges) {
  return "{\"tasks\":[]," + EdgesJson(edges).substr(1);
}

DepGraph LoadText(const std::string& text) {
  DepGraph graph;
  std::string err;
  EXPECT_TRUE(LoadDepsJsonText(text, "deps.json", &graph, &err)) << err;
  return graph;
}

std::string WorkedExampleJson() {
  return ReadFile(SourceDir() + "/data/samples/worked_example/deps.json");
}

int64_t PairOf(const DepGraph& graph, uint64_t pred, uint64_t succ) {
  int64_t p = graph.FindNode(pred), s = graph.FindNode(succ);
  if (p < 0 || s < 0) return -1;
  return graph.FindPair(static_cast<uint32_t>(p), static_cast<uint32_t>(s));
}

}  // namespace depgraph::testing
