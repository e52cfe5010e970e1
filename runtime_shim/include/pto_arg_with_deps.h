// Convenience layer: CoreTaskArgsWithDeps (may be included before or after the API header).
#ifndef PTO_SHIM_PTO_ARG_WITH_DEPS_H_
#define PTO_SHIM_PTO_ARG_WITH_DEPS_H_

#include "pto_orchestration_api.h"
#include "pto_shim/args_with_deps.h"

#endif  // PTO_SHIM_PTO_ARG_WITH_DEPS_H_
