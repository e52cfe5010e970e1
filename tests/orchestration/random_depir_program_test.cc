// The random depir program generator: deterministic per seed, and every shape it is meant to
// produce shows up within a few hundred seeds (CheckFuzz runs the programs themselves).
#include "orchestration/random_depir_program.h"

#include <gtest/gtest.h>

#include <regex>
#include <sstream>
#include <string>
#include <vector>

namespace depgraph::testing {
namespace {

size_t Indent(const std::string& line) { return line.find_first_not_of(' '); }

// Whether some `scope manual {` sits directly in a loop body.
bool HasManualScopeInLoop(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  for (size_t i = 0; i < lines.size(); ++i) {
    if (lines[i].find("scope manual {") == std::string::npos) continue;
    for (size_t j = i; j-- > 0;) {
      if (Indent(lines[j]) >= Indent(lines[i])) continue;
      if (std::regex_search(lines[j], std::regex(R"(^\s*(\w+(, \w+)* = )?(for|while) )"))) {
        return true;
      }
      break;
    }
  }
  return false;
}

TEST(RandomProgram, SameSeedSameProgram) {
  EXPECT_EQ(RandomProgram(7).Text(), RandomProgram(7).Text());
  EXPECT_NE(RandomProgram(7).Text(), RandomProgram(8).Text());
}

TEST(RandomProgram, ProducesEveryShape) {
  int while_loops = 0, zero_trip_whiles = 0, memref_calls = 0, cross_block_deps = 0,
      auto_function_scopes = 0, manual_in_loop = 0;
  for (uint32_t seed = 1; seed <= 300; ++seed) {
    const std::string text = RandomProgram(seed).Text();
    while_loops += std::regex_search(text, std::regex(R"(= while go iter\(\w+ = \w+, go = go)"));
    zero_trip_whiles += text.find("= while skip iter(") != std::string::npos;
    memref_calls += std::regex_search(text, std::regex(R"(\((pa|pb|pc|pd|qa|qb)\) \[)"));
    cross_block_deps += std::regex_search(text, std::regex(R"(deps=\[xt\d+)"));
    auto_function_scopes += text.find(") hand {") == std::string::npos &&
                            text.find("scope ") != std::string::npos;
    manual_in_loop += HasManualScopeInLoop(text);
  }
  EXPECT_GT(while_loops, 10);
  EXPECT_GT(zero_trip_whiles, 3);
  EXPECT_GT(memref_calls, 100);
  EXPECT_GT(cross_block_deps, 10);
  EXPECT_GT(auto_function_scopes, 10);
  EXPECT_GT(manual_in_loop, 10);
}

TEST(RandomProgram, BindingsGiveEveryTripCountAndOffset) {
  const std::vector<std::string> sets = RandomProgram::Bindings();
  for (const char* name : {"n=", "go=", "skip=", "qoff="}) {
    bool found = false;
    for (const std::string& s : sets) found = found || s.rfind(name, 0) == 0;
    EXPECT_TRUE(found) << name;
  }
}

}  // namespace
}  // namespace depgraph::testing
