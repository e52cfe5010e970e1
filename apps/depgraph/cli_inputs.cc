#include "cli_inputs.h"

#include <CLI/CLI.hpp>
#include <filesystem>

#include "depgraph/graph/load_deps.h"

namespace depgraph {

void AddFuncNamesOption(CLI::App* cmd, std::string* target) {
  cmd->add_option("--func-names", *target,
                  "name_map*.json with kernel names (default: newest sibling name_map*.json)");
}

void AddThreadsOption(CLI::App* cmd, unsigned* target) {
  cmd->add_option("--threads", *target,
                  "threads that load and analyse the input (default 0: every core); results are "
                  "the same for any N")
      ->check(CLI::Range(0u, 1024u));
}

bool LoadGraphOrReport(const std::string& path, DepGraph* graph, std::ostream& err,
                       unsigned threads, ViewUse views) {
  std::string error;
  LoadOptions options;
  options.threads = threads;
  options.views = views == ViewUse::kRead;
  options.require_tasks = true;  // timing records or `{}` are not an empty graph
  if (!LoadDepsJson(path, graph, &error, options)) {
    err << "error: " << error << "\n";
    return false;
  }
  return true;
}

std::string NamesPathFor(const std::string& deps_path, const std::string& func_names) {
  if (!func_names.empty()) return func_names;
  const std::string dir = std::filesystem::path(deps_path).parent_path().string();
  return DiscoverNameMap(dir.empty() ? "." : dir);
}

bool LoadNamesOrReport(const std::string& deps_path, const std::string& func_names, NameMap* names,
                       std::ostream& err) {
  const std::string names_path = NamesPathFor(deps_path, func_names);
  if (names_path.empty()) return true;
  std::string error;
  switch (LoadNameMap(names_path, names, &error)) {
    case NameMapStatus::kOk:
      break;
    case NameMapStatus::kUnreadable:
      err << "warning: couldn't read " << names_path << ": " << error << "\n";
      break;
    case NameMapStatus::kInvalid:
      err << "error: " << error << "\n";
      return false;
  }
  return true;
}

}  // namespace depgraph
