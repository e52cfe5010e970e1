// The Graphviz page as deps_viewer renders it: an estimate before a long layout, progress on
// stderr while it runs, and the layout in a child process, so that a crash or a timeout of
// the layout library ends in a one-line error instead of taking deps_viewer down.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "child_job.h"
#include "depgraph/graph/graph.h"
#include "depgraph/graph/task_label.h"
#include "html_page.h"

namespace depgraph {

/// The number of nodes of the graph dot's positioning phase solves (its network simplex
/// over an auxiliary graph: one node per task, per pair and per rank a pair crosses, the last
/// counted twice), predicted without running dot: V + E + 2 x (sum over pairs of the ranks
/// each spans, minus one), ranks by longest path from the sources, then every task with more
/// successors than predecessors moved down to just above its first successor (as dot's
/// ranking does with an alloc feeding a late consumer). Matches dot 2.42 exactly on decode,
/// chain and wide graphs, within 1% on random ones. A cyclic graph counts no spans.
/// O(V + E).
uint64_t PredictDotSolverNodes(const DepGraph& graph);

/// CPU seconds dot needs for the Graphviz page of a graph whose positioning graph has
/// `solver_nodes` nodes (PredictDotSolverNodes): 8.85e-10 x solver_nodes^2.42, fitted to the
/// layouts measured in docs/deps_viewer.md ("Forcing Graphviz on a large graph"; within a
/// factor 1.7 on decode, chain, wide and random graphs of 100 to 1,000 tasks). Wall time on
/// a loaded machine is higher. O(1).
double EstimateDotSeconds(uint64_t solver_nodes);

/// CPU seconds of estimated dot layout from which the viewer warns before a Graphviz page and,
/// when no --layout is given, writes the explorer page instead.
inline constexpr double kGraphvizLongLayoutSeconds = 5;

/// A duration for people: "under a second", "about 40 s", "about 4 min", "about 2 h". O(1).
std::string ApproximateDuration(double seconds);

/// Names the phase a dot layout is in, from the lines Graphviz writes when verbose
/// (SetGraphvizVerbose): "ranking (1/4)", "ordering (2/4): pass 2, 2001 crossings",
/// "positioning (3/4): iteration 4100 of about 10400" (positioning is most of the time on
/// deep graphs; the total is a rule of thumb), "routing edges (4/4)", "writing SVG". Lines
/// of other engines leave it "". O(|line|) per line.
class DotPhaseTracker {
 public:
  /// Takes one stderr line of the layout.
  void Feed(std::string_view line);
  /// The current phase, "" before the first recognised line.
  const std::string& phase() const { return phase_; }

 private:
  bool ordering_seen_ = false;
  uint64_t solver_nodes_ = 0;  ///< nodes of the positioning solver's auxiliary graph
  std::string phase_;
};

/// One Graphviz page to render in a child process.
struct GraphvizJob {
  const DepGraph& graph;
  const std::vector<TaskLabel>& labels;
  const std::vector<uint8_t>& shown;  ///< per pair, as for RenderHtmlPage
  HtmlOptions html;                   ///< html.source names the input in messages
  double timeout_seconds = 0;         ///< kill the layout after this long; 0 = no limit
  /// Where the warning and the progress go (deps_viewer's stderr); null = nowhere.
  std::ostream* progress = nullptr;
  /// Progress as one line rewritten in place (a terminal) instead of a line now and then.
  bool progress_is_terminal = false;
  /// What the child runs; empty = RenderHtmlPage with verbose Graphviz. Tests put a crash or
  /// a hang here.
  ChildWork work = {};
};

/// Renders the Graphviz page of `job` in a child process into *html. A long layout first
/// gets one warning line on job.progress: with dot, when estimated at 5 CPU seconds or more
/// (with the estimate); with another engine, above the default Graphviz-page limits of
/// viewer_output.h. While the layout runs, job.progress shows the elapsed time, the estimate
/// and dot's phase (on a terminal one line updated each second, else a line at 10 s, 30 s,
/// 1 min and each minute after). Returns false with one line in *err naming html.source
/// when Graphviz fails, the child crashes ("deps.json: Graphviz crashed laying out 2115 nodes
/// (signal 11, SIGSEGV) while positioning (3/4); ...") or the timeout passes; *html is then
/// empty. Cost: the layout's, plus a fork and one copy of the page through a pipe.
bool RenderGraphvizPageInChild(const GraphvizJob& job, std::string* html, std::string* err);

}  // namespace depgraph
