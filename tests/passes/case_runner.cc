#include "case_runner.h"

#include <algorithm>
#include <cctype>
#include <filesystem>

#include "depgraph_passes/depir_parser.h"
#include "depgraph_passes/depir_printer.h"

namespace depgraph::passes {

std::string PassesDataDir() { return std::string(DEPGRAPH_SOURCE_DIR) + "/data/passes"; }

std::vector<std::string> DepirFiles(const std::string& dir) {
  std::vector<std::string> out;
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    if (e.path().extension() == ".depir") out.push_back(e.path().filename().string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

namespace {

// Whether `program` prints, parses back and prints to the same text.
bool RoundTrips(const Program& program, const std::string& name, std::string* text,
                std::string* err) {
  *text = PrintDepir(program);
  Program reparsed;
  if (!ParseDepir(*text, name, &reparsed, err)) {
    *err += "\n" + *text;
    return false;
  }
  if (PrintDepir(reparsed) != *text) {
    *err = name + ": printed program does not parse back to the same text\n" + *text;
    return false;
  }
  return true;
}

}  // namespace

bool RunCaseFile(const std::string& path, CaseOutcome* outcome, std::string* err) {
  Program prog;
  if (!ParseDepirFile(path, &prog, err)) return false;
  if (prog.expects.empty()) {
    *err = path + ": no expect lines";
    return false;
  }
  outcome->run = RunCase(prog);
  std::string materialized_text;
  if (!RoundTrips(outcome->run.derived, path, &outcome->derived_text, err) ||
      !RoundTrips(outcome->run.materialized, path, &materialized_text, err)) {
    return false;
  }
  outcome->failures.clear();
  for (const ExpectDirective& e : prog.expects) {
    for (ExpectFailure& f : EvaluateExpectation(e, outcome->run)) {
      outcome->failures.push_back(std::move(f));
    }
  }
  return true;
}

std::string DescribeFailure(const std::string& path, const ExpectFailure& f) {
  return "case " + path + "\n  expectation: " + f.expectation + "\n  fact: " + f.fact +
         "\n  expected: " + f.expected + "\n  actual: " + f.actual;
}

std::string CaseTestName(const ::testing::TestParamInfo<std::string>& info) {
  std::string n = info.param.substr(0, info.param.find('.'));
  for (char& c : n) {
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return n;
}

}  // namespace depgraph::passes
