#include "depgraph/task_label.h"

namespace depgraph {

const char* TaskKindName(TaskKind kind) {
  switch (kind) {
    case TaskKind::kSubmit: return "submit";
    case TaskKind::kDummy: return "dummy";
    case TaskKind::kAlloc: return "alloc";
  }
  return "?";
}

namespace {

CoreType ParseCoreType(const std::string& type) {
  if (type == "aic") return CoreType::kAic;
  if (type == "aiv") return CoreType::kAiv;
  if (type == "mix") return CoreType::kMix;
  return CoreType::kNone;
}

}  // namespace

std::vector<TaskLabel> ResolveTaskLabels(const DepGraph& graph, const NameMap& names,
                                         const PerfSidecar* sidecar) {
  std::vector<TaskLabel> labels(graph.nodes.size());
  const std::string* perf_name = names.Find(-1);  // the sidecar's kernel id is always -1
  for (uint32_t n = 0; n < graph.nodes.size(); ++n) {
    TaskLabel& label = labels[n];
    const PerfTask* perf = sidecar ? sidecar->Find(graph.nodes[n]) : nullptr;
    if (perf != nullptr) {
      label.perf = true;
      label.core = ParseCoreType(perf->core_type);
      if (perf_name != nullptr) label.func_name = *perf_name;
    }
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
    if (perf == nullptr || perf->core_type.empty()) {
      bool aic = task->kernel_ids[0] >= 0;
      bool aiv = task->kernel_ids[1] >= 0 || task->kernel_ids[2] >= 0;
      label.core = aic && aiv ? CoreType::kMix : (aic ? CoreType::kAic : CoreType::kAiv);
    }
    if (names.empty() || !label.func_name.empty()) continue;
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
