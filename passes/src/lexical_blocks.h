// Lexical blocks of an orchestration function: which definitions generated code can still name
// at a given call (a definition is visible in its own block and the blocks nested in it).
#pragma once

#include <unordered_map>
#include <vector>

#include "depgraph_passes/ir.h"

namespace depgraph::passes {

/// The block tree of one function, built once: block 0 is the function body; every scope body,
/// loop body, then- and else-branch is a child block. A statement's definitions (assignment
/// LHS, loop and if return vars) belong to the block holding the statement; a loop's iter args
/// and loop var to its body. Parameters belong to block 0.
/// Build: O(statements). Query: O(nesting depth).
class LexicalBlocks {
 public:
  explicit LexicalBlocks(const Function& fn);

  /// Whether the definition `def` can be named at `call` (an expression of this function):
  /// its block is the call's block or encloses it. Unknown vars count as visible.
  bool VisibleAt(VarId def, const Expr* call) const;

 private:
  void Index(const std::vector<Stmt>& body, int block);
  int NewBlock(int parent);

  std::vector<int> parent_;                          ///< per block; -1 for the body
  std::unordered_map<VarId, int> def_block_;         ///< defining block per var
  std::unordered_map<const Expr*, int> call_block_;  ///< block of each call expression
};

}  // namespace depgraph::passes
