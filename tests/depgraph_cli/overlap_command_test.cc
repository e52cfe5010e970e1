// `depgraph overlap`: the answer on a golden timing case, in text and JSON, and its errors.
#include "overlap_command.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>

#include "depgraph_cli.h"
#include "test_util.h"

namespace depgraph {
namespace {

struct Answer {
  int code = -1;
  std::string out, err;
};

Answer Overlap(const std::vector<std::string>& args) {
  std::ostringstream out, err;
  std::vector<std::string> argv = {"overlap",
                                   testing::SourceDir() +
                                       "/data/timing/pa_small1_basic/chip_swimlane_records.json"};
  argv.insert(argv.end(), args.begin(), args.end());
  Answer a;
  a.code = DepgraphMain(argv, out, err);
  a.out = out.str();
  a.err = err.str();
  return a;
}

TEST(OverlapCommand, AnswersWithTheReasonOnAGoldenCase) {
  const Answer ordered = Overlap({"(2, 0)", "(2, 3)"});
  ASSERT_EQ(ordered.code, 0) << ordered.err;
  EXPECT_EQ(ordered.out,
            "(2, 0) QK and (2, 3) UP: did not overlap (ordered)\n"
            "  (2, 0) QK ran 0.000 us .. 8.680 us on AIC_0\n"
            "  (2, 3) UP ran 23.960 us .. 27.880 us on AIV_2\n"
            "  ordered by deps.json (2 edge(s)): they cannot overlap: (2, 0) QK -> (2, 1) SF -> "
            "(2, 3) UP\n");
  const Answer both = Overlap({"8589934596", "(2, 0)", "--json"});
  ASSERT_EQ(both.code, 0) << both.err;
  const nlohmann::json j = nlohmann::json::parse(both.out);
  EXPECT_EQ(j["schema"], "depgraph-overlap/1");
  EXPECT_EQ(j["verdict"], "overlapped");
  EXPECT_EQ(j["first"]["id"], "8589934592");
  EXPECT_EQ(j["overlap_ticks"], 274);
  const Answer waited = Overlap({"(2, 8)", "(2, 3)"});
  ASSERT_EQ(waited.code, 0) << waited.err;
  EXPECT_NE(waited.out.find("waited for its predecessor (2, 2) PV, done at 23.540 us"),
            std::string::npos)
      << waited.out;
}

TEST(OverlapCommand, BadInputIsOneLine) {
  const Answer unknown = Overlap({"(2, 0)", "(9, 9)"});
  EXPECT_EQ(unknown.code, 1);
  EXPECT_TRUE(unknown.out.empty());
  EXPECT_NE(unknown.err.find("task (9, 9) is not in the graph\n"), std::string::npos) << unknown.err;
  EXPECT_EQ(std::count(unknown.err.begin(), unknown.err.end(), '\n'), 1);
  const Answer same = Overlap({"(2, 0)", "(2, 0)"});
  EXPECT_EQ(same.code, 1);
  EXPECT_NE(same.err.find("task (2, 0) was given twice"), std::string::npos) << same.err;
  const Answer bad = Overlap({"(2, 0)", "x"});
  EXPECT_EQ(bad.code, 1);
  EXPECT_EQ(std::count(bad.err.begin(), bad.err.end(), '\n'), 1) << bad.err;
}

}  // namespace
}  // namespace depgraph
