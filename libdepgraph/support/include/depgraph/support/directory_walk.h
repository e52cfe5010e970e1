// Walking a directory tree with bounded memory and depth, telling the caller what it could not
// read instead of skipping it silently: the search under a run's root (critical-path's ranks,
// deps_viewer's newest deps.json).
#pragma once

#include <filesystem>
#include <functional>
#include <string>
#include <vector>

namespace depgraph {

/// What WalkDirectoryTree reports besides the entries.
struct DirectoryWalkOptions {
  int max_depth = 256;        ///< levels below the root that are read (the root is level 0)
  std::string skipped_what;   ///< noun for warnings, e.g. "ranks": "ranks under it are skipped"
};

/// Calls `visit(dir, entry)` for every entry of `root` and of each directory below it, down to
/// `max_depth` levels; directory symlinks are reported but not entered. Directories are read
/// from an explicit stack of paths (never a stack of open iterators), so memory is linear in
/// the depth plus the pending directories, not quadratic; order within and across directories
/// is the file system's. A directory that cannot be read (or fails part way), and the first
/// one deeper than max_depth, add a one-line message to *warnings (if given) and are skipped.
/// O(entries under root) time.
void WalkDirectoryTree(
    const std::filesystem::path& root, const DirectoryWalkOptions& options,
    const std::function<void(const std::filesystem::path& dir,
                             const std::filesystem::directory_entry& entry)>& visit,
    std::vector<std::string>* warnings);

}  // namespace depgraph
