// The platform a run imitates: how many clusters and AIV cores the orchestration sees through
// rt_available_cluster_count / rt_available_aiv_count (and the require_sync_start limit).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace depgraph::orch_runner {

/// Cluster and core counts of one platform. A cluster is one AIC (cube) core with
/// `aiv_per_cluster` AIV (vector) cores; rt_available_cluster_count returns `clusters`,
/// rt_available_aiv_count `clusters * aiv_per_cluster`.
struct Platform {
  std::string name;             ///< a preset name, or "" for explicit counts
  int32_t clusters = 24;        ///< MIX clusters (= AIC cores), 1..kMaxPlatformClusters
  int32_t aiv_per_cluster = 2;  ///< AIV cores per cluster, 1..kMaxAivPerCluster

  /// rt_available_aiv_count.
  int32_t aiv() const { return clusters * aiv_per_cluster; }
};

/// Most clusters a platform may have (block_num is a 16-bit count).
inline constexpr int32_t kMaxPlatformClusters = 32767;
/// Most AIV cores per cluster.
inline constexpr int32_t kMaxAivPerCluster = 16;

/// The presets, as on the real chips and the runtime's simulator: "a2a3" 24 clusters x 2 AIV
/// (the full chip, the default), "a2a3sim" 8 x 2 (what the simulator's captures in data/real
/// were made with), "a5" 36 x 2. False if `name` is none of them. O(1).
bool FindPlatform(std::string_view name, Platform* out);

/// "a2a3, a2a3sim, a5": the preset names, for messages and --help. O(1).
const char* PlatformNames();

/// The chip family of a preset ("a2a3" for a2a3 and a2a3sim, "a5"), "" for explicit counts;
/// checked against the run's `arch`. O(1).
std::string_view PlatformArch(const Platform& platform);

}  // namespace depgraph::orch_runner
