// document_kind: what a JSON document that is not a capture is, and the loader's refusal.
#include "depgraph/graph/document_kind.h"

#include <gtest/gtest.h>

#include "depgraph/graph/load_deps.h"

namespace depgraph {
namespace {

TEST(DocumentKind, NamesTheKnownNeighboursOfACapture) {
  EXPECT_EQ(DescribeNonCapture({"chip_swimlane_level", "metadata", "aicore_tasks"}),
            "not a deps.json capture: these are timing records (chip_swimlane_records.json); "
            "pass the run's deps.json");
  EXPECT_NE(DescribeNonCapture({"level", "orchestrator_name", "callable_id_to_name"})
                .find("a kernel name map"),
            std::string::npos);
  EXPECT_NE(DescribeNonCapture({"traceEvents"}).find("Chrome/Perfetto trace"), std::string::npos);
  EXPECT_NE(DescribeNonCapture({"model", "ranks"}).find("simulation.json"), std::string::npos);
  EXPECT_NE(DescribeNonCapture({"schema", "input"}).find("depgraph JSON report"),
            std::string::npos);
  EXPECT_EQ(DescribeNonCapture({}),
            "not a deps.json capture: an empty JSON object (no \"tasks\" array)");
}

TEST(DocumentKind, ListsTheKeysOfAnUnknownDocumentOnOneLine) {
  EXPECT_EQ(DescribeNonCapture({"edges", "tensors"}),
            "not a deps.json capture: no \"tasks\" array (top-level keys: \"edges\", "
            "\"tensors\")");
  const std::string many =
      DescribeNonCapture({"a", "b", "c", "d", "e", "f", "g", std::string("x\ny")});
  EXPECT_NE(many.find("\"f\", ...)"), std::string::npos) << many;
  EXPECT_EQ(DescribeNonCapture({std::string("x\ny")}).find('\n'), std::string::npos);
}

TEST(DocumentKind, TheLoaderRefusesADocumentWithoutTasksOnlyWhenAsked) {
  LoadOptions strict;
  strict.require_tasks = true;
  DepGraph graph;
  std::string err;
  EXPECT_FALSE(LoadDepsJsonText(R"({"aicore_tasks": [], "chip_swimlane_level": 2})",
                                "records.json", &graph, &err, strict));
  EXPECT_EQ(err,
            "records.json: not a deps.json capture: these are timing records "
            "(chip_swimlane_records.json); pass the run's deps.json");
  EXPECT_FALSE(LoadDepsJsonText("{}", "e.json", &graph, &err, strict));
  EXPECT_EQ(err, "e.json: not a deps.json capture: an empty JSON object (no \"tasks\" array)");
  // The viewer's default keeps the reference tool's reading: an empty graph.
  EXPECT_TRUE(LoadDepsJsonText("{}", "e.json", &graph, &err)) << err;
  // A capture with an empty tasks array is a capture (the gates judge it, not the loader).
  EXPECT_TRUE(LoadDepsJsonText(R"({"tasks": [], "edges": []})", "c.json", &graph, &err, strict))
      << err;
  // Syntax errors stay syntax errors.
  EXPECT_FALSE(LoadDepsJsonText("{\"a\": }", "bad.json", &graph, &err, strict));
  EXPECT_NE(err.find("line 1"), std::string::npos) << err;
}

}  // namespace
}  // namespace depgraph
