// Lexical blocks of an orchestration function: which definitions generated code can name at a
// given call. Generated code declares a definition where its statement stands, so it is
// visible after that statement, in the same block and the blocks nested in it.
#pragma once

#include <unordered_map>
#include <vector>

#include "depgraph_passes/ir.h"

namespace depgraph::passes {

/// The block tree of one function, built once: block 0 is the function body; every scope body,
/// loop body, then- and else-branch is a child block. A statement's definitions (assignment
/// LHS, loop and if return vars) belong to the block holding the statement; a loop's iter args
/// and loop var to its body. Parameters belong to block 0, before every statement.
/// Build: O(statements). Query: O(nesting depth).
class LexicalBlocks {
 public:
  explicit LexicalBlocks(const Function& fn);

  /// Whether the definition `def` can be named at `call` (an expression of this function):
  /// its statement comes before the call's, and its block is the call's block or encloses it.
  /// Unknown vars and calls count as visible.
  bool VisibleAt(VarId def, const Expr* call) const;

 private:
  /// Where a definition or call stands: its block and its statement's pre-order position.
  struct Place {
    int block = 0;
    int order = 0;
  };

  void Index(const std::vector<Stmt>& body, int block);
  int NewBlock(int parent);

  std::vector<int> parent_;                            ///< per block; -1 for the body
  int statements_ = 0;                                 ///< statements indexed so far
  std::unordered_map<VarId, Place> defs_;              ///< per defined var
  std::unordered_map<const Expr*, Place> calls_;       ///< per call expression
};

}  // namespace depgraph::passes
