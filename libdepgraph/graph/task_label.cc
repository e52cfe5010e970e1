#include "depgraph/graph/task_label.h"

#include <algorithm>

namespace depgraph {

const char* TaskKindName(TaskKind kind) {
  switch (kind) {
    case TaskKind::kSubmit: return "submit";
    case TaskKind::kDummy: return "dummy";
    case TaskKind::kAlloc: return "alloc";
  }
  return "?";
}

std::vector<TaskLabel> ResolveTaskLabels(const DepGraph& graph, const NameMap& names) {
  std::vector<TaskLabel> labels(graph.nodes.size());
  for (uint32_t n = 0; n < graph.nodes.size(); ++n) {
    TaskLabel& label = labels[n];
    const Task* task = graph.TaskOfNode(n);
    if (task == nullptr) {
      label.kind = TaskKind::kAlloc;
      continue;
    }
    if (!task->HasActiveKernel()) {
      label.kind = TaskKind::kDummy;
      continue;
    }
    label.kind = TaskKind::kSubmit;
    const bool aic = task->kernel_ids[0] >= 0;
    const bool aiv = task->kernel_ids[1] >= 0 || task->kernel_ids[2] >= 0;
    label.core = aic && aiv ? CoreType::kMix : (aic ? CoreType::kAic : CoreType::kAiv);
    if (names.empty()) continue;
    label.func_name = KernelSlotNames(*task, names);
  }
  return labels;
}

std::string KernelSlotNames(const Task& task, const NameMap& names) {
  std::vector<std::string> parts;
  for (int64_t id : task.kernel_ids) {
    if (id < 0) continue;
    const std::string* name = names.Find(id);
    std::string part = name ? *name : "f" + std::to_string(id);
    if (std::find(parts.begin(), parts.end(), part) == parts.end()) parts.push_back(part);
  }
  std::string joined;
  for (size_t i = 0; i < parts.size(); ++i) {
    if (i) joined += " + ";
    joined += parts[i];
  }
  return joined;
}

std::string DisplayKernelName(const DepGraph& graph, const std::vector<TaskLabel>& labels,
                              uint32_t node) {
  const TaskLabel& label = labels[node];
  if (!label.func_name.empty() || label.kind != TaskKind::kSubmit) return label.func_name;
  const Task* task = graph.TaskOfNode(node);
  return task ? KernelSlotNames(*task, NameMap()) : std::string();
}

void NameKernelsById(const DepGraph& graph, std::vector<TaskLabel>* labels) {
  for (uint32_t n = 0; n < labels->size(); ++n) {
    TaskLabel& label = (*labels)[n];
    if (label.func_name.empty()) label.func_name = DisplayKernelName(graph, *labels, n);
  }
}

std::string FirstKernelName(const Task& task, const std::map<int32_t, std::string>& names) {
  for (int64_t id : task.kernel_ids) {
    if (id < 0) continue;
    auto it = names.find(static_cast<int32_t>(id));
    return it == names.end() ? "f" + std::to_string(id) : it->second;
  }
  return "dummy";
}

}  // namespace depgraph
