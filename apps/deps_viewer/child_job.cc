#include "child_job.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstring>
#include <string_view>
#include <vector>

namespace depgraph {

namespace {

// Writes all of `data` to `fd`. False on a write error.
bool WriteAll(int fd, const char* data, size_t size) {
  while (size > 0) {
    ssize_t written = write(fd, data, size);
    if (written < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    data += written;
    size -= static_cast<size_t>(written);
  }
  return true;
}

// The child's side: run the work, send a status byte ('D' done, 'F' failed) and the payload.
[[noreturn]] void RunInChild(const ChildWork& work, int data_fd, int log_fd) {
  dup2(log_fd, STDERR_FILENO);  // the duplicate does not inherit O_CLOEXEC
  close(log_fd);
  std::string output, error;
  const bool ok = work(&output, &error);
  const char status = ok ? 'D' : 'F';
  const std::string& payload = ok ? output : error;
  const bool sent =
      WriteAll(data_fd, &status, 1) && WriteAll(data_fd, payload.data(), payload.size());
  _exit(sent ? 0 : 1);
}

// Splits a byte stream, fed in pieces, into lines; calls `on_line` with each non-empty one
// (without its line end). A line longer than kMaxLine is cut. O(bytes).
class LineSplitter {
 public:
  explicit LineSplitter(const std::function<void(std::string_view)>& on_line) : on_line_(on_line) {}
  void Feed(const char* data, size_t size) {
    if (!on_line_) return;
    partial_.append(data, size);
    size_t begin = 0;
    for (size_t end = partial_.find('\n'); end != std::string::npos;
         end = partial_.find('\n', begin)) {
      std::string_view line(partial_.data() + begin, end - begin);
      while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.remove_suffix(1);
      if (!line.empty()) on_line_(line);
      begin = end + 1;
    }
    partial_.erase(0, begin);
    if (partial_.size() > kMaxLine) partial_.erase(kMaxLine);
  }

 private:
  static constexpr size_t kMaxLine = 4096;
  const std::function<void(std::string_view)>& on_line_;
  std::string partial_;
};

}  // namespace

ChildJobResult RunChildJob(const ChildWork& work, const ChildJobOptions& options) {
  ChildJobResult result;
  int data_pipe[2], log_pipe[2];
  if (pipe2(data_pipe, O_CLOEXEC) != 0) {
    result.error = std::string("cannot create a pipe: ") + std::strerror(errno);
    return result;
  }
  if (pipe2(log_pipe, O_CLOEXEC) != 0) {
    result.error = std::string("cannot create a pipe: ") + std::strerror(errno);
    close(data_pipe[0]);
    close(data_pipe[1]);
    return result;
  }
  const auto start = std::chrono::steady_clock::now();
  const pid_t pid = fork();
  if (pid == 0) {
    close(data_pipe[0]);
    close(log_pipe[0]);
    RunInChild(work, data_pipe[1], log_pipe[1]);
  }
  close(data_pipe[1]);
  close(log_pipe[1]);
  if (pid < 0) {
    result.error = std::string("cannot start a child process: ") + std::strerror(errno);
    close(data_pipe[0]);
    close(log_pipe[0]);
    return result;
  }

  auto elapsed = [&]() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  std::string data;
  LineSplitter log(options.on_line);
  int fds[2] = {data_pipe[0], log_pipe[0]};
  double next_tick = 1;
  bool timed_out = false;
  std::vector<char> buffer(1 << 16);
  while (fds[0] >= 0 || fds[1] >= 0) {
    double now = elapsed();
    if (options.timeout_seconds > 0 && now >= options.timeout_seconds) {
      kill(pid, SIGKILL);
      timed_out = true;
      break;
    }
    if (now >= next_tick) {
      if (options.on_tick) options.on_tick(now);
      next_tick = std::floor(now) + 1;
    }
    double wait = next_tick - now;
    if (options.timeout_seconds > 0) wait = std::min(wait, options.timeout_seconds - now);
    pollfd polled[2];
    int count = 0;
    for (int fd : fds) {
      if (fd >= 0) polled[count++] = {fd, POLLIN, 0};
    }
    int ready = poll(polled, count, std::max(1, static_cast<int>(std::ceil(wait * 1000))));
    if (ready < 0 && errno != EINTR) {
      kill(pid, SIGKILL);
      break;  // reported as an exit by SIGKILL, below
    }
    for (int i = 0; i < count && ready > 0; ++i) {
      if (polled[i].revents == 0) continue;
      ssize_t got = read(polled[i].fd, buffer.data(), buffer.size());
      if (got < 0 && (errno == EINTR || errno == EAGAIN)) continue;
      int& fd = polled[i].fd == fds[0] ? fds[0] : fds[1];
      if (got <= 0) {
        close(fd);
        fd = -1;
      } else if (&fd == &fds[0]) {
        data.append(buffer.data(), static_cast<size_t>(got));
      } else {
        log.Feed(buffer.data(), static_cast<size_t>(got));
      }
    }
  }
  for (int fd : fds) {
    if (fd >= 0) close(fd);
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  result.seconds = elapsed();
  if (timed_out) {
    result.status = ChildJobStatus::kTimedOut;
  } else if (WIFSIGNALED(status)) {
    result.status = ChildJobStatus::kCrashed;
    result.signal = WTERMSIG(status);
  } else if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || data.empty()) {
    result.error = "the child process ended with status " +
                   std::to_string(WIFEXITED(status) ? WEXITSTATUS(status) : status) +
                   " before sending its result";
  } else if (data[0] == 'D') {
    result.status = ChildJobStatus::kDone;
    data.erase(0, 1);
    result.output = std::move(data);
  } else {
    result.error.assign(data, 1);
  }
  return result;
}

}  // namespace depgraph
