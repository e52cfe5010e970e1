// Every data/passes/*.depir reference case: parse, run AutoDeriveTaskDependencies as its `run`
// line says (then MaterializeRuntimeScopes), and check every `expect` fact. Cases listed in
// data/passes/KNOWN_FAILING must still fail (so fixing one forces its removal from the list).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "depgraph_passes/depir_parser.h"
#include "depgraph_passes/depir_printer.h"
#include "depgraph_passes/expectation.h"
#include "case_runner.h"

namespace depgraph::passes {
namespace {

std::string CaseDir() { return PassesDataDir(); }

std::vector<std::string> CaseFiles() { return DepirFiles(CaseDir()); }

/// KNOWN_FAILING: "file.depir  reason..." per line; '#' lines and blank lines ignored.
std::map<std::string, std::string> KnownFailing() {
  std::map<std::string, std::string> out;
  std::ifstream in(CaseDir() + "/KNOWN_FAILING");
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    size_t sp = line.find_first_of(" \t");
    out[line.substr(0, sp)] = sp == std::string::npos ? "" : line.substr(sp + 1);
  }
  return out;
}

TEST(ReferenceCases, KnownFailingNamesExistingCases) {
  auto files = CaseFiles();
  EXPECT_EQ(files.size(), 74u);
  for (const auto& [name, reason] : KnownFailing()) {
    EXPECT_TRUE(std::find(files.begin(), files.end(), name) != files.end()) << name << " is not a case file";
  }
}

class ReferenceCase : public ::testing::TestWithParam<std::string> {};

TEST_P(ReferenceCase, ExpectationsHold) {
  const std::string file = GetParam();
  const std::string path = CaseDir() + "/" + file;
  CaseOutcome outcome;
  std::string err;
  ASSERT_TRUE(RunCaseFile(path, &outcome, &err)) << err;
  auto known = KnownFailing();
  auto it = known.find(file);
  if (it != known.end()) {
    EXPECT_FALSE(outcome.failures.empty())
        << path << " now passes: remove it from data/passes/KNOWN_FAILING (" << it->second << ")";
    return;
  }
  for (const ExpectFailure& f : outcome.failures) ADD_FAILURE() << DescribeFailure(path, f);
  if (!outcome.failures.empty()) ADD_FAILURE() << "pass output:\n" << outcome.derived_text;
}

INSTANTIATE_TEST_SUITE_P(Data, ReferenceCase, ::testing::ValuesIn(CaseFiles()), CaseTestName);

}  // namespace
}  // namespace depgraph::passes
