// Repeated structure as groups: the tasks of a graph cut into series of identical instances
// (256 independent requests, 40 chained decoder layers, 64 blocks inside a request), nested,
// for the explorer page to draw collapsed and for `depgraph query --groups`.
//
// Method. (1) Submit order: tasks in file order, each allocation node just before its earliest
// successor, nodes without a task successor at the end in id order (SubmitOrder). (2) A node's
// signature is its kind and its three kernel ids, interned. (3) Weakly connected components of
// the pairs with the same shape (signature sequence in submit order and internal pairs by
// relative position) form one root series, laid out side by side. (4) Inside a range (a
// component met once, one instance of a kind, the parts left around a series) the tasks
// (allocations aside) are searched for periodic runs. Each signature proposes its most common
// gap between successive occurrences (at most TaskGroupOptions::max_periods proposals, rarest
// signatures first). For a period p the maximal stretches with sig[i] == sig[i + p] are cut
// into instances of p tasks from their left end (a layer starts at its first kernel), and a
// stretch is split where an instance's internal pairs differ from the previous one's, or where
// "has a pair from the previous instance" changes. The longest period whose runs of >= 2
// instances cover at least TaskGroupOptions::outer_preference of what the best-covering
// proposal covers wins: outer structure first (decoder layers, not the runs of single tasks
// inside them, which the nesting finds). Adjacent runs of the same instances and length, each
// not connected to the one before, become instances of one outer series (4 requests of 16
// blocks). The parts between runs are searched again (up to max_rounds), and one instance of
// each new kind is searched inside (nesting, up to max_depth), as all its instances are
// identical. An allocation stays inside an instance when every instance of the series holds
// the same allocations at the same places; otherwise it moves just before the series (a
// request's accumulator allocation sits before its blocks).
// Instances are compared by 64-bit hashes of (relative position, signature) and of relative
// pair positions (a collision, about 2^-64 per comparison, would merge two kinds).
//
// Cost: O(V log V + E) for the order and components; O(P x (T + E_T)) per range and round for
// P period proposals over its T tasks and their E_T pairs (proposals whose signature runs
// cannot win are not split), once per kind for the nesting: near-linear in V + E, O(V)
// memory. The 1,000,000-task gen_graph decode graph (3.1 M pairs) takes 0.3 s (its load 4 s),
// paged attention Case1 (65,536 tasks) 11 ms; one thread.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "depgraph/graph/graph.h"
#include "depgraph/graph/task_label.h"

namespace depgraph {

/// Limits of the search (ComputeTaskGroups).
struct TaskGroupOptions {
  uint32_t max_depth = 3;         ///< series nested at most this deep (1 = root series only)
  uint32_t min_nested_size = 8;   ///< instances with fewer nodes are not searched inside
  uint32_t max_periods = 64;      ///< distinct period proposals per range and round
  uint32_t max_rounds = 8;        ///< searches of the parts left around series, per range
  /// A longer period wins over the one covering the most tasks when it covers at least this
  /// share of what that one covers (1: the most covering wins, ties to the longer period).
  double outer_preference = 0.75;
};

/// A run of `count` consecutive identical instances of one kind. Its nodes are the contiguous
/// range [begin, begin + count * kinds[kind].size) of TaskGrouping::order for a root series,
/// or of an instance of the parent kind, relative to that instance's first position, for a
/// kind's child series.
struct GroupSeries {
  uint32_t kind = 0;   ///< index into TaskGrouping::kinds
  uint32_t count = 0;  ///< instances (>= 2)
  uint32_t begin = 0;  ///< first position (absolute for a root series, relative for a child)
};

/// One kind of repeated piece: every instance has the same signatures and pairs at the same
/// relative positions, so they share the nested structure `children`.
struct GroupKind {
  uint32_t size = 0;       ///< nodes per instance
  uint32_t tasks = 0;      ///< of which tasks (the rest are allocation nodes)
  uint32_t kernels = 0;    ///< distinct kernel names in an instance
  uint32_t depth = 1;      ///< 1: found at the root; 2: inside an instance of a depth-1 kind
  uint64_t instances = 0;  ///< instances in the whole graph (nested ones counted per parent)
  /// Kernel names of an instance: up to four distinct names in order ("QK, SF, PV, UP"), else
  /// the first and last with the count ("f0 … f6, 7 kernels"); names are TaskLabel::func_name,
  /// or f<id> without a name map.
  std::string label;
  /// Series inside each instance, `begin` relative to the instance's first position, ascending.
  std::vector<GroupSeries> children;
};

/// The grouping of one graph: a layout of all nodes where every series is a contiguous range.
/// Every node belongs to exactly one innermost place: an instance of a series, or its parent
/// (the root or an instance) as an ungrouped node.
struct TaskGrouping {
  std::vector<uint32_t> order;      ///< a permutation of the node indices (graph.nodes)
  std::vector<uint32_t> position;   ///< inverse of `order`: position[node]
  std::vector<GroupKind> kinds;     ///< every kind, in order of discovery
  std::vector<GroupSeries> series;  ///< the root series, ascending begin
  uint64_t covered = 0;             ///< nodes inside an instance of a root series
};

/// One step of the chain of places holding a node (LocateNode).
struct GroupPlace {
  uint32_t index = 0;     ///< index in TaskGrouping::series (root) or the parent kind's children
  uint32_t kind = 0;      ///< the series' kind
  uint32_t begin = 0;     ///< absolute position in `order` of the series' first node
  uint32_t count = 0;     ///< the series' instances
  uint32_t instance = 0;  ///< the instance holding the node, 0-based
};

/// A slice of a long series that a viewer draws as one box (SeriesSections).
struct SeriesSection {
  uint32_t first = 0;  ///< first instance
  uint32_t count = 0;  ///< instances
};

/// The submit order of step (1): tasks in file order, each allocation node immediately before
/// its earliest successor in that order, nodes without a task successor at the end in id
/// order. A permutation of the node indices. O(V log V + E).
std::vector<uint32_t> SubmitOrder(const DepGraph& graph);

/// Groups the nodes of `graph` (see the method above). `labels` names kernels (indexed like
/// graph.nodes; empty or without names: f<id>). Never fails: a graph without repetition gives
/// no series and `order` == SubmitOrder. Cost above: near-linear in V + E.
TaskGrouping ComputeTaskGroups(const DepGraph& graph, const std::vector<TaskLabel>& labels,
                               const TaskGroupOptions& options = {});

/// The chain of (series, instance) holding `node`, outermost first; empty for a node that is
/// ungrouped at the root. For a page: "the group holding a match opens". O(depth x log series).
std::vector<GroupPlace> LocateNode(const TaskGrouping& grouping, uint32_t node);

/// Cuts a series of `count` instances into sections of at most `max_per_section` (>= 1),
/// as equal as possible, in order: a viewer draws each section as one box. O(sections).
std::vector<SeriesSection> SeriesSections(uint32_t count, uint32_t max_per_section = 1000);

/// Nodes inside the instances of `series` (the root list or one kind's children): the sum of
/// count * size (nested series are inside their parents' instances). O(series).
uint64_t SeriesNodes(const TaskGrouping& grouping, const std::vector<GroupSeries>& series);

}  // namespace depgraph
