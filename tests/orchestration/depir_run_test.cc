// `depgraph run`: depir programs interpreted on the runtime shim (apps/depgraph/run_command.h).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <tuple>
#include <vector>

#include "depgraph_passes/depir_parser.h"
#include "depgraph_passes/ssa_form.h"
#include "depgraph_shim/shim_runtime.h"
#include "depgraph_orchestration/depir_interpreter.h"
#include "test_util.h"

namespace depgraph {
namespace {

using Edge = std::tuple<std::string, std::string, std::string>;  // pred, succ, source

// Ring r, local index i as the decimal task id deps.json prints.
std::string Id(uint64_t ring, uint64_t local) { return std::to_string((ring << 32) | local); }

class DepirRunTest : public ::testing::Test {
 protected:
  testing::CommandResult Run(const std::string& args) {
    return testing::RunCommand(testing::CliBinary() + " run " + args, dir_.path());
  }
  std::string Program(const std::string& stem) {
    return testing::SourceDir() + "/data/passes/" + stem + ".depir";
  }
  nlohmann::json Deps(const std::string& name = "deps.json") {
    return nlohmann::json::parse(testing::ReadFile(dir_.File(name)));
  }
  static std::vector<Edge> Edges(const nlohmann::json& deps) {
    std::vector<Edge> out;
    for (const auto& e : deps["edges"]) {
      out.emplace_back(e["pred"].get<std::string>(), e["succ"].get<std::string>(),
                       e["source"].get<std::string>());
    }
    return out;
  }
  static std::vector<int> Kernels(const nlohmann::json& deps) {
    std::vector<int> out;
    for (const auto& t : deps["tasks"]) out.push_back(t["kernel_ids"][1].get<int>());
    return out;
  }
  testing::TempDir dir_;
};

// §5.3 example 2 (T34) as written, runtime inference only: the four fills chain through
// INOUT TensorMap edges and the consume reads the carried buffer after the last fill.
TEST_F(DepirRunTest, T34FillChainThenConsume) {
  const auto r = Run(Program("t34_fixed_trip_loop_fan_in_producer_exports_task_id_collection") +
                     " -o deps.json --name-map names.json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json deps = Deps();
  EXPECT_EQ(deps["tasks"].size(), 5u);
  EXPECT_EQ(Kernels(deps), (std::vector<int>{0, 0, 0, 0, 1}));
  EXPECT_EQ(Edges(deps), (std::vector<Edge>{{"0", "1", "tensormap"},
                                            {"1", "2", "tensormap"},
                                            {"2", "3", "tensormap"},
                                            {"3", "4", "tensormap"}}));
  const nlohmann::json names = nlohmann::json::parse(testing::ReadFile(dir_.File("names.json")));
  EXPECT_EQ(names["callable_id_to_name"]["0"], "fill");
  EXPECT_EQ(names["callable_id_to_name"]["1"], "consume");
  EXPECT_EQ(names["orchestrator_name"], "main");
}

// §5.3 example 1 (T62): the MANUAL fill is invisible to the AUTO scope's inference; the
// consume's second argument gets its TensorMap edge from the AUTO fill (disjoint halves).
TEST_F(DepirRunTest, T62ManualThenAutoScope) {
  const auto r = Run(Program("t62_manual_scope_missing_task_id_does_not_block_later_auto_scope") +
                     " -o out/deps.json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json deps = Deps("out/deps.json");
  ASSERT_EQ(deps["tasks"].size(), 3u);
  EXPECT_EQ(deps["tasks"][0]["scope"], "manual");
  EXPECT_EQ(deps["tasks"][1]["scope"], "auto");
  EXPECT_EQ(Kernels(deps), (std::vector<int>{0, 0, 1}));
  EXPECT_EQ(Edges(deps), (std::vector<Edge>{{Id(1, 1), Id(1, 2), "tensormap"}}));
  // Default name map path: beside the output, named after the program.
  const std::string names = testing::ReadFile(dir_.File(
      "out/name_map_t62_manual_scope_missing_task_id_does_not_block_later_auto_scope.json"));
  EXPECT_NE(names.find("\"consume_pair\""), std::string::npos);
}

// §5.3 example 3 (T46): the TaskId array built in the parallel loop (aset/aget, one slot per
// iteration) becomes four explicit deps; the input read also finds the four fills.
TEST_F(DepirRunTest, T46TaskIdArrayDeps) {
  const auto r =
      Run(Program("t46_complete_task_id_array_deps_allow_auto_no_dep_for_fan_in_input") +
          " -o deps.json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json deps = Deps();
  EXPECT_EQ(deps["tasks"].size(), 5u);
  const std::string c = Id(1, 4);
  EXPECT_EQ(Edges(deps), (std::vector<Edge>{{Id(1, 0), c, "explicit"},
                                            {Id(1, 1), c, "explicit"},
                                            {Id(1, 2), c, "explicit"},
                                            {Id(1, 3), c, "explicit"},
                                            {Id(1, 3), c, "tensormap"},
                                            {Id(1, 2), c, "tensormap"},
                                            {Id(1, 1), c, "tensormap"},
                                            {Id(1, 0), c, "tensormap"}}));
}

// T34 after the pass: one MANUAL scope, the consume NoDep with the compiler edge to the loop's
// last TaskId. Only that explicit edge remains; the fills are no longer ordered (spec §3.4).
TEST_F(DepirRunTest, CompiledT34KeepsOnlyCompilerEdge) {
  testing::WriteFile(dir_.File("c.depir"), R"(kernel fill(out t: f32[64]) -> t
kernel consume(in x: f32[64]) -> x
orch main(scratch: f32[64]) layer_manual {
  scope manual candidate {
    carried = scratch
    last_tid = task_invalid()
    carried, last_tid = for _i in range(0, 4) iter(carried = carried, last_tid = last_tid) {
      carried, last_tid = submit fill(carried) [inout] edges=[]
      yield carried, last_tid
    }
    out = consume(carried) [nodep] edges=[last_tid@4] mark
  }
  return out
}
)");
  const auto r = Run("c.depir -o deps.json -q");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "");
  const nlohmann::json deps = Deps();
  EXPECT_EQ(deps["tasks"].size(), 5u);
  EXPECT_EQ(Edges(deps), (std::vector<Edge>{{Id(1, 3), Id(1, 4), "explicit"}}));
}

// create as a batched alloc_tensors (id consumed, creator edges), `out` runtime-allocated, a dynamic
// gather as one task reading its sources, branches from --set, task_dummy joins.
TEST_F(DepirRunTest, CreateDynamicBranchAndDummy) {
  testing::WriteFile(dir_.File("p.depir"), R"(kernel fill(out t: f32[4, 8]) -> t
kernel add(in a: f32[4, 8], inout b: f32[4, 8], in n: index) -> b
kernel consume(in x: f32[4, 8]) -> x
orch main(src: f32[4, 16], idx: i32[4, 8], rows: index, cond: bool) hand {
  buf = create(f32[rows, 8])
  a = fill(buf) [out]
  b = create(f32[4, 8]) manual_dep
  b2 = fill(b) [oe]
  g: f32[4, 8] = dynamic gather(src, idx)
  sel = if cond {
    yield a
  } else {
    yield g
  }
  _r, t1 = submit consume(sel) [in]
  b3 = add(a, b2, rows) [in, inout, scalar]
  j = task_dummy(deps=[t1])
  out, _ = submit consume(g) [nodep] deps=[j]
  return out
}
)");
  auto r = Run("p.depir -o deps.json --set rows=4 --set cond=false");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  nlohmann::json deps = Deps();
  EXPECT_EQ(Kernels(deps), (std::vector<int>{0, 0, 3, 2, 1, -1, 2}));
  // Both creates of the body are one batched alloc_tensors at its start (id 0, not a task):
  // the fill of `b` retains it; `a` is owned by its own fill (an `out`, task 1).
  EXPECT_EQ(Edges(deps), (std::vector<Edge>{{"0", "2", "creator"},
                                            {"3", "4", "creator"},
                                            {"1", "5", "creator"},
                                            {"0", "5", "creator"},
                                            {"4", "6", "explicit"},
                                            {"6", "7", "explicit"},
                                            {"3", "7", "creator"}}));
  EXPECT_NE(r.out.find(": 7 tasks, 1 allocs,"), std::string::npos) << r.out;
  const std::string names = testing::ReadFile(dir_.File("name_map_p.json"));
  EXPECT_NE(names.find("\"3\": \"gather\""), std::string::npos) << names;
  // The other branch: the first consume now reads the fill's output.
  r = Run("p.depir -o deps.json --set rows=4 --set cond=true");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  deps = Deps();
  EXPECT_EQ(Edges(deps)[1], (Edge{"1", "4", "creator"}));
}

// Creates are allocated the way generated code does it: one batched alloc_tensors at the start
// of each block (scope body, loop iteration, function body) for the creates directly in it; a
// create whose shape names a variable the block assigns is allocated alone where it stands.
TEST_F(DepirRunTest, CreatesAreBatchedPerBlock) {
  testing::WriteFile(dir_.File("p.depir"), R"(kernel fill(out t: f32[8]) -> t
kernel fill2(out t: f32[4, 8]) -> t
orch main(rows: index) hand {
  a = create(f32[8])
  scope auto {
    b = create(f32[8])
    c = create(f32[8])
    x = fill(b) [oe]
    y = fill(c) [oe]
  }
  for i in range(0, 2) {
    d = create(f32[8])
    z = fill(d) [oe]
  }
  m = rows
  e = create(f32[m, 8])
  v = fill2(e) [oe]
  w = fill(a) [oe]
  return w
}
)");
  auto r = Run("p.depir -o deps.json --set rows=4");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find(": 6 tasks, 5 allocs,"), std::string::npos) << r.out;
  // (0,0) a; (1,0) b and c together; (0,1), (0,3) d per iteration; (0,5) e alone.
  EXPECT_EQ(Edges(Deps()), (std::vector<Edge>{{Id(1, 0), Id(1, 1), "creator"},
                                              {Id(1, 0), Id(1, 2), "creator"},
                                              {Id(0, 1), Id(0, 2), "creator"},
                                              {Id(0, 3), Id(0, 4), "creator"},
                                              {Id(0, 5), Id(0, 6), "creator"},
                                              {Id(0, 0), Id(0, 7), "creator"}}));
}

// `while c`: c from --set is the trip count.
TEST_F(DepirRunTest, WhileTripCountFromSet) {
  testing::WriteFile(dir_.File("w.depir"), R"(kernel k(inout a: f32[8]) -> a
orch main(x: f32[8], c: index) hand {
  x = while c iter(x = x) {
    x = k(x) [inout]
    yield x
  }
  return x
}
)");
  const auto r = Run("--set c=3 w.depir -o deps.json");  // --set before the program
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(Deps()["tasks"].size(), 3u);
}

TEST_F(DepirRunTest, UnboundSetIsAnErrorAndWritesNothing) {
  const auto r =
      Run(Program("t26_if_yield_different_roots_adds_edges_for_both_possible_producers") +
          " -o deps.json");
  EXPECT_EQ(r.exit_code, 1);
  // Placed at the entry function's name (line 7, column 6).
  EXPECT_NE(r.err.find(".depir:7:6: main: parameter 'cond' is unbound (give it with --set "
                       "cond=...)"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1);
  EXPECT_FALSE(testing::Exists(dir_.File("deps.json")));
}

TEST_F(DepirRunTest, MissingFileIsAnError) {
  const auto r = Run("nope.depir -o deps.json");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("nope.depir"), std::string::npos) << r.err;
  EXPECT_FALSE(testing::Exists(dir_.File("deps.json")));
}

TEST_F(DepirRunTest, OutputsMustBeRegularFilesOtherThanTheProgram) {
  const std::string program =
      testing::ReadFile(Program("t02_auto_scope_raw_hazard_adds_compiler_edge_when_enabled"));
  testing::WriteFile(dir_.File("p.depir"), program);
  auto r = Run("p.depir -o ./p.depir");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err, "error: ./p.depir: is the input file p.depir; refusing to overwrite it\n");
  r = Run("p.depir -o deps.json --name-map p.depir");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err, "error: p.depir: is the input file p.depir; refusing to overwrite it\n");
  EXPECT_EQ(testing::ReadFile(dir_.File("p.depir")), program);
  // The capture and its name map in one file would leave only the one written last.
  r = Run("p.depir -o out.json --name-map ./out.json");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err,
            "error: out.json and ./out.json name the same file; give two different outputs\n");
  EXPECT_FALSE(testing::Exists(dir_.File("out.json")));
  testing::MakeFifo(dir_.File("deps.fifo"));
  r = Run("p.depir -o deps.fifo --name-map names.json");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err, "error: deps.fifo: is a FIFO, not a regular file; refusing to replace it\n");
  testing::MakeFifo(dir_.File("names.fifo"));
  r = Run("p.depir -o deps.json --name-map names.fifo");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err, "error: names.fifo: is a FIFO, not a regular file; refusing to replace it\n");
  EXPECT_FALSE(testing::Exists(dir_.File("deps.json")));
  EXPECT_FALSE(testing::Exists(dir_.File("names.json")));
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir_.path()),
                          std::filesystem::directory_iterator()),
            3);  // p.depir and the two FIFOs: no temporary file left
}

TEST_F(DepirRunTest, ParseErrorHasPosition) {
  testing::WriteFile(dir_.File("e.depir"), "kernel k(in a: f32[8]) -> a\norch main( {\n}\n");
  const auto r = Run("e.depir -o deps.json");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("e.depir:2:"), std::string::npos) << r.err;
  EXPECT_FALSE(testing::Exists(dir_.File("deps.json")));
}

TEST_F(DepirRunTest, ShapeMismatchAndRuntimeErrors) {
  testing::WriteFile(dir_.File("s.depir"), R"(kernel k(in a: f32[8]) -> a
orch main(x: f32[8]) hand {
  s = slice(x, [16], [0])
  y = k(s) [in]
  return y
}
)");
  auto r = Run("s.depir -o deps.json");
  EXPECT_EQ(r.exit_code, 1);
  // Run-time errors name the statement: file:line:col, function, message.
  EXPECT_NE(r.err.find("s.depir:3:3: main: slice [0, 16) of dimension 0 exceeds its size 8"),
            std::string::npos) << r.err;
  // A create's unbound dimension is reported at the create, not at its block's batched
  // allocation.
  testing::WriteFile(dir_.File("q.depir"), R"(kernel fill(out t: f32[8]) -> t
orch main(x: f32[8]) hand {
  scope auto {
    a = create(f32[q])
    y = fill(a) [oe]
  }
  return y
}
)");
  r = Run("q.depir -o deps.json");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("q.depir:4:5: main: symbol 'q' is unbound"), std::string::npos) << r.err;
  // AUTO inside MANUAL is a fatal runtime error.
  testing::WriteFile(dir_.File("m.depir"), R"(kernel k(in a: f32[8]) -> a
orch main(x: f32[8]) hand {
  scope manual {
    scope auto {
      y = k(x) [in]
    }
  }
  return y
}
)");
  r = Run("m.depir -o deps.json");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("m.depir:4:5: main: runtime error at scope auto"), std::string::npos)
      << r.err;
  EXPECT_FALSE(testing::Exists(dir_.File("deps.json")));
}

TEST_F(DepirRunTest, MalformedSetIsAUsageError) {
  const auto r = Run(Program("t34_fixed_trip_loop_fan_in_producer_exports_task_id_collection") +
                     " -o deps.json --set n");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_FALSE(testing::Exists(dir_.File("deps.json")));
}

// Issue item 6: each loop was capped at 2^22 trips but not the total, so two nested 4M-trip
// loops ran (and grew) without bound. The whole run is bounded; the error names the loop
// statement that crossed the bound.
TEST_F(DepirRunTest, NestedLoopsHitTheRunsWorkBound) {
  testing::WriteFile(dir_.File("nested.depir"), R"(kernel k(inout a: f32[8]) -> a
orch main(x: f32[8]) hand {
  x = for i in range(0, 4194304) iter(x = x) {
    x = for j in range(0, 4194304) iter(x = x) {
      yield x
    }
    yield x
  }
  return x
}
)");
  const auto r = Run("nested.depir -o deps.json");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("nested.depir:4:5: main: the run exceeds 16777216 loop iterations in all"),
            std::string::npos)
      << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1);
  EXPECT_FALSE(testing::Exists(dir_.File("deps.json")));
}

// The task bound, lowered so that the test stays small: the submit that crosses it is named.
TEST_F(DepirRunTest, SubmittedTasksAreBounded) {
  passes::Program program;
  std::string err;
  ASSERT_TRUE(passes::ParseDepir(R"(kernel k(inout a: f32[8]) -> a
orch main(x: f32[8]) hand {
  x = for i in range(0, 100) iter(x = x) {
    x = for j in range(0, 100) iter(x = x) {
      x = k(x) [inout]
      yield x
    }
    yield x
  }
  return x
}
)",
                                 "tasks.depir", &program, &err))
      << err;
  passes::ConvertToSsa(&program);
  DepirRunOptions options;
  options.filename = "tasks.depir";
  options.max_tasks = 250;
  shim::ShimRuntime runtime{shim::ShimConfig{}};
  EXPECT_FALSE(RunDepirOnShim(program, options, &runtime, &err));
  EXPECT_EQ(err,
            "tasks.depir:5:7: main: the run exceeds 250 submitted tasks in all (depgraph "
            "run's work bound)");
  EXPECT_EQ(runtime.task_count(), 250u);
  // Within the bounds the same program runs whole.
  options.max_tasks = 10000;
  options.max_iterations = 100 + 10000;
  shim::ShimRuntime whole{shim::ShimConfig{}};
  EXPECT_TRUE(RunDepirOnShim(program, options, &whole, &err)) << err;
  EXPECT_EQ(whole.task_count(), 10000u);
  options.max_iterations = 100 + 9999;
  shim::ShimRuntime short_one{shim::ShimConfig{}};
  EXPECT_FALSE(RunDepirOnShim(program, options, &short_one, &err));
  EXPECT_NE(err.find("tasks.depir:4:5: main: the run exceeds 10099 loop iterations"),
            std::string::npos)
      << err;
}

// Every reference program runs with some binding of its free names.
TEST_F(DepirRunTest, AllReferenceProgramsRun) {
  const std::string sets =
      " --set n_steps=3 --set cond=true --set offset=16 --set n=2 --set c0=true --set c1=false"
      " --set c2=true --set c3=false -q";
  const auto r = testing::RunCommand(
      "for f in " + testing::SourceDir() + "/data/passes/*.depir; do " + testing::CliBinary() +
          " run \"$f\" -o out.json" + sets + " || echo \"FAILED $f\"; done",
      dir_.path());
  EXPECT_EQ(r.out, "") << r.err;
}

}  // namespace
}  // namespace depgraph
