#include "viewer_paths.h"

#include <filesystem>
#include <utility>
#include <vector>

#include "depgraph/support/directory_walk.h"

namespace depgraph {

std::string NormalizePath(const std::string& path) {
  if (path.empty()) return ".";
  bool absolute = path[0] == '/';
  std::vector<std::string> parts;
  size_t i = 0;
  while (i < path.size()) {
    size_t j = path.find('/', i);
    if (j == std::string::npos) j = path.size();
    std::string part = path.substr(i, j - i);
    if (!part.empty() && part != ".") parts.push_back(part);
    i = j + 1;
  }
  std::string out = absolute ? "/" : "";
  // POSIX keeps exactly two leading slashes; pathlib does too.
  if (path.size() >= 2 && path[0] == '/' && path[1] == '/' && (path.size() == 2 || path[2] != '/')) {
    out = "//";
  }
  for (size_t k = 0; k < parts.size(); ++k) {
    if (k) out += '/';
    out += parts[k];
  }
  if (out.empty()) return ".";
  return out;
}

std::string ParentPath(const std::string& normalized) {
  size_t slash = normalized.rfind('/');
  if (slash == std::string::npos) return ".";
  if (slash == 0) return "/";
  if (normalized.compare(0, 2, "//") == 0 && slash == 1) return "//";
  return normalized.substr(0, slash);
}

std::string JoinPath(const std::string& directory, const std::string& name) {
  if (directory == "." || directory.empty()) return NormalizePath(name);
  if (!name.empty() && name[0] == '/') return NormalizePath(name);
  return NormalizePath(directory + "/" + name);
}

std::string FindNewestDepsJson(const std::string& root, std::vector<std::string>* warnings) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!fs::is_directory(root, ec)) return "";
  std::string best;
  fs::file_time_type best_time;
  DirectoryWalkOptions options;
  options.max_depth = kMaxDepsJsonSearchDepth;
  options.skipped_what = "deps.json files";
  WalkDirectoryTree(
      root, options,
      [&](const fs::path&, const fs::directory_entry& entry) {
        if (entry.path().filename() != "deps.json") return;
        std::error_code file_ec;
        if (!entry.is_regular_file(file_ec)) return;
        const fs::file_time_type time = entry.last_write_time(file_ec);
        if (file_ec) return;
        std::string path = entry.path().string();
        if (best.empty() || time > best_time || (time == best_time && path > best)) {
          best = std::move(path);
          best_time = time;
        }
      },
      warnings);
  return best;
}

}  // namespace depgraph
