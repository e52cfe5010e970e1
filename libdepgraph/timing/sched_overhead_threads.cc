// Part 5 of the scheduler-overhead analysis: the scheduler loop breakdown per AICPU scheduler
// thread, from the `aicpu_scheduler_phases` records, the task rows and deps.json.
#include "sched_overhead_threads.h"

#include <algorithm>
#include <map>
#include <unordered_map>

#include "raw_records.h"

namespace depgraph {

namespace {

constexpr __int128 kMask64 = (static_cast<__int128>(1) << 64) - 1;

__int128 Normalize(__int128 id) { return id < 0 ? (id & kMask64) : id; }

std::string RecordPath(size_t thread, size_t record, const char* field) {
  return "aicpu_scheduler_phases[" + std::to_string(thread) + "][" + std::to_string(record) +
         "]." + field;
}

/// A count the reference adds up as a Python int: a JSON integer (absent or null: 0).
bool IntegerCount(const nlohmann::ordered_json& v, __int128* out) {
  if (v.is_null()) {
    *out = 0;
    return true;
  }
  if (!v.is_number_integer()) return false;
  *out = v.is_number_unsigned() ? static_cast<__int128>(v.get<uint64_t>())
                                : static_cast<__int128>(v.get<int64_t>());
  return true;
}

/// The scheduler thread that serves a core (metadata.core_to_thread), or -1.
int64_t ThreadOfCore(const SwimlaneRecords& records, int64_t core) {
  if (core < 0 || core >= static_cast<int64_t>(records.core_to_thread.size())) return -1;
  const int64_t thread = records.core_to_thread[static_cast<size_t>(core)];
  return thread >= 0 ? thread : -1;
}

/// One thread's records: work phases, their times, counts and pops. False with *err on a
/// count that is not an integer.
bool ThreadPhases(const std::vector<SchedulerPhase>& phases, size_t thread,
                  const std::string& records_name, SchedulerThreadStats* stats, bool* has_work,
                  std::string* err) {
  std::vector<uint32_t> work;
  for (size_t r = 0; r < phases.size(); ++r) {
    const SchedulerPhase& p = phases[r];
    const bool work_phase =
        p.phase == "complete" || p.phase == "async_poll" || p.phase == "dispatch";
    if (p.phase_is_string && work_phase) {
      work.push_back(static_cast<uint32_t>(r));
    }
  }
  *has_work = !work.empty();
  if (work.empty()) return true;
  std::stable_sort(work.begin(), work.end(),
                   [&](uint32_t a, uint32_t b) { return phases[a].start_us < phases[b].start_us; });
  const auto fail = [&](size_t r, const char* field, const std::string& what) {
    *err = records_name + ": " + RecordPath(thread, r, field) + ": " + what;
    return false;
  };
  bool have_end = false;
  double previous_end = 0;
  for (uint32_t r : work) {
    const SchedulerPhase& p = phases[r];
    if (have_end && p.start_us > previous_end) stats->idle_us += p.start_us - previous_end;
    const double length = p.end_us - p.start_us;
    if (p.phase == "complete") {
      if (length > 0) stats->complete_us += length;
      if (PythonTruthy(p.tasks_processed)) {
        __int128 count = 0;
        std::string why;
        if (p.tasks_processed.is_array() || p.tasks_processed.is_object()) {
          return fail(r, "tasks_processed",
                      "expected an integer count, got " + PythonStrOfJson(p.tasks_processed) +
                          " (the runtime writes one uint32 per record)");
        }
        if (!PyIntOfJson(p.tasks_processed, &count, &why)) return fail(r, "tasks_processed", why);
        stats->finishes += count;
      }
    } else if (p.phase == "async_poll") {
      if (length > 0) stats->async_poll_us += length;
    } else {
      if (length > 0) stats->dispatch_us += length;
      __int128 hit = 0, miss = 0;
      if (!IntegerCount(p.pop_hit, &hit)) {
        return fail(r, "pop_hit", "expected an integer, got " + PythonStrOfJson(p.pop_hit));
      }
      if (!IntegerCount(p.pop_miss, &miss)) {
        return fail(r, "pop_miss", "expected an integer, got " + PythonStrOfJson(p.pop_miss));
      }
      stats->pop_hit += hit;
      stats->pop_miss += miss;
    }
    __int128 loop = 0;
    if (p.loop_iter.is_null() || !IntegerCount(p.loop_iter, &loop)) {
      return fail(r, "loop_iter", "expected an integer, got " + PythonStrOfJson(p.loop_iter));
    }
    stats->loops = std::max(stats->loops, loop);
    if (!have_end || p.end_us > previous_end) previous_end = p.end_us;
    have_end = true;
  }
  // Summed in the reference's order: complete, async_poll, dispatch, idle.
  stats->total_us = stats->complete_us + stats->async_poll_us + stats->dispatch_us + stats->idle_us;
  return true;
}

}  // namespace

bool SchedulerThreadBreakdown(const SwimlaneRecords& records, const SwimlaneDeps& deps,
                              const std::string& records_name,
                              std::vector<SchedulerThreadStats>* threads, std::string* err) {
  threads->clear();
  std::map<int64_t, size_t> by_thread;  // thread index -> position in *threads
  for (size_t t = 0; t < records.scheduler.size(); ++t) {
    SchedulerThreadStats stats;
    stats.thread = static_cast<int64_t>(t);
    bool has_work = false;
    if (!ThreadPhases(records.scheduler[t], t, records_name, &stats, &has_work, err)) return false;
    if (!has_work) continue;
    by_thread[stats.thread] = threads->size();
    threads->push_back(stats);
  }
  if (threads->empty()) {
    *err = records_name +
           ": aicpu_scheduler_phases: no complete, async_poll or dispatch records (capture the "
           "run with --enable-chip-swimlane at level 3 or 4)";
    return false;
  }

  // Logical tasks per thread: the thread serving the core of each task's last-finishing row.
  struct LastFinish {
    double finish;
    int64_t thread;
  };
  std::unordered_map<__int128, LastFinish, Int128Hash> last_finish;
  // Fan-out / fan-in: each task billed to the thread of its first row.
  std::unordered_map<__int128, int64_t, Int128Hash> first_row_thread;
  std::vector<__int128> first_order;
  for (const SwimlaneTask& row : records.tasks) {
    const __int128 id = Normalize(row.task_id);
    const int64_t thread = ThreadOfCore(records, row.core_id);
    if (first_row_thread.try_emplace(id, thread).second) first_order.push_back(id);
    if (thread < 0) continue;
    auto [it, fresh] = last_finish.try_emplace(id, LastFinish{row.finish_us, thread});
    if (!fresh && row.finish_us > it->second.finish) it->second = {row.finish_us, thread};
  }
  std::unordered_map<int64_t, int64_t> logical;
  for (const auto& [id, lf] : last_finish) ++logical[lf.thread];
  for (SchedulerThreadStats& t : *threads) {
    if (!last_finish.empty()) {
      auto it = logical.find(t.thread);
      t.completed = it == logical.end() ? 0 : it->second;
    } else {
      t.completed = static_cast<int64_t>(t.finishes);
    }
  }

  std::unordered_map<__int128, int64_t, Int128Hash> fan_in;
  if (deps.has_edges) {
    for (const auto& succs : deps.succs) {
      for (__int128 s : succs) ++fan_in[s];
    }
  }
  for (__int128 id : first_order) {
    auto pos = by_thread.find(first_row_thread[id]);
    if (pos == by_thread.end()) continue;
    SchedulerThreadStats& t = (*threads)[pos->second];
    const std::vector<__int128>* succs = deps.Successors(id);
    const int64_t out = succs == nullptr ? 0 : static_cast<int64_t>(succs->size());
    auto in_it = fan_in.find(id);
    const int64_t in = in_it == fan_in.end() ? 0 : in_it->second;
    t.fanout_edges += out;
    t.fanout_max = std::max(t.fanout_max, out);
    t.fanin_edges += in;
    t.fanin_max = std::max(t.fanin_max, in);
  }
  return true;
}

}  // namespace depgraph
