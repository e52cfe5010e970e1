// Sound mode rule (k) of AutoDeriveTaskDependencies: the bindings whose run-time value the
// pass's storage locations do not describe. Internal header.
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include "auto_derive_prepass.h"
#include "depgraph_passes/ir.h"

namespace depgraph::passes {

/// The reads the pass cannot place, found once per function:
/// (1) an iter arg (and its loop result) whose yielded value may lie outside the initial
///     value's buffer region (carried values swapped between buffers);
/// (2) a definition from before a loop read in its body while the body reassigns the name
///     (the read sees the previous iteration's value);
/// (3) a definition made in a branch of an `if`, read outside that `if` while the name has
///     other definitions (the branch that ran decides).
class AmbiguousBindings {
 public:
  /// Walks `fn` once. O(statements x names + V) for the branch definitions' name lookups.
  AmbiguousBindings(const Function& fn, const FunctionFacts& facts);

  /// Whether a read of `v`, made inside the `if` statements `open_ifs`, is one of them.
  /// O(log V + |open_ifs|).
  bool AmbiguousAt(VarId v, const std::vector<const Stmt*>& open_ifs) const;

 private:
  void Collect(const std::vector<Stmt>& body);
  bool LocationWithin(VarId inner, VarId outer) const;
  void NamesDefinedIn(const std::vector<Stmt>& body, std::set<std::string>* names) const;
  void MarkOuterReadsOf(const std::vector<Stmt>& body, const std::set<VarId>& inside,
                        const std::set<std::string>& reassigned);
  bool HasOtherDefinition(VarId w) const;

  const Function& fn_;
  const FunctionFacts& facts_;
  std::set<VarId> ambiguous_;                   ///< (1) and (2)
  std::map<VarId, const Stmt*> branch_def_if_;  ///< (3): the if a branch definition is in
};

}  // namespace depgraph::passes
