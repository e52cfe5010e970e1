// Work run in a forked child process, so that its crash or hang cannot take the caller down.
#pragma once

#include <functional>
#include <string>
#include <string_view>

namespace depgraph {

/// The work a child runs: fills *output and returns true, or returns false with a one-line
/// *error. It runs after fork() in a copy of the caller with a single thread; what it writes
/// to stderr goes to the parent line by line (ChildJobOptions::on_line), not to the terminal.
using ChildWork = std::function<bool(std::string* output, std::string* error)>;

/// How the parent follows the child.
struct ChildJobOptions {
  /// Called with every non-empty line the child writes to its stderr (its progress).
  std::function<void(std::string_view line)> on_line;
  /// Called about once a second while the child runs, with the seconds since it started.
  std::function<void(double elapsed_seconds)> on_tick;
  /// Kill the child (SIGKILL) once it has run this long; 0 waits however long it takes.
  double timeout_seconds = 0;
};

/// How a child job ended.
enum class ChildJobStatus {
  kDone,      ///< the work returned true: `output` holds what it produced
  kFailed,    ///< the work returned false (`error` says why), or the child could not be run
  kCrashed,   ///< a signal ended the child (`signal`)
  kTimedOut,  ///< ChildJobOptions::timeout_seconds passed; the child was killed
};

/// The outcome of RunChildJob.
struct ChildJobResult {
  ChildJobStatus status = ChildJobStatus::kFailed;
  std::string output;  ///< kDone: the work's output
  std::string error;   ///< kFailed: one line
  int signal = 0;      ///< kCrashed: the signal number
  double seconds = 0;  ///< wall time from fork to the child's end
};

/// Runs `work` in a forked child and waits for it, relaying its stderr lines to on_line.
/// The output travels back through a pipe, so it may be large (hundreds of MB). The child
/// ends with _exit: it flushes no stdio buffers and runs no destructors or atexit handlers
/// of the parent's objects. Not for multi-threaded callers (fork copies only the calling
/// thread). Cost: a fork (copy-on-write) plus O(|output| + |stderr|) copying; the parent
/// sleeps in poll() between reads.
ChildJobResult RunChildJob(const ChildWork& work, const ChildJobOptions& options);

}  // namespace depgraph
