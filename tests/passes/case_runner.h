// Shared by the data-driven pass tests: finding .depir case files and running one case
// (parse, pass per its `run` line, print/parse round trip, every `expect` fact).
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "depgraph_passes/expectation.h"

namespace depgraph::passes {

/// data/passes in the source tree.
std::string PassesDataDir();

/// The `.depir` file names directly in `dir`, sorted. O(entries).
std::vector<std::string> DepirFiles(const std::string& dir);

/// One case after its run.
struct CaseOutcome {
  CaseRun run;
  std::string derived_text;               ///< the pass output, printed
  std::vector<ExpectFailure> failures;    ///< facts that do not hold
};

/// Parses `path`, runs it as its `run` line says, checks that the pass output (and the
/// materialized program) print and parse back unchanged, and evaluates every expectation.
/// False with *err when the file does not parse, has no expectations, or fails the round
/// trip. O(program size x accesses).
bool RunCaseFile(const std::string& path, CaseOutcome* outcome, std::string* err);

/// "case <path>\n  expectation: ...\n  fact: ...\n  expected: ...\n  actual: ..."
std::string DescribeFailure(const std::string& path, const ExpectFailure& failure);

/// A test-name-safe name for a case file ("t01_x.depir" -> "t01_x").
std::string CaseTestName(const ::testing::TestParamInfo<std::string>& info);

}  // namespace depgraph::passes
