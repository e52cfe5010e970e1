#include "depgraph/timing/rank_discovery.h"

#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <map>
#include <set>

#include "depgraph/support/directory_walk.h"

namespace depgraph {

namespace fs = std::filesystem;

// `~` and `~user` at the start of a path, as Python's expanduser.
std::string ExpandUser(const std::string& path) {
  if (path.empty() || path[0] != '~') return path;
  const size_t slash = path.find('/');
  const std::string user =
      path.substr(1, slash == std::string::npos ? std::string::npos : slash - 1);
  std::string home;
  if (user.empty()) {
    if (const char* env = std::getenv("HOME")) {
      home = env;
    } else if (const passwd* pw = getpwuid(getuid())) {
      home = pw->pw_dir;
    } else {
      return path;
    }
  } else if (const passwd* pw = getpwnam(user.c_str())) {
    home = pw->pw_dir;
  } else {
    return path;
  }
  if (home.size() > 1 && home.back() == '/') home.pop_back();
  return home + (slash == std::string::npos ? "" : path.substr(slash));
}

// Absolute and symlink-free, keeping components that do not exist (Python's resolve()).
fs::path ResolvePath(const std::string& text) {
  std::error_code ec;
  fs::path path = fs::absolute(ExpandUser(text.empty() ? "." : text), ec);
  fs::path resolved = fs::weakly_canonical(path, ec);
  if (ec) resolved = path;
  resolved = resolved.lexically_normal();
  std::string s = resolved.string();
  while (s.size() > 1 && s.back() == '/') s.pop_back();
  return fs::path(s);
}

// Python's st_mtime of `path` (following symlinks): seconds + nanoseconds x 1e-9 in double.
double PythonMtime(const fs::path& path) {
  struct stat st;
  if (::stat(path.c_str(), &st) != 0) return 0;
  return static_cast<double>(st.st_mtim.tv_sec) + static_cast<double>(st.st_mtim.tv_nsec) * 1e-9;
}

// The regular file `<prefix>*<suffix>` directly in `dir` with the greatest modification time,
// equal times to the greatest name; empty if none.
fs::path NewestMatching(const fs::path& dir, const std::string& prefix, const std::string& suffix) {
  fs::path best;
  double best_time = 0;
  std::string best_name;
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.size() < prefix.size() + suffix.size() || name.compare(0, prefix.size(), prefix) ||
        name.compare(name.size() - suffix.size(), suffix.size(), suffix)) {
      continue;
    }
    std::error_code type_ec;
    if (!fs::is_regular_file(it->path(), type_ec)) continue;
    const double time = PythonMtime(it->path());
    if (best.empty() || time > best_time || (time == best_time && name > best_name)) {
      best = it->path();
      best_time = time;
      best_name = name;
    }
  }
  return best;
}

// Rank directories under `root` (§3.3): holding a records file, a deps.json and a regular
// name_map*.json; symlinked directories are not entered. In component-wise path order.
std::vector<fs::path> DiscoverRanks(const fs::path& root, std::vector<std::string>* warnings) {
  std::set<fs::path> candidates;
  DirectoryWalkOptions options;
  options.max_depth = kMaxRankSearchDepth;
  options.skipped_what = "ranks";
  WalkDirectoryTree(
      root, options,
      [&](const fs::path& dir, const fs::directory_entry& entry) {
        const std::string name = entry.path().filename().string();
        if (name == kRecordsName || name == kLegacyRecordsName) candidates.insert(dir);
      },
      warnings);
  std::map<std::vector<std::string>, fs::path> by_components;
  for (const fs::path& dir : candidates) {
    std::error_code e;
    if (!fs::exists(dir / "deps.json", e)) continue;
    if (NewestMatching(dir, "name_map", ".json").empty()) continue;
    std::vector<std::string> components;
    for (const fs::path& part : dir.lexically_relative(root)) {
      if (part != ".") components.push_back(part.string());
    }
    by_components.emplace(std::move(components), dir);
  }
  std::vector<fs::path> ranks;
  for (auto& [components, dir] : by_components) ranks.push_back(dir);
  return ranks;
}

// Label of a rank dir: its path relative to the root, or the root's own name.
std::string RankLabel(const fs::path& root, const fs::path& dir) {
  if (dir == root) return root.filename().string();
  return dir.lexically_relative(root).generic_string();
}

}  // namespace depgraph
