#include "depgraph/reduce/edge_mode.h"

#include <gtest/gtest.h>

#include "test_util.h"

namespace depgraph {
namespace {

using testing::EdgesJson;
using testing::LoadText;

std::vector<std::pair<TaskId, TaskId>> Listed(const DepGraph& g, const EdgeSelection& s) {
  std::vector<std::pair<TaskId, TaskId>> out;
  for (uint32_t p : s.listed) out.emplace_back(g.nodes[g.pairs[p].pred], g.nodes[g.pairs[p].succ]);
  return out;
}

EdgeSelection Select(const DepGraph& g, EdgeMode mode) {
  return SelectEdges(g, ReduceStructurally(g), mode);
}

TEST(EdgeMode, ParsesEveryMode) {
  for (const char* name :
       {"full", "reduced", "omitted", "reduced_dataflow", "omitted_dataflow", "retained"}) {
    EdgeMode mode;
    ASSERT_TRUE(ParseEdgeMode(name, &mode));
    EXPECT_STREQ(EdgeModeName(mode), name);
  }
  EdgeMode mode;
  EXPECT_FALSE(ParseEdgeMode("bogus", &mode));
}

TEST(EdgeMode, ReducedAndOmittedAreComplements) {  // acceptance case 1
  DepGraph g = LoadText(EdgesJson({{1, 2, "x"}, {2, 3, "x"}, {3, 4, "x"}, {1, 4, "explicit"}}));
  EdgeSelection reduced = Select(g, EdgeMode::kReduced);
  EdgeSelection omitted = Select(g, EdgeMode::kOmitted);
  using P = std::vector<std::pair<TaskId, TaskId>>;
  EXPECT_EQ(Listed(g, reduced), (P{{1, 4}}));
  EXPECT_EQ(reduced.shown_count, 3u);
  EXPECT_EQ(omitted.shown_count, 1u);
  for (size_t p = 0; p < g.pairs.size(); ++p) EXPECT_NE(reduced.shown[p], omitted.shown[p]);
}

TEST(EdgeMode, CreatorRowProtectsThePairInReduced) {  // acceptance case 3 / test 32
  DepGraph g = LoadText(R"({"edges":[
    {"pred":1,"succ":2,"source":"explicit"},{"pred":2,"succ":3,"source":"explicit"},
    {"pred":3,"succ":4,"source":"explicit"},
    {"pred":1,"succ":4,"source":"creator","tensor_id":"7","arg":0}]})");
  EdgeSelection reduced = Select(g, EdgeMode::kReduced);
  EXPECT_TRUE(reduced.listed.empty());
  EXPECT_EQ(reduced.retained_count, 1u);
  EdgeSelection retained = Select(g, EdgeMode::kRetained);
  EXPECT_EQ(Listed(g, retained), (std::vector<std::pair<TaskId, TaskId>>{{1, 4}}));
  EXPECT_EQ(retained.shown_count, 1u);
}

TEST(EdgeMode, TensormapShortcutIsRemovable) {  // reference test 26
  DepGraph g = LoadText(EdgesJson({{1, 2, "x"}, {2, 3, "x"}, {1, 3, "tensormap"}}));
  EXPECT_EQ(Listed(g, Select(g, EdgeMode::kReduced)),
            (std::vector<std::pair<TaskId, TaskId>>{{1, 3}}));
}

TEST(EdgeMode, WorkedExampleAllModes) {  // spec §6.2 A
  DepGraph g = LoadText(testing::ReadFile(testing::SourceDir() +
                                          "/data/samples/worked_example/deps.json"));
  using P = std::vector<std::pair<TaskId, TaskId>>;
  EXPECT_TRUE(Listed(g, Select(g, EdgeMode::kFull)).empty());
  EXPECT_EQ(Listed(g, Select(g, EdgeMode::kReduced)), (P{{1, 3}, {1, 4}}));
  EXPECT_EQ(Listed(g, Select(g, EdgeMode::kOmitted)), (P{{1, 3}, {1, 4}}));
  EXPECT_EQ(Listed(g, Select(g, EdgeMode::kReducedDataflow)), (P{{0, 2}, {1, 3}, {1, 4}}));
  EXPECT_EQ(Listed(g, Select(g, EdgeMode::kOmittedDataflow)), (P{{0, 2}, {1, 3}, {1, 4}}));
  EXPECT_EQ(Select(g, EdgeMode::kReducedDataflow).shown_count, 5u);
}

TEST(EdgeMode, CycleFallsBackToFullGraph) {
  DepGraph g = LoadText(EdgesJson({{1, 2, "x"}, {2, 1, "x"}}));
  EdgeSelection s = Select(g, EdgeMode::kOmitted);
  EXPECT_TRUE(s.cycle_fallback);
  EXPECT_EQ(s.shown_count, 2u);
  EXPECT_TRUE(s.listed.empty());
  EXPECT_FALSE(Select(g, EdgeMode::kFull).cycle_fallback);
}

TEST(EdgeMode, HeadlineIsTheReferenceToolsLine) {
  EXPECT_EQ(EdgeModeHeadline(EdgeMode::kReduced, 3, 10),
            "Transitive reduction: removed 3 redundant edge(s) of 10 (7 kept)");
  EXPECT_EQ(EdgeModeHeadline(EdgeMode::kOmitted, 3, 10),
            "Redundant edges only: showing 3 redundant edge(s) of 10");
  EXPECT_EQ(EdgeModeHeadline(EdgeMode::kReducedDataflow, 4, 10),
            "Dataflow-verified transitive reduction: removed 4 redundant edge(s) of 10 (6 kept)");
  EXPECT_EQ(EdgeModeHeadline(EdgeMode::kOmittedDataflow, 4, 10),
            "Dataflow-verified redundant edges only: showing 4 redundant edge(s) of 10");
  EXPECT_EQ(EdgeModeHeadline(EdgeMode::kRetained, 1, 10),
            "Creator-retained redundant edges only: showing 1 redundant edge(s) of 10");
  EXPECT_EQ(EdgeModeHeadline(EdgeMode::kFull, 0, 10), "");
}

}  // namespace
}  // namespace depgraph
