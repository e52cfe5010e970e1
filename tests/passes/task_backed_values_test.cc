// TaskBackedVars: which values may name a task at run time (the pass's fallback
// `prior_names_no_task` relies on it).
#include "depgraph_passes/task_backed_values.h"

#include <gtest/gtest.h>

#include <string>

#include "depgraph_passes/depir_parser.h"

namespace depgraph::passes {
namespace {

constexpr const char* kProgram = R"(kernel fill(out t: f32[1, 16]) -> t
kernel mutate(inout x: f32[4, 16]) -> x

orch step(x: f32[4, 16]) {
  y = mutate(x) [inout]
  return y
}

orch main(buf: f32[4, 16], other: f32[4, 16]) {
  same = for i in range(0, 4) iter(same = buf) {
    tile = slice(same, [1, 16], [i, 0])
    _t, tid = submit fill(tile) [oe]
    yield same
  }
  produced = mutate(other) [inout]
  mixed = for j in range(0, 2) iter(mixed = buf) {
    yield produced
  }
  alias = produced
  fresh = create(f32[4, 16])
  done = step(fresh) [inout]
  return done
}
)";

class TaskBackedVarsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string err;
    ASSERT_TRUE(ParseDepir(kProgram, "t.depir", &program_, &err)) << err;
  }
  const Function& Fn(const std::string& name) const { return *program_.FindFunction(name); }
  // Whether the last definition of `name` in `fn` may name a task.
  bool Backed(const std::string& fn, const std::string& name) const {
    const std::vector<uint8_t> backed = TaskBackedVars(program_, Fn(fn));
    for (size_t v = Fn(fn).vars.size(); v-- > 0;) {
      if (Fn(fn).vars[v].name == name) return backed[v] != 0;
    }
    ADD_FAILURE() << "no var " << name << " in " << fn;
    return false;
  }
  Program program_;
};

TEST_F(TaskBackedVarsTest, EntryParametersSlicesAndCreatesNameNoTask) {
  EXPECT_FALSE(Backed("main", "buf"));
  EXPECT_FALSE(Backed("main", "tile"));
  EXPECT_FALSE(Backed("main", "fresh"));
}

TEST_F(TaskBackedVarsTest, LoopsThatOnlyCarryAParameterNameNoTask) {
  EXPECT_FALSE(Backed("main", "same"));  // the loop result and its iter arg: the parameter
}

TEST_F(TaskBackedVarsTest, CallResultsTaskIdsAliasesAndMergesMayNameATask) {
  EXPECT_TRUE(Backed("main", "produced"));
  EXPECT_TRUE(Backed("main", "tid"));
  EXPECT_TRUE(Backed("main", "alias"));
  EXPECT_TRUE(Backed("main", "mixed"));  // the parameter, or a task's result after a trip
  EXPECT_TRUE(Backed("main", "done"));   // a helper's result
}

TEST_F(TaskBackedVarsTest, ACalledHelpersParametersMayNameATask) {
  EXPECT_TRUE(Backed("step", "x"));
}

}  // namespace
}  // namespace depgraph::passes
