#include "depgraph/support/directory_walk.h"

#include <utility>

namespace depgraph {

namespace fs = std::filesystem;

void WalkDirectoryTree(const fs::path& root, const DirectoryWalkOptions& options,
                       const std::function<void(const fs::path&, const fs::directory_entry&)>& visit,
                       std::vector<std::string>* warnings) {
  const auto warn = [&](const std::string& message) {
    if (warnings != nullptr) warnings->push_back(message);
  };
  std::vector<std::pair<fs::path, int>> pending = {{root, 0}};  // directory, its depth
  bool warned_depth = false;
  while (!pending.empty()) {
    const auto [dir, depth] = std::move(pending.back());
    pending.pop_back();
    std::error_code ec;
    fs::directory_iterator it(dir, ec), end;
    if (ec) {
      warn(dir.string() + ": cannot read the directory (" + ec.message() + "): " +
           options.skipped_what + " under it are skipped");
      continue;
    }
    for (; it != end; it.increment(ec)) {
      visit(dir, *it);
      std::error_code type_ec;
      if (!it->is_directory(type_ec) || it->is_symlink(type_ec)) continue;
      if (depth + 1 > options.max_depth) {
        if (!warned_depth) {
          warn(it->path().string() + ": more than " + std::to_string(options.max_depth) +
               " levels below " + root.string() + ": not searched for " + options.skipped_what);
          warned_depth = true;
        }
        continue;
      }
      pending.emplace_back(it->path(), depth + 1);
    }
    if (ec) {
      warn(dir.string() + ": cannot read the directory (" + ec.message() + "): " +
           options.skipped_what + " under it may be skipped");
    }
  }
}

}  // namespace depgraph
