// The fan-in rules of runtime.md §4: step order, dedup of explicit and creator edges only,
// per-direction behaviour, manual_dep, MANUAL scopes.
#include <gtest/gtest.h>

#include "shim_test_util.h"

namespace shim_test {
namespace {

constexpr uint64_t kX = 0x10000;  // f32[64,64]
constexpr uint64_t kZ = 0x30000;  // f32[4096]

class FanIn : public ShimFixture {
 protected:
  ChipTensor x_ = External(kX, {64, 64});
  ChipTensor z_ = External(kZ, {4096});
  TensorCreateInfo ci_ = CreateInfo({256});

  // A task writing x_ (INOUT) and producing one output; returns its outputs.
  TaskOutputTensors Producer() {
    CoreTaskArgs args;
    args.add_inout(x_);
    args.add_output(ci_);
    return rt_submit_aiv_task(0, args);
  }
};

TEST_F(FanIn, ExplicitDepsAreDeduplicatedInOrder) {
  Producer();  // (0,0)
  Producer();  // (0,1)
  PTO2TaskId deps[4] = {PTO2TaskId::make(0, 1), PTO2TaskId::make(0, 0), PTO2TaskId::make(0, 1),
                        PTO2TaskId::invalid()};
  CoreTaskArgs args;
  args.set_dependencies(deps, 4);  // the invalid id is skipped
  rt_submit_dummy_task(args);
  EXPECT_EQ(EdgeList(FinishJson()),
            (std::vector<std::string>{"(0,0)->(0,1) a0 tm/cov", "(0,1)->(0,2) a-1 exp",
                                      "(0,0)->(0,2) a-1 exp"}));
}

TEST_F(FanIn, CreatorSuppressedByEarlierExplicitButTensormapNever) {
  TaskOutputTensors p = Producer();  // (0,0): x_ entry, output w
  const PTO2TaskId dep = p.task_id();
  CoreTaskArgs args;
  args.add_input(p.get_ref(0), x_);  // creator (0,0) suppressed; tensormap (0,0) kept
  args.set_dependencies(&dep, 1);
  rt_submit_aiv_task(1, args);
  EXPECT_EQ(EdgeList(FinishJson()),
            (std::vector<std::string>{"(0,0)->(0,1) a-1 exp", "(0,0)->(0,1) a1 tm/cov"}));
}

TEST_F(FanIn, CreatorSuppressedByEarlierTensormapHit) {
  TaskOutputTensors p = Producer();  // (0,0)
  CoreTaskArgs args;
  args.add_input(x_, p.get_ref(0), p.get_ref(0));  // tm hit, then the owner is already seen
  rt_submit_aiv_task(1, args);
  EXPECT_EQ(EdgeList(FinishJson()), (std::vector<std::string>{"(0,0)->(0,1) a0 tm/cov"}));
}

TEST_F(FanIn, TensormapHitsAreWrittenForEveryArgument) {
  Producer();  // (0,0)
  ChipTensor top = View(x_, {32, 64}, {0, 0});
  ChipTensor bottom = View(x_, {32, 64}, {32, 0});
  CoreTaskArgs args;
  args.add_input(top, bottom, x_);
  rt_submit_aiv_task(1, args);
  EXPECT_EQ(EdgeList(FinishJson()),
            (std::vector<std::string>{"(0,0)->(0,1) a0 tm/oth", "(0,0)->(0,1) a1 tm/oth",
                                      "(0,0)->(0,1) a2 tm/cov"}));
}

TEST_F(FanIn, RowsAreExplicitThenPerArgumentCreatorBeforeTensormap) {
  TaskOutputTensors a = Producer();                // (0,0): writes x_, output wa
  TaskOutputTensors b = Producer();                // (0,1): covers (0,0)'s entry, output wb
  CoreTaskArgs writer;                             // (0,2): writes wa (owner (0,0))
  writer.add_inout(a.get_ref(0));
  rt_submit_aiv_task(2, writer);
  const PTO2TaskId dep = b.task_id();
  CoreTaskArgs args;                               // (0,3)
  args.add_input(x_, a.get_ref(0));
  args.set_dependencies(&dep, 1);
  rt_submit_aiv_task(3, args);
  EXPECT_EQ(EdgeList(FinishJson()),
            (std::vector<std::string>{
                "(0,0)->(0,1) a0 tm/cov",  // (0,1) INOUT x_ covers (0,0)
                "(0,0)->(0,2) a0 cre",     // (0,2) reads wa
                "(0,1)->(0,3) a-1 exp",    // explicit first
                "(0,1)->(0,3) a0 tm/cov",  // arg 0: no owner, tensormap
                "(0,0)->(0,3) a1 cre",     // arg 1: creator, then its tensormap hit
                "(0,2)->(0,3) a1 tm/cov",
            }));
}

TEST_F(FanIn, RemovalIsVisibleToLaterArgumentsButOwnPublicationsAreNot) {
  Producer();  // (0,0) publishes x_
  CoreTaskArgs args;
  args.add_inout(x_);  // covers and removes (0,0)'s entry
  args.add_input(x_);  // sees nothing: the entry is gone and (0,1) publishes only afterwards
  rt_submit_aiv_task(1, args);
  EXPECT_EQ(EdgeList(FinishJson()), (std::vector<std::string>{"(0,0)->(0,1) a0 tm/cov"}));
}

TEST_F(FanIn, OutputsAreNeverPublished) {
  TaskOutputTensors p = Producer();  // output w
  CoreTaskArgs args;
  args.add_input(p.get_ref(0));
  rt_submit_aiv_task(1, args);
  EXPECT_EQ(EdgeList(FinishJson()), (std::vector<std::string>{"(0,0)->(0,1) a0 cre"}));
}

TEST_F(FanIn, ManualDepViewsGetCreatorOnly) {
  TaskOutputTensors p = Producer();  // (0,0)
  ChipTensor x_manual = View(x_, {64, 64}, {0, 0}, true);
  ChipTensor w_manual = View(p.get_ref(0), {128}, {64}, true);
  CoreTaskArgs args;
  args.add_inout(x_manual, w_manual);  // no lookup, no publish; creator for w
  rt_submit_aiv_task(1, args);
  CoreTaskArgs reader;
  reader.add_input(x_);  // still sees (0,0)'s entry only
  rt_submit_aiv_task(2, reader);
  EXPECT_EQ(EdgeList(FinishJson()),
            (std::vector<std::string>{"(0,0)->(0,1) a1 cre", "(0,0)->(0,2) a0 tm/cov"}));
}

TEST_F(FanIn, ManualDepCreateInfoIsInheritedByTheOutput) {
  TensorCreateInfo manual_ci = CreateInfo({64}, DataType::FLOAT32, true);
  CoreTaskArgs args;
  args.add_output(manual_ci);
  TaskOutputTensors p = rt_submit_aiv_task(0, args);
  EXPECT_TRUE(p.get_ref(0).manual_dep);
  CoreTaskArgs writer;
  writer.add_inout(p.get_ref(0));  // creator only, not published
  rt_submit_aiv_task(1, writer);
  CoreTaskArgs reader;
  reader.add_input(p.get_ref(0));
  rt_submit_aiv_task(2, reader);
  EXPECT_EQ(EdgeList(FinishJson()),
            (std::vector<std::string>{"(0,0)->(0,1) a0 cre", "(0,0)->(0,2) a0 cre"}));
}

TEST_F(FanIn, NoDepGetsCreatorOnlyAndPrintsUnknown) {
  TaskOutputTensors p = Producer();  // (0,0)
  CoreTaskArgs args;
  args.add_no_dep(x_, p.get_ref(0));  // no lookup on x_, creator for w, nothing published
  rt_submit_aiv_task(1, args);
  CoreTaskArgs reader;
  reader.add_input(x_);
  rt_submit_aiv_task(2, reader);
  const nlohmann::json deps = FinishJson();
  EXPECT_EQ(EdgeList(deps),
            (std::vector<std::string>{"(0,0)->(0,1) a1 cre", "(0,0)->(0,2) a0 tm/cov"}));
  EXPECT_EQ(deps["tasks"][1]["args"][0]["type"], "UNKNOWN");
  EXPECT_EQ(deps["tasks"][1]["args"][1]["type"], "UNKNOWN");
}

TEST_F(FanIn, OutputExistingGetsCreatorAndPublishesWithoutLookup) {
  TaskOutputTensors p = Producer();  // (0,0)
  CoreTaskArgs args;
  args.add_output(x_);               // no lookup: no edge from (0,0)
  rt_submit_aiv_task(1, args);
  CoreTaskArgs overwrite;
  overwrite.add_output(p.get_ref(0));  // creator edge
  rt_submit_aiv_task(2, overwrite);
  CoreTaskArgs reader;
  reader.add_input(x_, p.get_ref(0));  // both x_ entries remain; w published by (0,2)
  rt_submit_aiv_task(3, reader);
  EXPECT_EQ(EdgeList(FinishJson()),
            (std::vector<std::string>{"(0,0)->(0,2) a0 cre", "(0,1)->(0,3) a0 tm/cov",
                                      "(0,0)->(0,3) a0 tm/cov", "(0,2)->(0,3) a1 tm/cov"}));
}

TEST_F(FanIn, ManualScopeKeepsOnlyExplicitEdges) {
  TaskOutputTensors p = Producer();  // (0,0)
  PTO2_SCOPE(PTO2ScopeMode::MANUAL) {
    const PTO2TaskId dep = p.task_id();
    CoreTaskArgs args;  // (1,0): no creator, no lookup, no publish
    args.add_input(p.get_ref(0));
    args.add_inout(x_);
    args.set_dependencies(&dep, 1);
    rt_submit_aiv_task(1, args);
    CoreTaskArgs plain;  // (1,1): nothing at all
    plain.add_input(p.get_ref(0), x_);
    rt_submit_aiv_task(1, plain);
  }
  CoreTaskArgs reader;  // (0,1): sees (0,0)'s entry, not (1,0)'s write
  reader.add_input(x_);
  rt_submit_aiv_task(2, reader);
  const nlohmann::json deps = FinishJson();
  EXPECT_EQ(EdgeList(deps),
            (std::vector<std::string>{"(0,0)->(1,0) a-1 exp", "(0,0)->(0,1) a0 tm/cov"}));
  EXPECT_EQ(deps["tasks"][1]["scope"], "manual");
  EXPECT_EQ(deps["tasks"][3]["scope"], "auto");
}

TEST_F(FanIn, ExplicitEdgesCarryNoTensorKeysAndCreatorFlagsDiffer) {
  TaskOutputTensors p = Producer();
  const PTO2TaskId dep = p.task_id();
  CoreTaskArgs args;
  args.add_input(x_);
  args.set_dependencies(&dep, 1);
  rt_submit_aiv_task(1, args);
  const nlohmann::json deps = FinishJson();
  const auto& e = deps["edges"];
  ASSERT_EQ(e.size(), 2u);
  EXPECT_EQ(e[0].dump(), R"({"arg":-1,"flags":["wait","retain"],"pred":"0","source":"explicit","succ":"1"})");
  EXPECT_EQ(e[1]["flags"], nlohmann::json::parse(R"(["wait"])"));
  EXPECT_TRUE(e[1].contains("producer_shape"));
}

}  // namespace
}  // namespace shim_test
