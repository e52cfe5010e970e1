// The orchestration API of the "simpler" accelerator runtime, host-shim edition: real
// orchestration sources compile against this header unchanged; their submits run the
// runtime's dependency inference in libpto_shim and are written as deps.json.
// Flavours: see pto_shim/config.h (default a2a3 tensormap_and_ringbuffer, PTO_SHIM_A5,
// PTO_SHIM_HBG).
#ifndef PTO_SHIM_PTO_ORCHESTRATION_API_H_
#define PTO_SHIM_PTO_ORCHESTRATION_API_H_

// Sources rely on these arriving through the API header (orchestration_api.md §2.1).
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>
#if defined(PTO_SHIM_HBG)
#include <condition_variable>
#include <functional>
#include <limits>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <tuple>
#include <unordered_map>
#endif

#include "pto_shim/config.h"
#include "pto_shim/types.h"
#include "pto_shim/abi.h"
#include "pto_shim/logging.h"
#include "pto_shim/chip_tensor.h"
#include "pto_shim/create_info.h"
#include "pto_shim/task_args.h"
#include "pto_shim/submit.h"
#include "pto_shim/scope.h"
#include "pto_shim/tensor_data.h"
#include "pto_shim/graph_execution.h"

#endif  // PTO_SHIM_PTO_ORCHESTRATION_API_H_

// The convenience layer is always reachable through the API header (outside the guard, so
// that including pto_arg_with_deps.h first still works).
#include "pto_arg_with_deps.h"
