// runner_probe: a tiny orchestration for the runner's own tests (tests/orchestrations).
// Entry: any tensors, then scalar 0 = mode:
//   0  one INOUT task per entry tensor (aiv 0)
//   1  rt_report_fatal with a recognisable message
//   2  a failed always_assert (throws after latching the fatal error)
//   3  one dummy task per available AIC cluster (rt_available_cluster_count)
//   4  one dummy task per available AIV core (rt_available_aiv_count)
// The config function asks for at least 2 entry arguments; probe_alt_entry submits one dummy
// task (for --entry).
#include <stdint.h>

#include "pto_orchestration_api.h"

extern "C" {

__attribute__((visibility("default"))) PTO2OrchestrationConfig aicpu_orchestration_config(
    const ChipTaskArgs& orch_args) {
  (void)orch_args;
  return PTO2OrchestrationConfig{.expected_arg_count = 2};
}

__attribute__((visibility("default"))) void aicpu_orchestration_entry(
    const ChipTaskArgs& orch_args) {
  const uint64_t mode = orch_args.scalar_count() > 0 ? orch_args.scalar(0) : 0;
  if (mode == 1) {
    rt_report_fatal(PTO2_ERROR_INVALID_ARGS, "runner_probe: requested failure %d", 42);
    return;
  }
  if (mode == 2) {
    always_assert(mode == 0);
  }
  if (mode == 3 || mode == 4) {
    const int32_t count = mode == 3 ? rt_available_cluster_count() : rt_available_aiv_count();
    for (int32_t i = 0; i < count; ++i) {
      CoreTaskArgs args;
      rt_submit_dummy_task(args);
    }
    return;
  }
  for (int32_t i = 0; i < orch_args.tensor_count(); ++i) {
    CoreTaskArgs args;
    args.add_inout(orch_args.tensor(i).ref());
    rt_submit_aiv_task(0, args);
  }
}

__attribute__((visibility("default"))) void probe_alt_entry(const ChipTaskArgs& orch_args) {
  (void)orch_args;
  CoreTaskArgs args;
  rt_submit_dummy_task(args);
}

}  // extern "C"
