// `depgraph derive` and `depgraph check` on reference programs from data/passes.
#include <gtest/gtest.h>

#include <filesystem>
#include <set>
#include <string>

#include "test_util.h"

namespace depgraph {
namespace {

testing::CommandResult Depgraph(const std::string& args) {
  return testing::RunCommand("'" + testing::CliBinary() + "' " + args, testing::SourceDir());
}

const char kT34[] = "data/passes/t34_fixed_trip_loop_fan_in_producer_exports_task_id_collection.depir";
const char kT02[] = "data/passes/t02_auto_scope_raw_hazard_adds_compiler_edge_when_enabled.depir";

TEST(DeriveCommand, PrintsTheTransformedProgram) {
  testing::CommandResult off = Depgraph(std::string("derive ") + kT34);
  EXPECT_EQ(off.exit_code, 0) << off.err;
  // Switch off: the pass changes nothing.
  EXPECT_NE(off.out.find("out = consume(carried) [in]\n"), std::string::npos) << off.out;
  EXPECT_EQ(off.out.find("[nodep] edges="), std::string::npos);
  testing::CommandResult on = Depgraph(std::string("derive --analyze --materialize ") + kT34);
  EXPECT_EQ(on.exit_code, 0) << on.err;
  EXPECT_NE(on.out.find("out = consume(carried) [nodep] edges=[last_tid]"), std::string::npos)
      << on.out;
  EXPECT_NE(on.out.find("scope manual {"), std::string::npos) << on.out;
  testing::CommandResult bad = Depgraph("derive no/such.depir");
  EXPECT_EQ(bad.exit_code, 1);
  EXPECT_NE(bad.err.find("no/such.depir"), std::string::npos);
}

// Bounded in time and memory, in `dir`: without the refusals these inputs block or never end.
testing::CommandResult BoundedDepgraph(const testing::TempDir& dir, const std::string& args) {
  return testing::RunCommand(
      testing::BoundedCommand(testing::CliBinary()) + args, dir.path());
}

TEST(DeriveCommand, SpecialProgramPathsAreOneLineErrors) {
  testing::TempDir dir;
  std::filesystem::create_directory(dir.File("prog.depir"));
  testing::MakeFifo(dir.File("fifo.depir"));
  for (const std::string command : {"derive", "run", "check"}) {
    const std::string output = command == "run" ? " -o deps.json" : "";
    testing::CommandResult r = BoundedDepgraph(dir, command + " prog.depir" + output);
    EXPECT_EQ(r.exit_code, 1) << command << ": " << r.out;
    EXPECT_EQ(r.err, "error: prog.depir: is a directory\n") << command;
    EXPECT_EQ(r.out, "") << command;
    r = BoundedDepgraph(dir, command + " fifo.depir" + output);
    EXPECT_EQ(r.exit_code, 1) << command;
    EXPECT_EQ(r.err, "error: fifo.depir: is a FIFO, not a regular file\n") << command;
    r = BoundedDepgraph(dir, command + " /dev/zero" + output);
    EXPECT_EQ(r.exit_code, 1) << command;
    EXPECT_EQ(r.err, "error: /dev/zero: is a character device, not a regular file\n") << command;
  }
  EXPECT_FALSE(testing::Exists(dir.File("deps.json")));
}

TEST(DeriveCommand, OutputMustBeARegularFileOtherThanTheProgram) {
  testing::TempDir dir;
  const std::string program = testing::ReadFile(testing::SourceDir() + "/" + kT34);
  testing::WriteFile(dir.File("p.depir"), program);
  std::filesystem::create_directory(dir.File("sub"));
  for (const std::string output : {"p.depir", "sub/../p.depir", "./p.depir"}) {
    testing::CommandResult r = BoundedDepgraph(dir, "derive p.depir --analyze -o " + output);
    EXPECT_EQ(r.exit_code, 1) << output;
    EXPECT_EQ(r.err,
              "error: " + output + ": is the input file p.depir; refusing to overwrite it\n");
  }
  EXPECT_EQ(testing::ReadFile(dir.File("p.depir")), program);
  testing::MakeFifo(dir.File("out.fifo"));
  testing::CommandResult r = BoundedDepgraph(dir, "derive p.depir -o out.fifo");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err, "error: out.fifo: is a FIFO, not a regular file; refusing to replace it\n");
  EXPECT_EQ(std::filesystem::status(dir.File("out.fifo")).type(), std::filesystem::file_type::fifo);
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir.path()),
                          std::filesystem::directory_iterator()),
            3);  // p.depir, sub, out.fifo
}

TEST(CheckCommand, FlagsTheLoopMadeManualAroundCrossIterationHazards) {  // spec §3.4, T34
  testing::CommandResult r = Depgraph(std::string("check ") + kT34);
  EXPECT_EQ(r.exit_code, 3) << r.out << r.err;
  EXPECT_NE(r.out.find("ordering lost: (0, 0) fill -> (0, 1) fill, bytes [0x40000000, 0x40000100)"),
            std::string::npos) << r.out;
  EXPECT_NE(r.out.find("hazard left unordered: RAW"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("result: 3 ordering(s) lost, 0 buffer retention(s) lost, 3 hazard(s) left unordered -- FAIL"),
            std::string::npos);
}

// Long reports list the first findings of each kind and count the rest.
TEST(CheckCommand, MaxFindingsLimitsTheListNotTheCount) {
  testing::CommandResult r = Depgraph(std::string("check ") + kT34 + " --max-findings 1");
  EXPECT_EQ(r.exit_code, 3) << r.out << r.err;
  EXPECT_NE(r.out.find("ordering lost: (0, 0) fill -> (0, 1) fill"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("ordering lost: (0, 1) fill"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("... 2 more ordering(s) lost (--max-findings 0 lists all)"),
            std::string::npos) << r.out;
  EXPECT_NE(r.out.find("... 2 more hazard(s) left unordered"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("result: 3 ordering(s) lost, 0 buffer retention(s) lost, 3 hazard(s)"),
            std::string::npos) << r.out;
  testing::CommandResult all = Depgraph(std::string("check ") + kT34 + " --max-findings 0");
  EXPECT_NE(all.out.find("ordering lost: (0, 2) fill -> (0, 3) fill"), std::string::npos);
  EXPECT_EQ(all.out.find("... "), std::string::npos) << all.out;
}

TEST(CheckCommand, SoundModeClosesTheGapsOfTheReferencePass) {  // spec §3.4
  for (const std::string& program :
       {std::string(kT34), std::string("data/passes/unsound/u1_partial_cover_read.depir"),
        std::string("data/passes/unsound/u2_loop_manual_body.depir"),
        std::string("data/passes/unsound/u3_nodep_past_fallback.depir"),
        std::string("data/passes/unsound/u4_manual_dep.depir")}) {
    EXPECT_EQ(Depgraph("check " + program).exit_code, 3) << program;
    testing::CommandResult sound = Depgraph("check --sound " + program);
    EXPECT_EQ(sound.exit_code, 0) << program << "\n" << sound.out << sound.err;
  }
}

// The manual_dep gap: the runtime orders m's users only through creator retention of m's
// allocation; the body made MANUAL drops it, so nothing keeps m's buffer alive.
TEST(CheckCommand, FlagsTheBufferRetentionAManualBodyDrops) {
  testing::CommandResult r = Depgraph("check data/passes/unsound/u4_manual_dep.depir");
  EXPECT_EQ(r.exit_code, 3) << r.out << r.err;
  EXPECT_NE(r.out.find("retention lost: alloc (0, 0) (create #1) -> (0, 1) fill"),
            std::string::npos) << r.out;
  EXPECT_NE(r.out.find("retention lost: alloc (0, 0) (create #1) -> (0, 2) consume"),
            std::string::npos) << r.out;
  EXPECT_NE(r.out.find("result: 0 ordering(s) lost, 2 buffer retention(s) lost, 0 hazard(s)"),
            std::string::npos) << r.out;
}

// The edge after a dynamic `parallel` loop names its last iteration only (T40): the reference
// rewrites the consumer to NoDep and makes the body MANUAL, losing fill(i < last) -> consume.
TEST(CheckCommand, FlagsTheLastIterationSummaryOfAParallelLoop) {
  const std::string t40 =
      "data/passes/t40_dynamic_parallel_tensor_carrier_exports_summary_edge.depir --set n_steps=3";
  testing::CommandResult r = Depgraph("check " + t40);
  EXPECT_EQ(r.exit_code, 3) << r.out << r.err;
  EXPECT_NE(r.out.find("ordering lost: (0, 0) fill -> (0, 3) consume"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("ordering lost: (0, 1) fill -> (0, 3) consume"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("ordering lost: (0, 2) fill"), std::string::npos) << r.out;
  EXPECT_EQ(Depgraph("check --sound " + t40).exit_code, 0);
}

// Codegen drops a compiler edge whose TaskId is not visible at the call (spec §3.4): the run
// of the compiled program leaves it out, so T54's cross-scope edge is gone and its NoDep
// rewrite loses fill -> consume; --sound keeps the lookup.
TEST(CheckCommand, LeavesOutEdgesGeneratedCodeCannotName) {
  const std::string t54 =
      "data/passes/t54_sibling_auto_scopes_covered_input_becomes_no_dep_when_enabled.depir";
  testing::CommandResult r = Depgraph("check " + t54);
  EXPECT_EQ(r.exit_code, 3) << r.out << r.err;
  EXPECT_NE(r.out.find("note: compiler edge [produced] of consume in main is not visible there"),
            std::string::npos) << r.out;
  EXPECT_NE(r.out.find("ordering lost: (1, 0) fill -> (1, 1) consume"), std::string::npos) << r.out;
  EXPECT_EQ(Depgraph("check --sound " + t54).exit_code, 0);
}

// The issue's acceptance: with --sound, `check` passes on every program of data/passes/ and
// data/passes/unsound/ (one binding set gives every free name a value; unused ones are ignored).
TEST(CheckCommand, SoundModePassesEveryProgram) {
  std::string sets =
      " --set n=4 --set cond=true --set c=2 --set m=4 --set k=2 --set n_steps=3 --set offset=8";
  for (int i = 0; i <= 8; ++i) sets += " --set c" + std::to_string(i) + "=true";
  int programs = 0;
  for (const char* dir : {"data/passes", "data/passes/unsound"}) {
    for (const auto& entry : std::filesystem::directory_iterator(testing::SourceDir() + "/" + dir)) {
      if (entry.path().extension() != ".depir") continue;
      ++programs;
      const std::string program = std::string(dir) + "/" + entry.path().filename().string();
      testing::CommandResult r = Depgraph("check --sound " + program + sets);
      EXPECT_EQ(r.exit_code, 0) << program << "\n" << r.out << r.err;
    }
  }
  EXPECT_EQ(programs, 74 + 8);
}

// How much of the compiler's work each mode keeps: T34's loop body is MANUAL after the
// reference pass (and unsound), back in AUTO scopes after the sound one.
TEST(CheckCommand, ManualStatsCountKernelSubmitsInManualScopesPerMode) {
  testing::CommandResult r = Depgraph(std::string("check ") + kT34 + " --manual-stats");
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_EQ(r.out, std::string("manual kernel submits: reference 5, sound 0 of 5 kernel "
                               "submits -- ") + kT34 + "\n");
  r = Depgraph(std::string("check ") + kT02 + " --manual-stats");
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("manual kernel submits: reference "), std::string::npos) << r.out;
}

// --sound passes check on every reference case and every unsound program.
// The eight shapes of issue 10 (data/passes/unsound/shapes/): the reference loses orderings
// on shapes 1-7 with either branch choice and --sound passes; shape 8 is fixed in the
// reference itself (it falls back instead of naming no task), so both pass.
TEST(CheckCommand, IssueTenShapesFailTheReferenceAndPassSound) {
  int programs = 0;
  for (const auto& entry : std::filesystem::directory_iterator(testing::SourceDir() +
                                                               "/data/passes/unsound/shapes")) {
    if (entry.path().extension() != ".depir") continue;
    ++programs;
    const std::string name = entry.path().filename().string();
    const std::string program = "data/passes/unsound/shapes/" + name;
    const int reference_exit = name.rfind("s8_", 0) == 0 ? 0 : 3;
    for (const char* cond : {" --set cond=true", " --set cond=false"}) {
      testing::CommandResult reference = Depgraph("check " + program + cond);
      EXPECT_EQ(reference.exit_code, reference_exit) << program << cond << "\n" << reference.out << reference.err;
      testing::CommandResult sound = Depgraph("check --sound " + program + cond);
      EXPECT_EQ(sound.exit_code, 0) << program << cond << "\n" << sound.out << sound.err;
    }
  }
  EXPECT_EQ(programs, 8);
}

// Programs the random generator found (data/passes/unsound/generator/): the reference loses
// an ordering on each, --sound passes.
TEST(CheckCommand, GeneratorFindingsFailTheReferenceAndPassSound) {
  int programs = 0;
  for (const auto& entry : std::filesystem::directory_iterator(
           testing::SourceDir() + "/data/passes/unsound/generator")) {
    if (entry.path().extension() != ".depir") continue;
    ++programs;
    const std::string program =
        "data/passes/unsound/generator/" + entry.path().filename().string() + " --set go=2";
    testing::CommandResult reference = Depgraph("check " + program);
    EXPECT_EQ(reference.exit_code, 3) << program << "\n" << reference.out << reference.err;
    testing::CommandResult sound = Depgraph("check --sound " + program);
    EXPECT_EQ(sound.exit_code, 0) << program << "\n" << sound.out << sound.err;
  }
  EXPECT_EQ(programs, 2);
}

TEST(CheckCommand, PassesWhenCompilerEdgesCoverEveryHazard) {
  testing::CommandResult r = Depgraph(std::string("check ") + kT02);
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("result: 0 ordering(s) lost, 0 buffer retention(s) lost, 0 hazard(s) left unordered -- ok"),
            std::string::npos);
}

TEST(CheckCommand, UnboundNamesAreErrors) {
  testing::CommandResult r = Depgraph(
      "check data/passes/t35_dynamic_trip_loop_fan_in_producer_falls_back.depir");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("n_steps"), std::string::npos) << r.err;
  EXPECT_EQ(Depgraph(std::string("check ") + kT02 + " --set oops").exit_code, 2);
}


// Issue 10, shape 8 (data/passes/x09_*): a loop writes disjoint rows of a parameter and
// yields it unchanged. The reference pass used to emit `edges=[acc]`, naming no task, so the
// compiled program stopped where the original ran, which check reports as a pass bug (exit 3,
// one result line). The pass now falls back there (`prior_names_no_task`) and check passes;
// no program is known to reach the pass-bug line since. A program that fails on its own is
// the user's error: exit 1 on stderr.
TEST(CheckCommand, LoopResultNamingNoTaskFallsBackAndUserErrorsStayExitOne) {
  testing::CommandResult fixed =
      Depgraph("check data/passes/x09_loop_result_naming_no_task_falls_back.depir");
  EXPECT_EQ(fixed.exit_code, 0) << fixed.out << fixed.err;
  EXPECT_NE(fixed.out.find("result: 0 ordering(s) lost, 0 buffer retention(s) lost, 0 hazard(s) "
                           "left unordered -- ok"),
            std::string::npos)
      << fixed.out;
  testing::TempDir dir;
  const std::string program = dir.File("bad_slice.depir");
  // A program that fails on its own is still the user's error (exit 1, on stderr).
  testing::WriteFile(program, "kernel k(in x: f32[4]) -> x\norch main(a: f32[4]) {\n"
                              "  b = slice(a, [8], [0])\n  out = k(b) [in]\n  return out\n}\n");
  testing::CommandResult user = Depgraph("check '" + program + "'");
  EXPECT_EQ(user.exit_code, 1) << user.out << user.err;
  EXPECT_NE(user.err.find("error: "), std::string::npos) << user.err;
}

}  // namespace
}  // namespace depgraph

namespace depgraph {
namespace {

// The check as a gate: an edge the compiler adds is judged against the runtime's races, a
// program that submits nothing checks nothing, and warnings fail only when asked.
TEST(CheckCommand, AnAddedEdgeThatOrdersARuntimeHazardIsAFixNotAWarning) {
  const std::string t04 =
      "data/passes/t04_auto_scope_waw_hazard_adds_compiler_edge_when_enabled.depir";
  testing::CommandResult r = Depgraph("check " + t04 + " --warnings-as-errors");
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("\ninfo: edge added: (1, 0) fill -> (1, 1) fill (the compiled program "
                       "orders a hazard the runtime leaves unordered: a fix)\n"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("\nsummary: check: 0 error(s) (0 orderings lost, 0 retentions lost, "
                       "0 hazards), 0 warnings (edges added), 1 info (implied edges); the "
                       "compiled program keeps every ordering the runtime enforces\n"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("result: 0 ordering(s) lost, 0 buffer retention(s) lost, 0 hazard(s) "
                       "left unordered -- ok"),
            std::string::npos);
}

TEST(CheckCommand, AProgramThatSubmitsNothingIsAnErrorUnlessAllowed) {
  testing::TempDir dir;
  testing::WriteFile(dir.File("none.depir"),
                     "kernel fill(out t: f32[64] memref(shared_ddr, 0, 256)) -> t\n\n"
                     "orch main(a: f32[64] memref(shared_ddr, 0, 256)) hand {\n"
                     "  return a\n}\n");
  auto run = [&](const std::string& args) {
    return testing::RunCommand("'" + testing::CliBinary() + "' check none.depir" + args,
                               dir.path());
  };
  testing::CommandResult refused = run("");
  EXPECT_EQ(refused.exit_code, 1) << refused.out << refused.err;
  EXPECT_EQ(refused.err,
            "error: none.depir: the program submits no task, so the check would compare "
            "nothing (--allow-empty to pass anyway)\n");
  EXPECT_EQ(refused.out, "");
  testing::CommandResult allowed = run(" --allow-empty");
  EXPECT_EQ(allowed.exit_code, 0) << allowed.out << allowed.err;
  EXPECT_EQ(run(" --json").exit_code, 2);
}

}  // namespace
}  // namespace depgraph
