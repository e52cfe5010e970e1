// Atomic file output: readers see the old file or the complete new one, never a partial one.
#pragma once

#include <memory>
#include <ostream>
#include <string>
#include <vector>

namespace depgraph {

class BackgroundFileBuf;

/// Writes to a temporary file beside `path` and renames it over `path` on Commit().
/// Destroying an uncommitted AtomicFile removes the temporary file, so a failed run leaves
/// no partial output; so does SIGINT, SIGTERM or SIGHUP while the file is open (the first
/// Open() installs a handler that unlinks every live temporary file and then re-raises the
/// signal with its previous disposition; signals ignored at that time stay ignored).
/// Only a regular file (or nothing) at `path` is ever replaced: a directory, symlink, FIFO,
/// device or socket there is refused. The temporary file, <path>.tmp.<pid>.XXXXXX, is written
/// through the descriptor mkstemp returns (never reopened by name); Open() first removes the
/// temporaries of `path` that dead writers left (SIGKILL cannot be caught): those whose pid is
/// no live process, and those of the older form <path>.tmp.XXXXXX older than an hour. Cost: one lstat and one rename more than a plain write;
/// the writes themselves run on a thread of their own, overlapping what produces the bytes.
class AtomicFile {
 public:
  AtomicFile();
  ~AtomicFile();
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;

  /// Checks (lstat, not following symlinks) that `path` is a regular file or absent, then
  /// creates the temporary file. False with a one-line message naming `path` on failure, e.g.
  /// "out.html: is a FIFO, not a regular file; refusing to replace it".
  bool Open(const std::string& path, std::string* err);
  /// The stream to write the content to.
  std::ostream& stream() { return out_; }
  /// Flushes, checks for write errors, checks `path` again and renames into place. False with
  /// a message on failure (the temporary file is then removed by the destructor).
  bool Commit(std::string* err);
  /// Commits several files at once: all are flushed and checked first, and none is renamed
  /// unless all pass; then each is renamed on a thread of its own. Renaming a large file over
  /// an old one is where ext4 starts the new file's writeback and evicts the old one's pages
  /// (about 0.25 s for a 470 MB trace), so two traces committed together take the time of one.
  /// False with the first failure's message (in `files` order); a rename that fails then may
  /// leave the others renamed. Cost: one thread per file beyond the first.
  static bool CommitTogether(const std::vector<AtomicFile*>& files, std::string* err);

  /// The temporary file's path after a successful Open ("" before). For messages and tests.
  const std::string& temp_path() const { return temp_path_; }

 private:
  // Commit's two halves: flush, close and check the target; rename into place.
  bool Finish(std::string* err);
  bool Rename(std::string* err);

  std::string path_;
  std::string temp_path_;
  std::unique_ptr<BackgroundFileBuf> buf_;
  std::ostream out_{nullptr};
  int slot_ = -1;  // index in the registry of live temporary files, -1 if not registered
  bool committed_ = false;
};

}  // namespace depgraph
