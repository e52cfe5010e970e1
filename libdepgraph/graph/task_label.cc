#include "depgraph/graph/task_label.h"

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
    std::vector<std::string> parts;
    for (int64_t id : task->kernel_ids) {
      if (id < 0) continue;
      const std::string* name = names.Find(id);
      std::string part = name ? *name : "f" + std::to_string(id);
      bool seen = false;
      for (const std::string& p : parts) seen = seen || p == part;
      if (!seen) parts.push_back(part);
    }
    for (size_t i = 0; i < parts.size(); ++i) {
      if (i) label.func_name += " + ";
      label.func_name += parts[i];
    }
  }
  return labels;
}

}  // namespace depgraph
