#include "depgraph_orchestration/buffer_retention.h"

#include <map>
#include <set>
#include <utility>

#include "depgraph/graph/reachability.h"

namespace depgraph {

namespace {

/// Per created tensor (by ordinal), the nodes of `graph` whose tasks retain its allocation.
std::vector<std::set<uint32_t>> RetainersByCreate(const DepGraph& graph,
                                                  const std::vector<CreatedTensor>& creates) {
  std::map<std::pair<uint64_t, uint64_t>, uint32_t> by_buffer;  // (alloc, addr) -> ordinal
  std::map<uint64_t, std::vector<uint32_t>> by_alloc;            // alloc -> ordinals
  for (uint32_t c = 0; c < creates.size(); ++c) {
    by_buffer.emplace(std::make_pair(creates[c].alloc_id, creates[c].buffer_addr), c);
    by_alloc[creates[c].alloc_id].push_back(c);
  }
  std::vector<std::set<uint32_t>> retainers(creates.size());
  for (const EdgeRow& row : graph.rows) {
    const Pair& pair = graph.pairs[row.pair];
    if (graph.node_task[pair.pred] >= 0 || graph.node_task[pair.succ] < 0) continue;
    const TaskId alloc = graph.nodes[pair.pred];
    auto ordinals = by_alloc.find(alloc);
    if (ordinals == by_alloc.end()) continue;
    const Tensor* tensor = row.tensor_id_state == FieldState::kValid
                               ? graph.FindTensor(row.tensor_id)
                               : nullptr;
    if (tensor != nullptr) {
      auto it = by_buffer.find({alloc, static_cast<uint64_t>(tensor->buffer_addr)});
      if (it != by_buffer.end()) {
        retainers[it->second].insert(pair.succ);
        continue;
      }
    }
    for (uint32_t c : ordinals->second) retainers[c].insert(pair.succ);
  }
  return retainers;
}

}  // namespace

std::vector<LostRetention> CompareBufferRetention(const DepGraph& reference,
                                                  const std::vector<CreatedTensor>& reference_creates,
                                                  const DepGraph& other,
                                                  const std::vector<CreatedTensor>& other_creates) {
  std::vector<LostRetention> lost;
  const auto ref_retainers = RetainersByCreate(reference, reference_creates);
  const auto other_retainers = RetainersByCreate(other, other_creates);
  // Task index (submit order) -> node of the other graph; tasks without edges have none.
  std::vector<int64_t> other_node(other.tasks.size(), -1);
  for (uint32_t node = 0; node < other.nodes.size(); ++node) {
    if (other.node_task[node] >= 0) other_node[static_cast<size_t>(other.node_task[node])] = node;
  }
  ReachabilityIndex reach;
  const bool acyclic = reach.Build(other);
  for (uint32_t c = 0; c < ref_retainers.size(); ++c) {
    for (uint32_t user_node : ref_retainers[c]) {
      const uint32_t user_task = static_cast<uint32_t>(reference.node_task[user_node]);
      bool kept = false;
      if (c < other_retainers.size() && user_task < other_node.size() && other_node[user_task] >= 0) {
        const uint32_t u = static_cast<uint32_t>(other_node[user_task]);
        for (uint32_t r : other_retainers[c]) {
          // A cyclic graph has no usable index: only a direct retention counts then.
          if (r == u || (acyclic && reach.Reaches(u, r))) {
            kept = true;
            break;
          }
        }
      }
      if (!kept) {
        lost.push_back(LostRetention{c, reference_creates[c].alloc_id, reference.nodes[user_node], user_task});
      }
    }
  }
  return lost;
}

}  // namespace depgraph
