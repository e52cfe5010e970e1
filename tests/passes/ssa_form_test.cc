// ConvertToSsa: every plain read denotes the definition that holds the name at run time.
#include "depgraph_passes/ssa_form.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "depgraph_passes/depir_parser.h"
#include "depgraph_passes/depir_printer.h"

namespace depgraph::passes {
namespace {

constexpr const char* kKernels =
    "kernel fill(out t: f32[64]) -> t\n"
    "kernel consume(in x: f32[64]) -> x\n";

/// Parses kKernels + `orch`, converts it, and returns the printed function.
std::string Convert(const std::string& orch, SsaReport* report = nullptr) {
  Program p;
  std::string err;
  EXPECT_TRUE(ParseDepir(std::string(kKernels) + orch, "t", &p, &err)) << err;
  const SsaReport r = ConvertToSsa(&p);
  if (report) *report = r;
  return PrintFunction(p.functions[0]);
}

// A read in a loop body of a name the body reassigns later sees the previous iteration's
// value: the name becomes an iter arg, yielded at the end of the body, and the loop's result.
TEST(SsaForm, PatternBReadBecomesALoopCarriedValue) {
  SsaReport report;
  EXPECT_EQ(Convert("orch main(seed: f32[64], work: f32[64]) {\n"
                    "  latest = fill(seed) [oe]\n"
                    "  for _i in range(0, 2) {\n"
                    "    eval consume(latest) [in]\n"
                    "    latest = fill(work) [oe]\n"
                    "  }\n"
                    "  return latest\n"
                    "}\n",
                    &report),
            "orch main(seed: f32[64], work: f32[64]) {\n"
            "  latest = fill(seed) [oe]\n"
            "  latest = for _i in range(0, 2) iter(latest = latest) {\n"
            "    eval consume(latest) [in]\n"
            "    latest = fill(work) [oe]\n"
            "    yield latest\n"
            "  }\n"
            "  return latest\n"
            "}\n");
  EXPECT_EQ(report.loop_merges, 1);
  EXPECT_EQ(report.if_merges, 0);
}

// After an if without return vars that assigns a name in both branches, the name is the
// branch that ran: the if gets a return var and a yield per branch.
TEST(SsaForm, BranchRebindingBecomesAnIfResult) {
  SsaReport report;
  EXPECT_EQ(Convert("orch main(a: f32[64], b: f32[64], cond: bool) {\n"
                    "  if cond {\n"
                    "    src = fill(a) [oe]\n"
                    "  } else {\n"
                    "    src = fill(b) [oe]\n"
                    "  }\n"
                    "  out = consume(src) [in]\n"
                    "  return out\n"
                    "}\n",
                    &report),
            "orch main(a: f32[64], b: f32[64], cond: bool) {\n"
            "  src = if cond {\n"
            "    src = fill(a) [oe]\n"
            "    yield src\n"
            "  } else {\n"
            "    src = fill(b) [oe]\n"
            "    yield src\n"
            "  }\n"
            "  out = consume(src) [in]\n"
            "  return out\n"
            "}\n");
  EXPECT_EQ(report.if_merges, 1);
}

// One branch assigns, the other keeps the value from before the if (its yield names it), and
// the else branch reads the value from before the if, not the then branch's definition.
TEST(SsaForm, OneSidedAssignmentMergesWithTheValueBeforeTheIf) {
  EXPECT_EQ(Convert("orch main(a: f32[64], b: f32[64], cond: bool) {\n"
                    "  x = fill(a) [oe]\n"
                    "  if cond {\n"
                    "    x = fill(b) [oe]\n"
                    "  } else {\n"
                    "    eval consume(x) [in]\n"
                    "  }\n"
                    "  out = consume(x) [in]\n"
                    "  return out\n"
                    "}\n"),
            "orch main(a: f32[64], b: f32[64], cond: bool) {\n"
            "  x = fill(a) [oe]\n"
            "  x = if cond {\n"
            "    x = fill(b) [oe]\n"
            "    yield x\n"
            "  } else {\n"
            "    eval consume(x@1) [in]\n"
            "    yield x@1\n"
            "  }\n"
            "  out = consume(x) [in]\n"
            "  return out\n"
            "}\n");
}

// A loop that may run no iteration (symbolic bounds) leaves the value from before it in
// place; one that runs at least once leaks its body's last definition, as the parser binds.
TEST(SsaForm, ZeroTripLoopsMergeTheInitialValue) {
  const std::string body =
      "  x = fill(a) [oe]\n"
      "  for _i in range(0, BOUND) {\n"
      "    x = fill(b) [oe]\n"
      "  }\n"
      "  out = consume(x) [in]\n"
      "  return out\n"
      "}\n";
  auto with = [&](const std::string& bound) {
    std::string text = "orch main(a: f32[64], b: f32[64], n: index) {\n" + body;
    text.replace(text.find("BOUND"), 5, bound);
    return text;
  };
  SsaReport report;
  EXPECT_EQ(Convert(with("2"), &report), with("2"));
  EXPECT_FALSE(report.changed());
  EXPECT_EQ(Convert(with("n"), &report),
            "orch main(a: f32[64], b: f32[64], n: index) {\n"
            "  x = fill(a) [oe]\n"
            "  x = for _i in range(0, n) iter(x = x) {\n"
            "    x = fill(b) [oe]\n"
            "    yield x\n"
            "  }\n"
            "  out = consume(x) [in]\n"
            "  return out\n"
            "}\n");
  EXPECT_EQ(report.loop_merges, 1);
}

// Merges that cannot be written stay as the parser bound them: a name defined on one path
// only (Python would raise NameError on the other), and reads written `name@k`.
TEST(SsaForm, LeavesUndefinedPathsAndExplicitVersionsAlone) {
  const std::string one_path =
      "orch main(a: f32[64], cond: bool) {\n"
      "  if cond {\n"
      "    x = fill(a) [oe]\n"
      "  }\n"
      "  out = consume(x) [in]\n"
      "  return out\n"
      "}\n";
  SsaReport report;
  EXPECT_EQ(Convert(one_path, &report), one_path);
  EXPECT_FALSE(report.changed());
  const std::string explicit_version =
      "orch main(a: f32[64], b: f32[64], cond: bool) {\n"
      "  x = fill(a) [oe]\n"
      "  if cond {\n"
      "    x = fill(b) [oe]\n"
      "  }\n"
      "  out = consume(x@1) [in]\n"
      "  return out\n"
      "}\n";
  EXPECT_EQ(Convert(explicit_version, &report), explicit_version);
}

// On every program of data/passes: the converted program prints and parses back to itself
// (VarIds stay in `@k` order) and a second conversion changes nothing.
TEST(SsaForm, RoundTripsAndIsIdempotentOnEveryDataProgram) {
  int programs = 0, changed = 0;
  for (const auto& e :
       std::filesystem::recursive_directory_iterator(DEPGRAPH_SOURCE_DIR "/data/passes")) {
    if (e.path().extension() != ".depir") continue;
    ++programs;
    Program p;
    std::string err;
    ASSERT_TRUE(ParseDepirFile(e.path().string(), &p, &err)) << err;
    if (ConvertToSsa(&p).changed()) ++changed;
    const std::string text = PrintDepir(p);
    Program again;
    ASSERT_TRUE(ParseDepir(text, "printed", &again, &err)) << e.path() << ": " << err << "\n" << text;
    again.runs = p.runs;
    again.expects = p.expects;
    EXPECT_EQ(again, p) << e.path() << "\n" << text;
    EXPECT_FALSE(ConvertToSsa(&again).changed()) << e.path() << "\n" << text;
  }
  EXPECT_EQ(programs, 74 + 8 + 8 + 2);  // cases, unsound/, shapes/, generator/
  EXPECT_GT(changed, 0);  // pattern-B loops of the reference cases, s2 and s3
}

}  // namespace
}  // namespace depgraph::passes
