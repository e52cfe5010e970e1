// Evaluation of `expect` facts (data/passes/README.md) against the result of running
// AutoDeriveTaskDependencies (and MaterializeRuntimeScopes) on a depir program.
#pragma once

#include <string>
#include <vector>

#include "depgraph_passes/auto_derive_task_dependencies.h"
#include "depgraph_passes/ir.h"

namespace depgraph::passes {

/// A program run as its `run` directive says: the input, the pass output, its report, and the
/// pass output after MaterializeRuntimeScopes.
struct CaseRun {
  Program original;
  Program derived;
  Program materialized;
  AutoDeriveReport report;
};

/// Runs the pass per `prog.runs` (flags `analyze`, `noanalyze`, `debug`, `sound`; no run =
/// defaults),
/// then MaterializeRuntimeScopes on a copy. O(pass cost).
CaseRun RunCase(const Program& prog);

/// One failed fact: the expectation line text, the fact, what was expected and what was seen.
struct ExpectFailure {
  std::string expectation;
  std::string fact;
  std::string expected;
  std::string actual;
};

/// Checks every fact of `expect` against `run`; returns one entry per failed fact (empty =
/// all hold). Unknown targets or facts and unresolvable references are failures, never
/// exceptions. O(program size * facts).
std::vector<ExpectFailure> EvaluateExpectation(const ExpectDirective& expect, const CaseRun& run);

}  // namespace depgraph::passes
