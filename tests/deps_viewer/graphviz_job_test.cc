// The Graphviz page in a child process: estimate, phases, warning, crash and timeout messages.
#include "deps_viewer/graphviz_job.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/resource.h>
#include <unistd.h>

#include <sstream>
#include <string>
#include <tuple>

#include "depgraph/graph/graph.h"
#include "depgraph/graph/task_label.h"
#include "depgraph/render/dot_writer.h"
#include "deps_viewer/graphviz_render.h"
#include "test_util.h"

namespace depgraph {
namespace {

using testing::LoadText;

// A chain of `n` tasks: n - 1 pairs, depth n - 1.
std::string ChainJson(int n) {
  std::string json = "{\"edges\":[";
  for (int i = 1; i < n; ++i) {
    if (i > 1) json += ',';
    json += "{\"pred\":" + std::to_string(i) + ",\"succ\":" + std::to_string(i + 1) + "}";
  }
  return json + "]}";
}

// Edges i -> i + 1 and i -> i + span for tasks 1..n, plus an alloc (1000 + i) feeding task
// i every `alloc_every` tasks: long pairs (many ranks to cross) and late-consumed sources.
std::string ShapeJson(int n, int span, int alloc_every) {
  std::string json = "{\"edges\":[";
  auto edge = [&json](int pred, int succ) {
    if (json.back() != '[') json += ',';
    json += "{\"pred\":" + std::to_string(pred) + ",\"succ\":" + std::to_string(succ) + "}";
  };
  for (int i = 1; i <= n; ++i) {
    if (i < n) edge(i, i + 1);
    if (span > 1 && i + span <= n) edge(i, i + span);
    if (alloc_every > 0 && i % alloc_every == 0) edge(1000 + i, i);
  }
  return json + "]}";
}

// The node count dot's positioning solver reports (its second "network simplex:" line).
uint64_t SolverNodesOfDot(const DepGraph& graph) {
  std::string dot = WriteDot(graph, ResolveTaskLabels(graph, {}), {}, DotOptions{});
  std::string svg, err;
  ::testing::internal::CaptureStderr();
  SetGraphvizVerbose(true);
  bool ok = RenderSvgWithGraphviz(dot, "dot", &svg, &err);
  SetGraphvizVerbose(false);
  std::string log = ::testing::internal::GetCapturedStderr();
  EXPECT_TRUE(ok) << err;
  size_t first = log.find("network simplex:  ");
  size_t second = first == std::string::npos ? first : log.find("network simplex:  ", first + 1);
  if (second == std::string::npos) return 0;
  return std::stoull(log.substr(second + 18));
}

TEST(GraphvizJobTest, PredictsTheSizeOfDotsPositioningGraph) {
  for (const auto& [n, span, alloc_every] :
       {std::tuple{60, 1, 0}, {60, 3, 0}, {80, 20, 0}, {60, 1, 4}, {90, 15, 6}}) {
    DepGraph graph = LoadText(ShapeJson(n, span, alloc_every));
    EXPECT_EQ(PredictDotSolverNodes(graph), SolverNodesOfDot(graph))
        << n << " " << span << " " << alloc_every;
  }
  DepGraph worked = LoadText(testing::WorkedExampleJson());
  EXPECT_EQ(PredictDotSolverNodes(worked), SolverNodesOfDot(worked));
  // A cycle: no ranks, tasks and pairs only.
  EXPECT_EQ(PredictDotSolverNodes(LoadText(testing::EdgesJson({{1, 2, "x"}, {2, 1, "x"}}))), 4u);
}

TEST(GraphvizJobTest, EstimateFollowsTheMeasuredLayouts) {
  // docs/deps_viewer.md: decode 300 (7,632 solver nodes) 1.61 s, decode 700 (18,451) 18.09 s,
  // decode 1000 (26,232) 52.1 s of CPU.
  EXPECT_NEAR(EstimateDotSeconds(7632), 1.61, 1.61 * 0.5);
  EXPECT_NEAR(EstimateDotSeconds(18451), 18.09, 18.09 * 0.3);
  EXPECT_NEAR(EstimateDotSeconds(26232), 52.1, 52.1 * 0.3);
  EXPECT_LT(EstimateDotSeconds(1000), 1);
}

TEST(GraphvizJobTest, ApproximateDurations) {
  EXPECT_EQ(ApproximateDuration(0.2), "under a second");
  EXPECT_EQ(ApproximateDuration(43.6), "about 44 s");
  EXPECT_EQ(ApproximateDuration(260), "about 4 min");
  EXPECT_EQ(ApproximateDuration(4 * 3600), "about 4 h");
}

// Lines as dot 2.42 writes them with Verbose set (decode graph of 1,000 tasks).
TEST(GraphvizJobTest, PhaseTrackerFollowsDotsVerboseOutput) {
  DotPhaseTracker tracker;
  EXPECT_EQ(tracker.phase(), "");
  tracker.Feed("pack info:");
  tracker.Feed("fontname: \"Helvetica\" resolved to: (ps:pango  DejaVu Sans, )");
  EXPECT_EQ(tracker.phase(), "");
  tracker.Feed("network simplex:  1058 nodes 3124 edges maxiter=2147483647 balance=1");
  EXPECT_EQ(tracker.phase(), "ranking (1/4)");
  tracker.Feed("network simplex: 1058 nodes 3124 edges 177 iter 0.01 sec");
  tracker.Feed("Maxrank = 513, minrank = 0");
  EXPECT_EQ(tracker.phase(), "ranking (1/4)");
  tracker.Feed("mincross: pass 1 iter 3 trying 3 cur_cross 7314 best_cross 6816");
  EXPECT_EQ(tracker.phase(), "ordering (2/4): pass 1, 6816 crossings");
  tracker.Feed("mincross deps: 6816 crossings, 1.16 secs.");
  tracker.Feed("network simplex:  26232 nodes 39867 edges maxiter=2147483647 balance=2");
  EXPECT_EQ(tracker.phase(), "positioning (3/4)");
  tracker.Feed("network simplex: 4100 4200 4300 4400 4500 4600 4700 4800 4900 5000 ");
  EXPECT_EQ(tracker.phase(), "positioning (3/4): iteration 5000 of about 10400");
  tracker.Feed("network simplex: 26232 nodes 39867 edges 10393 iter 50.53 sec");
  EXPECT_EQ(tracker.phase(), "routing edges (4/4)");
  tracker.Feed("routesplines: 3942 edges, 27192 boxes 0.16 sec");
  EXPECT_EQ(tracker.phase(), "writing SVG");
}

// The layout runs in a child: its crash is one line naming the input, the node count and the
// signal, and the parent lives on.
TEST(GraphvizJobTest, ACrashOfTheLayoutIsOneLine) {
  DepGraph graph = LoadText(testing::WorkedExampleJson());
  std::vector<TaskLabel> labels = ResolveTaskLabels(graph, {});
  std::vector<uint8_t> shown;
  GraphvizJob job{graph, labels, shown, HtmlOptions{}};
  job.html.source = "run/deps.json";
  job.work = [](std::string*, std::string*) -> bool {
    std::fprintf(stderr, "mincross: pass 2 iter 0 trying 0 cur_cross 9 best_cross 7\n");
    std::fflush(stderr);
    rlimit no_core{0, 0};
    setrlimit(RLIMIT_CORE, &no_core);
    ::signal(SIGSEGV, SIG_DFL);
    raise(SIGSEGV);
    _exit(99);
  };
  std::string html = "stale", err;
  EXPECT_FALSE(RenderGraphvizPageInChild(job, &html, &err));
  EXPECT_EQ(err,
            "run/deps.json: Graphviz crashed laying out 5 nodes (signal 11, SIGSEGV) while "
            "ordering (2/4): pass 2, 7 crossings; --layout layered draws the explorer page "
            "instead");
  EXPECT_TRUE(html.empty());
}

TEST(GraphvizJobTest, TimeoutIsOneLine) {
  DepGraph graph = LoadText(testing::WorkedExampleJson());
  std::vector<TaskLabel> labels = ResolveTaskLabels(graph, {});
  std::vector<uint8_t> shown;
  GraphvizJob job{graph, labels, shown, HtmlOptions{}};
  job.html.source = "deps.json";
  job.timeout_seconds = 1;
  job.work = [](std::string*, std::string*) {
    sleep(60);
    return true;
  };
  std::string html, err;
  EXPECT_FALSE(RenderGraphvizPageInChild(job, &html, &err));
  EXPECT_EQ(err,
            "deps.json: Graphviz dot did not finish laying out 5 nodes within 1 s "
            "(--layout-timeout); --layout layered draws any size in seconds");
}

// A long dot layout is announced first, with the estimate; another engine's above the default
// limits of the Graphviz page; a quick one starts silently.
TEST(GraphvizJobTest, LongLayoutWarnsFirstWithTheEstimate) {
  DepGraph graph = LoadText(ShapeJson(300, 50, 0));  // 25,349 solver nodes: about 40 s
  std::vector<TaskLabel> labels = ResolveTaskLabels(graph, {});
  std::vector<uint8_t> shown;
  GraphvizJob job{graph, labels, shown, HtmlOptions{}};
  std::ostringstream progress;
  job.progress = &progress;
  job.work = [](std::string* output, std::string*) {
    *output = "<html>";
    return true;
  };
  std::string html, err;
  ASSERT_TRUE(RenderGraphvizPageInChild(job, &html, &err)) << err;
  EXPECT_EQ(html, "<html>");
  EXPECT_EQ(progress.str(),
            "deps_viewer: warning: Graphviz dot on 300 nodes and 549 edges takes " +
                ApproximateDuration(EstimateDotSeconds(PredictDotSolverNodes(graph))) +
                " of CPU time (estimate); --layout layered draws any size in seconds\n");
  EXPECT_GE(EstimateDotSeconds(PredictDotSolverNodes(graph)), 20);

  // 400 tasks in a chain: above the page's limit, yet dot needs no warning; sfdp gets one.
  DepGraph chain = LoadText(ChainJson(400));
  std::vector<TaskLabel> chain_labels = ResolveTaskLabels(chain, {});
  GraphvizJob quick{chain, chain_labels, shown, HtmlOptions{}};
  quick.progress = &progress;
  quick.work = job.work;
  progress.str("");
  ASSERT_TRUE(RenderGraphvizPageInChild(quick, &html, &err)) << err;
  EXPECT_EQ(progress.str(), "");
  quick.html.engine = "sfdp";
  ASSERT_TRUE(RenderGraphvizPageInChild(quick, &html, &err)) << err;
  EXPECT_EQ(progress.str(),
            "deps_viewer: warning: Graphviz sfdp on 400 nodes and 399 edges may take minutes "
            "(only dot's time is estimated); --layout layered draws any size in seconds\n");

  // A small graph really laid out: no message.
  DepGraph small = LoadText(ChainJson(20));
  std::vector<TaskLabel> small_labels = ResolveTaskLabels(small, {});
  GraphvizJob real{small, small_labels, shown, HtmlOptions{}};
  real.progress = &progress;
  progress.str("");
  ASSERT_TRUE(RenderGraphvizPageInChild(real, &html, &err)) << err;
  EXPECT_EQ(progress.str(), "");
  EXPECT_NE(html.find("<svg"), std::string::npos);
}

// The page a child lays out is the page laid out in process.
TEST(GraphvizJobTest, ChildRendersTheSamePage) {
  DepGraph graph = LoadText(testing::WorkedExampleJson());
  std::vector<TaskLabel> labels = ResolveTaskLabels(graph, {});
  std::vector<uint8_t> shown(graph.pairs.size(), 1);
  shown[0] = 0;
  HtmlOptions options;
  options.source = "data/samples/worked_example/deps.json";
  options.edge_mode = "reduced";
  GraphvizJob job{graph, labels, shown, options};
  std::string child, in_process, err;
  ASSERT_TRUE(RenderGraphvizPageInChild(job, &child, &err)) << err;
  ASSERT_TRUE(RenderHtmlPage(graph, labels, shown, options, &in_process, &err)) << err;
  EXPECT_EQ(child, in_process);
}

}  // namespace
}  // namespace depgraph
