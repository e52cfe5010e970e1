#include "regular_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace depgraph::orch_runner {

namespace {

/// What a file that is not a regular one is, for messages.
const char* FileKind(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a regular file";
}

}  // namespace

bool ReadRegularFile(const std::string& path, uint64_t max_bytes, std::vector<unsigned char>* out,
                     uint64_t* file_size, std::string* why) {
  out->clear();
  *file_size = 0;
  // O_NONBLOCK: opening a FIFO without a writer must not hang; regular files ignore it.
  const int fd = open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) {
    *why = std::string("cannot read: ") + std::strerror(errno);
    return false;
  }
  struct stat st;
  if (fstat(fd, &st) != 0) {
    *why = std::string("cannot read: ") + std::strerror(errno);
    close(fd);
    return false;
  }
  if (!S_ISREG(st.st_mode)) {
    *why = S_ISDIR(st.st_mode)
               ? "is a directory"
               : std::string("is not a regular file (") + FileKind(st.st_mode) + ")";
    close(fd);
    return false;
  }
  *file_size = static_cast<uint64_t>(st.st_size);
  const uint64_t want = std::min<uint64_t>(*file_size, max_bytes);
  out->resize(want);
  uint64_t done = 0;
  while (done < want) {
    const ssize_t n = read(fd, out->data() + done, want - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      *why = std::string("cannot read: ") + std::strerror(errno);
      close(fd);
      out->clear();
      return false;
    }
    if (n == 0) break;  // the file shrank meanwhile
    done += static_cast<uint64_t>(n);
  }
  out->resize(done);
  close(fd);
  return true;
}

}  // namespace depgraph::orch_runner
