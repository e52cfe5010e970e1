// The dep_probe orchestration of runtime.md §8b and the vector_example of §8, run through the
// API with the real run's addresses, checked edge by edge and byte for byte against the real
// captures in data/real.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "pto_arg_with_deps.h"
#include "shim_test_util.h"

namespace shim_test {
namespace {

// Addresses of the real dep_probe run (data/real/dep_probe/default/deps.json).
constexpr uint64_t kProbeX = 544321456;
constexpr uint64_t kProbeY = 544337840;
constexpr uint64_t kProbeZ = 544354224;
constexpr uint64_t kProbeHeap = 140075727844352;

// One task on kernel aiv0 = 0 with `args`.
PTO2TaskId Aiv(const CoreTaskArgs& args) { return rt_submit_aiv_task(0, args).task_id(); }

// The probe orchestration, as described in runtime.md §8b.
void ProbeOrchestration() {
  ChipTensor x = External(kProbeX, {64, 64});
  ChipTensor y = External(kProbeY, {64, 64});
  ChipTensor z = External(kProbeZ, {4096});
  const PTO2TaskId t0 = PTO2TaskId::make(0, 0);
  const PTO2TaskId t1 = PTO2TaskId::make(0, 1);
  const PTO2TaskId t3 = PTO2TaskId::make(0, 3);
  const PTO2TaskId t11 = PTO2TaskId::make(0, 11);
  {  // (0,0) INOUT X rows 0..31
    ChipTensor v = View(x, {32, 64}, {0, 0});
    CoreTaskArgs a;
    a.add_inout(v);
    Aiv(a);
  }
  {  // (0,1) INOUT X rows 32..63
    ChipTensor v = View(x, {32, 64}, {32, 0});
    CoreTaskArgs a;
    a.add_inout(v);
    Aiv(a);
  }
  {  // (0,2) INPUT X
    CoreTaskArgs a;
    a.add_input(x);
    Aiv(a);
  }
  {  // (0,3) INOUT X
    CoreTaskArgs a;
    a.add_inout(x);
    Aiv(a);
  }
  {  // (0,4) INPUT X rows 8..23
    ChipTensor v = View(x, {16, 64}, {8, 0});
    CoreTaskArgs a;
    a.add_input(v);
    Aiv(a);
  }
  {  // (0,5) INOUT Y cols 0..31
    ChipTensor v = View(y, {64, 32}, {0, 0});
    CoreTaskArgs a;
    a.add_inout(v);
    Aiv(a);
  }
  {  // (0,6) INPUT Y cols 32..63
    ChipTensor v = View(y, {64, 32}, {0, 32});
    CoreTaskArgs a;
    a.add_input(v);
    Aiv(a);
  }
  {  // (0,7) INPUT Y transposed
    ChipTensor v = y.transpose(0, 1);
    CoreTaskArgs a;
    a.add_input(v);
    Aiv(a);
  }
  {  // (0,8) INOUT Z even elements
    ChipTensor v = z.slice(0, 0, 4096, 2);
    CoreTaskArgs a;
    a.add_inout(v);
    Aiv(a);
  }
  {  // (0,9) INPUT Z odd elements
    ChipTensor v = z.slice(0, 1, 4096, 2);
    CoreTaskArgs a;
    a.add_input(v);
    Aiv(a);
  }
  {  // (0,10) NO_DEP X
    CoreTaskArgs a;
    a.add_no_dep(x);
    Aiv(a);
  }
  TensorCreateInfo w_ci = CreateInfo({256});
  CoreTaskArgs w_args;  // (0,11) OUTPUT w
  w_args.add_output(w_ci);
  TaskOutputTensors w_out = rt_submit_aiv_task(0, w_args);
  const ChipTensor& w = w_out.get_ref(0);
  {  // (0,12) NO_DEP w
    CoreTaskArgs a;
    a.add_no_dep(w);
    Aiv(a);
  }
  {  // (0,13) INPUT w[64..192) with manual_dep
    ChipTensor v = View(w, {128}, {64}, true);
    CoreTaskArgs a;
    a.add_input(v);
    Aiv(a);
  }
  {  // (0,14) INPUT w, INPUT X, explicit [(0,11), (0,11), (0,3)]
    PTO2TaskId deps[3] = {t11, t11, t3};
    CoreTaskArgs a;
    a.add_input(w, x);
    a.set_dependencies(deps, 3);
    Aiv(a);
  }
  {  // (0,15) OUTPUT_EXISTING Z
    CoreTaskArgs a;
    a.add_output(z);
    Aiv(a);
  }
  {  // (0,16) INPUT Z
    CoreTaskArgs a;
    a.add_input(z);
    Aiv(a);
  }
  {  // (0,17) INPUT version-1 alias of Y, cols 32..63
    uint32_t shapes[2] = {64, 64};
    ChipTensor y1 = make_tensor_external(reinterpret_cast<void*>(kProbeY), shapes, 2,
                                         DataType::FLOAT32, false, 1);
    ChipTensor v = View(y1, {64, 32}, {0, 32});
    CoreTaskArgs a;
    a.add_input(v);
    Aiv(a);
  }
  {  // (0,18) INPUT X reinterpreted as INT32[4096]
    uint32_t shapes[1] = {4096};
    ChipTensor xi = make_tensor_external(reinterpret_cast<void*>(kProbeX), shapes, 1,
                                         DataType::INT32);
    CoreTaskArgs a;
    a.add_input(xi);
    Aiv(a);
  }
  {  // (0,19) no tensors; add_dep_wait((0,0)), add_dep((0,1))
    CoreTaskArgsWithDeps<> a;
    a.add_dep_wait(t0);
    a.add_dep(t1);
    rt_submit_aiv_task(0, a);
  }
  {  // (0,20) dummy task, explicit [(0,3)]
    CoreTaskArgs a;
    a.set_dependencies(&t3, 1);
    rt_submit_dummy_task(a);
  }
  PTO2_SCOPE() {  // ring 1
    TensorCreateInfo buf_ci = CreateInfo({64});
    TaskOutputTensors buf_out = alloc_tensors(buf_ci);  // (1,0)
    const ChipTensor& buf = buf_out.get_ref(0);
    {  // (1,1) INOUT buf
      CoreTaskArgs a;
      a.add_inout(buf);
      Aiv(a);
    }
    PTO2_SCOPE() {  // ring 2
      ChipTensor v = View(x, {32, 64}, {0, 0});
      CoreTaskArgs a;  // (2,0)
      a.add_input(buf);
      a.add_inout(v);
      Aiv(a);
      PTO2_SCOPE() {  // ring 3
        CoreTaskArgs b;  // (3,0)
        b.add_input(buf);
        Aiv(b);
        PTO2_SCOPE(PTO2ScopeMode::MANUAL) {  // depth 4 -> ring 3
          PTO2TaskId dep = buf_out.task_id();
          CoreTaskArgs c;  // (3,1)
          c.add_input(buf);
          c.add_inout(x);
          c.set_dependencies(&dep, 1);
          Aiv(c);
        }
      }
    }
    CoreTaskArgs d;  // (1,2) INPUT X
    d.add_input(x);
    Aiv(d);
  }
  {  // (0,21) INPUT Z, block_num 4, early resolve
    CoreTaskArgs a;
    a.add_input(z);
    a.launch_spec.set_block_num(4);
    a.set_allow_early_resolve(true);
    Aiv(a);
  }
  {  // (0,22) INPUT Y on {aic 1, aiv0 0, aiv1 0}
    MixedKernels k;
    k.aic_kernel_id = 1;
    k.aiv0_kernel_id = 0;
    k.aiv1_kernel_id = 0;
    CoreTaskArgs a;
    a.add_input(y);
    rt_submit_task(k, a);
  }
  {  // (0,23) INPUT Y on aiv1 only
    MixedKernels k;
    k.aiv1_kernel_id = 0;
    CoreTaskArgs a;
    a.add_input(y);
    rt_submit_task(k, a);
  }
}

class DepProbe : public ShimFixture {
 protected:
  void SetUp() override {
    ShimConfig config = DefaultConfig();
    config.heap_base = kProbeHeap;
    Start(config);
  }
};

TEST_F(DepProbe, EdgeListInFileOrder) {
  ProbeOrchestration();
  ASSERT_FALSE(runtime().fatal()) << runtime().fatal_message();
  const nlohmann::json deps = FinishJson();
  const std::vector<std::string> expected = {
      "(0,1)->(0,2) a0 tm/cov",   "(0,0)->(0,2) a0 tm/cov",   "(0,1)->(0,3) a0 tm/cov",
      "(0,0)->(0,3) a0 tm/cov",   "(0,3)->(0,4) a0 tm/oth",   "(0,5)->(0,7) a0 tm/oth",
      "(0,8)->(0,9) a0 tm/oth",   "(0,11)->(0,12) a0 cre",    "(0,11)->(0,13) a0 cre",
      "(0,11)->(0,14) a-1 exp",   "(0,3)->(0,14) a-1 exp",    "(0,3)->(0,14) a1 tm/cov",
      "(0,15)->(0,16) a0 tm/cov", "(0,8)->(0,16) a0 tm/oth",  "(0,5)->(0,17) a0 tm/oth",
      "(0,3)->(0,18) a0 tm/oth",  "(0,0)->(0,19) a-1 exp",    "(0,1)->(0,19) a-1 exp",
      "(0,3)->(0,20) a-1 exp",    "(1,0)->(1,1) a0 cre",      "(1,0)->(2,0) a0 cre",
      "(1,1)->(2,0) a0 tm/cov",   "(0,3)->(2,0) a1 tm/oth",   "(1,0)->(3,0) a0 cre",
      "(1,1)->(3,0) a0 tm/cov",   "(1,0)->(3,1) a-1 exp",     "(2,0)->(1,2) a0 tm/cov",
      "(0,3)->(1,2) a0 tm/cov",   "(0,15)->(0,21) a0 tm/cov", "(0,8)->(0,21) a0 tm/oth",
      "(0,5)->(0,22) a0 tm/cov",  "(0,5)->(0,23) a0 tm/cov",
  };
  EXPECT_EQ(EdgeList(deps), expected);
}

TEST_F(DepProbe, TasksTensorsAndRecordedFields) {
  ProbeOrchestration();
  const nlohmann::json deps = FinishJson();
  std::vector<std::string> tasks;
  for (int i = 0; i <= 20; ++i) tasks.push_back("(0," + std::to_string(i) + ")");
  for (const char* id : {"(1,1)", "(2,0)", "(3,0)", "(3,1)", "(1,2)", "(0,21)", "(0,22)",
                         "(0,23)"}) {
    tasks.push_back(id);
  }
  EXPECT_EQ(TaskList(deps), tasks);  // (1,0) is the alloc: absent
  EXPECT_EQ(deps["tensors"].size(), 6u);
  const auto& t = deps["tasks"];
  EXPECT_EQ(t[10]["args"][0]["type"], "UNKNOWN");
  EXPECT_EQ(t[12]["args"][0]["type"], "UNKNOWN");
  EXPECT_EQ(t[20]["kernel_ids"], nlohmann::json::parse("[-1,-1,-1]"));
  EXPECT_EQ(t[24]["scope"], "manual");
  EXPECT_EQ(t[26]["early_dispatch"], true);
  EXPECT_EQ(t[26]["block_num"], 4);
  EXPECT_EQ(t[27]["kernel_ids"], nlohmann::json::parse("[1,0,0]"));
  EXPECT_EQ(t[28]["kernel_ids"], nlohmann::json::parse("[-1,0,-1]"));
  // (0,18)'s INT32 view shares X's tensor id; the version-1 alias has its own.
  EXPECT_EQ(t[18]["args"][0]["tensor_id"], t[2]["args"][0]["tensor_id"]);
  EXPECT_NE(t[17]["args"][0]["tensor_id"], t[6]["args"][0]["tensor_id"]);
}

TEST_F(DepProbe, ByteIdenticalToRealCapture) {
  ProbeOrchestration();
  const std::string expected = ReadSourceFile("data/real/dep_probe/default/deps.json");
  ASSERT_FALSE(expected.empty());
  EXPECT_EQ(Finish(), expected);
}

// runtime.md §8: the vector_example with the real run's addresses.
class VectorExample : public ShimFixture {
 protected:
  void SetUp() override {
    ShimConfig config = DefaultConfig();
    config.heap_base = 140718429434880;
    Start(config);
  }
};

TEST_F(VectorExample, ByteIdenticalToRealCapture) {
  SubmitVectorExample(986038112, 986103648, 986169184);
  const std::string expected = ReadSourceFile("data/real/vector_example/default/deps.json");
  ASSERT_FALSE(expected.empty());
  EXPECT_EQ(Finish(), expected);
}

}  // namespace
}  // namespace shim_test
