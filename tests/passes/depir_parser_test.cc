// Parser tests: the §5.3 examples build the expected structures; malformed inputs give one
// exact `file:line:col: message` error; truncated and mutated inputs never crash.
#include "depgraph_passes/depir_parser.h"

#include <gtest/gtest.h>

#include <random>
#include <string>

#include "depir_examples.h"

namespace depgraph::passes {
namespace {

Program MustParse(const std::string& text) {
  Program p;
  std::string err;
  EXPECT_TRUE(ParseDepir(text, "t.depir", &p, &err)) << err;
  return p;
}

std::string ErrorOf(const std::string& text) {
  Program p;
  std::string err;
  EXPECT_FALSE(ParseDepir(text, "t.depir", &p, &err)) << "parsed: " << text;
  return err;
}

TEST(DepirParser, ExampleT62Structure) {
  Program p = MustParse(testing::kExampleT62);
  ASSERT_EQ(p.kernels.size(), 2u);
  EXPECT_EQ(p.kernels[0].name, "fill");
  EXPECT_EQ(p.kernels[0].params[0].dir, ParamDir::kOut);
  EXPECT_EQ(p.kernels[1].returns, std::vector<int>{1});
  ASSERT_EQ(p.functions.size(), 1u);
  const Function& f = p.functions[0];
  EXPECT_FALSE(f.auto_scope);
  ASSERT_EQ(f.body.size(), 3u);
  EXPECT_EQ(f.body[0].kind, StmtKind::kScope);
  EXPECT_TRUE(f.body[0].manual);
  EXPECT_FALSE(f.body[1].manual);
  const Stmt& sub = f.body[1].body[2];
  ASSERT_EQ(sub.kind, StmtKind::kAssign);
  EXPECT_TRUE(sub.expr.submit);
  EXPECT_EQ(sub.expr.callee, "consume_pair");
  EXPECT_EQ(sub.expr.attrs.arg_directions, (std::vector<ArgDir>{ArgDir::kInput, ArgDir::kInput}));
  EXPECT_FALSE(sub.expr.attrs.compiler_manual_dep_edges.has_value());
  // manual_produced, defined inside the MANUAL scope, is visible in the later scope.
  EXPECT_EQ(f.vars[sub.expr.args[0].var].name, "manual_produced");
  // return out refers to the submit's first LHS.
  EXPECT_EQ(f.body[2].values[0].var, sub.defs[0]);
  const Stmt& slice = f.body[1].body[0];
  EXPECT_EQ(slice.expr.kind, ExprKind::kSlice);
  EXPECT_EQ(slice.expr.offsets, std::vector<Operand>{Operand::OfConst(32)});
  ASSERT_EQ(p.runs.size(), 1u);
  EXPECT_TRUE(p.runs[0].Has("analyze"));
  ASSERT_EQ(p.expects.size(), 5u);
  EXPECT_EQ(p.expects[0].target.kind, TargetKind::kCall);
  EXPECT_EQ(p.expects[0].target.name, "consume_pair");
  EXPECT_EQ(p.expects[0].target.index, 1);
  ASSERT_EQ(p.expects[0].facts.size(), 3u);
  EXPECT_EQ(p.expects[0].facts[1].items, (std::vector<std::string>{"in", "nodep"}));
  EXPECT_EQ(p.expects[2].target.kind, TargetKind::kScope);
  EXPECT_EQ(p.expects[4].target.kind, TargetKind::kMat);
  EXPECT_EQ(p.expects[4].facts[0].text, "MANUAL{ fill } AUTO{ fill consume_pair }");
}

// Statements and functions keep where they start (for run-time errors); positions do not take
// part in equality, so a re-parse of the printed program still compares equal.
TEST(DepirParser, RecordsSourcePositions) {
  Program p = MustParse("kernel k(in a: f32[8]) -> a\norch main(x: f32[8]) hand {\n"
                        "  scope auto {\n    y = k(x) [in]\n  }\n  return y\n}\n");
  const Function& fn = p.functions.at(0);
  EXPECT_EQ(fn.pos.line, 2);
  EXPECT_EQ(fn.pos.col, 6);
  const Stmt& scope = fn.body.at(0);
  EXPECT_EQ(scope.pos.line, 3);
  EXPECT_EQ(scope.pos.col, 3);
  EXPECT_EQ(scope.body.at(0).pos.line, 4);
  EXPECT_EQ(scope.body.at(0).pos.col, 5);
  EXPECT_EQ(fn.body.at(1).pos.line, 6);
  Stmt moved = scope;
  moved.pos = {40, 1};
  EXPECT_EQ(moved, scope);
}

TEST(DepirParser, ExampleT34LoopBindings) {
  Program p = MustParse(testing::kExampleT34);
  const Function& f = p.functions[0];
  EXPECT_TRUE(f.auto_scope);
  const Stmt& loop = f.body[2];
  ASSERT_EQ(loop.kind, StmtKind::kFor);
  EXPECT_EQ(loop.start, Operand::OfConst(0));
  EXPECT_EQ(loop.stop, Operand::OfConst(4));
  EXPECT_EQ(loop.step, Operand::OfConst(1));
  ASSERT_EQ(loop.iters.size(), 2u);
  EXPECT_EQ(loop.iters[0].init.var, f.body[0].defs[0]);  // carried = carried (outer)
  EXPECT_EQ(loop.iters[1].init.var, f.body[1].defs[0]);  // last_tid seed
  // Inside the body, `carried` is the iter arg.
  EXPECT_EQ(loop.body[0].expr.args[0].var, loop.iters[0].var);
  // The yield uses the body's submit results.
  EXPECT_EQ(loop.body[1].values[0].var, loop.body[0].defs[0]);
  // After the loop, `carried` is the return var.
  ASSERT_EQ(loop.defs.size(), 2u);
  EXPECT_EQ(f.body[3].expr.args[0].var, loop.defs[0]);
  EXPECT_EQ(f.vars[loop.defs[1]].kind, VarKind::kReturnVar);
}

TEST(DepirParser, ExampleT46PatternBAndArrays) {
  Program p = MustParse(testing::kExampleT46);
  const Function& f = p.functions[0];
  const Stmt& scope = f.body[0];
  const Stmt& loop = scope.body[1];
  EXPECT_TRUE(loop.parallel);
  EXPECT_TRUE(loop.iters.empty());
  EXPECT_TRUE(loop.defs.empty());
  const Stmt& aset = loop.body[1];
  EXPECT_EQ(aset.expr.kind, ExprKind::kArraySet);
  EXPECT_EQ(aset.expr.args[1].var, loop.loop_var);
  EXPECT_EQ(aset.expr.nested[0].kind, ExprKind::kVar);
  // The first buf aset reads `tids` as redefined inside the pattern-B loop (it leaks out).
  const Stmt& b0 = scope.body[3];
  ASSERT_EQ(b0.expr.nested[0].kind, ExprKind::kArrayGet);
  EXPECT_EQ(b0.expr.nested[0].args[0].var, aset.defs[0]);
  const Stmt& sub = scope.body[7];
  EXPECT_EQ(sub.expr.attrs.manual_dep_edges, std::vector<VarId>{scope.body[6].defs[0]});
}

TEST(DepirParser, LoopVarAndIterArgsAreBodyLocal) {
  std::string err = ErrorOf(
      "orch m(x: f32[4]) {\n  r = for i in range(4) iter(c = x) {\n    yield c\n  }\n"
      "  y = c\n}\n");
  EXPECT_EQ(err, "t.depir:5:7: undefined variable 'c'");
  EXPECT_EQ(ErrorOf("orch m(x: f32[4]) {\n  for i in range(4) {\n  }\n  y = i\n}\n"),
            "t.depir:4:7: undefined variable 'i'");
}

TEST(DepirParser, TypesViewsAndMemrefs) {
  Program p = MustParse(
      "kernel k(in a: f32[64, 32] view(stride=[64, 1], DN, valid=[31, 32], pad=zero), "
      "inout b: f32[64] memref(shared_ddr, off, 256), in n: index, in c: bool, in t: task_id, "
      "in ts: task_id[4]) -> b\n");
  const Kernel& k = p.kernels[0];
  ASSERT_TRUE(k.params[0].type.view.has_value());
  EXPECT_EQ(k.params[0].type.view->layout, Layout::kDN);
  EXPECT_EQ(k.params[0].type.view->valid->size(), 2u);
  EXPECT_EQ(*k.params[0].type.view->pad, "zero");
  EXPECT_TRUE(k.params[1].type.memref->offset.symbolic);
  EXPECT_EQ(k.params[1].type.memref->size, 256);
  EXPECT_EQ(k.params[2].type.kind, TypeKind::kIndex);
  EXPECT_EQ(k.params[5].type.kind, TypeKind::kTaskIdArray);
  EXPECT_EQ(k.params[5].type.extent, 4);
}

TEST(DepirParser, ErrorMessages) {
  const std::string k = "kernel k(in x: f32[4]) -> x\n";
  EXPECT_EQ(ErrorOf("kernel k(in x: f32[4]\n"), "t.depir:2:1: expected ')'");
  EXPECT_EQ(ErrorOf("kernel k(on x: f32[4])\n"), "t.depir:1:10: expected 'in', 'out' or 'inout'");
  EXPECT_EQ(ErrorOf("kernel k(in x: f33[4])\n"), "t.depir:1:16: unknown type 'f33'");
  EXPECT_EQ(ErrorOf("kernel k(in x: f32[4]) -> y\n"), "t.depir:1:27: unknown parameter 'y'");
  EXPECT_EQ(ErrorOf(k + "kernel k(in x: f32[4])\n"), "t.depir:2:8: duplicate kernel 'k'");
  EXPECT_EQ(ErrorOf("func m() {}\n"), "t.depir:1:1: expected 'kernel', 'orch', 'run' or 'expect'");
  EXPECT_EQ(ErrorOf(k + "orch m(x: f32[4]) {\n  y = k(x) [in\n}\n"), "t.depir:4:1: expected ']'");
  EXPECT_EQ(ErrorOf(k + "orch m(x: f32[4]) {\n  y = k(x [in]\n}\n"), "t.depir:3:11: expected ')'");
  EXPECT_EQ(ErrorOf(k + "orch m(x: f32[4]) {\n  y = k(x) [in, in]\n}\n"),
            "t.depir:3:12: call to 'k' has 1 arguments but 2 directions");
  EXPECT_EQ(ErrorOf(k + "orch m(x: f32[4]) {\n  y = k(x) [inn]\n}\n"),
            "t.depir:3:13: unknown direction 'inn'");
  EXPECT_EQ(ErrorOf(k + "orch m(x: f32[4]) {\n  y = k(z) [in]\n}\n"),
            "t.depir:3:9: undefined variable 'z'");
  EXPECT_EQ(ErrorOf(k + "orch m(x: f32[4]) {\n  y = k(x) [in]\n"), "t.depir:4:1: expected '}'");
  EXPECT_EQ(ErrorOf(k + "orch m(x: f32[4]) {\n  scope both { }\n}\n"),
            "t.depir:3:9: expected 'auto' or 'manual'");
  EXPECT_EQ(ErrorOf(k + "orch m(x: f32[4]) {\n  y = k(x) [in] deps=[x@2]\n}\n"),
            "t.depir:3:23: no definition 'x@2'");
  EXPECT_EQ(ErrorOf(k + "orch m(x: f32[4]) {\n  a, b = for i in range(4) iter(c = x) {\n  }\n}\n"),
            "t.depir:3:10: loop has 1 iter args but 2 return names");
  EXPECT_EQ(ErrorOf(k + "orch m(x: f32[4]) {\n  for i in loop(4) {\n  }\n}\n"),
            "t.depir:3:12: expected 'range' or 'parallel'");
  EXPECT_EQ(ErrorOf(k + "orch m(x: f32[4]) {\n  for i in range() {\n  }\n}\n"),
            "t.depir:3:18: expected 1 to 3 loop bounds");
  EXPECT_EQ(ErrorOf(k + "orch m(x: f32[4]) {\n  eval x\n}\n"), "t.depir:3:8: expected call after 'eval'");
  EXPECT_EQ(ErrorOf(k + "orch m(x: f32[4]) {\n  y = create(f32, [4])\n}\n"), "t.depir:3:17: expected '['");
  EXPECT_EQ(ErrorOf(k + "orch m(x: f32[4]) {\n  y = x $\n}\n"), "t.depir:3:9: unexpected character '$'");
  EXPECT_EQ(ErrorOf("expect k#1 \"unterminated\n"), "t.depir:1:12: unterminated string");
  EXPECT_EQ(ErrorOf("expect k#99999999999999999999\n"), "t.depir:1:10: integer out of range");
  EXPECT_EQ(ErrorOf("expect nothing\n"), "t.depir:1:8: expected expect target");
  EXPECT_EQ(ErrorOf("run\n"), "t.depir:2:1: expected run flag");
}

TEST(DepirParser, TypedSingleAssignment) {
  Program p = MustParse("orch m(x: f32[64]) {\n  s: f32[32] view(stride=[1], ND) = slice(x, [32], [0])\n}\n");
  const Function& f = p.functions[0];
  const Var& s = f.vars[f.body[0].defs[0]];
  ASSERT_TRUE(s.type.has_value());
  EXPECT_EQ(TypeText(*s.type), "f32[32] view(stride=[1], ND)");
  EXPECT_EQ(ErrorOf("orch m(x: f32[64]) {\n  a: f32[4], b = x\n}\n"), "t.depir:2:12: expected '='");
}

TEST(DepirParser, CommentsAndHashTargets) {
  Program p = MustParse("# leading comment\nrun analyze // trailing\nexpect k#2 mark # note\n");
  ASSERT_EQ(p.expects.size(), 1u);
  EXPECT_EQ(p.expects[0].target.index, 2);
  EXPECT_EQ(p.expects[0].facts.size(), 1u);
}

TEST(DepirParser, NestingLimit) {
  std::string text = "orch m() {\n";
  for (int i = 0; i < 300; ++i) text += "scope auto {\n";
  std::string err = ErrorOf(text);
  EXPECT_NE(err.find("nesting too deep"), std::string::npos) << err;
}

// Every prefix and many random byte mutations of valid programs: no crash, and an error is
// always one line with a position.
TEST(DepirParser, FilesThatAreNotRegularAreOneLineErrors) {
  Program p;
  std::string err;
  const std::string dir = std::string(DEPGRAPH_SOURCE_DIR) + "/data/passes";
  EXPECT_FALSE(ParseDepirFile(dir, &p, &err));  // was: an empty program
  EXPECT_EQ(err, dir + ": is a directory");
  // Devices and FIFOs: tests/depgraph_cli/derive_command_test.cc, bounded in a subprocess.
  EXPECT_FALSE(ParseDepirFile("/nonexistent/p.depir", &p, &err));
  EXPECT_EQ(err, "/nonexistent/p.depir: No such file or directory");
}

TEST(DepirParser, FuzzTruncationsAndMutations) {
  std::mt19937 rng(12345);
  const std::string alphabet = "(){}[],=:#@-> \n\"abc019_\x01\xff";
  for (const char* example :
       {testing::kExampleT62, testing::kExampleT34, testing::kExampleT46, testing::kEverything}) {
    std::string text = example;
    for (size_t n = 0; n <= text.size(); ++n) {
      Program p;
      std::string err;
      if (!ParseDepir(text.substr(0, n), "f", &p, &err)) {
        EXPECT_EQ(err.find('\n'), std::string::npos) << err;
        EXPECT_EQ(err.rfind("f:", 0), 0u) << err;
      }
    }
    for (int round = 0; round < 2000; ++round) {
      std::string m = text;
      int edits = 1 + static_cast<int>(rng() % 4);
      for (int e = 0; e < edits && !m.empty(); ++e) {
        size_t at = rng() % m.size();
        switch (rng() % 3) {
          case 0: m[at] = alphabet[rng() % alphabet.size()]; break;
          case 1: m.erase(at, 1 + rng() % 8); break;
          default: m.insert(at, 1, alphabet[rng() % alphabet.size()]); break;
        }
      }
      Program p;
      std::string err;
      if (!ParseDepir(m, "f", &p, &err)) {
        EXPECT_EQ(err.find('\n'), std::string::npos) << err;
      }
    }
  }
}

}  // namespace
}  // namespace depgraph::passes
