// The host_build_graph flavour (-DPTO_SHIM_HBG): single ring, no `flags`, Graph Execution
// flattened, HBG spellings; byte-exact against the real HBG captures.
#include <gtest/gtest.h>

#include <string>
#include <type_traits>

#include "pto_arg_with_deps.h"
#include "shim_test_util.h"

#if !defined(PTO_SHIM_HBG)
#error "hbg_*_test.cc must be built with PTO_SHIM_HBG"
#endif

namespace shim_test {
namespace {

static_assert(std::is_same_v<TaskSubmitResult, TaskOutputTensors>);
static_assert(PTO_SHIM_IS_HBG == 1 && PTO_SHIM_CORE_NUM_SPELLING == 0);
#if defined(SRC_A5_RUNTIME_TENSORMAP_AND_RINGBUFFER_RUNTIME_PTO_TYPES_H_)
#error "the a5 TMRB guard must not be defined for host_build_graph"
#endif

class Hbg : public ShimFixture {
 protected:
  std::string Submit() {
    CoreTaskArgs args;
    return Id(rt_submit_aiv_task(0, args).task_id().raw);
  }
};

TEST_F(Hbg, SingleRingWhateverTheDepth) {
  std::vector<std::string> ids;
  ids.push_back(Submit());
  PTO2_SCOPE() {
    ids.push_back(Submit());
    PTO2_SCOPE() {
      PTO2_SCOPE() {
        PTO2_SCOPE() { ids.push_back(Submit()); }
      }
    }
    PTO2_SCOPE_GUARD();
    ids.push_back(Submit());
  }
  EXPECT_EQ(ids, (std::vector<std::string>{"(0,0)", "(0,1)", "(0,2)", "(0,3)"}));
}

TEST_F(Hbg, EdgesHaveNoFlagsButTheSameInference) {
  ChipTensor x = External(0x10000, {64});
  TensorCreateInfo ci = CreateInfo({64});
  CoreTaskArgs a;
  a.add_inout(x);
  a.add_output(ci);
  TaskOutputTensors p = rt_submit_aiv_task(0, a);
  const PTO2TaskId dep = p.task_id();
  CoreTaskArgs b;
  b.add_input(x, p.get_ref(0));
  b.set_dependencies(&dep, 1);
  rt_submit_aiv_task(1, b);
  const std::string text = Finish();
  EXPECT_EQ(text.find("flags"), std::string::npos);
  const nlohmann::json deps = nlohmann::json::parse(text);
  EXPECT_EQ(EdgeList(deps),
            (std::vector<std::string>{"(0,0)->(0,1) a-1 exp", "(0,0)->(0,1) a0 tm/cov"}));
}

TEST_F(Hbg, WithDepsAddDep) {
  CoreTaskArgs empty;
  const PTO2TaskId first = rt_submit_aiv_task(0, empty).task_id();
  CoreTaskArgsWithDeps<1> args;
  args.add_dep(first);
  rt_submit_aiv_task(0, args);
  EXPECT_EQ(EdgeList(FinishJson()), (std::vector<std::string>{"(0,0)->(0,1) a-1 exp"}));
}

TEST_F(Hbg, ScalarsAreWritableReferences) {
  CoreTaskArgs args;
  args.add_scalar(uint64_t{5});
  args.scalar(0) = 9;
  const CoreTaskArgs& view = args;
  EXPECT_EQ(view.scalar(0), 9u);
}

// ---- Graph Execution (flattened) ----

void AddOne(const GraphTaskArgs& boundary) {
  ChipTensor t = boundary.tensor(0).ref();
  CoreTaskArgs args;
  args.add_inout(t);
  rt_submit_aiv_task(3, args);
}

void AddN(const GraphTaskArgs& boundary, int n, bool twice) {
  for (int i = 0; i < n * (twice ? 2 : 1); ++i) AddOne(boundary);
}

TEST_F(Hbg, GraphBodiesRunInlineAsOrdinaryTasks) {
  ChipTensor x = External(0x10000, {64});
  GraphTaskArgs boundary;
  boundary.add_inout(x);
  rt_submit_graph(&AddOne, boundary);                        // (0,0)
  rt_submit_graph(uint64_t{7}, &AddOne, boundary);           // (0,1)
  rt_submit_graph(&AddN, boundary, 2, false);                // (0,2), (0,3)
  rt_submit_graph(uint64_t{8}, &AddN, boundary, 1, true);    // (0,4), (0,5)
  rt_submit_graph(+[](const GraphTaskArgs& b) { AddOne(b); }, boundary);  // (0,6)
  ASSERT_FALSE(runtime().fatal()) << runtime().fatal_message();
  const nlohmann::json deps = FinishJson();
  ASSERT_EQ(deps["tasks"].size(), 7u);
  EXPECT_EQ(EdgeList(deps)[5], "(0,5)->(0,6) a0 tm/cov");
}

TEST_F(Hbg, GraphBoundaryWithOutputsIsFatal) {
  TensorCreateInfo ci = CreateInfo({64});
  GraphTaskArgs boundary;
  boundary.add_output(ci);
  bool ran = false;
  static bool* ran_flag = nullptr;
  ran_flag = &ran;
  rt_submit_graph(+[](const GraphTaskArgs&) { *ran_flag = true; }, boundary);
  EXPECT_FALSE(ran);
  EXPECT_TRUE(runtime().fatal());
  EXPECT_NE(runtime().fatal_message().find("graph boundary"), std::string::npos);
}

// ---- Real HBG captures, byte for byte ----

class HbgReal : public ShimFixture {
 protected:
  void StartAt(uint64_t heap_base) {
    ShimConfig config = DefaultConfig();
    config.heap_base = heap_base;
    Start(config);
  }
};

TEST_F(HbgReal, VectorExampleMatchesTheRealCapture) {
  // f = (a + b + 1) * (a + b + 2): c = a + b; d = c + 1; e = c + 2; f = d * e.
  StartAt(140144905565184);
  ChipTensor a = External(846599152, {16384});
  ChipTensor b = External(846406368, {16384});
  ChipTensor f = External(846985648, {16384});
  TensorCreateInfo ci = CreateInfo({16384});
  CoreTaskArgs args0;
  args0.add_input(a, b);
  args0.add_output(ci);
  TaskOutputTensors c = rt_submit_aiv_task(0, args0);
  CoreTaskArgs args1;
  args1.add_input(c.get_ref(0));
  args1.add_output(ci);
  args1.add_scalar(1.0f);
  TaskOutputTensors d = rt_submit_aiv_task(1, args1);
  CoreTaskArgs args2;
  args2.add_input(c.get_ref(0));
  args2.add_output(ci);
  args2.add_scalar(2.0f);
  TaskOutputTensors e = rt_submit_aiv_task(1, args2);
  CoreTaskArgs args3;
  args3.add_input(d.get_ref(0), e.get_ref(0));
  args3.add_output(f);
  rt_submit_aiv_task(2, args3);
  const std::string expected = ReadSourceFile("data/real/hbg_vector_example/default/deps.json");
  ASSERT_FALSE(expected.empty());
  EXPECT_EQ(Finish(), expected);
}

TEST_F(HbgReal, DepGenVectorExampleMatchesTheRealCapture) {
  // The tensormap_and_ringbuffer vector_example run on host_build_graph: one ring.
  StartAt(140320714003456);
  SubmitVectorExample(372077824, 372143488, 372910000);
  const std::string expected =
      ReadSourceFile("data/real/hbg_dep_gen_vector_example/default/deps.json");
  ASSERT_FALSE(expected.empty());
  EXPECT_EQ(Finish(), expected);
}

}  // namespace
}  // namespace shim_test
