// Questions about one task of a loaded graph: its neighbours, its ancestors and descendants to
// a depth, a shortest path to another task, and tasks found by kernel name. Shared by
// `depgraph query` and the Python module; the explorer page answers the same questions in JS.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "depgraph/graph/graph.h"
#include "depgraph/graph/task_label.h"

namespace depgraph {

/// Parses a task reference: a raw decimal id (`4294967298`) or `(ring, local)` (`(1, 2)`,
/// spaces optional). False with *err naming the text when it is neither. O(|text|).
bool ParseTaskRef(std::string_view text, TaskId* id, std::string* err);

/// A task a query can name: a node of the graph (submit, dummy or alloc) or a `tasks[]` entry
/// that no edge touches and that has no active kernel (an isolated dummy: no neighbours).
struct QueryTask {
  TaskId id = 0;
  int64_t node = -1;  ///< index into DepGraph::nodes, or -1 for an isolated dummy
};

/// Finds the task with this id. False when the graph has no such task. O(log V + log T).
bool FindQueryTask(const DepGraph& graph, TaskId id, QueryTask* task);

/// Direct predecessors of a node over the unique pairs, ascending node index (= numeric id).
/// A self loop lists the node itself. O(in-degree).
std::vector<uint32_t> Predecessors(const DepGraph& graph, uint32_t node);
/// Direct successors of a node, ascending node index. O(out-degree).
std::vector<uint32_t> Successors(const DepGraph& graph, uint32_t node);

/// A node reached by a bounded search, with its distance in edges from the start.
struct ReachedNode {
  uint32_t node = 0;
  uint32_t depth = 0;  ///< >= 1
};

/// Which way a search follows edges.
enum class Direction { kAncestors, kDescendants };

/// Nodes within `max_depth` edges of `start` (0 = unlimited), walking edges backwards for
/// ancestors or forwards for descendants; the start itself is not listed (a cycle back to it
/// neither). Sorted by (depth, node). Breadth-first: O(reached nodes + their edges).
std::vector<ReachedNode> Reach(const DepGraph& graph, uint32_t start, Direction direction,
                               uint32_t max_depth);

/// A shortest path in edges from `from` to `to`, both included (just `{from}` when they are
/// equal): the one a breadth-first search finds when it visits successors in ascending node
/// index, so the answer is deterministic. False when `to` is not reachable from `from`.
/// Breadth-first from `from`, stopped at `to`: O(V + E) worst case, O(V) memory.
bool ShortestPath(const DepGraph& graph, uint32_t from, uint32_t to, std::vector<uint32_t>* path);

/// Nodes whose kernel name (TaskLabel::func_name, so "A + B" for several slots) contains
/// `pattern`, compared case-insensitively, ascending node index. O(V · |name|).
std::vector<uint32_t> GrepTasks(const std::vector<TaskLabel>& labels, std::string_view pattern);

}  // namespace depgraph
