#include "depgraph/audit/false_serialization.h"

#include <algorithm>
#include <numeric>

namespace depgraph {

const char* SerializationCauseName(SerializationCause cause) {
  switch (cause) {
    case SerializationCause::kVersion: return "version";
    case SerializationCause::kDType: return "dtype";
    case SerializationCause::kStrided: return "strided";
    case SerializationCause::kUnproven: return "unproven";
  }
  return "?";
}

namespace {

enum class Conflict { kNone, kMaybe, kYes };

// Whether tasks p and s (task indices) touch a common byte that one of them writes.
Conflict TasksConflict(const AccessModel& model, uint32_t p, uint32_t s,
                       std::vector<ByteInterval>* scratch_a,
                       std::vector<ByteInterval>* scratch_b) {
  Conflict result = Conflict::kNone;
  for (const Access& a : model.TaskAccesses(p)) {
    for (const Access& b : model.TaskAccesses(s)) {
      if (!a.writes && !b.writes) continue;
      if (std::max(a.bounds.begin, b.bounds.begin) >= std::min(a.bounds.end, b.bounds.end)) {
        continue;
      }
      if (!IntervalsIntersect(model.Bytes(a, scratch_a), model.Bytes(b, scratch_b))) continue;
      if (!a.approximate && !b.approximate) return Conflict::kYes;
      result = Conflict::kMaybe;
    }
  }
  if (result == Conflict::kNone && (model.task_incomplete[p] || model.task_incomplete[s])) {
    return Conflict::kMaybe;
  }
  return result;
}

bool SameDims(const DepGraph& graph, const DimList& a, const DimList& b) {
  if (a.state != FieldState::kValid || b.state != FieldState::kValid || a.size != b.size) {
    return false;
  }
  return std::equal(graph.DimData(a), graph.DimData(a) + a.size, graph.DimData(b));
}

SerializationCause Classify(const DepGraph& graph, const EdgeRow& row, uint32_t succ_node) {
  const Task* task = graph.TaskOfNode(succ_node);
  const TaskArg* arg = task != nullptr ? graph.FindArg(*task, row.arg) : nullptr;
  if (arg != nullptr && arg->tensor_id_state == FieldState::kValid &&
      row.tensor_id_state == FieldState::kValid && arg->tensor_id != row.tensor_id) {
    return SerializationCause::kVersion;
  }
  const View* consumer = &graph.ConsumerOf(row);
  const View& fallback = arg != nullptr ? graph.ViewOf(*arg) : kAbsentView;
  const DType consumer_dtype =
      consumer->dtype_state != FieldState::kAbsent ? consumer->dtype : fallback.dtype;
  const Tensor* tensor =
      row.tensor_id_state == FieldState::kValid ? graph.FindTensor(row.tensor_id) : nullptr;
  if (tensor != nullptr && tensor->dtype_state == FieldState::kValid &&
      tensor->dtype != consumer_dtype) {
    return SerializationCause::kDType;
  }
  const DimList& strides =
      consumer->strides.state != FieldState::kAbsent ? consumer->strides : fallback.strides;
  if (!SameDims(graph, strides, graph.ProducerOf(row).strides)) return SerializationCause::kStrided;
  if (strides.size > 0 && graph.DimData(strides)[strides.size - 1] != 1) {
    return SerializationCause::kStrided;
  }
  return SerializationCause::kUnproven;
}

uint32_t Find(std::vector<uint32_t>& parent, uint32_t x) {
  while (parent[x] != x) x = parent[x] = parent[parent[x]];
  return x;
}

// Longest path in edges over the pairs with removed[pair] == 0.
uint64_t DepthWithout(const DepGraph& graph, const std::vector<uint32_t>& order,
                      const std::vector<uint8_t>& removed, std::vector<uint32_t>* level) {
  const PairGraph& g = graph.graph;
  level->assign(graph.nodes.size(), 0);
  uint64_t depth = 0;
  for (uint32_t u : order) {
    const uint32_t lu = (*level)[u];
    depth = std::max<uint64_t>(depth, lu);
    for (auto [it, end] = boost::out_edges(u, g); it != end; ++it) {
      if (removed[boost::get(boost::edge_index, g, *it)]) continue;
      uint32_t& lw = (*level)[boost::target(*it, g)];
      lw = std::max(lw, lu + 1);
    }
  }
  return depth;
}

}  // namespace

SerializationReport FindFalseSerialization(const DepGraph& graph, const AccessModel& model,
                                           const ReachabilityIndex& reach,
                                           const SerializationOptions& options) {
  SerializationReport report;
  const size_t pair_count = graph.pairs.size();
  // Per pair: 1 = only tensormap rows so far, 0 = some other source; first tensormap row.
  std::vector<uint8_t> only_tensormap(pair_count, 1);
  std::vector<uint32_t> first_row(pair_count, UINT32_MAX);
  for (uint32_t r = 0; r < graph.rows.size(); ++r) {
    const EdgeRow& row = graph.rows[r];
    if (row.source != EdgeSource::kTensormap) {
      only_tensormap[row.pair] = 0;
    } else if (first_row[row.pair] == UINT32_MAX) {
      first_row[row.pair] = r;
    }
  }
  std::vector<uint32_t> false_pairs;
  std::vector<ByteInterval> scratch_a, scratch_b;
  for (uint32_t p = 0; p < pair_count; ++p) {
    if (!only_tensormap[p] || first_row[p] == UINT32_MAX) continue;
    ++report.candidates;
    const int32_t pred = graph.node_task[graph.pairs[p].pred];
    const int32_t succ = graph.node_task[graph.pairs[p].succ];
    if (pred < 0 || succ < 0) {
      ++report.undecided;
      continue;
    }
    switch (TasksConflict(model, static_cast<uint32_t>(pred), static_cast<uint32_t>(succ),
                          &scratch_a, &scratch_b)) {
      case Conflict::kYes: break;
      case Conflict::kMaybe: ++report.undecided; break;
      case Conflict::kNone: false_pairs.push_back(p); break;
    }
  }
  report.false_pairs = false_pairs.size();

  // Levels from the sources (the index's) and to the sinks, for the longest-path test.
  const std::vector<uint32_t>& order = reach.order();
  const std::vector<uint32_t>& top = reach.levels();
  const PairGraph& g = graph.graph;
  std::vector<uint32_t> bottom(graph.nodes.size(), 0);
  for (size_t i = order.size(); i-- > 0;) {
    const uint32_t u = order[i];
    for (auto [it, end] = boost::out_edges(u, g); it != end; ++it) {
      bottom[u] = std::max(bottom[u], bottom[boost::target(*it, g)] + 1);
    }
  }
  for (uint32_t v = 0; v < graph.nodes.size(); ++v) {
    report.depth = std::max<uint64_t>(report.depth, top[v]);
  }
  auto critical = [&](uint32_t p) {
    return top[graph.pairs[p].pred] + 1 + bottom[graph.pairs[p].succ] == report.depth;
  };

  // Connected groups of false pairs.
  std::vector<uint32_t> parent(graph.nodes.size());
  std::iota(parent.begin(), parent.end(), 0u);
  for (uint32_t p : false_pairs) {
    const uint32_t a = Find(parent, graph.pairs[p].pred), b = Find(parent, graph.pairs[p].succ);
    if (a != b) parent[std::max(a, b)] = std::min(a, b);
  }
  std::vector<std::pair<uint32_t, uint32_t>> by_root;  // (root, pair)
  for (uint32_t p : false_pairs) by_root.push_back({Find(parent, graph.pairs[p].pred), p});
  std::sort(by_root.begin(), by_root.end());

  const uint64_t work = graph.nodes.size() + pair_count + 1;
  size_t budget = options.max_recomputations != 0
                      ? options.max_recomputations
                      : std::max<size_t>(32, static_cast<size_t>(200000000 / work));
  std::vector<uint8_t> removed(pair_count, 0);
  std::vector<uint32_t> level;
  bool any_critical = false;
  for (size_t i = 0; i < by_root.size();) {
    FalseSerialization finding;
    size_t j = i;
    for (; j < by_root.size() && by_root[j].first == by_root[i].first; ++j) {
      finding.pairs.push_back(by_root[j].second);
    }
    i = j;
    std::sort(finding.pairs.begin(), finding.pairs.end());
    for (uint32_t p : finding.pairs) {
      finding.tasks.push_back(graph.pairs[p].pred);
      finding.tasks.push_back(graph.pairs[p].succ);
    }
    std::sort(finding.tasks.begin(), finding.tasks.end(), [&](uint32_t a, uint32_t b) {
      return graph.node_task[a] < graph.node_task[b];
    });
    finding.tasks.erase(std::unique(finding.tasks.begin(), finding.tasks.end()),
                        finding.tasks.end());
    // Describe the finding by the row on the pair leaving its first task.
    uint32_t lead = finding.pairs.front();
    for (uint32_t p : finding.pairs) {
      if (graph.pairs[p].pred == finding.tasks.front()) {
        lead = p;
        break;
      }
    }
    const EdgeRow& row = graph.rows[first_row[lead]];
    finding.cause = Classify(graph, row, graph.pairs[lead].succ);
    finding.tensor_id = row.tensor_id;
    finding.consumer_arg = row.arg;
    finding.overlap = row.overlap;
    if (finding.pairs.size() >= 2) {
      bool same = true;
      for (uint32_t p : finding.pairs) {
        const EdgeRow& r = graph.rows[first_row[p]];
        same = same && r.tensor_id_state == FieldState::kValid && r.tensor_id == row.tensor_id;
      }
      for (uint32_t node : finding.tasks) {
        bool writes = false;
        for (const Access& a : model.TaskAccesses(static_cast<uint32_t>(graph.node_task[node]))) {
          writes = writes || (a.writes && a.tensor_id == row.tensor_id);
        }
        same = same && writes;
      }
      finding.accumulator = same;
    }
    bool on_longest = false;
    for (uint32_t p : finding.pairs) on_longest = on_longest || critical(p);
    any_critical = any_critical || on_longest;
    if (!on_longest) {
      finding.depth_gain = 0;
    } else if (budget > 0) {
      --budget;
      for (uint32_t p : finding.pairs) removed[p] = 1;
      finding.depth_gain =
          static_cast<int64_t>(report.depth - DepthWithout(graph, order, removed, &level));
      for (uint32_t p : finding.pairs) removed[p] = 0;
    } else {
      ++report.gains_not_computed;
    }
    report.findings.push_back(std::move(finding));
  }
  std::sort(report.findings.begin(), report.findings.end(),
            [&](const FalseSerialization& a, const FalseSerialization& b) {
              return graph.node_task[a.tasks.front()] < graph.node_task[b.tasks.front()];
            });
  report.depth_without_false = report.depth;
  if (any_critical) {
    for (uint32_t p : false_pairs) removed[p] = 1;
    report.depth_without_false = DepthWithout(graph, order, removed, &level);
  }
  return report;
}

}  // namespace depgraph
