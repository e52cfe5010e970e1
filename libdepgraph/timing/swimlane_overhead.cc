// The `--overhead` counter tracks of the swimlane trace: per core type idle cores, ready but
// undispatched tasks and whether both coincide, and two whole-chip flags, sampled at every
// time a core starts or stops or a task becomes ready or is dispatched.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <set>
#include <string_view>

#include "swimlane_trace_builder.h"

namespace depgraph {

namespace {

constexpr __int128 kMask64 = (static_cast<__int128>(1) << 64) - 1;

__int128 Normalize(__int128 id) { return id < 0 ? (id & kMask64) : id; }

/// Python's round(x, 3): the correctly rounded 3-decimal value (ties to even on the exact
/// binary value, as printf's %.3f rounds), read back as a double. Fast path: when x * 1000
/// (error < 2^-13 below 2^40) is clearly not near a half, the rounding is the nearest integer
/// r, and r / 1000.0 is the double nearest r / 1000, as strtod reads "r/1000" exactly; else
/// printf and strtod decide.
double Round3(double x) {
  const double y = x * 1000.0;
  if (std::fabs(y) < 0x1p40) {
    const double r = std::nearbyint(y);
    if (std::fabs(y - r) < 0.499) return r / 1000.0;
  }
  char buf[512];
  std::snprintf(buf, sizeof buf, "%.3f", x);
  return std::strtod(buf, nullptr);
}

double Clamp(double x, double lo, double hi) {
  const double m = hi < x ? hi : x;
  return m > lo ? m : lo;
}

}  // namespace

void SwimlaneTraceBuilder::OverheadCounters() {
  int64_t points = 0;
  const auto& tasks = rec_.tasks;
  const auto done = [&] {
    Verbose("  Overhead Analysis: " + std::to_string(points) + " counter points (8 tracks)");
  };
  if (!HasEdges() || deps_->edge_count == 0 || tasks.empty()) return done();
  // Core types present: aic (0), aiv (1), in that order.
  std::array<std::set<int64_t>, 2> cores;
  const auto type_index = [&](const SwimlaneTask& t) -> int {
    const std::string& type = rec_.CoreType(t);
    return type == "aic" ? 0 : type == "aiv" ? 1 : -1;
  };
  for (const SwimlaneTask& t : tasks) {
    const int ty = type_index(t);
    if (ty >= 0) cores[static_cast<size_t>(ty)].insert(t.core_id);
  }
  std::vector<int> types;
  for (int ty = 0; ty < 2; ++ty) {
    if (!cores[static_cast<size_t>(ty)].empty()) types.push_back(ty);
  }
  if (types.empty()) return done();
  // Per task: the core types it ran on, its earliest dispatch and latest end.
  struct TaskTimes {
    unsigned types = 0;
    double dispatch = 0, end = 0;
  };
  std::unordered_map<__int128, TaskTimes, Int128Hash> per_task;
  std::vector<__int128> order;
  for (const SwimlaneTask& t : tasks) {
    const __int128 id = Normalize(t.task_id);
    auto [it, fresh] = per_task.try_emplace(id, TaskTimes{0, t.dispatch_us, t.end_us});
    if (fresh) order.push_back(id);
    const int ty = type_index(t);
    if (ty >= 0) it->second.types |= 1u << ty;
    it->second.dispatch = std::min(it->second.dispatch, t.dispatch_us);
    it->second.end = std::max(it->second.end, t.end_us);
  }
  double w0 = tasks[0].start_us, w1 = tasks[0].end_us;
  for (const SwimlaneTask& t : tasks) {
    w0 = std::min(w0, t.start_us);
    w1 = std::max(w1, t.end_us);
  }
  struct Delta {
    double time;
    int type;
    bool ready;  // a ready-but-waiting change (else a running change)
    int delta;
  };
  std::vector<Delta> deltas;
  std::vector<double> times = {w0, w1};
  for (const SwimlaneTask& t : tasks) {
    const int ty = type_index(t);
    if (ty < 0 || cores[static_cast<size_t>(ty)].empty()) continue;
    const double s = Clamp(t.start_us, w0, w1), e = Clamp(t.end_us, w0, w1);
    if (e > s) {
      deltas.push_back({s, ty, false, 1});
      deltas.push_back({e, ty, false, -1});
      times.push_back(s);
      times.push_back(e);
    }
  }
  for (__int128 id : order) {
    const TaskTimes& tt = per_task[id];
    // Ready when the last timed predecessor ended; without one, at its own dispatch.
    bool any = false;
    double ready = 0;
    auto preds = fanin_.find(id);
    if (preds != fanin_.end()) {
      for (__int128 p : preds->second) {
        if (p == id) continue;
        auto pt = per_task.find(p);
        if (pt == per_task.end()) continue;
        ready = any ? std::max(ready, pt->second.end) : pt->second.end;
        any = true;
      }
    }
    if (!any) ready = tt.dispatch;
    const double r = Clamp(ready, w0, w1), d = Clamp(tt.dispatch, w0, w1);
    if (d > r) {
      for (int ty : types) {
        if (tt.types & (1u << ty)) {
          deltas.push_back({r, ty, true, 1});
          deltas.push_back({d, ty, true, -1});
        }
      }
      times.push_back(r);
      times.push_back(d);
    }
  }
  std::sort(times.begin(), times.end());
  times.erase(std::unique(times.begin(), times.end()), times.end());
  std::vector<std::array<int64_t, 4>> at(times.size(), {0, 0, 0, 0});  // run aic, run aiv, ready aic, ready aiv
  for (const Delta& d : deltas) {
    const size_t i = static_cast<size_t>(std::lower_bound(times.begin(), times.end(), d.time) - times.begin());
    at[i][static_cast<size_t>(d.type + (d.ready ? 2 : 0))] += d.delta;
  }
  static const struct {
    std::string_view name;
    int64_t tid;
  } kTracks[8] = {{"oh_aic_idle", 9101}, {"oh_aic_ready", 9102}, {"oh_aic_overhead", 9103},
                  {"oh_aiv_idle", 9111}, {"oh_aiv_ready", 9112}, {"oh_aiv_overhead", 9113},
                  {"oh_all_overhead", 9121}, {"oh_has_overhead", 9122}};
  std::array<int64_t, 8> previous{};
  std::array<bool, 8> seen{};
  std::array<int64_t, 2> running{0, 0}, waiting{0, 0};
  for (size_t i = 0; i + 1 < times.size(); ++i) {
    for (int ty : types) {
      running[static_cast<size_t>(ty)] += at[i][static_cast<size_t>(ty)];
      waiting[static_cast<size_t>(ty)] += at[i][static_cast<size_t>(ty + 2)];
    }
    std::array<std::pair<int, int64_t>, 8> values;  // (track, value) in the reference's order
    size_t count = 0;
    bool all = true, work = false, has = true;
    for (int ty : types) {
      const size_t k = static_cast<size_t>(ty);
      const int64_t idle = static_cast<int64_t>(cores[k].size()) - running[k];
      const bool overhead = idle > 0 && waiting[k] > 0;
      values[count++] = {3 * ty, idle};
      values[count++] = {3 * ty + 1, waiting[k]};
      values[count++] = {3 * ty + 2, overhead ? 1 : 0};
      all = all && overhead;
      if (waiting[k] > 0) {
        work = true;
        has = has && idle > 0;
      }
    }
    values[count++] = {6, all ? 1 : 0};
    values[count++] = {7, work && has ? 1 : 0};
    std::optional<double> ts;  // Round3(times[i]), computed when first written
    for (size_t v = 0; v < count; ++v) {
      const auto [track, value] = values[v];
      const size_t k = static_cast<size_t>(track);
      if (seen[k] && previous[k] == value) continue;
      seen[k] = true;
      previous[k] = value;
      ++points;
      BeginEvent();
      w_.Key("ph");
      w_.String("C");
      w_.Key("cat");
      w_.String("overhead");
      w_.Key("name");
      w_.String(kTracks[k].name);
      w_.Key("pid");
      w_.Int(2);
      w_.Key("tid");
      w_.Int(kTracks[k].tid);
      w_.Key("ts");
      if (!ts) ts = Round3(times[i]);
      w_.Float(*ts);
      w_.Key("args");
      w_.BeginObject();
      w_.Key(kTracks[k].name);
      w_.Int(value);
      w_.EndObject();
      w_.EndObject();
    }
  }
  done();
}

}  // namespace depgraph
