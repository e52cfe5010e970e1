// The `@k` numbering of definitions (spec §5.3) and reference resolution.
#include "depgraph_passes/var_numbering.h"

#include <gtest/gtest.h>

#include <map>

#include "depgraph_passes/depir_parser.h"
#include "depir_examples.h"

namespace depgraph::passes {
namespace {

TEST(VarNumbering, LastTidInExample2) {
  Program p;
  std::string err;
  ASSERT_TRUE(ParseDepir(testing::kExampleT34, "t34", &p, &err)) << err;
  const Function& f = p.functions[0];
  const Stmt& loop = f.body[2];
  std::vector<int> ord = DefinitionOrdinals(f);
  VarId seed = f.body[1].defs[0];
  VarId iter = loop.iters[1].var;
  VarId tail = loop.body[0].defs[1];
  VarId ret = loop.defs[1];
  EXPECT_EQ(ord[seed], 1);
  EXPECT_EQ(ord[iter], 2);
  EXPECT_EQ(ord[tail], 3);
  EXPECT_EQ(ord[ret], 4);
  EXPECT_EQ(VarRefText(f, ord, ret), "last_tid@4");
  EXPECT_EQ(ResolveVarRef(f, "last_tid@1", &err), seed);
  EXPECT_EQ(ResolveVarRef(f, "last_tid@2", &err), iter);
  EXPECT_EQ(ResolveVarRef(f, "last_tid@3", &err), tail);
  EXPECT_EQ(ResolveVarRef(f, "last_tid@4", &err), ret);
  EXPECT_EQ(ResolveVarRef(f, "last_tid", &err), ret);  // bare name = last definition
  // carried: the param-less alias @1, iter arg @2, body submit @3, return var @4.
  EXPECT_EQ(ResolveVarRef(f, "carried@4", &err), loop.defs[0]);
  EXPECT_EQ(ResolveVarRef(f, "last_tid@5", &err), -1);
  EXPECT_EQ(err, "no definition 'last_tid@5' in main");
}

TEST(VarNumbering, VarIdOrderIsNumberingOrder) {
  for (const char* text : {testing::kExampleT62, testing::kExampleT34, testing::kExampleT46}) {
    Program p;
    std::string err;
    ASSERT_TRUE(ParseDepir(text, "x", &p, &err)) << err;
    const Function& f = p.functions[0];
    std::vector<int> ord = DefinitionOrdinals(f);
    std::map<std::string, int> seen;
    for (size_t v = 0; v < f.vars.size(); ++v) EXPECT_EQ(ord[v], ++seen[f.vars[v].name]);
  }
}

TEST(VarNumbering, IfBranchesThenReturnVars) {
  Program p;
  std::string err;
  ASSERT_TRUE(ParseDepir("orch m(c: bool, a: f32[4]) {\n"
                         "  v = if c {\n    v = a\n    yield v\n  } else {\n    v = a\n    yield v\n  }\n}\n",
                         "x", &p, &err))
      << err;
  const Function& f = p.functions[0];
  std::vector<int> ord = DefinitionOrdinals(f);
  EXPECT_EQ(ord[f.body[0].body[0].defs[0]], 1);
  EXPECT_EQ(ord[f.body[0].else_body[0].defs[0]], 2);
  EXPECT_EQ(ord[f.body[0].defs[0]], 3);
}

}  // namespace
}  // namespace depgraph::passes
