#include "graphviz_job.h"

#include <signal.h>
#include <string.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <numeric>
#include <string>
#include <vector>

#include "depgraph/graph/topo_order.h"
#include "graphviz_render.h"
#include "viewer_output.h"

namespace depgraph {

namespace {

// dot layouts estimated at this many CPU seconds or more get the warning first.

std::vector<std::string_view> Words(std::string_view line) {
  std::vector<std::string_view> words;
  size_t at = 0;
  while (at < line.size()) {
    size_t begin = line.find_first_not_of(' ', at);
    if (begin == std::string_view::npos) break;
    size_t end = line.find(' ', begin);
    if (end == std::string_view::npos) end = line.size();
    words.push_back(line.substr(begin, end - begin));
    at = end;
  }
  return words;
}

bool IsNumber(std::string_view word) {
  return !word.empty() && word.find_first_not_of("0123456789") == std::string_view::npos;
}

// The word after `key`, when it is a number; "" otherwise.
std::string_view NumberAfter(const std::vector<std::string_view>& words, std::string_view key) {
  for (size_t i = 0; i + 1 < words.size(); ++i) {
    if (words[i] == key && IsNumber(words[i + 1])) return words[i + 1];
  }
  return {};
}

// Shows the elapsed time, the estimate and the phase while the child lays out.
class ProgressReport {
 public:
  ProgressReport(std::ostream* out, bool terminal, std::string what, double estimate)
      : out_(out), terminal_(terminal), what_(std::move(what)), estimate_(estimate) {}

  void Tick(double elapsed, const std::string& phase) {
    if (out_ == nullptr) return;
    if (terminal_ ? elapsed < 2 : elapsed < next_line_) return;
    std::string text = what_ + ": " + std::to_string(static_cast<long>(elapsed)) + " s";
    if (estimate_ > 0) text += " (estimate: " + ApproximateDuration(estimate_) + " CPU)";
    if (!phase.empty()) text += ", " + phase;
    if (terminal_) {
      *out_ << "\r" << text << "\033[K" << std::flush;
      shown_ = true;
    } else {
      *out_ << "deps_viewer: " << text << "\n" << std::flush;
      next_line_ = next_line_ < 30 ? 30 : next_line_ < 60 ? 60 : next_line_ + 60;
    }
  }

  // Clears the progress line of a terminal.
  void Done() {
    if (shown_) *out_ << "\r\033[K" << std::flush;
  }

 private:
  std::ostream* out_;
  bool terminal_;
  std::string what_;
  double estimate_;
  double next_line_ = 10;
  bool shown_ = false;
};

std::string SignalName(int signal) {
  const char* abbrev = sigabbrev_np(signal);
  return abbrev == nullptr ? "" : std::string(", SIG") + abbrev;
}

}  // namespace

uint64_t PredictDotSolverNodes(const DepGraph& graph) {
  const size_t n = graph.nodes.size();
  uint64_t solver_nodes = n + graph.pairs.size();
  std::vector<uint32_t> order, cycle;
  if (!TopologicalOrder(graph, &order, &cycle)) return solver_nodes;
  // Pairs are sorted by (pred, succ): a task's successors are one run of pairs.
  std::vector<uint32_t> first_pair(n + 1, 0), predecessors(n + 1, 0);
  for (const Pair& pair : graph.pairs) {
    ++first_pair[pair.pred + 1];
    ++predecessors[pair.succ];
  }
  std::partial_sum(first_pair.begin(), first_pair.end(), first_pair.begin());
  std::vector<uint64_t> rank(n, 0);
  for (uint32_t u : order) {
    for (uint32_t p = first_pair[u]; p < first_pair[u + 1]; ++p) {
      rank[graph.pairs[p].succ] = std::max(rank[graph.pairs[p].succ], rank[u] + 1);
    }
  }
  for (auto it = order.rbegin(); it != order.rend(); ++it) {
    const uint32_t u = *it, successors = first_pair[u + 1] - first_pair[u];
    if (successors == 0 || successors <= predecessors[u]) continue;
    uint64_t first = UINT64_MAX;
    for (uint32_t p = first_pair[u]; p < first_pair[u + 1]; ++p) {
      first = std::min(first, rank[graph.pairs[p].succ]);
    }
    rank[u] = first - 1;
  }
  for (const Pair& pair : graph.pairs) solver_nodes += 2 * (rank[pair.succ] - rank[pair.pred] - 1);
  return solver_nodes;
}

double EstimateDotSeconds(uint64_t solver_nodes) {
  return 8.85e-10 * std::pow(static_cast<double>(solver_nodes), 2.42);
}

std::string ApproximateDuration(double seconds) {
  if (seconds < 1) return "under a second";
  if (seconds < 90) return "about " + std::to_string(std::lround(seconds)) + " s";
  if (seconds < 90 * 60) return "about " + std::to_string(std::lround(seconds / 60)) + " min";
  return "about " + std::to_string(std::lround(seconds / 3600)) + " h";
}

void DotPhaseTracker::Feed(std::string_view line) {
  const std::vector<std::string_view> words = Words(line);
  if (words.empty()) return;
  if (words[0] == "mincross:") {
    ordering_seen_ = true;
    phase_ = "ordering (2/4)";
    std::string_view pass = NumberAfter(words, "pass"), best = NumberAfter(words, "best_cross");
    if (!pass.empty()) phase_ += ": pass " + std::string(pass);
    if (!best.empty()) phase_ += ", " + std::string(best) + " crossings";
  } else if (words[0] == "mincross") {  // "mincross deps: 2001 crossings, 0.10 secs."
    ordering_seen_ = true;
    phase_ = "ordering (2/4) done";
  } else if (words[0] == "network" && words.size() > 2 && words[1] == "simplex:") {
    // Start: "network simplex:  26232 nodes 39867 edges maxiter=... balance=2"; then lines of
    // iteration counts ("network simplex: 4100 4200 ..."); end: "... edges 10393 iter 50.53 sec".
    if (!ordering_seen_) {
      phase_ = "ranking (1/4)";
    } else if (words.size() > 3 && words[3] == "nodes" && IsNumber(words[2])) {
      if (NumberAfter(words, "edges").empty()) {
        solver_nodes_ = std::strtoull(std::string(words[2]).c_str(), nullptr, 10);
        phase_ = "positioning (3/4)";
      } else {
        phase_ = "routing edges (4/4)";
      }
    } else if (IsNumber(words.back())) {
      phase_ = "positioning (3/4): iteration " + std::string(words.back());
      // dot's positioning solver took 0.39-0.40 iterations per node of its auxiliary graph on
      // the measured decode graphs (2958 of 7632, 10393 of 26232).
      if (solver_nodes_ > 0) {
        phase_ += " of about " + std::to_string(solver_nodes_ * 2 / 5 / 100 * 100);
      }
    }
  } else if (words[0] == "routesplines:" || words[0] == "gvRenderJobs") {
    phase_ = "writing SVG";
  }
}

bool RenderGraphvizPageInChild(const GraphvizJob& job, std::string* html, std::string* err) {
  html->clear();
  const DepGraph& graph = job.graph;
  const std::string source = job.html.source.empty() ? "deps.json" : job.html.source;
  const bool dot = job.html.engine == "dot";
  const double estimate = dot ? EstimateDotSeconds(PredictDotSolverNodes(graph)) : 0;
  // dot: by the estimate (a long chain far above the size limits lays out in a second);
  // other engines are not estimated: by the size limits of the default Graphviz page.
  const bool large =
      dot ? estimate >= kGraphvizLongLayoutSeconds
          : graph.nodes.size() > kGraphvizMaxTasks || graph.pairs.size() > kGraphvizMaxEdges;
  const std::string nodes = std::to_string(graph.nodes.size()) + " nodes";
  if (large && job.progress != nullptr) {
    *job.progress << "deps_viewer: warning: Graphviz " << job.html.engine << " on " << nodes
                  << " and " << graph.pairs.size() << " edges "
                  << (dot ? "takes " + ApproximateDuration(estimate) + " of CPU time (estimate)"
                          : std::string("may take minutes (only dot's time is estimated)"))
                  << "; --layout layered draws any size in seconds\n"
                  << std::flush;
  }

  ChildWork work = job.work;
  if (!work) {
    work = [&job](std::string* output, std::string* error) {
      SetGraphvizVerbose(true);
      return RenderHtmlPage(job.graph, job.labels, job.shown, job.html, output, error);
    };
  }
  DotPhaseTracker phases;
  ProgressReport report(job.progress, job.progress_is_terminal, "Graphviz " + job.html.engine,
                        estimate);
  ChildJobOptions options;
  options.timeout_seconds = job.timeout_seconds;
  options.on_line = [&phases](std::string_view line) { phases.Feed(line); };
  options.on_tick = [&](double elapsed) { report.Tick(elapsed, phases.phase()); };
  ChildJobResult result = RunChildJob(work, options);
  report.Done();

  const std::string during = phases.phase().empty() ? "" : " while " + phases.phase();
  switch (result.status) {
    case ChildJobStatus::kDone:
      *html = std::move(result.output);
      return true;
    case ChildJobStatus::kFailed:
      *err = source + ": " + result.error;
      return false;
    case ChildJobStatus::kCrashed:
      *err = source + ": Graphviz crashed laying out " + nodes + " (signal " +
             std::to_string(result.signal) + SignalName(result.signal) + ")" + during +
             "; --layout layered draws the explorer page instead";
      return false;
    case ChildJobStatus::kTimedOut:
      *err = source + ": Graphviz " + job.html.engine + " did not finish laying out " + nodes +
             " within " + ApproximateDuration(job.timeout_seconds).substr(6) +
             " (--layout-timeout)" + during + "; --layout layered draws any size in seconds";
      return false;
  }
  return false;
}

}  // namespace depgraph
