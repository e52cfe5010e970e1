// Sound mode of AutoDeriveTaskDependencies (AutoDeriveOptions::sound, data/passes/README.md
// "Soundness"): the four unsound programs of data/passes/unsound/ (each a reference twin
// `uN_*.depir` run with `run analyze` and a sound twin `uN_*_sound.depir` run with
// `run analyze sound`) are checked with the same evaluator as the reference cases; and over
// every reference case of data/passes/, sound mode only ever removes rewrites and markers.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "depgraph_passes/auto_derive_task_dependencies.h"
#include "depgraph_passes/depir_parser.h"
#include "depgraph_passes/depir_printer.h"
#include "depgraph_passes/expectation.h"
#include "depgraph_passes/storage_roots.h"
#include "case_runner.h"

namespace depgraph::passes {
namespace {

std::string DataDir() { return PassesDataDir(); }
std::string UnsoundDir() { return DataDir() + "/unsound"; }

bool EndsWith(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

Program ParseFileOrDie(const std::string& path) {
  Program prog;
  std::string err;
  EXPECT_TRUE(ParseDepirFile(path, &prog, &err)) << err;
  return prog;
}

TEST(SoundnessPrograms, FourReferenceTwinsAndFourSoundTwins) {
  std::vector<std::string> files = DepirFiles(UnsoundDir());
  ASSERT_EQ(files.size(), 8u);
  int sound = 0;
  for (const std::string& f : files) {
    if (!EndsWith(f, "_sound.depir")) continue;
    ++sound;
    std::string twin = f.substr(0, f.size() - std::string("_sound.depir").size()) + ".depir";
    EXPECT_TRUE(std::find(files.begin(), files.end(), twin) != files.end()) << f << " has no twin " << twin;
  }
  EXPECT_EQ(sound, 4);
  for (const std::string& f : files) {
    Program p = ParseFileOrDie(UnsoundDir() + "/" + f);
    bool wants_sound = EndsWith(f, "_sound.depir");
    bool has_sound = std::any_of(p.runs.begin(), p.runs.end(), [](const RunDirective& r) { return r.Has("sound"); });
    EXPECT_EQ(has_sound, wants_sound) << f << ": `run ... sound` exactly in the *_sound twin";
  }
}

class UnsoundProgram : public ::testing::TestWithParam<std::string> {};

TEST_P(UnsoundProgram, ExpectationsHold) {
  const std::string path = UnsoundDir() + "/" + GetParam();
  CaseOutcome outcome;
  std::string err;
  ASSERT_TRUE(RunCaseFile(path, &outcome, &err)) << err;
  for (const ExpectFailure& f : outcome.failures) ADD_FAILURE() << DescribeFailure(path, f);
  if (!outcome.failures.empty()) {
    ADD_FAILURE() << "pass output:\n" << outcome.derived_text << "\nmaterialized:\n"
                  << PrintDepir(outcome.run.materialized);
  }
}

INSTANTIATE_TEST_SUITE_P(Data, UnsoundProgram, ::testing::ValuesIn(DepirFiles(UnsoundDir())), CaseTestName);

/// Every call expression of `body`, in textual pre-order.
void CollectCalls(const std::vector<Stmt>& body, std::vector<const Expr*>* out) {
  for (const Stmt& s : body) {
    if ((s.kind == StmtKind::kAssign || s.kind == StmtKind::kEval) && s.expr.kind == ExprKind::kCall) {
      out->push_back(&s.expr);
    }
    CollectCalls(s.body, out);
    CollectCalls(s.else_body, out);
  }
}

/// Runs `prog` through the pass with analyze on and the given sound switch.
Program Derive(const Program& prog, bool sound) {
  Program out = prog;
  AutoDeriveOptions opts;
  opts.analyze_auto_scopes = true;
  opts.sound = sound;
  AutoDeriveReport report;
  AutoDeriveTaskDependencies(&out, opts, &report);
  return out;
}

// Sound mode is the reference minus rewrites and markers: the same compiler edges, every
// direction either the reference's or the original one, markers only where the reference set
// them.
TEST(SoundMode, OnlyRemovesRewritesAndMarkersOnEveryReferenceCase) {
  for (const std::string& f : DepirFiles(DataDir())) {
    Program original = ParseFileOrDie(DataDir() + "/" + f);
    Program ref = Derive(original, false);
    Program snd = Derive(original, true);
    ASSERT_EQ(ref.functions.size(), snd.functions.size()) << f;
    for (size_t fi = 0; fi < ref.functions.size(); ++fi) {
      std::vector<const Expr*> o, r, s;
      CollectCalls(original.functions[fi].body, &o);
      CollectCalls(ref.functions[fi].body, &r);
      CollectCalls(snd.functions[fi].body, &s);
      ASSERT_EQ(r.size(), s.size()) << f;
      for (size_t i = 0; i < r.size(); ++i) {
        EXPECT_EQ(r[i]->attrs.compiler_manual_dep_edges, s[i]->attrs.compiler_manual_dep_edges)
            << f << " call " << i << " (" << r[i]->callee << ")";
        EXPECT_TRUE(!s[i]->attrs.scope_candidate || r[i]->attrs.scope_candidate) << f << " call " << i;
        const auto& od = o[i]->attrs.arg_directions;
        const auto& rd = r[i]->attrs.arg_directions;
        const auto& sd = s[i]->attrs.arg_directions;
        ASSERT_EQ(rd.size(), sd.size()) << f;
        for (size_t a = 0; a < sd.size(); ++a) {
          EXPECT_TRUE(sd[a] == rd[a] || sd[a] == od[a]) << f << " call " << i << " arg " << a;
        }
      }
      EXPECT_TRUE(!snd.functions[fi].layer_candidate || ref.functions[fi].layer_candidate) << f;
    }
  }
}

/// Failed facts of `text` (a program with its `run` and `expect` lines), one line each.
std::string FailedFacts(const std::string& text) {
  Program p;
  std::string err;
  if (!ParseDepir(text, "inline.depir", &p, &err)) return err;
  CaseRun run = RunCase(p);
  std::string out;
  for (const ExpectDirective& e : p.expects) {
    for (const ExpectFailure& f : EvaluateExpectation(e, run)) {
      out += f.fact + ": expected " + f.expected + ", actual " + f.actual + "\n";
    }
  }
  return out;
}

/// Failed facts of `program` under the reference (`reference`: its `run` and `expect` lines)
/// and under sound mode (`sound`), each line labelled with its run.
std::string FailedTwinFacts(const std::string& program, const std::string& reference,
                            const std::string& sound) {
  std::string out;
  if (const std::string f = FailedFacts(program + reference); !f.empty()) out += "reference: " + f;
  if (const std::string f = FailedFacts(program + sound); !f.empty()) out += "sound: " + f;
  return out;
}

constexpr const char* kLoopMarkerProgram = R"(
kernel fill(out t: f32[64]) -> t
kernel mutate(inout x: f32[64]) -> x
orch main(scratch: f32[64]) {
  produced = fill(scratch) [oe]
  for i in range(0, 4) {
    m = mutate(produced) [inout]
  }
  return produced
}
)";

// (b), second shape: a loop-body call whose only in-region producer is before the loop gets an
// edge; the reference rewrites its InOut to OutputExisting and marks it, so the loop body (and
// the whole body) becomes MANUAL and mutate(k) -> mutate(k+1) is lost. Sound keeps InOut, drops
// the call marker and the whole-body marker, and keeps the edge.
TEST(SoundMode, LoopCallWithCrossIterationHazardKeepsInOutAndStaysAuto) {
  EXPECT_EQ(FailedTwinFacts(kLoopMarkerProgram,
                            "run analyze\n"
                            "expect mutate#1 edges=[produced] dirs=[oe] mark\n"
                            "expect func main layer_manual\n"
                            "expect mat main \"MANUAL{ fill range{ mutate } }\"\n",
                            "run analyze sound\n"
                            "expect mutate#1 edges=[produced] dirs=[inout] nomark\n"
                            "expect func main no_layer_manual\n"
                            "expect mat main \"AUTO{ fill range{ AUTO{ mutate } } }\"\n"),
            "");
}

constexpr const char* kT23Program = R"(
kernel fill(out t: f32[32]) -> t
kernel consume(in x: f32[32]) -> x
orch main(scratch: f32[64]) hand {
  scope auto {
    left = slice(scratch, [32], [0])
    mid = slice(scratch, [32], [16])
    _produced, producer_tid = submit fill(left) [oe]
    out, _ = submit consume(mid) [in]
  }
  return out
}
)";

// (a) alone, on T23 itself: the read [16,48) is only partly written by the covered producer
// [0,32) (the rest may have been written before the function), so sound mode keeps Input; the
// edge and the call marker stay.
TEST(SoundMode, PartlyCoveredReadKeepsInput) {
  EXPECT_EQ(FailedTwinFacts(kT23Program,
                            "run analyze\n"
                            "expect consume#1 edges=[producer_tid] dirs=[nodep] mark\n",
                            "run analyze sound debug\n"
                            "expect consume#1 edges=[producer_tid] dirs=[in] mark\n"
                            "expect scope#1 auto nofallback\n"
                            "expect stderr \"call=consume arg_index=0 "
                            "bucket=sound_partial_cover\"\n"),
            "");
}

TEST(RegionContains, FullBoxAndImpreciseRegions) {
  Region full;
  Region box0_32{RegionKind::kBox, {0}, {32}};
  Region box16_32{RegionKind::kBox, {16}, {32}};
  Region box8_8{RegionKind::kBox, {8}, {8}};
  Region cons{RegionKind::kConservative, {}, {}};
  EXPECT_TRUE(RegionContains(full, box16_32));
  EXPECT_TRUE(RegionContains(full, cons));
  EXPECT_TRUE(RegionContains(box0_32, box8_8));
  EXPECT_FALSE(RegionContains(box0_32, box16_32));  // the T23 read [16,48) vs write [0,32)
  EXPECT_FALSE(RegionContains(box0_32, full));
  EXPECT_FALSE(RegionContains(cons, box8_8));
  EXPECT_FALSE(RegionContains(box0_32, cons));
}

constexpr const char* kCreatedTensorProgram = R"(
kernel fill(out t: f32[64]) -> t
kernel consume(in x: f32[64]) -> x
orch main(scratch: f32[64]) {
  m = create(f32[64])
  produced = fill(m) [oe]
  out = consume(produced) [in]
  return out
}
)";

// (d) without manual_dep: what keeps a created tensor alive while its users run is creator
// retention of its allocation, which a MANUAL scope skips. Sound keeps the rewrite (NoDep keeps
// step A) but neither marks the call nor the body.
TEST(SoundMode, CreatedTensorKeepsItsUsersInAnAutoScope) {
  EXPECT_EQ(FailedTwinFacts(kCreatedTensorProgram,
                            "run analyze\n"
                            "expect consume#1 edges=[produced] dirs=[nodep] mark\n"
                            "expect mat main \"MANUAL{ fill consume }\"\n",
                            "run analyze sound\n"
                            "expect consume#1 edges=[produced] dirs=[nodep] nomark\n"
                            "expect func main no_layer_manual\n"
                            "expect mat main \"AUTO{ fill consume }\"\n"),
            "");
}

// A loop writing `scratch` through `fill(carried) [oe]` in every iteration, then a consume of
// the loop's result; `loop` is the loop header (bounds), `extra_params` more parameters.
std::string LoopThenConsumeProgram(const std::string& loop, const std::string& extra_params) {
  return "kernel fill(out t: f32[64]) -> t\n"
         "kernel consume(in x: f32[64]) -> x\n"
         "orch main(scratch: f32[64]" + extra_params + ") {\n"
         "  carried = scratch\n"
         "  carried = for _i in " + loop + " iter(carried = carried) {\n"
         "    carried = fill(carried) [oe]\n"
         "    yield carried\n"
         "  }\n"
         "  out = consume(carried) [in]\n"
         "  return out\n"
         "}\n";
}

// (e) on T40: the summary edge after a dynamic parallel loop names the last iteration's task
// only; the earlier iterations' writes are found by consume's own lookup alone. Sound keeps
// Input and the AUTO body; the edge stays.
TEST(SoundMode, LastIterationSummaryKeepsTheLookup) {
  const std::string t40 = LoopThenConsumeProgram("parallel(0, n_steps)", ", n_steps: index");
  EXPECT_EQ(FailedTwinFacts(t40,
                            "run analyze\n"
                            "expect consume#1 edges=[carried@4] dirs=[nodep] mark\n"
                            "expect func main layer_manual\n",
                            "run analyze sound debug\n"
                            "expect consume#1 edges=[carried@4] dirs=[in] nomark\n"
                            "expect func main no_layer_manual\n"
                            "expect stderr \"call=consume arg_index=0 "
                            "bucket=sound_last_iteration_only\"\n"),
            "");
}

// (e) for a fixed-trip loop whose write is OutputExisting (iterations not chained by lookups):
// the remapped edge names the last iteration only, so the consumer keeps its lookup. With an
// InOut write (T34, u2) the runtime chains the iterations and the edge covers them all.
TEST(SoundMode, FixedTripLoopWithUnchainedWritesKeepsTheLookup) {
  const std::string program = LoopThenConsumeProgram("range(0, 4)", "");
  EXPECT_EQ(FailedTwinFacts(program,
                            "run analyze\nexpect consume#1 dirs=[nodep] mark\n",
                            "run analyze sound\n"
                            "expect consume#1 dirs=[in] nomark\n"
                            "expect func main no_layer_manual\n"),
            "");
}

constexpr const char* kSiblingScopesProgram = R"(
kernel fill(out t: f32[64]) -> t
kernel consume(in x: f32[64]) -> x
orch main(scratch: f32[64]) hand {
  scope auto {
    produced = fill(scratch) [oe]
  }
  scope auto {
    out = consume(produced) [in]
  }
  return out
}
)";

// (f) on T54: the edge [produced] names a task of a scope that has closed, which generated
// code cannot name there and drops (spec §3.4); the reference's NoDep then leaves consume
// unordered after fill. Sound keeps Input (and no marker); the edge stays.
TEST(SoundMode, EdgeCodegenCannotNameKeepsTheLookup) {
  EXPECT_EQ(FailedTwinFacts(kSiblingScopesProgram,
                            "run analyze\n"
                            "expect consume#1 edges=[produced] dirs=[nodep] mark\n",
                            "run analyze sound debug\n"
                            "expect consume#1 edges=[produced] dirs=[in] nomark\n"
                            "expect stderr \"call=consume arg_index=0 "
                            "bucket=sound_edge_not_visible\"\n"),
            "");
}

constexpr const char* kWriteAfterBranchReadProgram = R"(
kernel fill(out t: f32[64]) -> t
kernel consume(in x: f32[64]) -> x
orch main(a: f32[64], cond: bool) {
  if cond {
    r = consume(a) [in]
  }
  w = fill(a) [oe]
  return w
}
)";

// (m) The fill's only hazard is a write after the branch's read, which the runtime never
// orders (an OutputExisting write looks nothing up): the edge naming the closed branch's read
// is dropped by codegen at no cost, so the marker and the whole-body MANUAL stay.
TEST(SoundMode, WriteAfterReadNeedsNoNameableEdge) {
  EXPECT_EQ(FailedTwinFacts(kWriteAfterBranchReadProgram,
                            "run analyze\n"
                            "expect fill#1 edges=[r] dirs=[oe] mark\n"
                            "expect func main layer_manual\n",
                            "run analyze sound\n"
                            "expect fill#1 edges=[r] dirs=[oe] mark\n"
                            "expect func main layer_manual\n"),
            "");
}

constexpr const char* kExclusiveBranchesProgram = R"(
kernel fill(out t: f32[64]) -> t
kernel consume(in x: f32[64]) -> x
orch main(a: f32[64], cond: bool) {
  if cond {
    w = fill(a) [oe]
  } else {
    r = consume(a) [in]
  }
  return a
}
)";

// (m) The reference walks the branches in sequence, so the else branch's read gets an edge to
// the then branch's write; the two never run in one pass through the if, so that hazard needs
// no nameable edge and sound mode keeps the rewrite and the markers.
TEST(SoundMode, HazardsAcrossExclusiveBranchesNeedNoNameableEdge) {
  EXPECT_EQ(FailedTwinFacts(kExclusiveBranchesProgram,
                            "run analyze\n"
                            "expect consume#1 edges=[w] dirs=[nodep] mark\n"
                            "expect func main layer_manual\n",
                            "run analyze sound\n"
                            "expect consume#1 edges=[w] dirs=[nodep] mark\n"
                            "expect func main layer_manual\n"),
            "");
}

constexpr const char* kLoopRowsProgram = R"(
kernel fill(out t: f32[64]) -> t
kernel consume(in x: f32[64]) -> x
kernel fill_row(inout t: f32[1, 16]) -> t
orch main(m: f32[4, 16], a: f32[64]) {
  x = fill(a) [oe]
  for i in range(0, 4) {
    row = slice(m, [1, 16], [ROW, 0])
    _r, tid = submit fill_row(row) [inout]
  }
  y = consume(x) [in]
  return y
}
)";

/// kLoopRowsProgram with its slice at row `row`.
std::string LoopRows(const std::string& row) {
  std::string text = kLoopRowsProgram;
  text.replace(text.find("ROW"), 3, row);
  return text;
}

// (b) Each iteration updates row i of `m` in place: the iterations touch disjoint rows, so a
// MANUAL body loses no ordering and sound mode keeps the whole-body marker. Updating row 0
// every time is a real cross-iteration hazard (the runtime chains the InOut writes): no marker.
TEST(SoundMode, RowsAtTheLoopIndexAreDisjointAcrossIterations) {
  EXPECT_EQ(FailedFacts(LoopRows("i") + "run analyze sound\nexpect func main layer_manual\n"), "");
  EXPECT_EQ(FailedFacts(LoopRows("0") + "run analyze sound\nexpect func main no_layer_manual\n"), "");
  EXPECT_EQ(FailedFacts(LoopRows("0") + "run analyze\nexpect func main layer_manual\n"), "");
}

constexpr const char* kChainedLoopProgram = R"(
kernel mutate(inout x: f32[64]) -> x
kernel consume(in x: f32[64]) -> x
orch main(buf: f32[64]) {
  last = task_invalid()
  last = for i in range(0, 4) iter(last = last) {
    _o, t = submit mutate(buf) [inout] DEPS
    yield t
  }
  out = consume(buf) [in]
  return out
}
)";

// (b) `deps=[last]` with `yield t` chains the iterations by user deps, which a MANUAL scope
// keeps: sound mode keeps the whole-body marker. Without the deps only the runtime's lookup
// orders iteration k+1 after k: no marker.
TEST(SoundMode, UserDepsThatChainIterationsOrderThem) {
  std::string chained = kChainedLoopProgram, unchained = kChainedLoopProgram;
  chained.replace(chained.find("DEPS"), 4, "deps=[last]");
  unchained.replace(unchained.find("DEPS"), 4, "");
  EXPECT_EQ(FailedFacts(chained + "run analyze sound\nexpect func main layer_manual\n"), "");
  EXPECT_EQ(FailedFacts(unchained + "run analyze sound\nexpect func main no_layer_manual\n"), "");
}

constexpr const char* kBranchWriterProgram = R"(
kernel fill(out t: f32[64]) -> t
kernel consume(in x: f32[64]) -> x
orch main(a: f32[64], cond: bool) {
  v1, tid2 = submit consume(a) [in]
  y = if cond {
    v4, tid5 = submit fill(a) [inout]
    yield v1
  } else {
    yield v1
  }
  v6 = consume(y) [in]
  return a
}
)";

// (f), the writer's side: the later read keeps its lookup, which finds the branch's fill only
// if that fill publishes, i.e. is not put in a MANUAL scope: its marker goes too, and the body
// stays AUTO.
TEST(SoundMode, WriterReadThroughAnInvisibleEdgeKeepsPublishing) {
  EXPECT_EQ(FailedTwinFacts(kBranchWriterProgram,
                            "run analyze\n"
                            "expect fill#1 edges=[tid2] mark\n"
                            "expect consume#2 edges=[tid5] dirs=[nodep] mark\n"
                            "expect func main layer_manual\n",
                            "run analyze sound\n"
                            "expect fill#1 edges=[tid2] nomark\n"
                            "expect consume#2 edges=[tid5] dirs=[in] nomark\n"
                            "expect func main no_layer_manual\n"),
            "");
}

// The default options are the reference: sound is off unless asked for.
TEST(SoundMode, OffByDefault) {
  AutoDeriveOptions opts;
  EXPECT_FALSE(opts.sound);
}

}  // namespace
}  // namespace depgraph::passes
