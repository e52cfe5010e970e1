// The Python module's handle on one loaded deps.json: the graph, its kernel names, and what
// is derived from them on first use (labels, the structural reduction). Shared by every
// object the module hands out (tasks, edge lists, reductions, reports), so none copies it.
#pragma once

#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

#include "depgraph/graph/graph.h"
#include "depgraph/graph/graph_query.h"
#include "depgraph/graph/name_map.h"
#include "depgraph/graph/task_label.h"
#include "depgraph/reduce/reduction.h"

namespace depgraph::python {

/// Raised (as Python's depgraph.Error) with the one line the command-line tools print after
/// `error: ` for the same input.
class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// A loaded graph and what is derived from it lazily. Read-only after Load, except for the
/// caches, which are filled once under a lock (Python threads may ask at the same time while
/// the GIL is released).
class LoadedGraph {
 public:
  /// Loads `path` as `depgraph query` and `audit` do: the graph on `threads` threads (0 = every
  /// core), then the kernel names from `name_map` or, when it is empty, the newest sibling
  /// `name_map*.json`; without `views` no view is kept (LoadOptions::views: a third less
  /// memory, and RequireViews refuses what needs them). Throws Error with the tools' message
  /// on bad input; an unreadable name map only sets `warning()` (the tools print it and go
  /// on). O(file).
  static std::shared_ptr<LoadedGraph> Load(const std::string& path, const std::string& name_map,
                                           unsigned threads, bool views = true);

  /// Throws Error naming `what` when the graph was loaded without views. O(1).
  void RequireViews(const char* what) const;

  /// The loaded model. O(1).
  const DepGraph& graph() const { return graph_; }
  /// The deps.json path as given (reports and messages name it so). O(1).
  const std::string& source() const { return source_; }
  /// The name map read ("" when none was found).
  const std::string& names_path() const { return names_path_; }
  /// `warning: couldn't read ...` when the name map was unreadable, else "".
  const std::string& warning() const { return warning_; }
  /// Threads of the load, also used by reductions, audits and diffs of this graph. O(1).
  unsigned threads() const { return threads_; }
  /// How the tools display this graph's ids. O(1).
  IdDisplay display() const { return display_; }

  /// Per-node labels (kind, kernel names). Computed on first use: O(V + names).
  const std::vector<TaskLabel>& Labels();
  /// The structural reduction, computed on first use: see reduction.h for the cost.
  const StructuralReduction& Reduction();

  /// A task id displayed as the tools display it ("(1, 2)", "5", "g3t5"). O(1).
  std::string Format(TaskId id) const { return FormatTaskId(id, display_); }
  /// The tools' name for a node: its kernel name, else its kind ("alloc", "dummy", "submit").
  std::string NodeName(uint32_t node);

  /// Finds the task `ref` names (text as given, for the message), as `depgraph query` does;
  /// throws Error `<source>: no task <text> (id N)` when there is none. O(log V + log T).
  QueryTask Resolve(TaskId id, const std::string& text) const;

 private:
  LoadedGraph() = default;

  DepGraph graph_;
  NameMap names_;
  std::string source_;
  std::string names_path_;
  std::string warning_;
  unsigned threads_ = 0;
  IdDisplay display_ = IdDisplay::kLocal;

  std::once_flag labels_once_;
  std::vector<TaskLabel> labels_;
  std::once_flag reduction_once_;
  StructuralReduction reduction_;
};

using GraphPtr = std::shared_ptr<LoadedGraph>;

}  // namespace depgraph::python
