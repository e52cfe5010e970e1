// `depgraph query`: a task's neighbours, ancestors and descendants, a path between two tasks,
// tasks by kernel name, and the graph's repeated structure as groups, as text or JSON (the
// questions the explorer page answers).
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

namespace depgraph {

/// Arguments of `depgraph query`. Exactly one of `task`, `path`, `grep`, `groups` is set.
struct QueryArgs {
  std::string input;              ///< deps.json
  std::string func_names;         ///< name map; empty = newest sibling name_map*.json
  std::string task;               ///< --task ID: neighbours (and, with depth, reach)
  std::vector<std::string> path;  ///< --path A B: two task references
  std::string grep;               ///< --grep NAME: tasks whose kernel name contains NAME
  bool groups = false;            ///< --groups: repeated structure (graph/task_groups.h)
  uint32_t depth = 0;             ///< --depth N with --task: ancestors/descendants to depth N
  bool json = false;              ///< one JSON object on stdout instead of text
  unsigned threads = 0;           ///< --threads: threads that load the input (0 = every core)
};

/// Runs `depgraph query`. Exit codes: 0 answered (also "no path", which is an answer);
/// 1 unreadable input or an unknown task, with one line on `err`; 2 malformed arguments.
/// Cost: the load, then O(V + E) at most per question (--groups: near-linear, task_groups.h).
int RunQueryCommand(const QueryArgs& args, std::ostream& out, std::ostream& err);

}  // namespace depgraph
