// The a5 spelling (-DPTO_SHIM_A5): set_core_num / core_num instead of set_block_num, and the
// a5 TMRB types guard that sources probe.
#include <gtest/gtest.h>

#include <type_traits>
#include <utility>

#include "shim_test_util.h"

#if !defined(SRC_A5_RUNTIME_TENSORMAP_AND_RINGBUFFER_RUNTIME_PTO_TYPES_H_)
#error "the a5 TMRB guard must be defined for PTO_SHIM_A5"
#endif

namespace shim_test {
namespace {

// The SFINAE probe real sources use: exactly one of the two spellings may exist.
template <typename S>
auto SetCount(S& spec, int16_t n, int) -> decltype(spec.set_core_num(n), 0) {
  spec.set_core_num(n);
  return 1;
}
template <typename S>
auto SetCount(S& spec, int16_t n, long) -> decltype(spec.set_block_num(n), 0) {
  spec.set_block_num(n);
  return 2;
}

class A5 : public ShimFixture {};

TEST_F(A5, CoreNumIsTheOnlySpelling) {
  CoreTaskArgs args;
  EXPECT_EQ(SetCount(args.launch_spec, 3, 0), 1);
  EXPECT_EQ(args.launch_spec.core_num(), 3);
  rt_submit_aiv_task(0, args);
  const nlohmann::json deps = FinishJson();
  EXPECT_EQ(deps["tasks"][0]["block_num"], 3);
}

TEST_F(A5, TmrbOnlyMembersArePresent) {
  TensorCreateInfo ci = CreateInfo({4});
  ci.set_initial_value(1.5f);
  EXPECT_TRUE(ci.has_initial_value);
  DepFlags kinds[1] = {DEP_WAIT};
  CoreTaskArgs empty;
  PTO2TaskId first = rt_submit_aiv_task(0, empty).task_id();
  CoreTaskArgs args;
  args.set_dependencies_with_kinds(&first, kinds, 1);
  EXPECT_EQ(args.explicit_dep_kind(0), DEP_WAIT);
  rt_submit_aiv_task(0, args);
  const nlohmann::json deps = FinishJson();
  EXPECT_EQ(deps["edges"][0]["flags"], nlohmann::json::parse(R"(["wait","retain"])"));
}

}  // namespace
}  // namespace shim_test
