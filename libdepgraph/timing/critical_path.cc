#include "depgraph/timing/critical_path.h"

#include <algorithm>
#include <deque>
#include <string_view>
#include <tuple>
#include <unordered_map>

#include "depgraph/internal/flat_id_map.h"

namespace depgraph {

namespace {

/// One row of a core: (start, end, task).
struct Slice {
  int64_t start;
  int64_t end;
  uint32_t task;
};

/// `a + b` without overflow for tick values (|a| < 2^62) and any tolerance.
int64_t AddTolerance(int64_t a, int64_t tol) {
  constexpr int64_t kBound = int64_t{1} << 62;
  return a + std::clamp(tol, -kBound, kBound);
}

/// `a + b`, clamped to the int64 range: a path's weight when a large --tol keeps edges between
/// overlapping tasks of huge spans (never reached by real tick counts).
int64_t SaturatingAdd(int64_t a, int64_t b) {
  int64_t sum = 0;
  if (__builtin_add_overflow(a, b, &sum)) return a > 0 ? INT64_MAX : INT64_MIN;
  return sum;
}

}  // namespace

const char* StallKindName(StallKind kind) {
  switch (kind) {
    case StallKind::kFrontGap:
      return "front-gap";
    case StallKind::kDataWait:
      return "data-wait";
    case StallKind::kCoreWait:
      return "core-wait";
  }
  return "?";
}

void AddDependencyEdges(const TaskTimings& timings, const std::vector<TimedEdge>& edges,
                        const CriticalPathOptions& options, HappensBefore* out) {
  const std::vector<TaskTiming>& tasks = timings.tasks;
  HappensBefore& hb = *out;
  hb.preds.assign(tasks.size(), {});
  hb.heads.clear();
  hb.kept_edges = 0;

  // §3.7: unique edges in file order, kept when the producer finished (within tol) before the
  // consumer started and started strictly earlier.
  FlatIdMap seen;  // (pred << 32 | succ) of the edges considered
  seen.Reserve(edges.size());
  for (const TimedEdge& edge : edges) {
    if (edge.pred < 0 || edge.succ < 0 || edge.pred == edge.succ) continue;
    const uint32_t p = static_cast<uint32_t>(edge.pred), s = static_cast<uint32_t>(edge.succ);
    bool fresh = false;
    seen.FindOrInsert(uint64_t{p} << 32 | s, 0, &fresh);
    if (!fresh) continue;
    if (tasks[p].end <= AddTolerance(tasks[s].start, options.tol) &&
        tasks[p].start < tasks[s].start) {
      if (hb.preds[s].empty()) hb.heads.push_back(s);
      hb.preds[s].push_back(p);
      ++hb.kept_edges;
    }
  }
}

void AddCorePredecessors(const TimingRecords& records, const TaskTimings& timings,
                         const CriticalPathOptions& options, HappensBefore* out) {
  const std::vector<TaskTiming>& tasks = timings.tasks;
  HappensBefore& hb = *out;
  hb.core_prev.assign(tasks.size(), std::nullopt);
  // §3.8: per core (in order of first row), slices by (start, end, task key as a string),
  // with a running maximum of the ends seen so far.
  std::unordered_map<int64_t, uint32_t> core_index;
  std::vector<uint32_t> row_core(records.rows.size());
  std::vector<size_t> counts;
  uint32_t current = 0;  // the collector groups rows by core: look up only on a change
  for (size_t r = 0; r < records.rows.size(); ++r) {
    const TimingRow& row = records.rows[r];
    if (r == 0 || row.core != records.rows[r - 1].core) {
      auto [it, fresh] = core_index.emplace(row.core, static_cast<uint32_t>(counts.size()));
      if (fresh) counts.push_back(0);
      current = it->second;
    }
    row_core[r] = current;
    ++counts[current];
  }
  std::vector<std::vector<Slice>> cores(counts.size());
  for (size_t c = 0; c < counts.size(); ++c) cores[c].reserve(counts[c]);
  for (size_t r = 0; r < records.rows.size(); ++r) {
    const TimingRow& row = records.rows[r];
    cores[row_core[r]].push_back(Slice{row.start, row.end, timings.row_task[r]});
  }
  for (std::vector<Slice>& slices : cores) {
    const auto before = [&](const Slice& a, const Slice& b) {
      if (a.start != b.start) return a.start < b.start;
      if (a.end != b.end) return a.end < b.end;
      return tasks[a.task].key < tasks[b.task].key;
    };
    // The collector writes each core's rows in the order they ran: usually sorted already.
    if (!std::is_sorted(slices.begin(), slices.end(), before)) {
      std::sort(slices.begin(), slices.end(), before);
    }
    bool have_best = false;
    int64_t best_end = 0;
    uint32_t best_task = 0;
    for (const Slice& slice : slices) {
      if (have_best && best_task != slice.task &&
          best_end <= AddTolerance(slice.start, options.tol) &&
          slice.start == tasks[slice.task].start) {
        auto& current = hb.core_prev[slice.task];
        if (!current || best_end > current->second) current.emplace(best_task, best_end);
      }
      if (!have_best || slice.end > best_end) {
        have_best = true;
        best_end = slice.end;
        best_task = slice.task;
      }
    }
  }
}

HappensBefore BuildHappensBefore(const TimingRecords& records, const TaskTimings& timings,
                                 const std::vector<TimedEdge>& edges,
                                 const CriticalPathOptions& options) {
  HappensBefore hb;
  AddDependencyEdges(timings, edges, options, &hb);
  AddCorePredecessors(records, timings, options, &hb);
  return hb;
}

namespace {

/// §3.9: Kahn order (FIFO; successor lists ordered by the successors' first kept edge), then
/// the longest span-weighted chain; ties to the first predecessor in edge order.
void StaticPath(const TaskTimings& timings, const HappensBefore& hb, CpmWeight weight,
                CriticalPathResult* out) {
  const std::vector<TaskTiming>& tasks = timings.tasks;
  const size_t n = tasks.size();
  std::vector<std::vector<uint32_t>> succs(n);
  for (uint32_t s : hb.heads) {
    for (uint32_t p : hb.preds[s]) succs[p].push_back(s);
  }
  std::vector<size_t> indegree(n);
  std::deque<uint32_t> queue;
  for (uint32_t v = 0; v < n; ++v) {
    indegree[v] = hb.preds[v].size();
    if (indegree[v] == 0) queue.push_back(v);
  }
  std::vector<uint32_t> order;
  order.reserve(n);
  while (!queue.empty()) {
    const uint32_t v = queue.front();
    queue.pop_front();
    order.push_back(v);
    for (uint32_t s : succs[v]) {
      if (--indegree[s] == 0) queue.push_back(s);
    }
  }
  std::vector<int64_t> finish(n, 0);
  std::vector<int64_t> chosen(n, -1);
  for (uint32_t v : order) {
    int64_t best = 0;
    for (uint32_t p : hb.preds[v]) {
      if (finish[p] > best) {
        best = finish[p];
        chosen[v] = p;
      }
    }
    finish[v] = SaturatingAdd(
        weight == CpmWeight::kSpan ? tasks[v].span() : tasks[v].longest_block, best);
  }
  if (order.empty()) return;
  uint32_t sink = order[0];
  for (uint32_t v : order) {
    if (finish[v] > finish[sink]) sink = v;
  }
  out->cpm = finish[sink];
  for (int64_t v = sink; v >= 0; v = chosen[static_cast<size_t>(v)]) {
    out->static_path.push_back(static_cast<uint32_t>(v));
  }
  std::reverse(out->static_path.begin(), out->static_path.end());
}

/// A candidate of the backward walk: compared by (end, task key as a string, kind name).
struct Candidate {
  int64_t end;
  uint32_t task;
  StallKind kind;
};

bool Greater(const TaskTimings& timings, const Candidate& a, const Candidate& b) {
  if (a.end != b.end) return a.end > b.end;
  const std::string& ka = timings.tasks[a.task].key;
  const std::string& kb = timings.tasks[b.task].key;
  if (ka != kb) return ka > kb;
  return std::string_view(StallKindName(a.kind)) > std::string_view(StallKindName(b.kind));
}

/// §3.10 and §3.11.
void ObservedPath(const TaskTimings& timings, const HappensBefore& hb,
                  const CriticalPathOptions& options, CriticalPathResult* out) {
  const std::vector<TaskTiming>& tasks = timings.tasks;
  if (tasks.empty()) return;
  uint32_t v = 0;
  for (uint32_t t = 1; t < tasks.size(); ++t) {
    if (tasks[t].end > tasks[v].end) v = t;
  }
  std::vector<ObservedStep>& path = out->observed_path;
  while (true) {
    bool have = false;
    Candidate best{0, 0, StallKind::kFrontGap};
    auto offer = [&](const Candidate& c) {
      if (!have || Greater(timings, c, best)) best = c;
      have = true;
    };
    for (uint32_t p : hb.preds[v]) offer(Candidate{tasks[p].end, p, StallKind::kDataWait});
    if (const auto& cp = hb.core_prev[v]; cp &&
                                          cp->second <= AddTolerance(tasks[v].start, options.tol) &&
                                          tasks[cp->first].start < tasks[v].start) {
      offer(Candidate{cp->second, cp->first, StallKind::kCoreWait});
    }
    if (!have) {
      path.push_back(ObservedStep{v, StallKind::kFrontGap, 0, 0});
      break;
    }
    path.push_back(ObservedStep{v, best.kind, 0, 0});
    v = best.task;  // started strictly earlier, so the walk ends
  }
  std::reverse(path.begin(), path.end());

  int64_t frontier = timings.t0;
  for (ObservedStep& step : path) {
    const int64_t s = tasks[step.task].start, e = tasks[step.task].end;
    step.stall = std::max<int64_t>(0, s - frontier);
    step.compute = std::max<int64_t>(0, e - std::max(s, frontier));
    frontier = std::max(frontier, e);
    out->stall_total += step.stall;
    out->compute_total += step.compute;
    auto it = std::find_if(out->stall_by_kind.begin(), out->stall_by_kind.end(),
                           [&](const auto& entry) { return entry.first == step.kind; });
    if (it == out->stall_by_kind.end()) {
      out->stall_by_kind.emplace_back(step.kind, step.stall);
    } else {
      it->second += step.stall;
    }
  }
}

}  // namespace

CriticalPathResult AnalyzeCriticalPath(const TaskTimings& timings, const HappensBefore& hb,
                                       const CriticalPathOptions& options) {
  CriticalPathResult out;
  out.task_count = timings.tasks.size();
  out.kept_edges = hb.kept_edges;
  out.t0 = timings.t0;
  out.makespan = timings.makespan();
  StaticPath(timings, hb, options.cpm_weight, &out);
  ObservedPath(timings, hb, options, &out);
  return out;
}

}  // namespace depgraph
