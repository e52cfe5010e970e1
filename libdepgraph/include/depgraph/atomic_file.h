// Atomic file output: readers see the old file or the complete new one, never a partial one.
#pragma once

#include <fstream>
#include <string>

namespace depgraph {

/// Writes to a temporary file beside `path` and renames it over `path` on Commit().
/// Destroying an uncommitted AtomicFile removes the temporary file, so a failed run leaves
/// no partial output. Cost: one extra rename.
class AtomicFile {
 public:
  AtomicFile() = default;
  ~AtomicFile();
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;

  /// Creates the temporary file. False with a message (naming `path`) on failure.
  bool Open(const std::string& path, std::string* err);
  /// The stream to write the content to.
  std::ostream& stream() { return out_; }
  /// Flushes, checks for write errors and renames into place. False with a message on failure.
  bool Commit(std::string* err);

 private:
  std::string path_;
  std::string temp_path_;
  std::ofstream out_;
  bool committed_ = false;
};

}  // namespace depgraph
