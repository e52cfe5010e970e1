// What the tools say about their own usage: typo suggestions, arguments named for people,
// and --version.
#include "cli_usage.h"

#include <gtest/gtest.h>

#include <sstream>

#include "depgraph_cli.h"
#include "unsigned_option.h"

namespace depgraph {
namespace {

TEST(CliUsage, ClosestNameSuggestsOnlyNearTypos) {
  const std::vector<std::string> subcommands = {"audit", "diff", "query", "run", "derive", "check"};
  EXPECT_EQ(cli::ClosestName("adit", subcommands), "audit");
  EXPECT_EQ(cli::ClosestName("chekc", subcommands), "check");
  EXPECT_EQ(cli::ClosestName("deriv", subcommands), "derive");
  EXPECT_EQ(cli::ClosestName("xyz", subcommands), "");   // 3 edits: not a typo of anything
  EXPECT_EQ(cli::ClosestName("rn", subcommands), "run");  // one edit on a short word
  EXPECT_EQ(cli::ClosestName("--fromat", {"--format", "--output"}), "--format");
}

/// Runs `depgraph ARGS`; returns the exit code and what went to stdout and stderr.
int Depgraph(const std::vector<std::string>& args, std::string* out, std::string* err) {
  std::ostringstream o, e;
  const int code = DepgraphMain(args, o, e);
  *out = o.str();
  *err = e.str();
  return code;
}

TEST(CliUsage, UsageErrorsNameWhatTheUserMeant) {
  std::string out, err;
  EXPECT_EQ(Depgraph({"adit", "x.json"}, &out, &err), 2);
  EXPECT_EQ(err, "error: unknown subcommand 'adit' (did you mean 'audit'?)\nRun with --help for usage.\n");
  EXPECT_EQ(Depgraph({"query", "x.json", "--tsk", "3"}, &out, &err), 2);
  EXPECT_EQ(err, "error: query: unknown option '--tsk' (did you mean '--task'?)\nRun with --help for usage.\n");
  EXPECT_EQ(Depgraph({"audit"}, &out, &err), 2);  // no internal name ("deps_json is required")
  EXPECT_EQ(err, "error: audit: missing argument: deps.json to audit\nRun with --help for usage.\n");
  EXPECT_EQ(Depgraph({"audit", "x.json", "extra"}, &out, &err), 2);
  EXPECT_EQ(err, "error: audit: unexpected argument 'extra'\nRun with --help for usage.\n");
  EXPECT_EQ(Depgraph({}, &out, &err), 2);
  EXPECT_EQ(err, "error: a subcommand is required\nRun with --help for usage.\n");
}

// Hostile flags pass (round 3): CLI11 turns "-1" into 2^64-1 and saturates 10^30 for 64-bit
// unsigned targets (gen_graph --seed, --max-findings); UnsignedAtMost refuses both.
TEST(CliUsage, UnsignedAtMostRefusesSignsWordsAndOverflow) {
  EXPECT_EQ(cli::UnsignedAtMostError("0", 10), "");
  EXPECT_EQ(cli::UnsignedAtMostError("10", 10), "");
  EXPECT_EQ(cli::UnsignedAtMostError("18446744073709551615", UINT64_MAX), "");
  EXPECT_EQ(cli::UnsignedAtMostError("11", 10), "Value 11 is not an integer in 0 to 10");
  for (const char* bad : {"", "-1", "+1", " 1", "1e3", "abc", "0x10", "18446744073709551616",
                          "1000000000000000000000000000000"}) {
    EXPECT_NE(cli::UnsignedAtMostError(bad, UINT64_MAX), "") << bad;
  }
  CLI::App app;
  uint64_t seed = 7;
  app.add_option("--seed", seed)->check(cli::UnsignedAtMost(UINT64_MAX));
  EXPECT_THROW(app.parse(std::vector<std::string>{"-1", "--seed"}), CLI::ValidationError);
  EXPECT_EQ(seed, 7u);
  app.parse(std::vector<std::string>{"42", "--seed"});  // CLI11 takes the vector reversed
  EXPECT_EQ(seed, 42u);
}

TEST(CliUsage, VersionFlag) {
  std::string out, err;
  EXPECT_EQ(Depgraph({"--version"}, &out, &err), 0);
  EXPECT_EQ(out, cli::VersionLine("depgraph") + "\n");
  EXPECT_EQ(out.rfind("depgraph 0.", 0), 0u) << out;
}

}  // namespace
}  // namespace depgraph
