#include "platform.h"

namespace depgraph::orch_runner {

namespace {

/// One preset: name, chip family, counts.
struct Preset {
  const char* name;
  const char* arch;
  int32_t clusters;
  int32_t aiv_per_cluster;
};

constexpr Preset kPresets[] = {
    {"a2a3", "a2a3", 24, 2},
    {"a2a3sim", "a2a3", 8, 2},
    {"a5", "a5", 36, 2},
};

}  // namespace

bool FindPlatform(std::string_view name, Platform* out) {
  for (const Preset& p : kPresets) {
    if (name == p.name) {
      *out = Platform{p.name, p.clusters, p.aiv_per_cluster};
      return true;
    }
  }
  return false;
}

const char* PlatformNames() { return "a2a3, a2a3sim, a5"; }

std::string_view PlatformArch(const Platform& platform) {
  for (const Preset& p : kPresets) {
    if (platform.name == p.name) return p.arch;
  }
  return "";
}

}  // namespace depgraph::orch_runner
