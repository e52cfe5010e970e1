// Python views over a loaded graph: a task, the sequence of tasks, and sequences of edges.
// Each holds the shared LoadedGraph and indices into it; nothing of the graph is copied.
#pragma once

#include <pybind11/pybind11.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "loaded_graph.h"

namespace depgraph::python {

/// One task: a node of the graph, or an isolated dummy task (node == -1) that a lookup found.
struct TaskView {
  GraphPtr graph;
  TaskId id = 0;
  int64_t node = -1;
};

/// The tasks of a graph in node order (ascending id), as a Python sequence. O(1) per item.
struct TaskList {
  GraphPtr graph;
};

/// A set of edges (unique (pred, succ) pairs) as a Python sequence of `(pred_id, succ_id)`
/// tuples in ascending (pred, succ) order: every pair, or the pair indices in `pairs`.
/// Indexing is O(1); `in` is O(log out-degree), plus O(log n) for a subset.
struct EdgeList {
  GraphPtr graph;
  std::shared_ptr<const std::vector<uint32_t>> pairs;  ///< ascending; nullptr = every pair

  size_t size() const { return pairs ? pairs->size() : graph->graph().pairs.size(); }
  uint32_t PairAt(size_t i) const { return pairs ? (*pairs)[i] : static_cast<uint32_t>(i); }
};

/// The task id a Python task reference names: a Task, an int id, a `(ring, local)` tuple or
/// the text `depgraph query` takes ("(1, 2)", "4294967298"). *text receives the reference as
/// the tools' messages quote it. Throws Error (a bad reference, with the query's message) or
/// TypeError. O(|text|).
TaskId TaskRefToId(pybind11::handle ref, std::string* text);

/// The task `ref` names in `graph`, or Error `<source>: no task <ref> (id N)`. O(log V).
TaskView ResolveTask(const GraphPtr& graph, pybind11::handle ref);

/// The `(pred_id, succ_id)` tuple of a pair. O(1).
pybind11::tuple PairTuple(const DepGraph& graph, uint32_t pair);

/// Registers Task, TaskList and EdgeList. O(1).
void BindGraphViews(pybind11::module_& m);

}  // namespace depgraph::python
