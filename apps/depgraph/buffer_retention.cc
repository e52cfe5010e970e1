#include "buffer_retention.h"

#include <unordered_map>

#include "depgraph/reachability.h"

namespace depgraph {

namespace {

/// Per allocation ordinal, the nodes (of `graph`) of the tasks that retain it.
std::vector<std::vector<uint32_t>> RetainersByAllocation(const DepGraph& graph,
                                                         const std::vector<uint64_t>& allocations) {
  std::unordered_map<TaskId, uint32_t> ordinal;
  for (uint32_t k = 0; k < allocations.size(); ++k) ordinal.emplace(allocations[k], k);
  std::vector<std::vector<uint32_t>> retainers(allocations.size());
  for (const Pair& pair : graph.pairs) {
    if (graph.node_task[pair.pred] >= 0 || graph.node_task[pair.succ] < 0) continue;
    auto it = ordinal.find(graph.nodes[pair.pred]);
    if (it != ordinal.end()) retainers[it->second].push_back(pair.succ);
  }
  return retainers;
}

}  // namespace

std::vector<LostRetention> CompareBufferRetention(const DepGraph& reference,
                                                  const std::vector<uint64_t>& reference_allocations,
                                                  const DepGraph& other,
                                                  const std::vector<uint64_t>& other_allocations) {
  std::vector<LostRetention> lost;
  const auto ref_retainers = RetainersByAllocation(reference, reference_allocations);
  const auto other_retainers = RetainersByAllocation(other, other_allocations);
  // Task index (submit order) -> node of the other graph; tasks without edges have none.
  std::vector<int64_t> other_node(other.tasks.size(), -1);
  for (uint32_t node = 0; node < other.nodes.size(); ++node) {
    if (other.node_task[node] >= 0) other_node[static_cast<size_t>(other.node_task[node])] = node;
  }
  ReachabilityIndex reach;
  const bool acyclic = reach.Build(other);
  for (uint32_t k = 0; k < ref_retainers.size(); ++k) {
    for (uint32_t user_node : ref_retainers[k]) {
      const uint32_t user_task = static_cast<uint32_t>(reference.node_task[user_node]);
      bool kept = false;
      if (k < other_retainers.size() && user_task < other_node.size() && other_node[user_task] >= 0) {
        const uint32_t u = static_cast<uint32_t>(other_node[user_task]);
        for (uint32_t r : other_retainers[k]) {
          // A cyclic graph has no usable index: only a direct retention counts then.
          if (r == u || (acyclic && reach.Reaches(u, r))) {
            kept = true;
            break;
          }
        }
      }
      if (!kept) {
        lost.push_back(LostRetention{k, reference_allocations[k], reference.nodes[user_node], user_task});
      }
    }
  }
  return lost;
}

}  // namespace depgraph
