// Parts 1-4 and 6 of the scheduler-overhead analysis: the per-task fold of the task rows, the
// overhead sweep, the AICore switch gaps, the head / tail sets and the critical-path walk.
// Part 5 (the scheduler loop breakdown) is in sched_overhead_threads.cc.
#include "depgraph/timing/sched_overhead.h"

#include <algorithm>
#include <unordered_map>

#include "sched_overhead_threads.h"

namespace depgraph {

namespace {

constexpr __int128 kMask64 = (static_cast<__int128>(1) << 64) - 1;

__int128 Normalize(__int128 id) { return id < 0 ? (id & kMask64) : id; }

double Clamp(double x, double lo, double hi) { return std::max(lo, std::min(x, hi)); }

/// A logical task: its rows folded (earliest dispatch and start, latest end and finish) and
/// the engines (positions in the sorted engine list) it ran on.
struct FoldedTask {
  __int128 id = 0;
  double dispatch = 0, start = 0, end = 0, finish = 0;
  uint64_t engines = 0;
};

/// The task rows grouped by logical task, in order of first appearance, with the timed
/// producers (distinct, self-edges dropped) of each.
struct TaskFold {
  std::vector<FoldedTask> tasks;
  std::unordered_map<__int128, uint32_t, Int128Hash> index;
  std::vector<std::vector<uint32_t>> producers;  ///< per task: its producers among tasks
};

/// Folds the rows. `engine_of_type` maps a core type index to its engine position (-1: an
/// unnamed type). O(n + E) expected.
TaskFold FoldTasks(const SwimlaneRecords& records, const SwimlaneDeps& deps,
                   const std::vector<int>& engine_of_type) {
  TaskFold fold;
  for (const SwimlaneTask& row : records.tasks) {
    const __int128 id = Normalize(row.task_id);
    auto [it, fresh] = fold.index.try_emplace(id, static_cast<uint32_t>(fold.tasks.size()));
    if (fresh) {
      fold.tasks.push_back({id, row.dispatch_us, row.start_us, row.end_us, row.finish_us, 0});
    }
    FoldedTask& t = fold.tasks[it->second];
    t.dispatch = std::min(t.dispatch, row.dispatch_us);
    t.start = std::min(t.start, row.start_us);
    t.end = std::max(t.end, row.end_us);
    t.finish = std::max(t.finish, row.finish_us);
    const int engine = engine_of_type[row.core_type];
    if (engine >= 0) t.engines |= uint64_t{1} << engine;
  }
  fold.producers.resize(fold.tasks.size());
  for (size_t p = 0; p < deps.preds.size(); ++p) {
    auto pred = fold.index.find(deps.preds[p]);
    if (pred == fold.index.end()) continue;
    for (__int128 succ_id : deps.succs[p]) {
      if (succ_id == deps.preds[p]) continue;
      auto succ = fold.index.find(succ_id);
      if (succ != fold.index.end()) fold.producers[succ->second].push_back(pred->second);
    }
  }
  return fold;
}

/// The step function of the sweep: sorted distinct times and, per step [times[i], times[i+1])
/// and engine, whether a task of the engine was ready and undispatched.
struct ReadySteps {
  std::vector<double> times;
  std::vector<uint8_t> has_ready;  ///< [step * engines + engine]
  size_t engines = 0;
  /// Per engine, prefix integrals of has_ready: ready_time[engine][i] = ready time in steps < i.
  std::vector<std::vector<double>> ready_time;

  /// Time within [times[0], x] during which the engine had ready work (x within the window).
  /// *hint is a step index from an earlier call: the search gallops forward from it (queries
  /// in increasing time cost O(log distance)), else falls back to a binary search; it is
  /// updated to x's step.
  double ReadyTimeUpTo(size_t engine, double x, size_t* hint) const {
    if (times.size() < 2 || x <= times[0]) return 0;
    const size_t last = times.size() - 2;  // the last step
    size_t i = std::min(*hint, last);
    if (times[i] <= x) {
      // Gallop: lo stays a step at or before x; hi ends past it (or one past the last step).
      size_t lo = i, hi = last + 1, stride = 1;
      while (lo + stride <= last) {
        if (times[lo + stride] > x) {
          hi = lo + stride;
          break;
        }
        lo += stride;
        stride *= 2;
      }
      i = static_cast<size_t>(std::upper_bound(times.begin() + static_cast<ptrdiff_t>(lo) + 1,
                                               times.begin() + static_cast<ptrdiff_t>(hi), x) -
                              times.begin()) - 1;
    } else {
      const auto end = times.begin() + static_cast<ptrdiff_t>(i);
      i = static_cast<size_t>(std::upper_bound(times.begin(), end, x) - times.begin()) - 1;
    }
    *hint = i;
    const double partial = has_ready[i * engines + engine] ? x - times[i] : 0;
    return ready_time[engine][i] + partial;
  }
};

/// Part 1: the sweep over start/end and ready/dispatch events (sorted by time). O(n log n).
ReadySteps OverheadSweep(const SwimlaneRecords& records, const TaskFold& fold,
                         const std::vector<int>& engine_of_type, double w0, double w1,
                         SchedOverheadReport* report) {
  const size_t m = report->engines.size();
  struct Delta {
    double time;
    uint32_t slot;  // engine (running) or m + engine (ready)
    int32_t delta;
  };
  std::vector<Delta> deltas = {{w0, 0, 0}, {w1, 0, 0}};  // the window's ends are steps too
  for (const SwimlaneTask& row : records.tasks) {
    const int engine = engine_of_type[row.core_type];
    if (engine < 0) continue;
    const double s = Clamp(row.start_us, w0, w1), e = Clamp(row.end_us, w0, w1);
    if (e > s) {
      deltas.push_back({s, static_cast<uint32_t>(engine), 1});
      deltas.push_back({e, static_cast<uint32_t>(engine), -1});
    }
  }
  for (size_t j = 0; j < fold.tasks.size(); ++j) {
    const FoldedTask& t = fold.tasks[j];
    // Ready when its last timed producer ended; without one, at its own dispatch.
    double ready = t.dispatch;
    bool any = false;
    for (uint32_t p : fold.producers[j]) {
      ready = any ? std::max(ready, fold.tasks[p].end) : fold.tasks[p].end;
      any = true;
    }
    const double r = Clamp(ready, w0, w1), d = Clamp(t.dispatch, w0, w1);
    if (d > r) {
      bool on_engine = false;
      for (size_t e = 0; e < m; ++e) {
        if (!(t.engines >> e & 1)) continue;
        deltas.push_back({r, static_cast<uint32_t>(m + e), 1});
        deltas.push_back({d, static_cast<uint32_t>(m + e), -1});
        on_engine = true;
      }
      if (!on_engine) {  // still a step of the sweep, as in the reference
        deltas.push_back({r, 0, 0});
        deltas.push_back({d, 0, 0});
      }
    }
  }
  std::sort(deltas.begin(), deltas.end(),
            [](const Delta& a, const Delta& b) { return a.time < b.time; });
  ReadySteps steps;
  steps.engines = m;
  for (size_t k = 0; k < deltas.size(); ++k) {
    if (k == 0 || deltas[k].time != deltas[k - 1].time) steps.times.push_back(deltas[k].time);
  }
  const std::vector<double>& times = steps.times;
  steps.has_ready.assign(times.size() * m, 0);
  steps.ready_time.assign(m, std::vector<double>(times.size(), 0.0));
  std::vector<int64_t> running(m, 0), waiting(m, 0);
  size_t k = 0;
  for (size_t i = 0; i + 1 < times.size(); ++i) {
    for (; k < deltas.size() && deltas[k].time == times[i]; ++k) {
      const Delta& d = deltas[k];
      if (d.slot < m) {
        running[d.slot] += d.delta;
      } else {
        waiting[d.slot - m] += d.delta;
      }
    }
    const double length = times[i + 1] - times[i];
    bool all = m > 0, work = false, has = true;
    for (size_t e = 0; e < m; ++e) {
      steps.has_ready[i * m + e] = waiting[e] > 0;
      steps.ready_time[e][i + 1] = steps.ready_time[e][i] + (waiting[e] > 0 ? length : 0);
      const bool idle = report->engines[e].cores - running[e] > 0;
      const bool over = idle && waiting[e] > 0;
      if (over) report->engines[e].overhead_us += length;
      all = all && over;
      if (waiting[e] > 0) {
        work = true;
        has = has && idle;
      }
    }
    if (all) report->all_overhead_us += length;
    if (work && has) report->has_overhead_us += length;
  }
  return steps;
}

/// Rows grouped by core id in order of each core's first row; each group's row indices kept in
/// row order. O(n) expected.
std::vector<std::vector<uint32_t>> RowsByCore(const SwimlaneRecords& records) {
  std::unordered_map<int64_t, uint32_t> index;
  std::vector<std::vector<uint32_t>> groups;
  for (size_t i = 0; i < records.tasks.size(); ++i) {
    auto [it, fresh] =
        index.try_emplace(records.tasks[i].core_id, static_cast<uint32_t>(groups.size()));
    if (fresh) groups.emplace_back();
    groups[it->second].push_back(static_cast<uint32_t>(i));
  }
  return groups;
}

/// Part 2: per core, its rows by (start, end, dispatch), the switch gaps, and their split
/// against the ready steps. O(n log n).
void SwitchGaps(const SwimlaneRecords& records, const std::vector<std::vector<uint32_t>>& by_core,
                const std::vector<int>& engine_of_type, const ReadySteps& steps, double w0,
                double w1, SchedOverheadReport* report) {
  bool any_core = false;
  double lower = 0;
  for (const std::vector<uint32_t>& rows : by_core) {
    const int engine = engine_of_type[records.tasks[rows[0]].core_type];
    struct Run {
      double start, end, dispatch;
    };
    std::vector<Run> sorted;
    sorted.reserve(rows.size());
    for (uint32_t i : rows) {
      const SwimlaneTask& t = records.tasks[i];
      sorted.push_back({t.start_us, t.end_us, t.dispatch_us});
    }
    std::sort(sorted.begin(), sorted.end(), [](const Run& a, const Run& b) {
      if (a.start != b.start) return a.start < b.start;
      if (a.end != b.end) return a.end < b.end;
      return a.dispatch < b.dispatch;
    });
    double total = 0;
    size_t hint = 0;
    for (size_t i = 0; i + 1 < sorted.size(); ++i) {
      const double previous_end = sorted[i].end;
      const Run& next = sorted[i + 1];
      const double from = std::max(previous_end, w0), to = std::min(next.start, w1);
      const double gap = to - from;
      if (gap <= 0 || !(next.dispatch < previous_end)) continue;
      total += gap;
      if (engine < 0) continue;
      EngineOverhead& e = report->engines[static_cast<size_t>(engine)];
      ++e.switch_events;
      e.switch_event_sum_us += gap;
      const double before = steps.ReadyTimeUpTo(static_cast<size_t>(engine), from, &hint);
      const double during = steps.ReadyTimeUpTo(static_cast<size_t>(engine), to, &hint) - before;
      e.switch_overhead_us += during;
      e.switch_independent_us += gap - during;
    }
    if (engine >= 0) {
      report->engines[static_cast<size_t>(engine)].switch_per_core_us.push_back(total);
    }
    lower = any_core ? std::min(lower, total) : total;
    any_core = true;
  }
  report->switch_lower_us = lower;
  double upper = 0;
  for (const EngineOverhead& e : report->engines) {
    if (!e.switch_per_core_us.empty()) {
      upper += *std::min_element(e.switch_per_core_us.begin(), e.switch_per_core_us.end());
    }
  }
  report->switch_upper_us = upper;
}

OverheadDistribution Distribution(std::vector<double> values) {
  OverheadDistribution d;
  std::sort(values.begin(), values.end());
  for (double v : values) d.sum += v;
  d.sorted = std::move(values);
  return d;
}

/// Parts 3 and 4: per row, head = start - dispatch, or the smaller of that and start - the
/// previous end on its core (start order), and tail = finish - end; both clamped at 0.
/// O(n log n).
void HeadTail(const SwimlaneRecords& records, const std::vector<std::vector<uint32_t>>& by_core,
              SchedOverheadReport* report) {
  std::vector<double> heads, tails;
  heads.reserve(records.tasks.size());
  tails.reserve(records.tasks.size());
  for (std::vector<uint32_t> rows : by_core) {
    std::stable_sort(rows.begin(), rows.end(), [&](uint32_t a, uint32_t b) {
      return records.tasks[a].start_us < records.tasks[b].start_us;
    });
    bool first = true;
    double last_end = 0;
    for (uint32_t i : rows) {
      const SwimlaneTask& t = records.tasks[i];
      double head = t.start_us - t.dispatch_us;
      if (!first) head = std::min(head, t.start_us - last_end);
      heads.push_back(std::max(0.0, head));
      tails.push_back(std::max(0.0, t.finish_us - t.end_us));
      last_end = t.end_us;
      first = false;
    }
  }
  for (double t : tails) report->tail_sum_row_order += t;
  report->head = Distribution(std::move(heads));
  report->tail = Distribution(std::move(tails));
}

/// Part 6: from the task that finished last (the first such in fold order), step to the
/// producer that ended last (ties: the greater id) until a task has no timed producer.
/// O(path · fan-in).
CriticalPathAttribution CriticalPath(const TaskFold& fold) {
  CriticalPathAttribution cp;
  if (fold.tasks.empty()) return cp;
  uint32_t cur = 0;
  for (uint32_t j = 1; j < fold.tasks.size(); ++j) {
    if (fold.tasks[j].finish > fold.tasks[cur].finish) cur = j;
  }
  const double makespan_end = fold.tasks[cur].finish;
  double path_start = fold.tasks[cur].start;
  std::vector<bool> visited(fold.tasks.size(), false);
  visited[cur] = true;
  while (true) {
    const FoldedTask& t = fold.tasks[cur];
    cp.exec_us += std::max(0.0, t.end - t.start);
    const std::vector<uint32_t>& producers = fold.producers[cur];
    if (producers.empty()) {
      cp.sched_us += std::max(0.0, t.start - t.dispatch);
      path_start = std::min(path_start, t.start);
      break;
    }
    uint32_t gate = producers[0];
    for (uint32_t p : producers) {
      const FoldedTask& a = fold.tasks[p];
      const FoldedTask& b = fold.tasks[gate];
      if (a.end > b.end || (a.end == b.end && a.id > b.id)) gate = p;
    }
    cp.sched_us += std::max(0.0, t.start - fold.tasks[gate].end);
    ++cp.hops;
    if (visited[gate]) {
      cp.cycle = true;
      cp.cycle_task = fold.tasks[gate].id;
      return cp;
    }
    visited[gate] = true;
    cur = gate;
    path_start = std::min(path_start, fold.tasks[cur].start);
  }
  cp.found = true;
  cp.span_us = makespan_end - path_start;
  return cp;
}

}  // namespace

double OverheadDistribution::Percentile(int p) const {
  const size_t n = sorted.size();
  return sorted[std::min(n * static_cast<size_t>(p) / 100, n - 1)];
}

bool AnalyzeSchedOverhead(const SwimlaneRecords& records, const SwimlaneDeps& deps,
                          const std::string& records_name, SchedOverheadReport* report,
                          std::string* err) {
  *report = SchedOverheadReport();
  if (records.tasks.empty()) {
    *err = records_name + ": no tasks (no aicore_tasks row joined with an aicpu_tasks row)";
    return false;
  }
  if (!SchedulerThreadBreakdown(records, deps, records_name, &report->threads, err)) return false;

  // Engines: the named core types, sorted by name, with their distinct cores.
  std::vector<uint32_t> named;
  for (uint32_t i = 0; i < records.core_type_names.size(); ++i) {
    if (!records.core_type_names[i].empty()) named.push_back(i);
  }
  std::sort(named.begin(), named.end(), [&](uint32_t a, uint32_t b) {
    return records.core_type_names[a] < records.core_type_names[b];
  });
  if (named.size() > 64) {
    *err = records_name + ": metadata.core_types: more than 64 distinct core types";
    return false;
  }
  std::vector<int> engine_of_type(records.core_type_names.size(), -1);
  for (size_t e = 0; e < named.size(); ++e) {
    engine_of_type[named[e]] = static_cast<int>(e);
    EngineOverhead engine;
    engine.type = records.core_type_names[named[e]];
    report->engines.push_back(std::move(engine));
  }
  const std::vector<std::vector<uint32_t>> by_core = RowsByCore(records);
  for (const std::vector<uint32_t>& rows : by_core) {
    const int engine = engine_of_type[records.tasks[rows[0]].core_type];
    if (engine >= 0) ++report->engines[static_cast<size_t>(engine)].cores;
  }

  report->task_rows = records.tasks.size();
  double w0 = records.tasks[0].start_us, w1 = records.tasks[0].end_us;
  for (const SwimlaneTask& t : records.tasks) {
    w0 = std::min(w0, t.start_us);
    w1 = std::max(w1, t.end_us);
  }
  report->window_start_us = w0;
  report->window_end_us = w1;
  report->window_us = w1 - w0;

  const TaskFold fold = FoldTasks(records, deps, engine_of_type);
  const ReadySteps steps = OverheadSweep(records, fold, engine_of_type, w0, w1, report);
  SwitchGaps(records, by_core, engine_of_type, steps, w0, w1, report);
  HeadTail(records, by_core, report);
  report->critical_path = CriticalPath(fold);
  return true;
}

}  // namespace depgraph
