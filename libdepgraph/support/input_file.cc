#include "depgraph/support/input_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <system_error>

#include "depgraph/internal/message_quote.h"

namespace depgraph {

namespace {

bool Fail(InputFileError* error, InputFileStatus status, int sys_errno, std::string message) {
  error->status = status;
  error->sys_errno = sys_errno;
  error->message = std::move(message);
  return false;
}

// Refuses what `st` describes unless it is a regular file.
bool CheckMode(const std::string& path, const struct stat& st, InputFileError* error) {
  if (S_ISREG(st.st_mode)) return true;
  if (S_ISDIR(st.st_mode)) {
    return Fail(error, InputFileStatus::kDirectory, 0, path + ": is a directory");
  }
  return Fail(error, InputFileStatus::kNotRegular, 0,
              path + ": is " + NonRegularFileKind(st.st_mode) + ", not a regular file");
}

bool CheckSize(const std::string& path, uint64_t size, uint64_t max_bytes, InputFileError* error) {
  if (size <= max_bytes) return true;
  return Fail(error, InputFileStatus::kTooLarge, 0,
              path + ": is larger than the limit of " + std::to_string(max_bytes) + " bytes");
}

// Closes `fd` when it goes out of scope.
class FdCloser {
 public:
  explicit FdCloser(int fd) : fd_(fd) {}
  ~FdCloser() { close(fd_); }
  FdCloser(const FdCloser&) = delete;
  FdCloser& operator=(const FdCloser&) = delete;

 private:
  int fd_;
};

}  // namespace

const char* NonRegularFileKind(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISLNK(mode)) return "a symlink";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  return "a special file";
}

bool CheckRegularInput(const std::string& path, uint64_t* size, InputFileError* error) {
  struct stat st;
  if (stat(path.c_str(), &st) != 0) {
    const int e = errno;
    return Fail(error, InputFileStatus::kCannotOpen, e, path + ": " + std::strerror(e));
  }
  if (!CheckMode(path, st, error)) return false;
  if (size != nullptr) *size = static_cast<uint64_t>(st.st_size);
  *error = InputFileError{};
  return true;
}

bool ReadInputFile(const std::string& path, uint64_t max_bytes, std::string* content,
                   InputFileError* error) {
  content->clear();
  uint64_t size = 0;
  if (!CheckRegularInput(path, &size, error)) return false;
  if (!CheckSize(path, size, max_bytes, error)) return false;
  const int fd = open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  if (fd < 0) {
    const int e = errno;
    return Fail(error, InputFileStatus::kCannotOpen, e, path + ": " + std::strerror(e));
  }
  FdCloser closer(fd);
  // The path may have been replaced between the stat and the open: check what was opened.
  struct stat st;
  if (fstat(fd, &st) != 0) {
    const int e = errno;
    return Fail(error, InputFileStatus::kCannotOpen, e, path + ": " + std::strerror(e));
  }
  if (!CheckMode(path, st, error)) return false;
  if (!CheckSize(path, static_cast<uint64_t>(st.st_size), max_bytes, error)) return false;
  content->reserve(static_cast<size_t>(st.st_size));
  // Reads until end of file, but never more than max_bytes + 1 (a file still growing).
  char buffer[1 << 16];
  for (;;) {
    const uint64_t room = max_bytes + 1 - content->size();
    const size_t want = room < sizeof(buffer) ? static_cast<size_t>(room) : sizeof(buffer);
    const ssize_t got = read(fd, buffer, want);
    if (got < 0) {
      if (errno == EINTR) continue;
      const int e = errno;
      content->clear();
      return Fail(error, InputFileStatus::kReadError, e,
                  path + ": read failed: " + std::strerror(e));
    }
    if (got == 0) break;
    content->append(buffer, static_cast<size_t>(got));
    if (content->size() > max_bytes) {
      content->clear();
      return CheckSize(path, max_bytes + 1, max_bytes, error);
    }
  }
  *error = InputFileError{};
  return true;
}

std::string PythonOpenErrorMessage(const std::string& path, const InputFileError& error) {
  switch (error.status) {
    case InputFileStatus::kCannotOpen:
    case InputFileStatus::kReadError:
      return "[Errno " + std::to_string(error.sys_errno) + "] " + std::strerror(error.sys_errno) +
             ": '" + EscapeForMessage(path) + "'";
    case InputFileStatus::kDirectory:
      return "[Errno 21] Is a directory: '" + EscapeForMessage(path) + "'";
    default:
      return error.message;
  }
}

bool SameFile(const std::string& a, const std::string& b) {
  struct stat sa, sb;
  if (stat(a.c_str(), &sa) != 0 || stat(b.c_str(), &sb) != 0) return false;
  return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

bool CheckOutputIsNotAnInput(const std::string& output, const std::vector<std::string>& inputs,
                             std::string* err) {
  for (const std::string& input : inputs) {
    if (input.empty() || !SameFile(output, input)) continue;
    *err = output + ": is the input file " + input + "; refusing to overwrite it";
    return false;
  }
  return true;
}

bool CheckOutputsDiffer(const std::string& first, const std::string& second, std::string* err) {
  if (first.empty() || second.empty()) return true;
  std::error_code ec1, ec2;
  const std::filesystem::path a =
      std::filesystem::weakly_canonical(std::filesystem::absolute(first, ec1), ec1);
  const std::filesystem::path b =
      std::filesystem::weakly_canonical(std::filesystem::absolute(second, ec2), ec2);
  if (!SameFile(first, second) && (ec1 || ec2 || a != b)) return true;
  *err = first + " and " + second + " name the same file; give two different outputs";
  return false;
}

}  // namespace depgraph
