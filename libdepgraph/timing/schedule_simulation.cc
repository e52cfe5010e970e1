#include "depgraph/timing/schedule_simulation.h"
#include "depgraph/support/cycle_text.h"

#include <algorithm>
#include <functional>
#include <queue>
#include <tuple>

namespace depgraph {

namespace {

constexpr int64_t kUnknown = -1;

// Min-heap of (key, id) pairs.
using KeyedHeap =
    std::priority_queue<std::pair<int64_t, uint32_t>, std::vector<std::pair<int64_t, uint32_t>>,
                        std::greater<std::pair<int64_t, uint32_t>>>;

// The cores of one type, with the two choices the policies need in O(log cores): the
// lowest-numbered core idle at a time D, and the core that frees first. Heap entries are
// checked against the current free times when they surface (lazy deletion), so cores taken
// by MIX blocks, which bypass the pool, need only Touch().
class CorePool {
 public:
  CorePool(uint32_t first, uint32_t count, std::vector<int64_t>* free)
      : first_(first), count_(count), free_(free) {
    for (uint32_t c = first; c < first + count; ++c) busy_.emplace((*free)[c], c);
  }
  uint32_t size() const { return count_; }
  // A core whose free time changed.
  void Touch(uint32_t core) { busy_.emplace((*free_)[core], core); }
  // The core a single-core block takes at time `d`.
  uint32_t Pick(int64_t d, CorePolicy policy) {
    if (policy == CorePolicy::kLowest) {
      // Cores free by d move to the idle heap (d never decreases).
      while (!busy_.empty() && busy_.top().first <= d) {
        const auto [t, c] = busy_.top();
        busy_.pop();
        if ((*free_)[c] == t) idle_.emplace(c, c);
      }
      while (!idle_.empty()) {
        const uint32_t c = idle_.top().second;
        if ((*free_)[c] <= d) return c;
        idle_.pop();  // taken since it went idle; its busy entry is in busy_
      }
    }
    while (true) {
      const auto [t, c] = busy_.top();
      if ((*free_)[c] == t) return c;
      busy_.pop();
    }
  }

 private:
  uint32_t first_;
  uint32_t count_;
  std::vector<int64_t>* free_;
  KeyedHeap busy_;  // (free time, core); stale when the time no longer matches
  KeyedHeap idle_;  // (core, core): free by the last d seen; stale when taken since
};

struct ReadyEntry {
  int64_t ready;
  uint32_t position;  // submission index
  uint32_t task;
  bool operator>(const ReadyEntry& o) const {
    return std::tie(ready, position) > std::tie(o.ready, o.position);
  }
};

std::string SlotNames(uint8_t slots) {
  std::string out;
  const char* names[3] = {"aic", "aiv0", "aiv1"};
  for (int s = 0; s < 3; ++s) {
    if (slots >> s & 1) out += (out.empty() ? "" : "+") + std::string(names[s]);
  }
  return out;
}

}  // namespace

const char* CorePolicyName(CorePolicy policy) {
  return policy == CorePolicy::kSpread ? "spread" : "lowest";
}

std::string BlockLimitMessage(const Task& task, IdDisplay display) {
  return "task " + FormatTaskId(task.id, display) + ": block_num " +
         std::to_string(task.block_num) + " exceeds the simulation limit of " +
         std::to_string(kMaxSimulatedBlocksPerTask) + " blocks per task";
}

uint8_t ActiveSlots(const Task& task) {
  return static_cast<uint8_t>((task.kernel_ids[0] >= 0 ? 1 : 0) |
                              (task.kernel_ids[1] >= 0 ? 2 : 0) |
                              (task.kernel_ids[2] >= 0 ? 4 : 0));
}

bool SimulateSchedule(const DepGraph& graph, const MachineModel& machine, const TaskWork& work,
                      const SimulationOptions& options, SimulationResult* result,
                      std::string* err) {
  *result = SimulationResult();
  SimulationResult& r = *result;
  const uint32_t task_count = static_cast<uint32_t>(graph.tasks.size());
  const IdDisplay display = graph.Display();
  auto name = [&](uint32_t t) { return FormatTaskId(graph.tasks[t].id, display); };
  if (work.first.size() != static_cast<size_t>(task_count) + 1 ||
      (!work.delay.empty() && work.delay.size() != task_count)) {
    *err = "internal: the task work does not match the graph";
    return false;
  }

  // The simulated tasks: each id's last entry, in tasks[] order.
  std::vector<uint8_t> simulated(task_count, 0);
  for (const auto& entry : graph.task_index) simulated[entry.second] = 1;
  std::vector<uint32_t> order;
  for (uint32_t t = 0; t < task_count; ++t) {
    if (simulated[t]) order.push_back(t);
  }
  std::vector<uint32_t> position(task_count, 0);
  for (uint32_t i = 0; i < order.size(); ++i) position[order[i]] = i;

  // Machine checks against what the tasks need.
  const uint32_t cores = machine.aic + machine.aiv;
  const uint32_t clusters = std::min(machine.aic, machine.aiv / 2);
  for (uint32_t t : order) {
    const uint8_t slots = ActiveSlots(graph.tasks[t]);
    const int count = (slots & 1) + (slots >> 1 & 1) + (slots >> 2 & 1);
    const uint64_t runs = work.first[t + 1] - work.first[t];
    if (graph.tasks[t].block_num > kMaxSimulatedBlocksPerTask) {
      *err = BlockLimitMessage(graph.tasks[t], display);
      return false;
    }
    if (count > 1 && clusters == 0) {
      *err = "task " + name(t) + " is a MIX task (" + SlotNames(slots) +
             ") but the machine has no cluster (needs an AIC core and two AIV cores)";
      return false;
    }
    if (count == 1 && (slots & 1) && machine.aic == 0) {
      *err = "task " + name(t) + " needs an AIC core but the machine has none";
      return false;
    }
    if (count == 1 && !(slots & 1) && machine.aiv == 0) {
      *err = "task " + name(t) + " needs an AIV core but the machine has none";
      return false;
    }
    if (count > 0 && runs == 0) {
      *err = "task " + name(t) + " has no kernel run time";
      return false;
    }
  }
  for (const CoreReservation& res : machine.reserved) {
    if (res.core >= cores) {
      *err = "reserved core " + std::to_string(res.core) + " does not exist (" +
             std::to_string(cores) + " cores)";
      return false;
    }
  }

  // Kept dependencies between simulated tasks, as successor lists; fan-in per task.
  std::vector<uint32_t> succ_first(task_count + 1, 0), fan_in(task_count, 0),
      remaining(task_count, 0);
  auto kept = [&](size_t p) { return !options.keep || (*options.keep)[p]; };
  auto task_of = [&](uint32_t node) { return graph.node_task[node]; };
  for (size_t p = 0; p < graph.pairs.size(); ++p) {
    if (!kept(p)) continue;
    const int32_t s = task_of(graph.pairs[p].succ);
    if (s < 0) continue;
    ++fan_in[s];
    const int32_t q = task_of(graph.pairs[p].pred);
    if (q < 0) continue;  // an allocation: done at base
    ++succ_first[q + 1];
    ++remaining[s];
  }
  for (uint32_t t = 0; t < task_count; ++t) succ_first[t + 1] += succ_first[t];
  std::vector<uint32_t> succs(succ_first[task_count]);
  {
    std::vector<uint32_t> cursor(succ_first.begin(), succ_first.end() - 1);
    for (size_t p = 0; p < graph.pairs.size(); ++p) {
      if (!kept(p)) continue;
      const int32_t s = task_of(graph.pairs[p].succ), q = task_of(graph.pairs[p].pred);
      if (s >= 0 && q >= 0) succs[cursor[q]++] = static_cast<uint32_t>(s);
    }
  }
  r.edges = succs.size();

  // A cycle among the tasks: Kahn's count, then walk back through unfinished predecessors.
  {
    std::vector<uint32_t> left = remaining, queue;
    for (uint32_t t : order) {
      if (left[t] == 0) queue.push_back(t);
    }
    for (size_t i = 0; i < queue.size(); ++i) {
      for (uint32_t k = succ_first[queue[i]]; k < succ_first[queue[i] + 1]; ++k) {
        if (--left[succs[k]] == 0) queue.push_back(succs[k]);
      }
    }
    if (queue.size() < order.size()) {
      // Any unfinished task has an unfinished predecessor: follow them until one repeats.
      std::vector<std::vector<uint32_t>> preds(task_count);
      for (uint32_t q = 0; q < task_count; ++q) {
        for (uint32_t k = succ_first[q]; k < succ_first[q + 1]; ++k) {
          if (left[q] > 0) preds[succs[k]].push_back(q);
        }
      }
      uint32_t t = 0;
      while (left[order[t]] == 0) ++t;
      t = order[t];
      std::vector<int64_t> seen_at(task_count, -1);
      std::vector<uint32_t> walk;
      while (seen_at[t] < 0) {
        seen_at[t] = static_cast<int64_t>(walk.size());
        walk.push_back(t);
        t = preds[t].front();
      }
      const size_t first = static_cast<size_t>(seen_at[t]);
      *err = CycleMessage("the simulated graph has a cycle", walk.size() - first + 1,
                          [&](size_t i) { return name(i == 0 ? t : walk[walk.size() - i]); });
      return false;
    }
  }

  // Rings, for the capacity.
  std::vector<uint32_t> ring_index(task_count, 0);
  std::vector<std::vector<uint32_t>> ring_members(machine.ring_capacity ? 256 : 0);
  if (machine.ring_capacity) {
    for (uint32_t t : order) {
      auto& members = ring_members[RingOf(graph.tasks[t].id)];
      ring_index[t] = static_cast<uint32_t>(members.size());
      members.push_back(t);
    }
  }

  r.tasks.assign(task_count, SimulatedTask());
  r.core_busy.assign(cores, 0);
  std::vector<int64_t> pred_done(task_count, machine.base);
  std::vector<int64_t> core_free(cores, machine.base);
  for (const CoreReservation& res : machine.reserved) {
    core_free[res.core] = std::max(core_free[res.core], machine.base + res.to);
  }
  CorePool aic_pool(0, machine.aic, &core_free), aiv_pool(machine.aic, machine.aiv, &core_free);
  std::priority_queue<ReadyEntry, std::vector<ReadyEntry>, std::greater<ReadyEntry>> ready;
  auto push_ready = [&](uint32_t t) {
    SimulatedTask& timing = r.tasks[t];
    timing.ready =
        std::max(timing.release, pred_done[t]) + (work.delay.empty() ? 0 : work.delay[t]);
    ready.push(ReadyEntry{timing.ready, position[t], t});
  };
  size_t next_release = 0;
  int64_t last_release = machine.base;
  auto advance_releases = [&] {
    while (next_release < order.size()) {
      const uint32_t t = order[next_release];
      int64_t gate = last_release;
      if (machine.ring_capacity && ring_index[t] >= machine.ring_capacity) {
        const uint32_t u =
            ring_members[RingOf(graph.tasks[t].id)][ring_index[t] - machine.ring_capacity];
        if (r.tasks[u].done == kUnknown) return;
        gate = std::max(gate, r.tasks[u].done);
      }
      last_release = gate + machine.orch + machine.edge_cost * fan_in[t];
      r.tasks[t].release = last_release;
      ++next_release;
      if (remaining[t] == 0) push_ready(t);
    }
  };
  advance_releases();

  int64_t scheduler_free = machine.base;
  bool any_run = false;
  r.first_start = 0;
  r.last_end = 0;
  r.last_done = machine.base;
  while (!ready.empty()) {
    const ReadyEntry entry = ready.top();
    ready.pop();
    const uint32_t t = entry.task;
    const Task& task = graph.tasks[t];
    SimulatedTask& timing = r.tasks[t];
    const uint8_t slots = ActiveSlots(task);
    if (slots == 0) {
      const int64_t d = std::max(entry.ready, scheduler_free);
      scheduler_free = d + machine.dummy_cost;
      r.scheduler_busy += machine.dummy_cost;
      timing.start = d;
      timing.end = timing.done = d + machine.dummy_cost;
    } else {
      const bool mix = (slots & (slots - 1)) != 0;
      const uint64_t blocks = static_cast<uint64_t>(std::max<int64_t>(task.block_num, 1));
      const uint64_t run_first = work.first[t], run_count = work.first[t + 1] - run_first;
      uint64_t run = 0;
      int64_t first_start = INT64_MAX, last_end = INT64_MIN;
      uint32_t use[3];
      for (uint64_t b = 0; b < blocks; ++b) {
        const int64_t d = std::max(entry.ready, scheduler_free);
        scheduler_free = d + machine.dispatch;
        r.scheduler_busy += machine.dispatch;
        int used = 0;
        int64_t free_at = 0;
        if (!mix) {
          CorePool& pool = (slots & 1) ? aic_pool : aiv_pool;
          use[used++] = pool.Pick(d, machine.policy);
          free_at = core_free[use[0]];
        } else {
          // Clusters: when all the cores this block needs are free.
          uint32_t best = 0;
          int64_t best_free = INT64_MAX;
          for (uint32_t c = 0; c < clusters; ++c) {
            int64_t f = INT64_MIN;
            if (slots & 1) f = std::max(f, core_free[c]);
            if (slots & 2) f = std::max(f, core_free[machine.aic + 2 * c]);
            if (slots & 4) f = std::max(f, core_free[machine.aic + 2 * c + 1]);
            if (machine.policy == CorePolicy::kLowest && f <= d) {
              best = c;
              best_free = f;
              break;
            }
            if (f < best_free) {
              best = c;
              best_free = f;
            }
          }
          if (slots & 1) use[used++] = best;
          if (slots & 2) use[used++] = machine.aic + 2 * best;
          if (slots & 4) use[used++] = machine.aic + 2 * best + 1;
          free_at = best_free;
        }
        const int64_t dispatch = std::max(d, free_at);
        const int64_t start = dispatch + machine.launch;
        for (int k = 0; k < used; ++k) {
          const int64_t ticks = work.ticks[run_first + run % run_count];
          ++run;
          const uint32_t core = use[k];
          const int64_t end = start + ticks;
          core_free[core] = end;
          r.core_busy[core] += ticks;
          ((core < machine.aic) ? aic_pool : aiv_pool).Touch(core);
          last_end = std::max(last_end, end);
          ++r.core_runs;
          if (options.record_runs || options.run_sink != nullptr) {
            const CoreRun core_run{t, static_cast<uint32_t>(b), core, d, dispatch, start, end};
            if (options.record_runs) r.runs.push_back(core_run);
            if (options.run_sink != nullptr) options.run_sink->OnRun(core_run, timing.ready);
          }
        }
        first_start = std::min(first_start, start);
        ++r.blocks;
      }
      timing.start = first_start;
      timing.end = last_end;
      timing.done = last_end + machine.finish;
      if (!any_run || first_start < r.first_start) r.first_start = first_start;
      if (!any_run || last_end > r.last_end) r.last_end = last_end;
      any_run = true;
    }
    r.last_done = std::max(r.last_done, timing.done);
    ++r.simulated_tasks;
    for (uint32_t k = succ_first[t]; k < succ_first[t + 1]; ++k) {
      const uint32_t s = succs[k];
      pred_done[s] = std::max(pred_done[s], timing.done);
      if (--remaining[s] == 0 && r.tasks[s].release != kUnknown) push_ready(s);
    }
    advance_releases();
  }
  if (r.simulated_tasks < order.size()) {
    const uint32_t t = order[next_release];
    const uint32_t u =
        ring_members[RingOf(graph.tasks[t].id)][ring_index[t] - machine.ring_capacity];
    *err = "ring capacity " + std::to_string(machine.ring_capacity) + " deadlocks: task " +
           name(t) + " cannot be submitted before task " + name(u) +
           " is done, which waits for it or a later task";
    return false;
  }
  r.makespan = any_run ? r.last_end - r.first_start : 0;
  return true;
}

}  // namespace depgraph
