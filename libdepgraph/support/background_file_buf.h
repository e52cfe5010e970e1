// A file output buffer whose writes run on a thread of their own, so that producing the next
// bytes overlaps the kernel's copy of the previous ones. Private to libdepgraph (AtomicFile).
#pragma once

#include <sys/types.h>

#include <condition_variable>
#include <mutex>
#include <streambuf>
#include <string>
#include <thread>
#include <vector>

namespace depgraph {

/// A std::streambuf over a file descriptor with two buffers: the caller fills one while a
/// writer thread, started when the first buffer is full and joined by Close(), writes the
/// other (an output that fits one buffer is written by Close() itself, with no thread; and no
/// thread runs before the first megabyte, so a process may fork a child before its output
/// grows without the child inheriting a lock held by a writer). The bytes reach
/// the file in the order they were put, as with a plain buffered stream; only the time the
/// caller spends waiting for write() changes. On the 1 M-task viewer run (269 MB of text) the
/// copy into the page cache took 0.4 s, which formatting now overlaps.
///
/// Every 32 MiB written, the writer starts the kernel's writeback of them (sync_file_range,
/// no waiting), so that dirty pages do not pile up until the end: ext4 starts the writeback of
/// a file renamed over another in rename() itself, which on the 470 MB critical-path traces cost
/// 0.2-0.4 s at the end of the run; started as the file grows, it overlaps the producing.
///
/// Errors are sticky: after a failed write() the rest is discarded and Close() reports the
/// first error. Not thread-safe for callers: one producing thread. Memory: two buffers.
class BackgroundFileBuf : public std::streambuf {
 public:
  /// `buffer_bytes`: size of each of the two buffers.
  explicit BackgroundFileBuf(size_t buffer_bytes = size_t{1} << 20);
  /// Closes the file if still open (errors are then lost: call Close() to see them).
  ~BackgroundFileBuf() override;
  BackgroundFileBuf(const BackgroundFileBuf&) = delete;
  BackgroundFileBuf& operator=(const BackgroundFileBuf&) = delete;

  /// Opens (truncating) the file at `path` for writing. False with
  /// errno's message in *err on failure. O(1).
  bool Open(const std::string& path, std::string* err);
  /// Takes ownership of the open, writable descriptor `fd` (closed by Close()), so a file
  /// created by mkstemp is written without reopening it by name. O(1).
  /// `replaced`: the file this one is to be renamed over, if any. When it is large (64 MiB or
  /// more), the writer first drops its cached pages (POSIX_FADV_DONTNEED; its data stays on
  /// disk), so that the rename, which evicts them, does not pay for it at the end of the run.
  void Adopt(int fd, std::string replaced = {});
  /// Writes what is buffered, stops the writer and closes the file. False with the first
  /// write or close error in *err. Safe to call twice; O(bytes still buffered).
  bool Close(std::string* err);
  /// Whether a write has failed so far (the stream's badbit is set as well). O(1).
  bool failed();

 protected:
  int_type overflow(int_type ch) override;
  int sync() override;

 private:
  // Hands the filled part of the current buffer to the writer, waiting for the writer to be
  // free; returns false once a write failed.
  bool HandOff();
  // Waits until everything handed off has been written.
  void WaitIdle();
  void WriterLoop();
  // Before the writer starts: writes the buffer on the caller's thread. False once a write
  // failed.
  bool WriteUnthreaded();
  // Starts the writer thread (once): it first drops replaced_'s cached pages.
  void StartWriter();
  // Writes `bytes` at `data` to the file, starting writeback every 32 MiB; "" or the error.
  std::string WriteBytes(const char* data, size_t bytes);
  static void DropCachedPages(const std::string& path);
  static constexpr off_t kDropCacheBytes = off_t{64} << 20;

  int fd_ = -1;
  std::vector<char> filling_;  // the put area
  std::vector<char> writing_;  // owned by the writer while `pending_` is set
  size_t pending_bytes_ = 0;
  bool pending_ = false;  // writing_ holds bytes to write
  std::string replaced_;  // the file this one will replace (Adopt), or ""
  size_t written_ = 0;  // bytes written so far (by whichever thread writes: WriteBytes)
  size_t synced_ = 0;   // bytes whose writeback has been started (likewise)
  bool stop_ = false;
  std::string error_;  // the first write error
  std::mutex mu_;
  std::condition_variable cv_;
  std::thread writer_;
};

}  // namespace depgraph
