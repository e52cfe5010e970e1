#include "background_file_buf.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace depgraph {

BackgroundFileBuf::BackgroundFileBuf(size_t buffer_bytes)
    : filling_(buffer_bytes > 0 ? buffer_bytes : 1), writing_(filling_.size()) {
  setp(filling_.data(), filling_.data() + filling_.size());
}

BackgroundFileBuf::~BackgroundFileBuf() {
  std::string ignored;
  Close(&ignored);
}

bool BackgroundFileBuf::Open(const std::string& path, std::string* err) {
  const int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  if (fd < 0) {
    *err = std::strerror(errno);
    return false;
  }
  Adopt(fd);
  return true;
}

void BackgroundFileBuf::Adopt(int fd, std::string replaced) {
  fd_ = fd;
  stop_ = false;
  error_.clear();
  replaced_ = std::move(replaced);
}

void BackgroundFileBuf::StartWriter() {
  if (writer_.joinable()) return;
  writer_ = std::thread([this] {
    if (!replaced_.empty()) DropCachedPages(replaced_);
    WriterLoop();
  });
}

void BackgroundFileBuf::DropCachedPages(const std::string& path) {
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
  if (fd < 0) return;  // gone, or not ours to read: nothing to drop
  struct stat st;
  if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size >= kDropCacheBytes) {
    posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
  }
  close(fd);
}

void BackgroundFileBuf::WriterLoop() {
  std::unique_lock<std::mutex> lock(mu_);
  for (;;) {
    cv_.wait(lock, [this] { return pending_ || stop_; });
    if (!pending_) return;  // stopped with nothing left to write
    const size_t bytes = pending_bytes_;
    const bool discard = !error_.empty();
    lock.unlock();
    const std::string failure = discard ? std::string() : WriteBytes(writing_.data(), bytes);
    lock.lock();
    if (!failure.empty() && error_.empty()) error_ = failure;
    pending_ = false;
    cv_.notify_all();
  }
}

std::string BackgroundFileBuf::WriteBytes(const char* data, size_t bytes) {
  for (size_t done = 0; done < bytes;) {
    const ssize_t n = write(fd_, data + done, bytes - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return n < 0 ? std::strerror(errno) : "write returned 0";
    done += static_cast<size_t>(n);
  }
  written_ += bytes;
  if (written_ - synced_ >= (size_t{32} << 20)) {
    sync_file_range(fd_, static_cast<off_t>(synced_), static_cast<off_t>(written_ - synced_),
                    SYNC_FILE_RANGE_WRITE);
    synced_ = written_;
  }
  return "";
}

bool BackgroundFileBuf::WriteUnthreaded() {
  if (!replaced_.empty()) {
    DropCachedPages(replaced_);
    replaced_.clear();
  }
  const size_t bytes = static_cast<size_t>(pptr() - pbase());
  if (error_.empty()) error_ = WriteBytes(filling_.data(), bytes);
  setp(filling_.data(), filling_.data() + filling_.size());
  return error_.empty();
}

bool BackgroundFileBuf::HandOff() {
  const size_t bytes = static_cast<size_t>(pptr() - pbase());
  if (bytes > 0) StartWriter();
  std::unique_lock<std::mutex> lock(mu_);
  cv_.wait(lock, [this] { return !pending_; });
  if (!error_.empty()) {
    setp(filling_.data(), filling_.data() + filling_.size());  // discard: the file is bad
    return false;
  }
  if (bytes > 0) {
    filling_.swap(writing_);
    pending_bytes_ = bytes;
    pending_ = true;
    cv_.notify_all();
  }
  setp(filling_.data(), filling_.data() + filling_.size());
  return true;
}

void BackgroundFileBuf::WaitIdle() {
  std::unique_lock<std::mutex> lock(mu_);
  cv_.wait(lock, [this] { return !pending_; });
}

BackgroundFileBuf::int_type BackgroundFileBuf::overflow(int_type ch) {
  if (fd_ < 0 || !HandOff()) return traits_type::eof();
  if (!traits_type::eq_int_type(ch, traits_type::eof())) {
    *pptr() = traits_type::to_char_type(ch);
    pbump(1);
  }
  return traits_type::not_eof(ch);
}

int BackgroundFileBuf::sync() {
  if (fd_ >= 0 && !writer_.joinable()) return WriteUnthreaded() ? 0 : -1;
  if (fd_ < 0 || !HandOff()) return -1;
  WaitIdle();
  return failed() ? -1 : 0;
}

bool BackgroundFileBuf::failed() {
  std::lock_guard<std::mutex> lock(mu_);
  return !error_.empty();
}

bool BackgroundFileBuf::Close(std::string* err) {
  if (fd_ < 0) return true;
  if (!writer_.joinable()) {  // all of it fitted the one buffer: no thread needed
    WriteUnthreaded();
  } else {
    HandOff();
    {
      std::lock_guard<std::mutex> lock(mu_);
      stop_ = true;
      cv_.notify_all();
    }
    writer_.join();
  }
  bool ok = error_.empty();
  if (!ok) *err = error_;
  if (close(fd_) != 0 && ok) {
    *err = std::strerror(errno);
    ok = false;
  }
  fd_ = -1;
  return ok;
}

}  // namespace depgraph
