// One orchestration run through the shim: entry arguments, config check, outer scope, entry
// call (orchestration_api.md §4.2-§4.3).
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "depgraph_shim/shim_runtime.h"
#include "entry_args.h"
#include "orchestration_library.h"

namespace depgraph::orch_runner {

/// Default symbol names of the entry and config functions.
inline constexpr const char* kDefaultEntry = "aicpu_orchestration_entry";
inline constexpr const char* kDefaultConfig = "aicpu_orchestration_config";

/// The resolved settings of a run (description merged with the command line).
struct RunSettings {
  shim::RuntimeFlavor flavor = shim::RuntimeFlavor::kTensormapRingbuffer;
  uint64_t ring_heap_size = 256ull << 20;  ///< bytes per ring heap
  std::string entry = kDefaultEntry;       ///< entry symbol
  std::string config = kDefaultConfig;     ///< config symbol
  bool config_required = false;  ///< the config name was given explicitly: it must exist
  int32_t available_clusters = 24;  ///< rt_available_cluster_count: the platform's (platform.h)
  int32_t available_aiv = 48;       ///< rt_available_aiv_count: the platform's
};

/// How a run ended.
enum class RunStatus {
  kOk,             ///< the entry returned without a fatal error
  kSetupError,     ///< bad arguments or symbols before the entry ran (message in *err)
  kOrchestration,  ///< the orchestration failed: fatal error, failed assertion, exception
};

/// Builds the entry arguments of `desc` (fresh entry addresses; real host buffers registered
/// for tensors with data), checks the config function (TMRB only, `expected_arg_count` as a
/// lower bound), opens the outer AUTO scope, calls the entry and closes the scope.
/// `*runtime` receives the runtime holding the captured graph (also on failure, for counters).
/// `desc` must outlive `*runtime` (its data buffers back the entry tensors).
/// Cost: that of the orchestration's submits.
RunStatus RunOrchestration(const OrchestrationLibrary& library, RunDescription& desc,
                           const RunSettings& settings,
                           std::unique_ptr<shim::ShimRuntime>* runtime, std::string* err);

}  // namespace depgraph::orch_runner
