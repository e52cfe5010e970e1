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

namespace depgraph::passes {
namespace {

std::string CaseDir() { return std::string(DEPGRAPH_SOURCE_DIR) + "/data/passes"; }

std::vector<std::string> CaseFiles() {
  std::vector<std::string> out;
  for (const auto& e : std::filesystem::directory_iterator(CaseDir())) {
    if (e.path().extension() == ".depir") out.push_back(e.path().filename().string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

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
  EXPECT_EQ(files.size(), 73u);
  for (const auto& [name, reason] : KnownFailing()) {
    EXPECT_TRUE(std::find(files.begin(), files.end(), name) != files.end()) << name << " is not a case file";
  }
}

class ReferenceCase : public ::testing::TestWithParam<std::string> {};

TEST_P(ReferenceCase, ExpectationsHold) {
  const std::string file = GetParam();
  const std::string path = CaseDir() + "/" + file;
  Program prog;
  std::string err;
  ASSERT_TRUE(ParseDepirFile(path, &prog, &err)) << err;
  ASSERT_FALSE(prog.expects.empty()) << path << ": no expect lines";
  CaseRun run = RunCase(prog);
  // The transformed program must print and parse back unchanged.
  Program reparsed;
  std::string text = PrintDepir(run.derived);
  ASSERT_TRUE(ParseDepir(text, file, &reparsed, &err)) << err << "\n" << text;
  EXPECT_EQ(PrintDepir(reparsed), text);
  Program remat;
  std::string mat_text = PrintDepir(run.materialized);
  ASSERT_TRUE(ParseDepir(mat_text, file, &remat, &err)) << err << "\n" << mat_text;
  EXPECT_EQ(PrintDepir(remat), mat_text);

  std::vector<ExpectFailure> failures;
  for (const ExpectDirective& e : prog.expects) {
    for (ExpectFailure& f : EvaluateExpectation(e, run)) failures.push_back(std::move(f));
  }
  auto known = KnownFailing();
  auto it = known.find(file);
  if (it != known.end()) {
    EXPECT_FALSE(failures.empty()) << path << " now passes: remove it from data/passes/KNOWN_FAILING ("
                                   << it->second << ")";
    return;
  }
  for (const ExpectFailure& f : failures) {
    ADD_FAILURE() << "case " << path << "\n  expectation: " << f.expectation << "\n  fact: " << f.fact
                  << "\n  expected: " << f.expected << "\n  actual: " << f.actual;
  }
  if (!failures.empty()) ADD_FAILURE() << "pass output:\n" << text;
}

std::string CaseName(const ::testing::TestParamInfo<std::string>& info) {
  std::string n = info.param.substr(0, info.param.find('.'));
  for (char& c : n) if (!isalnum(static_cast<unsigned char>(c))) c = '_';
  return n;
}

INSTANTIATE_TEST_SUITE_P(Data, ReferenceCase, ::testing::ValuesIn(CaseFiles()), CaseName);

}  // namespace
}  // namespace depgraph::passes
