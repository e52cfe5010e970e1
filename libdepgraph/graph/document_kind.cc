#include "depgraph/graph/document_kind.h"

#include <algorithm>

namespace depgraph {

namespace {

bool Has(const std::vector<std::string>& keys, const char* key) {
  return std::find(keys.begin(), keys.end(), key) != keys.end();
}

}  // namespace

std::string DescribeNonCapture(const std::vector<std::string>& keys) {
  const std::string tail = "; pass the run's deps.json";
  if (Has(keys, "chip_swimlane_level") || Has(keys, "aicore_tasks") ||
      Has(keys, "aicpu_tasks")) {
    return "not a deps.json capture: these are timing records (chip_swimlane_records.json)" +
           tail;
  }
  if (Has(keys, "callable_id_to_name")) {
    return "not a deps.json capture: this is a kernel name map (name_map*.json; give it with "
           "--func-names)" + tail;
  }
  if (Has(keys, "traceEvents")) {
    return "not a deps.json capture: this is a Chrome/Perfetto trace" + tail;
  }
  if (Has(keys, "model") && Has(keys, "ranks")) {
    return "not a deps.json capture: this is a machine description (simulation.json)" + tail;
  }
  if (Has(keys, "schema")) {
    return "not a deps.json capture: this looks like a depgraph JSON report (it has a "
           "\"schema\" key)" + tail;
  }
  if (keys.empty()) return "not a deps.json capture: an empty JSON object (no \"tasks\" array)";
  std::string listed;
  for (size_t i = 0; i < keys.size() && i < 6; ++i) {
    if (i) listed += ", ";
    std::string key = keys[i].substr(0, 40);
    for (char& c : key) {
      if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = '?';  // keep one line
    }
    listed += "\"" + key + "\"";
  }
  if (keys.size() > 6) listed += ", ...";
  return "not a deps.json capture: no \"tasks\" array (top-level keys: " + listed + ")";
}

}  // namespace depgraph
