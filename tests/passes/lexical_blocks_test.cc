// LexicalBlocks: which definitions generated code can name at a call.
#include "depgraph_passes/lexical_blocks.h"

#include <gtest/gtest.h>

#include <string>

#include "depgraph_passes/depir_parser.h"

namespace depgraph::passes {
namespace {

constexpr const char* kProgram = R"(kernel k(inout x: f32[8]) -> x
orch main(p: f32[8]) hand {
  a = k(p) [inout]
  scope auto {
    b = k(a) [inout]
  }
  r = for i in range(0, 2) iter(c = a) {
    d = k(c) [inout]
    yield d
  }
  e = k(r) [inout]
  return e
}
)";

class LexicalBlocksTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string err;
    ASSERT_TRUE(ParseDepir(kProgram, "t.depir", &program_, &err)) << err;
  }
  const Function& fn() const { return program_.functions.at(0); }
  VarId Var(const std::string& name) const {
    for (size_t v = 0; v < fn().vars.size(); ++v) {
      if (fn().vars[v].name == name) return static_cast<VarId>(v);
    }
    ADD_FAILURE() << "no var " << name;
    return -1;
  }
  // The call defining `name` (an assignment directly in the body, a scope or a loop).
  const Expr* CallOf(const std::string& name) const {
    const VarId v = Var(name);
    const Expr* found = nullptr;
    auto walk = [&](const auto& self, const std::vector<Stmt>& body) -> void {
      for (const Stmt& s : body) {
        for (VarId d : s.defs) {
          if (d == v && s.kind == StmtKind::kAssign) found = &s.expr;
        }
        self(self, s.body);
      }
    };
    walk(walk, fn().body);
    return found;
  }
  Program program_;
};

TEST_F(LexicalBlocksTest, EarlierDefinitionsOfEnclosingBlocksAreVisible) {
  const LexicalBlocks blocks(fn());
  EXPECT_TRUE(blocks.VisibleAt(Var("p"), CallOf("a")));   // parameter
  EXPECT_TRUE(blocks.VisibleAt(Var("a"), CallOf("b")));   // body -> nested scope
  EXPECT_TRUE(blocks.VisibleAt(Var("c"), CallOf("d")));   // iter arg in its loop body
  EXPECT_TRUE(blocks.VisibleAt(Var("r"), CallOf("e")));   // loop return var after the loop
}

TEST_F(LexicalBlocksTest, ClosedBlocksAndLaterDefinitionsAreNot) {
  const LexicalBlocks blocks(fn());
  EXPECT_FALSE(blocks.VisibleAt(Var("b"), CallOf("e")));  // defined in a scope that closed
  EXPECT_FALSE(blocks.VisibleAt(Var("d"), CallOf("e")));  // defined in the loop body
  EXPECT_FALSE(blocks.VisibleAt(Var("e"), CallOf("b")));  // defined after the call
  EXPECT_FALSE(blocks.VisibleAt(Var("a"), CallOf("a")));  // a call's own result
}

}  // namespace
}  // namespace depgraph::passes
