// `depgraph audit` as a CI gate (apps/depgraph/audit_command.cc): --format, --strict,
// --warnings-as-errors, --allow-empty, the coverage warnings on stderr, the step summary, and
// -o for the CI formats.
#include "audit_command.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>

#include "audit/audit_graph_builder.h"
#include "test_util.h"

namespace depgraph {
namespace {

using testing::CommandResult;
using testing::ReadFile;
using testing::TempDir;
using testing::WriteFile;

// Runs the binary in `dir`; GITHUB_STEP_SUMMARY is unset unless `env` sets it.
CommandResult Audit(const TempDir& dir, const std::string& args, const std::string& env = "") {
  return testing::RunCommand("unset GITHUB_STEP_SUMMARY && " + env +
                                 testing::BoundedCommand(testing::CliBinary()) + "audit " + args,
                             dir.path());
}

size_t CountLinesStartingWith(const std::string& text, const std::string& prefix) {
  size_t n = 0;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) n += line.rfind(prefix, 0) == 0 ? 1 : 0;
  return n;
}

std::string Probe() { return testing::SourceDir() + "/data/real/dep_probe/default/deps.json"; }

// A task whose OUTPUT slot no creator row names: a coverage gap, no race.
std::string UnplacedOutput() {
  testing::GraphBuilder b;
  b.Task(1, {testing::Output()});
  return b.Json();
}

constexpr const char* kGap =
    "1 of 1 output slot cannot be placed (no creator row names them): races on their bytes "
    "cannot be seen";

// Hostile flags pass (round 3): CLI11 read --max-findings -1 as 2^64-1 and 10^30 as 2^64-1
// (exit 0, every finding listed). A sign, a word or an overflow is now a usage error (exit 2,
// one error line and the usage hint) for audit and check alike.
TEST(AuditCommand, MaxFindingsTakesOnlyAnUnsignedInteger) {
  TempDir dir;
  const std::string program =
      testing::SourceDir() + "/data/passes/t01_manual_scope_raw_hazard_is_left_to_user_deps.depir";
  for (const std::string command : {"audit " + Probe(), "check " + program}) {
    for (const char* value : {"-1", "1000000000000000000000000000000", "18446744073709551616",
                              "+5", "1e3", "abc"}) {
      const CommandResult r = testing::RunCommand(
          testing::BoundedCommand(testing::CliBinary()) + command + " --max-findings " + value,
          dir.path());
      EXPECT_EQ(r.exit_code, 2) << command << " " << value << r.err;
      EXPECT_EQ(r.out, "") << command << " " << value;
      EXPECT_EQ(r.err.rfind("error: ", 0), 0u) << r.err;
      EXPECT_NE(r.err.find("--max-findings"), std::string::npos) << r.err;
      EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 2) << r.err;  // + usage hint
    }
    for (const char* value : {"0", "3", "18446744073709551615"}) {
      const CommandResult r = testing::RunCommand(
          testing::BoundedCommand(testing::CliBinary()) + command + " --max-findings " + value,
          dir.path());
      EXPECT_NE(r.exit_code, 2) << command << " " << value << r.err;
      EXPECT_NE(r.exit_code, 1) << command << " " << value << r.err;
    }
  }
}

TEST(AuditCommandGate, AnEmptyCaptureIsAnErrorUnlessAllowed) {
  TempDir dir;
  WriteFile(dir.File("deps.json"), R"({"tasks":[],"tensors":[],"edges":[]})");
  CommandResult r = Audit(dir, "deps.json");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err,
            "error: deps.json: the capture has no tasks; nothing to audit (--allow-empty to pass "
            "anyway)\n");
  EXPECT_EQ(r.out, "");
  r = Audit(dir, "deps.json --format sarif -o out.sarif");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_FALSE(testing::Exists(dir.File("out.sarif")));
  r = Audit(dir, "deps.json --allow-empty");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "");
  r = Audit(dir, "deps.json --allow-empty --format junit");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("<testsuite name=\"depgraph audit\" tests=\"5\" failures=\"0\""),
            std::string::npos);
}

TEST(AuditCommandGate, StrictTurnsACoverageGapIntoAFailure) {
  TempDir dir;
  WriteFile(dir.File("deps.json"), UnplacedOutput());
  const std::string warning = std::string("warning: deps.json: ") + kGap + "\n";
  for (const std::string format : {"text", "json", "sarif", "junit", "github"}) {
    CommandResult r = Audit(dir, "deps.json --format " + format);
    EXPECT_EQ(r.exit_code, 0) << format << ": " << r.err;
    EXPECT_EQ(r.err, warning) << format;
    r = Audit(dir, "deps.json --strict --format " + format);
    EXPECT_EQ(r.exit_code, 3) << format;
    EXPECT_EQ(r.err, warning + "error: deps.json: the audit fails under --strict (coverage "
                               "gaps): exit 3\n")
        << format;
  }
  const CommandResult junit = Audit(dir, "deps.json --strict --format junit");
  EXPECT_NE(junit.out.find("type=\"coverage\""), std::string::npos);
}

TEST(AuditCommandGate, RacesFailEveryFormat) {
  TempDir dir;
  for (const std::string format : {"text", "json", "sarif", "junit", "github"}) {
    const CommandResult r = Audit(dir, "'" + Probe() + "' --format " + format);
    EXPECT_EQ(r.exit_code, 3) << format << ": " << r.err;
    EXPECT_EQ(r.err, "") << format;
  }
  // --json stays, as --format json; the two together are a usage error.
  EXPECT_EQ(Audit(dir, "'" + Probe() + "' --json").out,
            Audit(dir, "'" + Probe() + "' --format json").out);
  EXPECT_EQ(Audit(dir, "'" + Probe() + "' --json --format sarif").exit_code, 2);
  EXPECT_EQ(Audit(dir, "'" + Probe() + "' --format xml").exit_code, 2);
}

TEST(AuditCommandGate, SarifMatchesTheGoldenAndIsWrittenAtomically) {
  TempDir dir;
  // Run from the source directory so that the input is named as the golden names it.
  const CommandResult r = testing::RunCommand(
      testing::BoundedCommand(testing::CliBinary()) +
          "audit data/real/dep_probe/default/deps.json --format sarif -o '" +
          dir.File("out.sarif") + "'",
      testing::SourceDir());
  EXPECT_EQ(r.exit_code, 3) << r.err;
  EXPECT_EQ(r.out, "Wrote " + dir.File("out.sarif") +
                       " (15 race(s), 2 false serialization finding(s), exit 3)\n");
  auto written = nlohmann::json::parse(ReadFile(dir.File("out.sarif")));
  auto golden =
      nlohmann::json::parse(ReadFile(testing::SourceDir() + "/tests/data/gate/dep_probe.sarif"));
  EXPECT_FALSE(written["runs"][0]["tool"]["driver"]["version"].get<std::string>().empty());
  written["runs"][0]["tool"]["driver"].erase("version");  // the golden has none
  EXPECT_EQ(written, golden);
  // Only the report: no temporary file left beside it.
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir.path()),
                          std::filesystem::directory_iterator()),
            1);
  // Refused outputs leave nothing.
  testing::MakeFifo(dir.File("fifo"));
  EXPECT_EQ(Audit(dir, "'" + Probe() + "' --format junit -o fifo").exit_code, 1);
}

TEST(AuditCommandGate, GithubFormatWritesAtMostTenAnnotationsAndTheSummary) {
  TempDir dir;
  testing::GraphBuilder b;
  b.Tensor(7, 0, 64);
  for (int i = 0; i < 200; ++i) {
    b.Task(static_cast<uint64_t>(i),
           {testing::Flat(i % 2 == 0 ? "OUTPUT_EXISTING" : "INPUT", 7, 64)}, "auto", i % 12);
  }
  WriteFile(dir.File("deps.json"), b.Json());
  CommandResult r = Audit(dir, "deps.json --format github");
  EXPECT_EQ(r.exit_code, 3) << r.err;
  EXPECT_EQ(CountLinesStartingWith(r.out, "::"), 10u) << r.out;
  EXPECT_EQ(CountLinesStartingWith(r.out, ""), 10u);  // nothing else on stdout
  EXPECT_FALSE(testing::Exists(dir.File("summary.md")));
  // --summary FILE: written (replaced).
  r = Audit(dir, "deps.json --format github --summary summary.md");
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_EQ(ReadFile(dir.File("summary.md")).rfind("## depgraph audit: failed (exit 3)\n", 0),
            0u);
  // $GITHUB_STEP_SUMMARY: appended to, as GitHub expects.
  WriteFile(dir.File("step.md"), "earlier step\n");
  r = Audit(dir, "deps.json --format github", "export GITHUB_STEP_SUMMARY=step.md && ");
  EXPECT_EQ(r.exit_code, 3) << r.err;
  EXPECT_EQ(ReadFile(dir.File("step.md")).rfind("earlier step\n## depgraph audit: failed", 0), 0u);
  // Other formats leave $GITHUB_STEP_SUMMARY alone.
  WriteFile(dir.File("step.md"), "");
  r = Audit(dir, "deps.json --format sarif", "export GITHUB_STEP_SUMMARY=step.md && ");
  EXPECT_EQ(ReadFile(dir.File("step.md")), "");
}

TEST(AuditCommandGate, WarningsAsErrorsFailsOnFalseSerialization) {
  TempDir dir;
  testing::GraphBuilder b;
  b.Tensor(7, 0, 64);
  b.Task(1, {testing::Strided("INOUT", 7, 32, 2, 0)})
      .Task(2, {testing::Strided("INPUT", 7, 32, 2, 1)})
      .Edge(1, 2, "tensormap", 0, 7, "other", testing::Strided("", 7, 32, 2, 0));
  WriteFile(dir.File("deps.json"), b.Json());
  EXPECT_EQ(Audit(dir, "deps.json --format sarif").exit_code, 0);
  const CommandResult r = Audit(dir, "deps.json --format sarif --warnings-as-errors");
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_NE(r.out.find("\"level\": \"error\""), std::string::npos);
}

}  // namespace
}  // namespace depgraph
