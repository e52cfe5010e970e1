// Name resolution shared by the depir parser and printer: a use of a name refers to its
// latest textual definition; loop variables and iter args are visible only inside the body.
#pragma once

#include <string>
#include <unordered_map>
#include <vector>

#include "depgraph_passes/ir.h"

namespace depgraph::passes {

/// name -> current VarId, with body-local bindings that are undone at the end of a loop body.
class NameEnv {
 public:
  /// A body-local binding and what it shadowed.
  struct Local {
    std::string name;
    VarId prev = -1;
    VarId local = -1;
  };

  /// The VarId `name` currently denotes, or -1. O(1) average.
  VarId Lookup(const std::string& name) const;

  /// Makes `name` denote `v`. O(1) average.
  void Bind(const std::string& name, VarId v);

  /// Binds `name` to `v` and records it as body-local in *locals. O(1) average.
  void BindLocal(const std::string& name, VarId v, std::vector<Local>* locals);

  /// At the end of a loop body: every local name still bound to its local Var is restored to
  /// what it shadowed (a body that redefined the name keeps the redefinition). O(locals).
  void EndLocals(const std::vector<Local>& locals);

 private:
  std::unordered_map<std::string, VarId> map_;
};

}  // namespace depgraph::passes
