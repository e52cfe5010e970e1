#include "depgraph/timing/ready_idle_gaps.h"

#include <algorithm>
#include <string>
#include <string_view>

namespace depgraph {
namespace {

/// The tasks of one core type that waited, sorted by ready time, with a prefix maximum of
/// their starts: "which task, ready at or before x, waited longest past x?" in O(log T).
struct WaitingTasks {
  struct Entry {
    int64_t ready = 0;
    int64_t start = 0;
    uint32_t task = 0;
  };
  std::vector<Entry> entries;
  std::vector<uint32_t> best;  ///< per prefix: the entry with the latest start

  void Index() {
    std::sort(entries.begin(), entries.end(),
              [](const Entry& a, const Entry& b) { return a.ready < b.ready; });
    best.resize(entries.size());
    for (size_t i = 0; i < entries.size(); ++i) {
      best[i] = (i > 0 && entries[best[i - 1]].start >= entries[i].start)
                    ? best[i - 1]
                    : static_cast<uint32_t>(i);
    }
  }
  /// Index of the last entry with ready <= x, or -1.
  int64_t LastReadyBy(int64_t x) const {
    auto it = std::upper_bound(entries.begin(), entries.end(), x,
                               [](int64_t v, const Entry& e) { return v < e.ready; });
    return static_cast<int64_t>(it - entries.begin()) - 1;
  }
};

/// Appends the parts of [a, b) on `core` during which some task of `waiting` was ready.
void MarkGap(int64_t core, int64_t a, int64_t b, const WaitingTasks& waiting,
             std::vector<ReadyIdleGap>* out) {
  const auto& e = waiting.entries;
  int64_t x = a;
  while (x < b) {
    const int64_t i = waiting.LastReadyBy(x);
    if (i >= 0 && e[waiting.best[i]].start > x) {
      const WaitingTasks::Entry& w = e[waiting.best[i]];
      const int64_t stop = std::min(b, w.start);
      if (!out->empty() && out->back().core == core && out->back().end == x) {
        out->back().end = stop;
      } else {
        out->push_back({core, x, stop, w.task});
      }
      x = stop;
      continue;
    }
    const size_t next = static_cast<size_t>(i + 1);
    if (next >= e.size() || e[next].ready >= b) break;
    x = e[next].ready;  // > x: entries up to i are ready by x
  }
}

}  // namespace

ReadyIdleGaps FindReadyIdleGaps(const TimingRecords& records, const TaskTimings& timings,
                                const HappensBefore& hb, const ReadyIdleOptions& options) {
  ReadyIdleGaps result;
  std::vector<ReadyIdleGap>& out = result.gaps;
  if (timings.tasks.empty()) return result;
  // Core types by name ("aic", "aiv"; anything a file names).
  std::vector<std::string_view> type_names;
  auto type_of = [&](int64_t core) {
    const std::string_view name = records.CoreType(core);
    const auto it = std::find(type_names.begin(), type_names.end(), name);
    if (it != type_names.end()) return static_cast<size_t>(it - type_names.begin());
    type_names.push_back(name);
    return type_names.size() - 1;
  };
  std::vector<WaitingTasks> waiting;
  std::vector<int64_t> waits;  // start - ready per waiting task
  for (uint32_t t = 0; t < timings.tasks.size(); ++t) {
    if (t >= hb.preds.size() || hb.preds[t].empty()) continue;
    int64_t ready = INT64_MIN;
    for (uint32_t p : hb.preds[t]) ready = std::max(ready, timings.tasks[p].end);
    const int64_t start = timings.tasks[t].start;
    if (start <= ready) continue;
    waits.push_back(start - ready);
    std::vector<size_t> types;
    for (int64_t core : timings.CoresOf(t)) {
      const size_t type = type_of(core);
      if (std::find(types.begin(), types.end(), type) != types.end()) continue;
      types.push_back(type);
      if (waiting.size() <= type) waiting.resize(type + 1);
      waiting[type].entries.push_back({ready, start, t});
    }
  }
  if (waiting.empty()) return result;
  for (WaitingTasks& w : waiting) w.Index();

  // Rows by core, then start: each core's busy time is the union of its rows.
  struct Slice {
    int64_t core, start, end;
  };
  std::vector<Slice> slices;
  slices.reserve(records.rows.size());
  for (const TimingRow& row : records.rows) slices.push_back({row.core, row.start, row.end});
  std::sort(slices.begin(), slices.end(), [](const Slice& a, const Slice& b) {
    return a.core != b.core ? a.core < b.core : a.start < b.start;
  });
  for (size_t i = 0; i < slices.size();) {
    const int64_t core = slices[i].core;
    const size_t type = type_of(core);
    const WaitingTasks* w = type < waiting.size() ? &waiting[type] : nullptr;
    int64_t free_from = timings.t0;
    for (; i < slices.size() && slices[i].core == core; ++i) {
      if (w != nullptr && slices[i].start > free_from) MarkGap(core, free_from, slices[i].start, *w, &out);
      free_from = std::max(free_from, slices[i].end);
    }
    if (w != nullptr && timings.t1 > free_from) MarkGap(core, free_from, timings.t1, *w, &out);
  }
  if (options.skip_dispatch_latency) {
    auto tenth = waits.begin() + static_cast<std::ptrdiff_t>(waits.size() / 10);
    std::nth_element(waits.begin(), tenth, waits.end());
    result.floor = 2 * *tenth;
    size_t kept = 0;
    for (const ReadyIdleGap& gap : out) {
      if (gap.end - gap.start > result.floor) {
        out[kept++] = gap;
      } else {
        ++result.skipped;
        result.skipped_ticks += gap.end - gap.start;
      }
    }
    out.resize(kept);
  }
  return result;
}

}  // namespace depgraph
