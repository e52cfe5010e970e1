// Fuzz harness of the kernel-name map loader (LoadNameMapText): any text either loads, or fails
// with a one-line reason; a loaded map resolves names, and labels a small fixed graph.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "depgraph/graph/graph.h"
#include "depgraph/graph/load_deps.h"
#include "depgraph/graph/name_map.h"
#include "depgraph/graph/task_label.h"
#include "fuzz_check.h"

namespace depgraph::fuzz {
namespace {

/// A graph with submit tasks on kernel ids 0..3 (AIC, AIV and mixed), loaded once.
const DepGraph& LabelGraph() {
  static const DepGraph graph = [] {
    DepGraph g;
    std::string err;
    const bool ok = LoadDepsJsonText(
        R"({"tasks":[{"task_id":1,"kernel_id":[0,-1,-1]},{"task_id":2,"kernel_id":[-1,1,2]},)"
        R"({"task_id":3,"kernel_id":[3,3,-1]}],"edges":[{"pred":1,"succ":2,"source":"tensormap"},)"
        R"({"pred":2,"succ":3,"source":"explicit"},{"pred":9,"succ":1,"source":"creator"}]})",
        "labels.json", &g, &err);
    Require(ok, "the label graph loads");
    return g;
  }();
  return graph;
}

}  // namespace
}  // namespace depgraph::fuzz

/// libFuzzer entry point: loads `data` as a name map, then looks up ids and labels a fixed
/// graph with it. Inputs above kMaxInputBytes are skipped. Cost: O(bytes) plus O(names).
extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace depgraph;
  using namespace depgraph::fuzz;
  if (size > kMaxInputBytes) return 0;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  NameMap map;
  std::string err;
  const NameMapStatus status = LoadNameMapText(text, "name_map.json", &map, &err);
  if (status != NameMapStatus::kOk) {
    RequireOneLineMessage(err);
    Require(map.empty(), "a failed load leaves the map empty");
    return 0;
  }
  for (const auto& [key, name] : map.names) {
    char* end = nullptr;
    const long long id = std::strtoll(key.c_str(), &end, 10);
    if (!key.empty() && *end == '\0' && std::to_string(id) == key) {
      const std::string* found = map.Find(id);
      Require(name.empty() ? found == nullptr : (found != nullptr && *found == name),
              "Find(id) returns the loaded name");
    }
  }
  for (long long id : {-1LL, 0LL, 1LL, 2LL, 3LL, 1LL << 40}) (void)map.Find(id);
  const std::vector<TaskLabel> labels = ResolveTaskLabels(LabelGraph(), map);
  Require(labels.size() == LabelGraph().nodes.size(), "one label per node");
  return 0;
}
