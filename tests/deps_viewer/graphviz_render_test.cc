// In-process Graphviz: every engine, repeated renders in one process, one-line failures.
#include "deps_viewer/graphviz_render.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "test_util.h"

namespace depgraph {
namespace {

size_t Count(const std::string& text, const std::string& needle) {
  size_t n = 0;
  for (size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++n;
  return n;
}

// Two rounds over every engine: the second round lays out text after the first one did,
// which is where a context per render read freed memory.
TEST(GraphvizRenderTest, RendersEveryEngineRepeatedlyInOneProcess) {
  const std::string dot =
      "digraph deps {\n  a [label=\"a \xC2\xB7 qk\"];\n  a -> b;\n  b -> c;\n"
      "  a -> c [label=\"partial\"];\n}\n";
  for (int round = 0; round < 2; ++round) {
    for (const char* engine : {"dot", "neato", "sfdp", "fdp", "circo", "twopi"}) {
      std::string svg, err;
      EXPECT_TRUE(RenderSvgWithGraphviz(dot, engine, &svg, &err)) << engine << ": " << err;
      EXPECT_EQ(Count(svg, "class=\"node\""), 3u) << engine;
      EXPECT_EQ(Count(svg, "class=\"edge\""), 3u) << engine;
    }
  }
}

// A context per render made libgvc's pango plugin compare against a font name freed with the
// previous context. The read happens inside strcmp, which AddressSanitizer's runtime
// intercepts even in this uninstrumented build: the test above, rerun with libasan preloaded,
// must finish without an ASan report.
TEST(GraphvizRenderTest, RepeatedRendersReadNoFreedMemory) {
  const std::string asan = DEPGRAPH_LIBASAN;
  if (asan.empty() || !testing::Exists(asan)) GTEST_SKIP() << "no libasan.so to preload";
  const std::string self = std::filesystem::read_symlink("/proc/self/exe").string();
  testing::TempDir dir;
  testing::CommandResult r = testing::RunCommand(
      "LD_PRELOAD='" + asan + "' ASAN_OPTIONS=detect_leaks=0 '" + self +
          "' --gtest_filter=GraphvizRenderTest.RendersEveryEngineRepeatedlyInOneProcess",
      dir.path());
  EXPECT_EQ(r.err.find("AddressSanitizer"), std::string::npos) << r.err;
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("[  PASSED  ] 1 test"), std::string::npos) << r.out;
}

TEST(GraphvizRenderTest, ParseErrorsAreOneLine) {
  std::string svg, err;
  EXPECT_FALSE(RenderSvgWithGraphviz("digraph {\n a -> ;\n}\n", "dot", &svg, &err));
  EXPECT_EQ(err.find('\n'), std::string::npos) << err;
  // (cgraph's line count carries over from earlier parses in the process: no number here.)
  EXPECT_TRUE(err.starts_with("Graphviz could not parse the generated DOT: syntax error in line "))
      << err;
  EXPECT_TRUE(svg.empty());
}

}  // namespace
}  // namespace depgraph
