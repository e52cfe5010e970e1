// The expectation evaluator can fail: wrong facts about a transformed program are reported
// with the expected and the actual value, and the pass switches behave as specified.
#include <gtest/gtest.h>

#include <string>

#include "depgraph_passes/auto_derive_task_dependencies.h"
#include "depgraph_passes/depir_parser.h"
#include "depgraph_passes/expectation.h"
#include "depgraph_passes/depir_printer.h"
#include "depgraph_passes/materialize_runtime_scopes.h"
#include "depir_examples.h"

namespace depgraph::passes {
namespace {

constexpr const char* kProgram = R"(
kernel fill(out t: f32[64]) -> t
kernel mutate(inout x: f32[64]) -> x
orch main(scratch: f32[64]) hand {
  scope auto {
    produced, producer_tid = submit fill(scratch) [oe]
    out, _ = submit mutate(produced) [inout]
  }
  return out
}
)";

Program Parse(const std::string& text) {
  Program p;
  std::string err;
  EXPECT_TRUE(ParseDepir(text, "t.depir", &p, &err)) << err;
  return p;
}

/// Number of failed facts of `expect_line` on kProgram run with `run_line`.
size_t Failures(const std::string& run_line, const std::string& expect_line, std::string* actual = nullptr) {
  Program p = Parse(std::string(kProgram) + run_line + "\n" + expect_line + "\n");
  CaseRun run = RunCase(p);
  size_t n = 0;
  for (const ExpectDirective& e : p.expects) {
    auto f = EvaluateExpectation(e, run);
    n += f.size();
    if (!f.empty() && actual) *actual = f[0].actual;
  }
  return n;
}

TEST(Expectation, TrueFactsHold) {
  EXPECT_EQ(Failures("run analyze debug",
                     "expect mutate#1 edges=[producer_tid] dirs=[oe] mark submit\n"
                     "expect scope#1 auto nofallback\n"
                     "expect func main no_layer_manual nocandidates\n"
                     "expect mat main \"AUTO{ fill mutate }\"\n"
                     "expect stderr lines=1 \"bucket=applied\" absent=\"bucket=fallback\""),
            0u);
}

TEST(Expectation, WrongFactsFailWithActualValue) {
  std::string actual;
  EXPECT_EQ(Failures("run analyze", "expect mutate#1 edges=[]", &actual), 1u);
  EXPECT_EQ(actual, "[producer_tid@1]");
  EXPECT_EQ(Failures("run analyze", "expect mutate#1 dirs=[inout]", &actual), 1u);
  EXPECT_EQ(actual, "[oe]");
  EXPECT_EQ(Failures("run analyze", "expect mutate#1 nomark early"), 2u);
  EXPECT_EQ(Failures("run analyze", "expect fill#2 nomark"), 1u);
  EXPECT_EQ(Failures("run analyze", "expect scope#1 manual fallback=unresolved_location"), 2u);
  EXPECT_EQ(Failures("run analyze", "expect scope#2 auto"), 1u);
  EXPECT_EQ(Failures("run analyze", "expect func main unchanged layer_manual nofallback"), 3u);
  EXPECT_EQ(Failures("run analyze", "expect mat main \"MANUAL{ fill mutate }\"", &actual), 1u);
  EXPECT_EQ(actual, "AUTO{ fill mutate }");
  EXPECT_EQ(Failures("run analyze", "expect stderr \"bucket=applied\""), 1u);  // no debug flag
  EXPECT_EQ(Failures("run analyze debug", "expect stderr lines=2 absent=\"bucket=applied\""), 2u);
  EXPECT_EQ(Failures("run analyze", "expect mutate#1 edges=[nosuchvar]"), 1u);
}

TEST(AutoDerive, SwitchOffIsNoOp) {
  Program p = Parse(kProgram);
  Program q = p;
  AutoDeriveReport report;
  AutoDeriveTaskDependencies(&q, AutoDeriveOptions{}, &report);
  EXPECT_EQ(p, q);
  EXPECT_TRUE(report.scopes.empty());
  EXPECT_TRUE(report.debug_log.empty());
}

TEST(AutoDerive, DebugLogOnlyWhenAsked) {
  Program p = Parse(kProgram);
  AutoDeriveReport report;
  AutoDeriveTaskDependencies(&p, AutoDeriveOptions{true, false}, &report);
  EXPECT_TRUE(report.debug_log.empty());
  EXPECT_EQ(p.functions[0].body[0].body[1].expr.attrs.arg_directions[0], ArgDir::kOutputExisting);
}

TEST(AutoDerive, EveryConstructUnderEverySwitchStaysPrintable) {
  using namespace testing;
  for (const char* text : {kExampleT62, kExampleT34, kExampleT46, kEverything}) {
    for (bool analyze : {false, true}) {
      Program p = Parse(text);
      AutoDeriveReport report;
      AutoDeriveTaskDependencies(&p, AutoDeriveOptions{analyze, true}, &report);
      MaterializeRuntimeScopes(&p);
      Program back;
      std::string err;
      std::string printed = PrintDepir(p);
      ASSERT_TRUE(ParseDepir(printed, "m.depir", &back, &err)) << err << "\n" << printed;
      EXPECT_EQ(PrintDepir(back), printed);
      for (const Function& fn : p.functions) EXPECT_FALSE(fn.auto_scope) << fn.name;
    }
  }
}

TEST(AutoDerive, ReasonNames) {
  EXPECT_STREQ(FallbackReasonName(FallbackReason::kUnresolvedLocation), "unresolved_location");
  EXPECT_STREQ(FallbackReasonName(FallbackReason::kPriorFromInactiveDynamicLoop), "prior_from_inactive_dynamic_loop");
  EXPECT_STREQ(FallbackReasonName(FallbackReason::kDynamicPriorProducerRequiresScopeLift),
               "dynamic_prior_producer_requires_scope_lift");
  EXPECT_STREQ(FallbackReasonName(FallbackReason::kMissingPriorTaskId), "missing_prior_task_id");
}

}  // namespace
}  // namespace depgraph::passes
