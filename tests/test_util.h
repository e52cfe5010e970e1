// Shared helpers for the test suite: temporary directories, files, running the apps.
#pragma once

#include <functional>
#include <string>

namespace depgraph::testing {

/// A fresh empty directory under the system temp dir, removed when the object dies.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  const std::string& path() const { return path_; }
  /// path()/name
  std::string File(const std::string& name) const { return path_ + "/" + name; }

 private:
  std::string path_;
};

/// Whole file content; "" if unreadable.
std::string ReadFile(const std::string& path);
/// Writes `content` to `path` (parents must exist).
void WriteFile(const std::string& path, const std::string& content);
/// Whether a file or directory exists.
bool Exists(const std::string& path);

/// Creates a FIFO at `path` (mkfifo(3), mode 0600); fails the current test if it cannot.
void MakeFifo(const std::string& path);

/// Creates `levels` nested directories named `name` inside the existing directory `dir`
/// (dir/d/d/.../d), with mkdirat, so deeper than one path may name at once (PATH_MAX); fails
/// the current test if it cannot. Remove it with `rm -rf`. O(levels).
void MakeDeepDirectory(const std::string& dir, int levels, const char* name = "d");

/// Runs `body` in a forked child that first gives up root (to uid/gid 65534, "nobody") when
/// it has it, so that permission checks apply; returns the child's exit status (body's
/// return value), or 100 + signal when it dies of a signal, 99 when it cannot drop root.
/// For tests of unreadable files, which root would read anyway.
int RunUnprivileged(const std::function<int()>& body);

/// While alive, keeps opening the FIFO at `path` for writing (non-blocking, every 10 ms) and
/// closing it at once, so that a reader stuck in open(2) on it gets end-of-file instead of
/// blocking forever. Guards in-process tests of code that must refuse FIFOs: without the
/// refusal such a test fails instead of hanging.
class FifoUnblocker {
 public:
  explicit FifoUnblocker(std::string path);
  ~FifoUnblocker();
  FifoUnblocker(const FifoUnblocker&) = delete;
  FifoUnblocker& operator=(const FifoUnblocker&) = delete;

 private:
  struct State;
  State* state_;
};

/// Result of running a command.
struct CommandResult {
  int exit_code = -1;
  std::string out;
  std::string err;
};
/// Runs `command` through /bin/sh in directory `cwd`, capturing stdout and stderr.
CommandResult RunCommand(const std::string& command, const std::string& cwd);

/// Absolute path of the deps_viewer binary under test.
std::string ViewerBinary();
/// Absolute path of the depgraph (audit/diff) binary under test.
std::string CliBinary();
/// Absolute path of the repository's source directory.
std::string SourceDir();

/// A shell prefix that runs `binary` (quoted) bounded in time (20 s) and memory (2 GB of
/// address space; not under AddressSanitizer, whose shadow memory reserves terabytes of it:
/// there the sanitizer's own allocator limits apply). Append the arguments.
std::string BoundedCommand(const std::string& binary);
/// True in a build with -fsanitize=address (scripts/test.sh --sanitize).
bool UnderAddressSanitizer();

}  // namespace depgraph::testing

#include <initializer_list>
#include <tuple>

#include "depgraph/graph/graph.h"

namespace depgraph::testing {

/// A deps.json document with only edge rows (pred, succ, source).
/// EdgesJson as a capture `depgraph` accepts: the same edges after an empty tasks array (so
/// every node is an allocation node).
std::string CaptureJson(std::initializer_list<std::tuple<uint64_t, uint64_t, const char*>> edges);
std::string EdgesJson(std::initializer_list<std::tuple<uint64_t, uint64_t, const char*>> edges);
/// Loads a document that must be valid (fails the current test otherwise).
DepGraph LoadText(const std::string& text);
/// The worked example of the viewer specification (data/samples/worked_example/deps.json).
std::string WorkedExampleJson();
/// Pair index of (pred id, succ id), or -1.
int64_t PairOf(const DepGraph& graph, uint64_t pred, uint64_t succ);

}  // namespace depgraph::testing
