// Path conventions of deps_viewer: normalisation, default input and output names.
#pragma once

#include <string>
#include <vector>

namespace depgraph {

/// Normalises a path as Python's pathlib prints it: repeated slashes and "." components
/// collapse, a trailing slash goes, ".." stays; "" and "." become ".". O(length).
std::string NormalizePath(const std::string& path);

/// Parent directory as pathlib computes it ("deps.json" -> ".", "a/b" -> "a", "/x" -> "/").
std::string ParentPath(const std::string& normalized);

/// Joins like pathlib: a "." directory disappears ("." + "x" -> "x").
std::string JoinPath(const std::string& directory, const std::string& name);

/// How many directory levels below the root FindNewestDepsJson searches.
inline constexpr int kMaxDepsJsonSearchDepth = 256;

/// The newest (by mtime; equal times: the greatest path) regular file named deps.json under
/// `root`, searched to kMaxDepsJsonSearchDepth levels without entering directory symlinks, or
/// "" if none. Unreadable and too-deep directories add a one-line message to *warnings.
/// O(entries under root) time, memory linear in the depth plus the pending directories.
std::string FindNewestDepsJson(const std::string& root, std::vector<std::string>* warnings);

}  // namespace depgraph
