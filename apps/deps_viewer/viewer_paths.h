// Path conventions of deps_viewer: normalisation, default input and output names.
#pragma once

#include <string>

namespace depgraph {

/// Normalises a path as Python's pathlib prints it: repeated slashes and "." components
/// collapse, a trailing slash goes, ".." stays; "" and "." become ".". O(length).
std::string NormalizePath(const std::string& path);

/// Parent directory as pathlib computes it ("deps.json" -> ".", "a/b" -> "a", "/x" -> "/").
std::string ParentPath(const std::string& normalized);

/// Joins like pathlib: a "." directory disappears ("." + "x" -> "x").
std::string JoinPath(const std::string& directory, const std::string& name);

/// The newest (by mtime) file named deps.json under `root` (recursive), or "" if none.
/// O(entries under root).
std::string FindNewestDepsJson(const std::string& root);

}  // namespace depgraph
