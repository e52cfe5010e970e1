// Graph Execution (host_build_graph only; orchestration_api.md §2.7), "flatten" form: the
// graph body is called inline, so its submits become ordinary tasks of the enclosing scope.
#pragma once

#include <cstdint>

#include "pto_shim/abi.h"
#include "pto_shim/task_args.h"
#include "pto_shim/types.h"

#if PTO_SHIM_IS_HBG

/// What rt_submit_graph returns (ignored by sources).
struct GraphSubmitResult {
  bool execute_block = true;
  bool recording = false;
  PTO2TaskId task_id = PTO2TaskId::invalid();
  void* recording_handle = nullptr;
};
/// Same shape as GraphSubmitResult.
using GraphScopeResult = GraphSubmitResult;

/// A graph body.
using GraphFunction = void (*)(const GraphTaskArgs&);

namespace pto_shim::detail {

/// `T` in a non-deduced context (std::type_identity before C++20).
template <typename T>
struct NonDeduced {
  using type = T;
};

/// Whether `args` may be a graph boundary (existing tensors only, no explicit deps, no
/// error); otherwise latches a fatal INVALID_ARGS and returns false.
inline bool CheckGraphBoundary(const GraphTaskArgs& args) {
  const char* problem = nullptr;
  if (args.has_error) problem = args.error_msg ? args.error_msg : "invalid boundary arguments";
  for (int32_t i = 0; problem == nullptr && i < args.tensor_count(); ++i) {
    if (args.tag(i) == TensorArgType::OUTPUT) {
      problem = "a graph boundary may not hold OUTPUT create-infos";
    }
  }
  if (problem == nullptr && args.explicit_dep_count() != 0) {
    problem = "a graph boundary may not carry explicit dependencies";
  }
  if (problem == nullptr) return true;
  pto_shim_report_fatal(PTO2_ERROR_INVALID_ARGS, "rt_submit_graph", problem);
  return false;
}

}  // namespace pto_shim::detail

/// Runs graph body `fn` inline on `args` (no task row of its own).
inline GraphSubmitResult rt_submit_graph(GraphFunction fn, const GraphTaskArgs& args) {
  if (!pto_shim_is_fatal() && pto_shim::detail::CheckGraphBoundary(args)) fn(args);
  return GraphSubmitResult{};
}
/// rt_submit_graph with an explicit graph id (unused by the flattened form).
inline GraphSubmitResult rt_submit_graph(uint64_t /*graph_id*/, GraphFunction fn,
                                         const GraphTaskArgs& args) {
  return rt_submit_graph(fn, args);
}
/// rt_submit_graph of a body taking configuration values, passed through to it.
template <typename... Config>
inline GraphSubmitResult rt_submit_graph(void (*fn)(const GraphTaskArgs&, Config...),
                                         const GraphTaskArgs& args,
                                         typename pto_shim::detail::NonDeduced<Config>::type... cfg) {
  if (!pto_shim_is_fatal() && pto_shim::detail::CheckGraphBoundary(args)) fn(args, cfg...);
  return GraphSubmitResult{};
}
/// The configuration form with an explicit graph id.
template <typename... Config>
inline GraphSubmitResult rt_submit_graph(uint64_t /*graph_id*/,
                                         void (*fn)(const GraphTaskArgs&, Config...),
                                         const GraphTaskArgs& args,
                                         typename pto_shim::detail::NonDeduced<Config>::type... cfg) {
  return rt_submit_graph(fn, args, cfg...);
}

#endif  // PTO_SHIM_IS_HBG
