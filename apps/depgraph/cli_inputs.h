// Inputs shared by the graph subcommands of `depgraph` (audit, query): a deps.json and the
// kernel names that go with it.
#pragma once

#include <ostream>
#include <string>

#include "depgraph/graph/graph.h"
#include "depgraph/graph/name_map.h"

namespace CLI {
class App;
}

namespace depgraph {

/// Adds `--func-names FILE` (kernel names; default: the newest sibling name_map*.json) to a
/// subcommand that names kernels.
void AddFuncNamesOption(CLI::App* cmd, std::string* target);

/// Adds `--threads N` (0 = every core; results do not depend on it) to a subcommand that
/// loads deps.json.
void AddThreadsOption(CLI::App* cmd, unsigned* target);

/// What a command reads of the views (LoadOptions::views): kSkip for commands that never
/// look at a dtype, shape, stride or offset, which then hold less memory.
enum class ViewUse : bool { kSkip = false, kRead = true };

/// Loads `path` into *graph with `threads` threads (0 = every core; the graph is the same for
/// any count); on failure prints `error: <one line>` to `err` and returns false. O(file).
bool LoadGraphOrReport(const std::string& path, DepGraph* graph, std::ostream& err,
                       unsigned threads = 0, ViewUse views = ViewUse::kRead);

/// Whether a gate (audit, diff) would check nothing on `graph`: no task and no edge. A gate
/// refuses such a capture unless --allow-empty. O(1).
inline bool CaptureIsEmpty(const DepGraph& graph) {
  return graph.tasks.empty() && graph.nodes.empty();
}

/// The name map LoadNamesOrReport reads for the capture at `deps_path`: `func_names` when
/// given, else the newest sibling `name_map*.json`, else "". O(files in the directory).
std::string NamesPathFor(const std::string& deps_path, const std::string& func_names);

/// Loads the kernel names for the capture at `deps_path` from NamesPathFor (none is fine). An unreadable file is a warning; an invalid
/// one prints `error: ...` and returns false. O(file).
bool LoadNamesOrReport(const std::string& deps_path, const std::string& func_names, NameMap* names,
                       std::ostream& err);

}  // namespace depgraph
