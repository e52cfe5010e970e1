// AutoDeriveTaskDependencies: the entry point, which runs the main walk (spec §2.3-§2.8, the
// Walker of auto_derive_walker.h) over the pre-pass facts of each function, and the debug-log
// names of the fallback reasons.
#include "depgraph_passes/auto_derive_task_dependencies.h"

#include "auto_derive_walker.h"

namespace depgraph::passes {

const char* FallbackReasonName(FallbackReason reason) {
  switch (reason) {
    case FallbackReason::kUnresolvedLocation: return "unresolved_location";
    case FallbackReason::kPriorFromInactiveDynamicLoop: return "prior_from_inactive_dynamic_loop";
    case FallbackReason::kDynamicPriorProducerRequiresScopeLift:
      return "dynamic_prior_producer_requires_scope_lift";
    case FallbackReason::kMissingPriorTaskId: return "missing_prior_task_id";
    case FallbackReason::kPriorNamesNoTask: return "prior_names_no_task";
  }
  return "unknown";
}

void AutoDeriveTaskDependencies(Program* prog, const AutoDeriveOptions& options, AutoDeriveReport* report) {
  AutoDeriveReport local;
  if (!report) report = &local;
  if (!options.analyze_auto_scopes) return;
  for (Function& fn : prog->functions) {
    if (fn.body.empty()) continue;
    auto_derive_detail::Walker(*prog, &fn, options, report).Run();
  }
}

}  // namespace depgraph::passes
