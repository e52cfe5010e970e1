#include "records_paths.h"

#include <algorithm>
#include <filesystem>

#include "depgraph/timing/rank_discovery.h"

namespace depgraph {

namespace fs = std::filesystem;

/// A path as Python's pathlib prints it: repeated slashes and `.` components dropped, no
/// trailing slash, "." for nothing (two leading slashes are kept, as POSIX allows).
std::string PythonPath(const std::string& text) {
  size_t lead = 0;
  while (lead < text.size() && text[lead] == '/') ++lead;
  std::string out = lead == 0 ? "" : lead == 2 ? "//" : "/";
  const size_t root = out.size();
  size_t i = lead;
  while (i < text.size()) {
    size_t j = text.find('/', i);
    if (j == std::string::npos) j = text.size();
    const std::string part = text.substr(i, j - i);
    if (!part.empty() && part != ".") {
      if (out.size() > root) out += '/';
      out += part;
    }
    i = j + 1;
  }
  return out.empty() ? "." : out;
}

/// Path(p).parent / name, printed as Python prints it.
std::string SiblingPath(const std::string& python_path, const std::string& name) {
  const size_t slash = python_path.rfind('/');
  if (slash == std::string::npos) return name;  // the parent is "."
  const std::string parent = python_path.substr(0, slash == 0 ? 1 : slash);
  if (parent == "/" || parent == "//") return parent + name;
  return parent + "/" + name;
}

std::string ParentPath(const std::string& python_path) {
  const size_t slash = python_path.rfind('/');
  if (slash == std::string::npos) return ".";
  return python_path.substr(0, slash == 0 ? 1 : slash);
}

/// Every proper prefix of `name` that no other of `names` starts with.
std::vector<std::string> UniquePrefixes(const std::string& name,
                                        const std::vector<std::string>& names) {
  std::vector<std::string> out;
  for (size_t n = 1; n < name.size(); ++n) {
    const std::string prefix = name.substr(0, n);
    const bool unique = std::none_of(names.begin(), names.end(), [&](const std::string& other) {
      return other != name && other.compare(0, prefix.size(), prefix) == 0;
    });
    if (unique) out.push_back(prefix);
  }
  return out;
}

/// The newest outputs/*/chip_swimlane_records.json under the working directory (equal times:
/// the greatest path), or "".
std::string NewestRunRecords() {
  const fs::path outputs = fs::current_path() / "outputs";
  std::error_code ec;
  std::string best;
  double best_time = 0;
  for (fs::directory_iterator it(outputs, ec), end; !ec && it != end; it.increment(ec)) {
    const fs::path candidate = it->path() / kRecordsName;
    std::error_code e;
    if (!fs::exists(candidate, e)) continue;
    const double t = PythonMtime(candidate);
    if (best.empty() || t > best_time || (t == best_time && candidate.string() > best)) {
      best = candidate.string();
      best_time = t;
    }
  }
  return best;
}

}  // namespace depgraph
