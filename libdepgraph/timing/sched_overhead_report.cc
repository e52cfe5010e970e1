// The scheduler-overhead report as text (the reference's layout) and as JSON.
#include "depgraph/timing/sched_overhead_report.h"

#include <algorithm>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "raw_records.h"

namespace depgraph {

namespace {

const std::string kRule(90, '=');

/// Python's format(x, ".<digits>f"): printf rounds the exact binary value the same way.
std::string Fixed(double x, int digits) {
  char buf[512];
  std::snprintf(buf, sizeof buf, "%.*f", digits, x);
  return buf;
}

/// Code points of UTF-8 text (what Python's width counts).
size_t Width(const std::string& s) {
  size_t n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80;
  return n;
}

std::string Left(const std::string& s, size_t width) {
  const size_t w = Width(s);
  return w >= width ? s : s + std::string(width - w, ' ');
}

std::string Right(const std::string& s, size_t width) {
  const size_t w = Width(s);
  return w >= width ? s : std::string(width - w, ' ') + s;
}

/// x / denominator * 100, or 0 when the denominator is not positive.
double Percent(double x, double denominator) {
  return denominator > 0 ? x / denominator * 100 : 0.0;
}

std::string EngineLabel(const std::string& type) {
  if (type == "aic") return "C (AIC)";
  if (type == "aiv") return "V (AIV)";
  if (type == "mix") return "MIX";
  std::string upper = type;
  for (char& c : upper) c = static_cast<char>(c >= 'a' && c <= 'z' ? c - 32 : c);
  return upper;
}

/// The system verdict from the has_overhead share, as a key and as the reference's sentence.
std::pair<const char*, std::string> Verdict(double has_pct) {
  if (has_pct >= 25) {
    return {"scheduler_bound",
            "SCHEDULER-BOUND \xE2\x80\x94 a free core has ready, undispatched work for much of the makespan."};
  }
  if (has_pct >= 8) {
    return {"partially_scheduler_limited",
            "PARTIALLY SCHEDULER-LIMITED \xE2\x80\x94 overhead " + Fixed(has_pct, 0) +
                "% of the makespan; the rest is compute + dependency-limited parallelism."};
  }
  return {"compute_or_dependency_bound",
          "COMPUTE/DEPENDENCY-BOUND \xE2\x80\x94 little reducible scheduler overhead."};
}

/// Sums over the threads, in thread order (the reference's order of addition).
struct ThreadTotals {
  double total_us = 0, complete_us = 0, async_poll_us = 0, dispatch_us = 0, idle_us = 0;
  int64_t completed = 0;
  __int128 loops = 0, finishes = 0, pop_hit = 0, pop_miss = 0;
  int64_t fanout_edges = 0, fanout_max = 0, fanin_edges = 0, fanin_max = 0;

  explicit ThreadTotals(const std::vector<SchedulerThreadStats>& threads) {
    for (const SchedulerThreadStats& t : threads) {
      total_us += t.total_us;
      complete_us += t.complete_us;
      async_poll_us += t.async_poll_us;
      dispatch_us += t.dispatch_us;
      idle_us += t.idle_us;
      completed += t.completed;
      loops += t.loops;
      finishes += t.finishes;
      pop_hit += t.pop_hit;
      pop_miss += t.pop_miss;
      fanout_edges += t.fanout_edges;
      fanout_max = std::max(fanout_max, t.fanout_max);
      fanin_edges += t.fanin_edges;
      fanin_max = std::max(fanin_max, t.fanin_max);
    }
  }
  double PopHitRate() const {
    const __int128 pops = pop_hit + pop_miss;
    return pops > 0 ? static_cast<double>(pop_hit) / static_cast<double>(pops) * 100 : 0.0;
  }
  /// Per completed task (0 without any).
  double PerTask(double x) const {
    return completed > 0 ? x / static_cast<double>(completed) : 0.0;
  }
  double AvgLoopUs() const { return loops > 0 ? total_us / static_cast<double>(loops) : 0.0; }
};

struct PhaseRow {
  const char* key;
  const char* label;
  double ThreadTotals::*total;
};
const PhaseRow kPhases[4] = {
    {"complete", "Complete (poll handshake, resolve deps)", &ThreadTotals::complete_us},
    {"async_poll", "AsyncPoll (async-wait completion: SDMA/RoCE/URMA/CCU)", &ThreadTotals::async_poll_us},
    {"dispatch", "Dispatch (pop queue, build payload, flush)", &ThreadTotals::dispatch_us},
    {"idle", "Idle (spinning, no progress \xE2\x80\x94 reconstructed from gaps)", &ThreadTotals::idle_us},
};

/// The work phase with the most time (the first on ties): 0 complete, 1 async_poll, 2 dispatch.
size_t DominantPhase(const ThreadTotals& totals) {
  size_t best = 0;
  for (size_t i = 1; i < 3; ++i) {
    if (totals.*kPhases[i].total > totals.*kPhases[best].total) best = i;
  }
  return best;
}

void Distribution(const char* label, const OverheadDistribution& d, std::string* out) {
  const size_t n = d.sorted.size();
  if (n == 0) {
    *out += std::string("  ") + label + ": (no tasks)\n";
    return;
  }
  *out += std::string("  ") + label + " distribution (N=" + std::to_string(n) + "):\n";
  for (int p : {10, 25, 50, 75, 90, 95, 99}) {
    *out += "    P" + Left(std::to_string(p), 4) + " " + Right(Fixed(d.Percentile(p), 2), 8) +
            " us\n";
  }
  *out += "    Max:  " + Right(Fixed(d.sorted.back(), 2), 8) + " us\n";
  *out += "    Mean: " + Right(Fixed(d.sum / static_cast<double>(n), 2), 8) + " us   Total: " +
          Right(Fixed(d.sum, 1), 10) + " us\n";
}

void Banner(const std::string& title, std::string* out) {
  *out += kRule + "\n" + title + "\n" + kRule + "\n";
}

void PartOne(const SchedOverheadReport& r, std::string* out) {
  out->append("\n");
  Banner("Part 1: Overhead verdict  (idle core + ready, undispatched work \xE2\x80\x94 share of "
         "makespan)",
         out);
  *out += "  Total tasks: " + std::to_string(r.task_rows) + "   window: " + Fixed(r.window_us, 1) +
          " us  (first start -> last end)\n";
  std::string per_engine;
  for (size_t i = 0; i < r.engines.size(); ++i) {
    if (i) per_engine += "  ";
    per_engine += EngineLabel(r.engines[i].type) + " " +
                  Fixed(Percent(r.engines[i].overhead_us, r.window_us), 1) + "%";
  }
  *out += "  Per-engine overhead: " + per_engine + "\n";
  const double has_pct = Percent(r.has_overhead_us, r.window_us);
  *out += "  System: all_overhead " + Fixed(Percent(r.all_overhead_us, r.window_us), 1) +
          "% (every engine blocked)  |  has_overhead " + Fixed(has_pct, 1) +
          "% (every working engine starved)\n";
  *out +=
      "  overhead(T) = idle T-core AND a ready, undispatched T-task (a MIX task counts for both).\n"
      "  An engine with no ready work is NOT overhead \xE2\x80\x94 its idle is dependency-mandated "
      "progress.\n";
  *out += "  -> " + Verdict(has_pct).second + "\n\n";
}

void PartTwo(const SchedOverheadReport& r, std::string* out) {
  Banner("Part 2: aicore switch  (gap [prev_end, start] when dispatch < prev_end; PER CORE)", out);
  *out += "  Each switch is the core picking up an already-dispatched task (~sub-us). Reported\n"
          "  per core (NOT summed over cores \xE2\x80\x94 switches overlap). A switch is 'overhead' "
          "when the\n"
          "  engine has other ready work that instant, else 'independent'. makespan bound:\n"
          "  lower = min over all cores, upper = sum of per-engine minima.\n\n";
  const auto row = [](const std::string& a, const std::string& b, const std::string& c,
                      const std::string& d, const std::string& e, const std::string& f,
                      const std::string& g) {
    return "  " + Left(a, 10) + " " + Right(b, 6) + " " + Right(c, 10) + " " + Right(d, 10) + " " +
           Right(e, 10) + " " + Right(f, 9) + " " + Right(g, 9) + "\n";
  };
  *out += row("Engine", "Cores", "min/core", "mean/core", "max/core", "n events", "us/event");
  *out += "  " + std::string(74, '-') + "\n";
  for (const EngineOverhead& e : r.engines) {
    const std::vector<double>& pcs = e.switch_per_core_us;
    if (pcs.empty()) continue;
    double sum = 0;
    for (double v : pcs) sum += v;
    const double per_event =
        e.switch_events ? e.switch_event_sum_us / static_cast<double>(e.switch_events) : 0.0;
    *out += row(EngineLabel(e.type), std::to_string(pcs.size()),
                Fixed(*std::min_element(pcs.begin(), pcs.end()), 1) + "us",
                Fixed(sum / static_cast<double>(pcs.size()), 1) + "us",
                Fixed(*std::max_element(pcs.begin(), pcs.end()), 1) + "us",
                std::to_string(e.switch_events), Fixed(per_event, 2) + "us");
  }
  *out += "\n";
  for (const EngineOverhead& e : r.engines) {
    const double total = e.switch_overhead_us + e.switch_independent_us;
    if (total > 0) {
      *out += "    " + EngineLabel(e.type) +
              " switch split: " + Fixed(Percent(e.switch_overhead_us, total), 0) +
              "% during overhead, " + Fixed(Percent(e.switch_independent_us, total), 0) +
              "% independent\n";
    }
  }
  *out += "  makespan switch bound: [" + Fixed(r.switch_lower_us, 2) + ", " +
          Fixed(r.switch_upper_us, 2) + "] us  (" +
          Fixed(Percent(r.switch_lower_us, r.window_us), 2) + "% .. " +
          Fixed(Percent(r.switch_upper_us, r.window_us), 2) + "% of makespan)\n\n";
}

void PartsThreeFour(const SchedOverheadReport& r, std::string* out) {
  Banner("Part 3: Head OH statistics & distribution", out);
  *out += "  head = min(start - dispatch, start - last_task_end) per task (clamped at 0)\n\n";
  Distribution("Head OH", r.head, out);
  *out += "\n";
  Banner("Part 4: Tail OH distribution", out);
  *out += "  tail = finish - end per task\n\n";
  Distribution("Tail OH", r.tail, out);
  *out += "\n";
}

void PartFive(const SchedOverheadReport& r, std::string* out) {
  const ThreadTotals totals(r.threads);
  *out += kRule + "\nPart 5: AICPU scheduler loop breakdown\n  " +
          std::to_string(r.threads.size()) + " scheduler threads\n" + kRule + "\n\n";
  const auto row = [](const std::string& a, const std::string& b, const std::string& c,
                      const std::string& d, const std::string& e) {
    return "  " + Left(a, 10) + " " + Right(b, 7) + " " + Right(c, 10) + " " + Right(d, 12) + " " +
           Right(e, 11) + "\n";
  };
  *out += row("Thread", "Loops", "Tasks", "ns/loop", "Total (us)");
  *out += "  " + std::string(54, '-') + "\n";
  for (const SchedulerThreadStats& t : r.threads) {
    const double ns_per_loop = t.loops ? t.total_us * 1000 / static_cast<double>(t.loops) : 0.0;
    *out += row("T" + std::to_string(t.thread), Int128Text(t.loops), std::to_string(t.completed),
                Fixed(ns_per_loop, 0), Fixed(t.total_us, 1));
  }
  const double avg_ns_per_loop =
      totals.loops > 0 ? totals.total_us * 1000 / static_cast<double>(totals.loops) : 0.0;
  *out += row("SUM", Int128Text(totals.loops), std::to_string(totals.completed),
              Fixed(avg_ns_per_loop, 0), Fixed(totals.total_us, 1));
  *out += "  FINs observed (Complete phase): " + Int128Text(totals.finishes) + "\n\n";

  const auto phase_row = [](const std::string& a, const std::string& b, const std::string& c,
                            const std::string& d) {
    return "  " + Left(a, 55) + " " + Right(b, 11) + " " + Right(c, 10) + " " + Right(d, 14);
  };
  const std::string header =
      phase_row("Phase (summed over threads)", "Total (us)", "% of total", "Avg/task (us)");
  *out += header + "\n  " + std::string(Width(header) - 2, '-') + "\n";
  for (const PhaseRow& p : kPhases) {
    const double total = totals.*p.total;
    *out += phase_row(p.label, Fixed(total, 1), Fixed(Percent(total, totals.total_us), 1) + "%",
                      Fixed(totals.PerTask(total), 2)) +
            "\n";
  }
  *out += "\n";
  const double fanout_avg = totals.PerTask(static_cast<double>(totals.fanout_edges));
  const double fanin_avg = totals.PerTask(static_cast<double>(totals.fanin_edges));
  *out += "  Fanout (notify consumers): total edges=" + std::to_string(totals.fanout_edges) +
          ", max_degree=" + std::to_string(totals.fanout_max) +
          ", avg_degree=" + Fixed(fanout_avg, 1) + "\n";
  *out += "  Fanin  (release producers): total edges=" + std::to_string(totals.fanin_edges) +
          ", max_degree=" + std::to_string(totals.fanin_max) +
          ", avg_degree=" + Fixed(fanin_avg, 1) + "\n\n";
  const double hit_rate = totals.PopHitRate();
  *out += "  Pop: hit=" + Int128Text(totals.pop_hit) + ", miss=" + Int128Text(totals.pop_miss) +
          ", hit_rate=" + Fixed(hit_rate, 1) + "%\n\n";

  const double avg_loop_us = totals.AvgLoopUs();
  const double avg_loop_ns = avg_loop_us * 1000;
  const double avg_tail = r.tail_sum_row_order / static_cast<double>(r.tail.sorted.size());
  const double ratio = avg_loop_us > 0 ? avg_tail / avg_loop_us : 0.0;
  *out += "  Avg scheduler loop iteration: " + Fixed(avg_loop_ns, 0) +
          " ns (approx avg polling interval per loop)\n\n";
  *out += "  Avg Tail OH = " + Fixed(avg_tail, 1) + " us ~= " + Fixed(ratio, 1) +
          " x avg loop iteration (" + Fixed(avg_loop_ns, 0) + " ns)\n";
  *out += "  -> On average, a completed task waits ~" + Fixed(ratio, 1) +
          " loop iterations before being detected\n\n";

  static const char* const kShort[3] = {"Complete", "AsyncPoll", "Dispatch"};
  const size_t dominant = DominantPhase(totals);
  *out += std::string("  Key insight: ") + kShort[dominant] + " phase consumes ~" +
          Fixed(Percent(totals.*kPhases[dominant].total, totals.total_us), 0) +
          "% of scheduler CPU.\n";
  if (dominant == 2) {
    *out += "  Pop hit_rate=" + Fixed(hit_rate, 1) + "%: " +
            (hit_rate < 50 ? "low hit rate suggests ready queue often empty" : "good hit rate") +
            ".\n";
    *out += "  Cache flush (dc cvac + dsb sy) is the dominant non-pop cost.\n";
  } else if (dominant == 0) {
    *out += "  Fanout: avg_degree=" + Fixed(fanout_avg, 1) +
            ", max_degree=" + std::to_string(totals.fanout_max) + ".\n";
    *out += "  Fanin:  avg_degree=" + Fixed(fanin_avg, 1) +
            ", max_degree=" + std::to_string(totals.fanin_max) + ".\n";
    *out += totals.fanin_edges > totals.fanout_edges
                ? "  Fanin traversal (release_producer + check_consumed) dominates the complete phase.\n"
                : "  Fanout traversal and atomic ops dominate the complete phase.\n";
  }
  *out += kRule + "\n";
}

void PartSix(const SchedOverheadReport& r, std::string* out) {
  *out += "\n";
  Banner("Part 6: Critical-path latency attribution", out);
  const CriticalPathAttribution& cp = r.critical_path;
  if (cp.found && cp.span_us > 0) {
    const double sched_pct = cp.sched_us / cp.span_us * 100;
    const double exec_pct = cp.exec_us / cp.span_us * 100;
    const double other = std::max(0.0, cp.span_us - cp.exec_us - cp.sched_us);
    *out += "  Makespan-determining path: " + std::to_string(cp.hops) + " hops, span " +
            Fixed(cp.span_us, 1) + " us\n";
    *out += "    Compute (exec) on path : " + Fixed(cp.exec_us, 1) + " us (" + Fixed(exec_pct, 1) +
            "%)\n";
    *out += "    Scheduler injected     : " + Fixed(cp.sched_us, 1) + " us (" +
            Fixed(sched_pct, 1) + "%)\n";
    *out += "    Other (dep wait on path): " + Fixed(other, 1) + " us\n";
    *out += "  -> scheduler adds ~" + Fixed(sched_pct, 1) +
            "% to the critical path's end-to-end latency.\n";
  } else if (cp.cycle) {
    *out += "  (could not resolve a critical path from the DAG: deps.json has a cycle through "
            "task " + Int128Text(cp.cycle_task) + ")\n";
  } else {
    *out += "  (could not resolve a critical path from the DAG)\n";
  }
  *out += kRule + "\n";
}

nlohmann::ordered_json DistributionJson(const OverheadDistribution& d) {
  nlohmann::ordered_json j;
  const size_t n = d.sorted.size();
  j["n"] = n;
  if (n == 0) return j;
  for (int p : {10, 25, 50, 75, 90, 95, 99}) j["p" + std::to_string(p) + "_us"] = d.Percentile(p);
  j["max_us"] = d.sorted.back();
  j["mean_us"] = d.sum / static_cast<double>(n);
  j["total_us"] = d.sum;
  return j;
}

/// A count as a JSON integer (clamped to int64: the runtime's counts are uint32 sums).
int64_t Count(__int128 v) {
  return v > INT64_MAX ? INT64_MAX : v < INT64_MIN ? INT64_MIN : static_cast<int64_t>(v);
}

}  // namespace

std::string RenderSchedOverheadText(const SchedOverheadReport& report,
                                    const std::string& records_display,
                                    const std::string& deps_display) {
  std::string out = "Perf data:  " + records_display + "\nDeps JSON:  " + deps_display + "\n";
  PartOne(report, &out);
  PartTwo(report, &out);
  PartsThreeFour(report, &out);
  PartFive(report, &out);
  PartSix(report, &out);
  return out;
}

std::string RenderSchedOverheadJson(const SchedOverheadReport& r,
                                    const std::string& records_display,
                                    const std::string& deps_display) {
  using nlohmann::ordered_json;
  ordered_json doc;
  doc["records"] = records_display;
  doc["deps"] = deps_display;
  doc["task_rows"] = r.task_rows;
  doc["window"] = {
      {"start_us", r.window_start_us}, {"end_us", r.window_end_us}, {"length_us", r.window_us}};

  ordered_json engines = ordered_json::object();
  ordered_json switches = ordered_json::object();
  for (const EngineOverhead& e : r.engines) {
    engines[e.type] = {{"cores", e.cores},
                       {"overhead_us", e.overhead_us},
                       {"overhead_pct", Percent(e.overhead_us, r.window_us)}};
    ordered_json s = {{"cores", e.switch_per_core_us.size()}, {"per_core_us", e.switch_per_core_us},
                      {"events", e.switch_events}, {"event_total_us", e.switch_event_sum_us},
                      {"during_overhead_us", e.switch_overhead_us},
                      {"independent_us", e.switch_independent_us}};
    switches[e.type] = std::move(s);
  }
  const double has_pct = Percent(r.has_overhead_us, r.window_us);
  doc["overhead"] = {{"per_engine", engines},
                     {"all_overhead_us", r.all_overhead_us},
                     {"all_overhead_pct", Percent(r.all_overhead_us, r.window_us)},
                     {"has_overhead_us", r.has_overhead_us},
                     {"has_overhead_pct", has_pct},
                     {"verdict", Verdict(has_pct).first}};
  doc["aicore_switch"] = {{"per_engine", switches},
                          {"bound_lower_us", r.switch_lower_us},
                          {"bound_upper_us", r.switch_upper_us}};
  doc["head_overhead"] = DistributionJson(r.head);
  doc["tail_overhead"] = DistributionJson(r.tail);
  const double avg_tail =
      r.tail.sorted.empty() ? 0.0 : r.tail_sum_row_order / static_cast<double>(r.tail.sorted.size());
  doc["tail_overhead"]["mean_row_order_us"] = avg_tail;

  const ThreadTotals totals(r.threads);
  ordered_json threads = ordered_json::array();
  for (const SchedulerThreadStats& t : r.threads) {
    const __int128 pops = t.pop_hit + t.pop_miss;
    const double hit_rate =
        pops > 0 ? static_cast<double>(t.pop_hit) / static_cast<double>(pops) * 100 : 0.0;
    threads.push_back({{"thread", t.thread},
                       {"loops", Count(t.loops)},
                       {"completed", t.completed},
                       {"finishes", Count(t.finishes)},
                       {"total_us", t.total_us},
                       {"complete_us", t.complete_us},
                       {"async_poll_us", t.async_poll_us},
                       {"dispatch_us", t.dispatch_us},
                       {"idle_us", t.idle_us},
                       {"pop_hit", Count(t.pop_hit)},
                       {"pop_miss", Count(t.pop_miss)},
                       {"pop_hit_rate_pct", hit_rate},
                       {"fanout_edges", t.fanout_edges},
                       {"fanout_max_degree", t.fanout_max},
                       {"fanin_edges", t.fanin_edges},
                       {"fanin_max_degree", t.fanin_max}});
  }
  ordered_json phases = ordered_json::object();
  for (const PhaseRow& p : kPhases) {
    const double total = totals.*p.total;
    phases[p.key] = {{"total_us", total},
                     {"pct", Percent(total, totals.total_us)},
                     {"per_task_us", totals.PerTask(total)}};
  }
  const double avg_loop_us = totals.AvgLoopUs();
  doc["scheduler"] = {{"threads", threads},
                      {"loops", Count(totals.loops)},
                      {"completed", totals.completed},
                      {"finishes", Count(totals.finishes)},
                      {"total_us", totals.total_us},
                      {"phases", phases},
                      {"dominant_work_phase", kPhases[DominantPhase(totals)].key},
                      {"fanout_edges", totals.fanout_edges},
                      {"fanout_max_degree", totals.fanout_max},
                      {"fanin_edges", totals.fanin_edges},
                      {"fanin_max_degree", totals.fanin_max},
                      {"pop_hit", Count(totals.pop_hit)},
                      {"pop_miss", Count(totals.pop_miss)},
                      {"pop_hit_rate_pct", totals.PopHitRate()},
                      {"avg_loop_ns", avg_loop_us * 1000},
                      {"tail_over_loop", avg_loop_us > 0 ? avg_tail / avg_loop_us : 0.0}};
  const CriticalPathAttribution& cp = r.critical_path;
  if (cp.found && cp.span_us > 0) {
    doc["critical_path"] = {{"hops", cp.hops},
                            {"span_us", cp.span_us},
                            {"exec_us", cp.exec_us},
                            {"exec_pct", cp.exec_us / cp.span_us * 100},
                            {"sched_us", cp.sched_us},
                            {"sched_pct", cp.sched_us / cp.span_us * 100},
                            {"other_us", std::max(0.0, cp.span_us - cp.exec_us - cp.sched_us)}};
  } else {
    doc["critical_path"] = nullptr;
    if (cp.cycle) doc["critical_path_cycle_task"] = Int128Text(cp.cycle_task);
  }
  return doc.dump(2) + "\n";
}

}  // namespace depgraph
