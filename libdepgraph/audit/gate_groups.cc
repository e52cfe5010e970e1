#include "depgraph/audit/gate_groups.h"

#include <algorithm>
#include <map>
#include <tuple>

namespace depgraph {

std::vector<GateFindingGroup> GroupGateFindings(const GateReport& report) {
  std::vector<GateFindingGroup> groups;
  std::map<std::tuple<size_t, std::string, std::string>, size_t> index;
  for (size_t i = 0; i < report.findings.size(); ++i) {
    const GateFinding& f = report.findings[i];
    auto [it, fresh] = index.try_emplace({f.rule, f.first.kernel, f.second.kernel}, groups.size());
    if (fresh) {
      GateFindingGroup group;
      group.rule = f.rule;
      group.level = f.level;
      group.first_kernel = f.first.kernel;
      group.second_kernel = f.second.kernel;
      groups.push_back(std::move(group));
    }
    GateFindingGroup& group = groups[it->second];
    group.members.push_back(i);
    // GateLevel orders kError < kWarning < kNote: the smaller value is the more severe.
    group.level = std::min(group.level, f.level);
  }
  std::stable_sort(groups.begin(), groups.end(),
                   [](const GateFindingGroup& a, const GateFindingGroup& b) {
                     if (a.level != b.level) return a.level < b.level;
                     if (a.rule != b.rule) return a.rule < b.rule;
                     return a.members.front() < b.members.front();
                   });
  return groups;
}

std::string GateGroupMessage(const GateReport& report, const GateFindingGroup& group) {
  std::string text = report.findings[group.members.front()].message;
  if (group.members.size() > 1) {
    text += " (and " + std::to_string(group.members.size() - 1) + " more between these kernels)";
  }
  return text;
}

std::string GateGroupFingerprint(const GateReport& report, const GateFindingGroup& group) {
  uint64_t hash = 14695981039346656037ull;  // FNV-1a 64-bit offset basis
  auto mix = [&hash](const std::string& text) {
    for (unsigned char c : text) {
      hash ^= c;
      hash *= 1099511628211ull;  // FNV prime
    }
    hash ^= 0x1f;  // unit separator: ("ab", "c") and ("a", "bc") differ
    hash *= 1099511628211ull;
  };
  mix(group.rule < report.rules.size() ? report.rules[group.rule].id : std::string());
  mix(group.first_kernel);
  mix(group.second_kernel);
  static const char kHex[] = "0123456789abcdef";
  std::string out(16, '0');
  for (int i = 15; i >= 0; --i, hash >>= 4) out[static_cast<size_t>(i)] = kHex[hash & 0xf];
  return out;
}

}  // namespace depgraph
