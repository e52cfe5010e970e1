// Where a profiled run keeps its files: the rank directories under a run's root and the newest
// file of a kind in a directory, found the way the reference critical_path.py finds them
// (spec/timing.md §3.3), with Python's path semantics (expanduser, resolve, st_mtime).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace depgraph {

/// The timing records file a profiled run writes per rank, and its older name.
inline constexpr const char* kRecordsName = "chip_swimlane_records.json";
inline constexpr const char* kLegacyRecordsName = "l2_perf_records.json";

/// `~` and `~user` at the start of a path, as Python's os.path.expanduser. O(length).
std::string ExpandUser(const std::string& path);

/// Absolute and symlink-free, keeping components that do not exist (Python's
/// Path.resolve()); "" means ".". One filesystem walk of the path's components.
std::filesystem::path ResolvePath(const std::string& text);

/// Python's st_mtime of `path` (following symlinks): seconds + nanoseconds x 1e-9 as a double;
/// 0 when it cannot be read. One stat.
double PythonMtime(const std::filesystem::path& path);

/// The regular file `<prefix>*<suffix>` directly in `dir` with the greatest modification time,
/// equal times to the greatest name; empty if none. O(entries of dir).
std::filesystem::path NewestMatching(const std::filesystem::path& dir, const std::string& prefix,
                                     const std::string& suffix);

/// How many directory levels below the root DiscoverRanks searches.
inline constexpr int kMaxRankSearchDepth = 256;

/// Rank directories under `root`: holding a records file (either name), a deps.json and a
/// regular name_map*.json; symlinked directories are not entered. A directory that cannot be
/// read, and the first one deeper than kMaxRankSearchDepth, add a one-line message to
/// *warnings (if given) and are skipped. In component-wise path order. O(entries under root)
/// time, memory linear in the depth plus the pending directories.
std::vector<std::filesystem::path> DiscoverRanks(const std::filesystem::path& root,
                                                 std::vector<std::string>* warnings = nullptr);

/// Label of a rank directory: its path relative to the root, or the root's own name. O(path).
std::string RankLabel(const std::filesystem::path& root, const std::filesystem::path& dir);

}  // namespace depgraph
