// Scopes, rings and task ids (runtime.md §2.1-§2.2, §3): ring = min(depth, 3), per-ring
// counters, MANUAL nesting rules, the scope forms of the API.
#include <gtest/gtest.h>

#include <string>

#include "shim_test_util.h"

namespace shim_test {
namespace {

class Scopes : public ShimFixture {
 protected:
  std::string Submit() {
    CoreTaskArgs args;
    return Id(rt_submit_aiv_task(0, args).task_id().raw);
  }
};

TEST_F(Scopes, RingFollowsDepthUpToThree) {
  std::vector<std::string> ids;
  ids.push_back(Submit());  // depth 0
  PTO2_SCOPE() {
    ids.push_back(Submit());  // depth 1
    PTO2_SCOPE() {
      ids.push_back(Submit());  // depth 2
      PTO2_SCOPE() {
        ids.push_back(Submit());  // depth 3
        PTO2_SCOPE() {
          ids.push_back(Submit());  // depth 4 -> ring 3
          PTO2_SCOPE() { ids.push_back(Submit()); }  // depth 5 -> ring 3
        }
        ids.push_back(Submit());
      }
    }
    ids.push_back(Submit());  // back at depth 1
  }
  ids.push_back(Submit());
  EXPECT_EQ(ids, (std::vector<std::string>{"(0,0)", "(1,0)", "(2,0)", "(3,0)", "(3,1)", "(3,2)",
                                           "(3,3)", "(1,1)", "(0,1)"}));
  // tasks[] interleaves rings in submit order.
  EXPECT_EQ(TaskList(FinishJson()), ids);
}

TEST_F(Scopes, ClosingAScopeCreatesNoEdgesAndKeepsCounters) {
  for (int i = 0; i < 3; ++i) {
    PTO2_SCOPE() { Submit(); }
  }
  const nlohmann::json deps = FinishJson();
  EXPECT_EQ(TaskList(deps), (std::vector<std::string>{"(1,0)", "(1,1)", "(1,2)"}));
  EXPECT_TRUE(deps["edges"].empty());
}

TEST_F(Scopes, ManualInsideManualIsAllowed) {
  PTO2_SCOPE(PTO2ScopeMode::MANUAL) {
    Submit();
    PTO2_SCOPE(PTO2ScopeMode::MANUAL) { Submit(); }
    Submit();
  }
  Submit();
  ASSERT_FALSE(runtime().fatal()) << runtime().fatal_message();
  const nlohmann::json deps = FinishJson();
  EXPECT_EQ(TaskList(deps), (std::vector<std::string>{"(1,0)", "(2,0)", "(1,1)", "(0,0)"}));
  EXPECT_EQ(deps["tasks"][0]["scope"], "manual");
  EXPECT_EQ(deps["tasks"][1]["scope"], "manual");
  EXPECT_EQ(deps["tasks"][2]["scope"], "manual");
  EXPECT_EQ(deps["tasks"][3]["scope"], "auto");
}

TEST_F(Scopes, AutoInsideManualIsAFatalErrorNamingThePlace) {
  std::string before;
  std::string after = "unset";
  int line = 0;
  PTO2_SCOPE(PTO2ScopeMode::MANUAL) {
    before = Submit();
    line = __LINE__ + 1;
    PTO2_SCOPE() { after = Submit(); }
  }
  EXPECT_EQ(before, "(1,0)");
  EXPECT_TRUE(runtime().fatal());
  EXPECT_TRUE(rt_is_fatal());
  const std::string& message = runtime().fatal_message();
  EXPECT_NE(message.find("AUTO scope opened inside a MANUAL scope"), std::string::npos) << message;
  EXPECT_NE(message.find(std::string("scope_test.cc:") + std::to_string(line)), std::string::npos)
      << message;
  EXPECT_EQ(runtime().fatal_code(), PTO2_ERROR_INVALID_ARGS);
  // Every later call is a no-op returning defaults.
  EXPECT_EQ(after, Id(PTO2TaskId::invalid().raw));
  EXPECT_EQ(runtime().task_count(), 1u);
}

TEST_F(Scopes, BracketAndGuardForms) {
  rt_scope_begin();
  Submit();  // (1,0)
  rt_scope_begin(PTO2ScopeMode::MANUAL);
  Submit();  // (2,0) manual
  rt_scope_end();
  rt_scope_end();
  for (int i = 0; i < 2; ++i) {
    PTO2_SCOPE_GUARD();
    Submit();  // (1,1), (1,2)
  }
  {
    PTO2_SCOPE_GUARD(PTO2ScopeMode::MANUAL);
    Submit();  // (1,3) manual
  }
  const nlohmann::json deps = FinishJson();
  EXPECT_EQ(TaskList(deps),
            (std::vector<std::string>{"(1,0)", "(2,0)", "(1,1)", "(1,2)", "(1,3)"}));
  EXPECT_EQ(deps["tasks"][1]["scope"], "manual");
  EXPECT_EQ(deps["tasks"][4]["scope"], "manual");
}

TEST_F(Scopes, ScopeEndWithoutScopeIsFatal) {
  rt_scope_end();  // closes the outer scope
  EXPECT_FALSE(runtime().fatal());
  rt_scope_end();
  EXPECT_TRUE(runtime().fatal());
  EXPECT_NE(runtime().fatal_message().find("no scope is open"), std::string::npos);
}

TEST_F(Scopes, SubmitOutsideAnyScopeIsFatal) {
  runtime().EndScope();
  CoreTaskArgs args;
  EXPECT_TRUE(rt_submit_aiv_task(0, args).task_id().is_invalid());
  EXPECT_TRUE(runtime().fatal());
  EXPECT_NE(runtime().fatal_message().find("outside any scope"), std::string::npos);
}

TEST_F(Scopes, OutputsLiveUntilTheirScopeCloses) {
  TensorCreateInfo ci = CreateInfo({16});
  const ChipTensor* inner = nullptr;
  PTO2_SCOPE() {
    CoreTaskArgs args;
    args.add_output(ci);
    TaskOutputTensors out = rt_submit_aiv_task(0, args);
    inner = &out.get_ref(0);
    EXPECT_EQ(inner->owner_task_id, out.task_id());
  }
  // The next scope's outputs reuse the released storage.
  PTO2_SCOPE() {
    CoreTaskArgs args;
    args.add_output(ci);
    TaskOutputTensors out = rt_submit_aiv_task(0, args);
    EXPECT_EQ(&out.get_ref(0), inner);
  }
}

}  // namespace
}  // namespace shim_test
