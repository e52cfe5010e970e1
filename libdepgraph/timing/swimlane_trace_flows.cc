// The flow arrows of the swimlane trace: dependencies in both views, complete and
// complete->ready arrows of the scheduler, dispatch arrows and orchestrator submit arrows.
#include <algorithm>
#include <limits>
#include <utility>

#include "raw_records.h"
#include "swimlane_trace_builder.h"

namespace depgraph {

namespace {

constexpr double kFlowEpsilonUs = 0.01;  // arrow starts just inside the bar they leave
constexpr __int128 kMask64 = (static_cast<__int128>(1) << 64) - 1;

__int128 Normalize(__int128 id) { return id < 0 ? (id & kMask64) : id; }

}  // namespace

double SwimlaneTraceBuilder::SliceStart(const SwimlaneAnchor& a, bool scheduler_view) const {
  if (a.row < 0) return scheduler_view ? std::numeric_limits<double>::infinity() : a.start_us;
  const SwimlaneTask& t = rec_.tasks[static_cast<size_t>(a.row)];
  if (!scheduler_view) return t.receive_us;
  if (t.dispatch_us < 0 || t.finish_us <= 0) return std::numeric_limits<double>::infinity();
  return t.dispatch_us;
}

std::vector<SwimlaneAnchor> SwimlaneTraceBuilder::Anchors(__int128 id, bool scheduler_view,
                                                          bool markers) const {
  std::vector<SwimlaneAnchor> out;
  const Group* g = FindGroup(id);
  if (g == nullptr) {
    if (markers) {
      auto it = markers_.find(id);
      if (it != markers_.end()) out = it->second;
    }
    return out;
  }
  if (!IsSpmd(id)) {
    for (uint32_t r = g->begin; r < g->end; ++r) out.push_back(SwimlaneAnchor{r});
    return out;
  }
  // The earliest row per function, by (slice start, core); functions in order of first row.
  std::vector<int64_t> funcs;
  for (uint32_t r = g->begin; r < g->end; ++r) {
    const SwimlaneTask& t = rec_.tasks[r];
    const SwimlaneAnchor anchor{r};
    auto it = std::find(funcs.begin(), funcs.end(), t.func_id);
    if (it == funcs.end()) {
      funcs.push_back(t.func_id);
      out.push_back(anchor);
      continue;
    }
    SwimlaneAnchor& prev = out[static_cast<size_t>(it - funcs.begin())];
    const double s = SliceStart(anchor, scheduler_view), ps = SliceStart(prev, scheduler_view);
    const int64_t core = t.core_id, prev_core = rec_.tasks[static_cast<size_t>(prev.row)].core_id;
    if (s < ps || (s == ps && core < prev_core)) prev = anchor;
  }
  return out;
}

int64_t SwimlaneTraceBuilder::FanCount(__int128 id) const {
  if (!IsSpmd(id)) return 1;
  if (HasBlockNums()) {
    auto it = deps_->block_nums.find(id);
    if (it != deps_->block_nums.end()) return it->second;
  }
  const Group* g = FindGroup(id);
  return g == nullptr ? 0 : static_cast<int64_t>(g->end - g->begin);
}

void SwimlaneTraceBuilder::DependencyPair(std::string_view name, int64_t pid, int64_t src_tid,
                                          double src_ts, std::optional<int64_t> src_event,
                                          int64_t dst_tid, double dst_ts,
                                          std::optional<int64_t> dst_event, int64_t input_count,
                                          int64_t output_count) {
  for (int end = 0; end < 2; ++end) {
    BeginEvent();
    w_.Key("cat");
    w_.String("flow");
    w_.Key("id");
    w_.Int(flow_id_);
    w_.Key("name");
    w_.String(name);
    w_.Key("ph");
    w_.String(end == 0 ? "s" : "f");
    w_.Key("pid");
    w_.Int(pid);
    w_.Key("tid");
    w_.Int(end == 0 ? src_tid : dst_tid);
    w_.Key("ts");
    w_.Float(end == 0 ? src_ts : dst_ts);
    if (end == 1) {
      w_.Key("bp");
      w_.String("e");
    }
    w_.Key("input_task_count");
    w_.Int(input_count);
    w_.Key("output_task_count");
    w_.Int(output_count);
    const std::optional<int64_t>& bind = end == 0 ? src_event : dst_event;
    if (bind) {
      w_.Key("bind_id");
      w_.Int(*bind);
    }
    w_.EndObject();
  }
  ++flow_id_;
}

void SwimlaneTraceBuilder::FlowStart(std::string_view name, int64_t pid, int64_t tid, double ts,
                                     std::optional<int64_t> bind_id) {
  BeginEvent();
  w_.Key("cat");
  w_.String("flow");
  w_.Key("id");
  w_.Int(flow_id_);
  w_.Key("name");
  w_.String(name);
  w_.Key("ph");
  w_.String("s");
  w_.Key("pid");
  w_.Int(pid);
  w_.Key("tid");
  w_.Int(tid);
  w_.Key("ts");
  w_.Float(ts);
  if (bind_id) {
    w_.Key("bind_id");
    w_.Int(*bind_id);
  }
  w_.EndObject();
}

void SwimlaneTraceBuilder::FlowFinish(std::string_view name, int64_t pid, int64_t tid, double ts,
                                      std::optional<int64_t> bind_id) {
  BeginEvent();
  w_.Key("cat");
  w_.String("flow");
  w_.Key("id");
  w_.Int(flow_id_);
  w_.Key("name");
  w_.String(name);
  w_.Key("ph");
  w_.String("f");
  w_.Key("pid");
  w_.Int(pid);
  w_.Key("tid");
  w_.Int(tid);
  w_.Key("ts");
  w_.Float(ts);
  w_.Key("bp");
  w_.String("e");
  if (bind_id) {
    w_.Key("bind_id");
    w_.Int(*bind_id);
  }
  w_.EndObject();
}

void SwimlaneTraceBuilder::DependencyFlows() {
  const auto worker_end = [&](const SwimlaneAnchor& a) -> std::pair<int64_t, std::optional<int64_t>> {
    if (a.row < 0) return {a.trace_tid, a.event_id};
    const size_t r = static_cast<size_t>(a.row);
    return {CoreTid(rec_.tasks[r].core_id), static_cast<int64_t>(worker_key_row_[r])};
  };
  const auto end_of = [&](const SwimlaneAnchor& a) {
    return a.row < 0 ? a.end_us : rec_.tasks[static_cast<size_t>(a.row)].end_us;
  };
  if (HasEdges()) {
    for (size_t p = 0; p < deps_->preds.size(); ++p) {
      const __int128 pred = deps_->preds[p];
      if (FindGroup(pred) == nullptr && markers_.count(pred) == 0) continue;
      const std::vector<SwimlaneAnchor> pred_anchors = Anchors(pred, false, true);
      for (__int128 succ : deps_->succs[p]) {
        if (FindGroup(succ) == nullptr && markers_.count(succ) == 0) {
          Verbose("Warning: Task " + SwimlaneDisplayId(pred) + " (raw " + Int128Text(pred) +
                  ") references non-existent successor " + SwimlaneDisplayId(succ) + " (raw " +
                  Int128Text(succ) + ")");
          continue;
        }
        const std::vector<SwimlaneAnchor> succ_anchors = Anchors(succ, false, true);
        if (pred_anchors.empty() || succ_anchors.empty()) continue;
        const int64_t output_count = FanCount(pred), input_count = FanCount(succ);
        for (const SwimlaneAnchor& pa : pred_anchors) {
          for (const SwimlaneAnchor& sa : succ_anchors) {
            const double src_ts = SliceStart(pa, false), dst_ts = SliceStart(sa, false);
            const bool violated = end_of(pa) > dst_ts;
            if (violated) ++hb_violations_;
            const auto [src_tid, src_event] = worker_end(pa);
            const auto [dst_tid, dst_event] = worker_end(sa);
            DependencyPair(violated ? "hb_violation" : "dependency", 4, src_tid, src_ts, src_event,
                           dst_tid, dst_ts, dst_event, input_count, output_count);
            ++dependency_flows_;
          }
        }
      }
    }
  }
  if (HasEdges()) {
    Verbose("  Dependency flow events: " + std::to_string(dependency_flows_) +
            " edges (source: deps.json)");
    if (!spmd_.empty()) {
      Verbose("  SPMD tasks: " + std::to_string(spmd_.size()) +
              " logical task(s); dependency arrows independently anchor on each view's earliest "
              "visible slice per function");
    }
  } else {
    Verbose("  Flow events: 0 (no deps.json \xE2\x80\x94 re-run dep_gen and pass --deps-json to add arrows)");
  }
  if (hb_violations_ > 0) {
    Verbose("  Happens-before violations: " + std::to_string(hb_violations_) +
            " edge(s) flagged as 'hb_violation'");
  }
}

void SwimlaneTraceBuilder::SchedulerDependencyFlows() {
  if (!has_aicpu_data_ || !HasEdges()) return;
  const auto lane = [&](int64_t row) {
    return aicpu_tid_[static_cast<size_t>(row)] >= 0 ? aicpu_tid_[static_cast<size_t>(row)]
                                                      : CoreTid(rec_.tasks[static_cast<size_t>(row)].core_id);
  };
  const auto event = [&](int64_t row) -> std::optional<int64_t> {
    const int64_t e = aicpu_eid_[static_cast<size_t>(row)];
    return e >= 0 ? std::optional<int64_t>(e) : std::nullopt;
  };
  for (size_t p = 0; p < deps_->preds.size(); ++p) {
    const __int128 pred = deps_->preds[p];
    if (FindGroup(pred) == nullptr) continue;
    const std::vector<SwimlaneAnchor> pred_anchors = Anchors(pred, true, false);
    for (__int128 succ : deps_->succs[p]) {
      if (FindGroup(succ) == nullptr) continue;
      const std::vector<SwimlaneAnchor> succ_anchors = Anchors(succ, true, false);
      const int64_t output_count = FanCount(pred), input_count = FanCount(succ);
      for (const SwimlaneAnchor& pa : pred_anchors) {
        for (const SwimlaneAnchor& sa : succ_anchors) {
          const SwimlaneTask& src = rec_.tasks[static_cast<size_t>(pa.row)];
          const SwimlaneTask& dst = rec_.tasks[static_cast<size_t>(sa.row)];
          if (src.dispatch_us < 0 || src.finish_us <= 0 || dst.dispatch_us < 0 || dst.finish_us <= 0) {
            continue;
          }
          DependencyPair(src.finish_us > dst.dispatch_us ? "hb_violation" : "dependency", 3,
                         lane(pa.row), src.dispatch_us, event(pa.row), lane(sa.row),
                         dst.dispatch_us, event(sa.row), input_count, output_count);
        }
      }
    }
  }
}

void SwimlaneTraceBuilder::CompleteFlows() {
  const auto& ctt = rec_.core_to_thread;
  if (rec_.scheduler.empty() || ctt.empty()) return;
  struct Done {
    __int128 id;
    PhaseRef complete;
    double last_finish;
    int64_t owner;
    std::vector<SwimlaneAnchor> worker, scheduler;
  };
  std::vector<Done> done;
  for (const Group& g : groups_) {
    int64_t last = -1;
    for (uint32_t r = g.begin; r < g.end; ++r) {
      if (rec_.tasks[r].finish_us < 0) continue;
      if (last < 0 || rec_.tasks[r].finish_us > rec_.tasks[static_cast<size_t>(last)].finish_us) last = r;
    }
    if (last < 0) continue;
    const SwimlaneTask& t = rec_.tasks[static_cast<size_t>(last)];
    if (t.core_id >= static_cast<int64_t>(ctt.size())) continue;
    const int64_t owner = ctt[static_cast<size_t>(t.core_id)];
    if (owner < 0 || owner >= static_cast<int64_t>(rec_.scheduler.size())) continue;
    auto complete = ContainingComplete(static_cast<size_t>(owner), t.finish_us);
    if (!complete) continue;
    done.push_back(Done{g.id, *complete, t.finish_us, owner, Anchors(g.id, false, false),
                        Anchors(g.id, true, false)});
  }
  for (const Done& d : done) {
    const SchedulerPhase& comp = rec_.scheduler[d.complete.thread][d.complete.index];
    const int64_t dst_tid = SchedTid(d.owner);
    const double dst_ts =
        comp.start_us <= d.last_finish && d.last_finish <= comp.end_us ? d.last_finish : comp.start_us;
    for (const SwimlaneAnchor& a : d.worker) {
      const SwimlaneTask& t = rec_.tasks[static_cast<size_t>(a.row)];
      FlowStart("complete", 4, CoreTid(t.core_id), t.end_us - kFlowEpsilonUs,
                static_cast<int64_t>(worker_key_row_[static_cast<size_t>(a.row)]));
      FlowFinish("complete", 2, dst_tid, dst_ts, std::nullopt);
      ++flow_id_;
    }
    for (const SwimlaneAnchor& a : d.scheduler) {
      const SwimlaneTask& t = rec_.tasks[static_cast<size_t>(a.row)];
      if (t.finish_us <= 0) continue;
      const size_t r = static_cast<size_t>(a.row);
      const std::optional<int64_t> bind =
          aicpu_eid_[r] >= 0 ? std::optional<int64_t>(aicpu_eid_[r]) : std::nullopt;
      FlowStart("complete", 3, aicpu_tid_[r] >= 0 ? aicpu_tid_[r] : CoreTid(t.core_id),
                t.finish_us - kFlowEpsilonUs, bind);
      FlowFinish("complete", 2, dst_tid, dst_ts, std::nullopt);
      ++flow_id_;
    }
  }
  if (!HasEdges()) return;
  // Outbound: the complete phase that satisfies a consumer's last dependency releases it.
  std::unordered_map<__int128, int64_t, Int128Hash> satisfied;
  std::unordered_map<size_t, std::unordered_map<size_t, std::vector<__int128>>> completed;
  for (const Done& d : done) completed[d.complete.thread][d.complete.index].push_back(d.id);
  struct CompleteEnd {
    double end;
    size_t thread, index;
  };
  std::vector<CompleteEnd> order;
  for (size_t t = 0; t < completes_.size(); ++t) {
    for (size_t i : completes_[t]) order.push_back(CompleteEnd{rec_.scheduler[t][i].end_us, t, i});
  }
  std::stable_sort(order.begin(), order.end(), [](const CompleteEnd& a, const CompleteEnd& b) {
    return a.end < b.end || (a.end == b.end && a.thread < b.thread);
  });
  std::unordered_map<__int128, std::pair<double, int64_t>, Int128Hash> earliest;  // id -> (us, thread)
  for (const Group& g : groups_) {
    int64_t first = -1;
    for (uint32_t r = g.begin; r < g.end; ++r) {
      if (rec_.tasks[r].dispatch_us < 0) continue;
      if (first < 0 || rec_.tasks[r].dispatch_us < rec_.tasks[static_cast<size_t>(first)].dispatch_us) first = r;
    }
    if (first < 0) continue;
    const SwimlaneTask& t = rec_.tasks[static_cast<size_t>(first)];
    if (t.core_id >= static_cast<int64_t>(ctt.size())) continue;
    const int64_t thread = ctt[static_cast<size_t>(t.core_id)];
    if (thread < 0) continue;
    earliest[g.id] = {t.dispatch_us, thread};
  }
  for (const CompleteEnd& c : order) {
    auto th = completed.find(c.thread);
    if (th == completed.end()) continue;
    auto it = th->second.find(c.index);
    if (it == th->second.end()) continue;
    std::vector<__int128> triggered;
    for (__int128 id : it->second) {
      const std::vector<__int128>* consumers = deps_->Successors(id);
      if (consumers == nullptr) continue;
      for (__int128 consumer : *consumers) {
        auto total = fanin_.find(consumer);
        if (++satisfied[consumer] == (total == fanin_.end() ? 0 : static_cast<int64_t>(total->second.size()))) {
          triggered.push_back(consumer);
        }
      }
    }
    for (__int128 consumer : triggered) {
      auto e = earliest.find(consumer);
      if (e == earliest.end()) continue;
      const auto [dispatch_us, thread] = e->second;
      if (dispatch_us < c.end) continue;
      FlowStart("complete\xE2\x86\x92ready", 2, SchedTid(static_cast<int64_t>(c.thread)),
                c.end - kFlowEpsilonUs, std::nullopt);
      FlowFinish("complete\xE2\x86\x92ready", 2, SchedTid(thread), dispatch_us, std::nullopt);
      ++flow_id_;
    }
  }
}

void SwimlaneTraceBuilder::DispatchFlows() {
  if (rec_.scheduler.empty() || !has_aicpu_data_) return;
  const auto& ctt = rec_.core_to_thread;
  if (!ctt.empty()) {
    for (size_t core = 0; core < ctt.size(); ++core) {
      if (ctt[core] >= 0) core_to_sched_thread_[static_cast<int64_t>(core)] = ctt[core];
    }
    Verbose("  Core-to-thread mapping: " + std::to_string(core_to_sched_thread_.size()) +
            " cores (from perf JSON)");
  } else {
    // Each core votes for the threads whose dispatch phases hold its rows' dispatch times.
    struct Intervals {
      size_t thread;
      std::vector<double> starts, max_end;  // sorted by start; running maximum of the ends
    };
    std::vector<Intervals> threads;
    for (size_t t = 0; t < rec_.scheduler.size(); ++t) {
      std::vector<std::pair<double, double>> spans;
      for (const SchedulerPhase& p : rec_.scheduler[t]) {
        if (p.phase_is_string && p.phase == "dispatch") spans.emplace_back(p.start_us, p.end_us);
      }
      if (spans.empty()) continue;
      std::sort(spans.begin(), spans.end());
      Intervals iv{t, {}, {}};
      for (const auto& [s, e] : spans) {
        iv.starts.push_back(s);
        iv.max_end.push_back(iv.max_end.empty() ? e : std::max(iv.max_end.back(), e));
      }
      threads.push_back(std::move(iv));
    }
    std::unordered_map<int64_t, std::vector<std::pair<size_t, int64_t>>> votes;  // in first-vote order
    for (const SwimlaneTask& task : rec_.tasks) {
      if (task.dispatch_us < 0) continue;
      for (const Intervals& iv : threads) {
        const size_t n = static_cast<size_t>(
            std::upper_bound(iv.starts.begin(), iv.starts.end(), task.dispatch_us) - iv.starts.begin());
        if (n == 0 || !(iv.max_end[n - 1] >= task.dispatch_us)) continue;
        auto& v = votes[task.core_id];
        auto it = std::find_if(v.begin(), v.end(), [&](const auto& e) { return e.first == iv.thread; });
        if (it == v.end()) {
          v.emplace_back(iv.thread, 1);
        } else {
          ++it->second;
        }
      }
    }
    for (const auto& [core, v] : votes) {
      size_t best = 0;
      for (size_t i = 1; i < v.size(); ++i) {
        if (v[i].second > v[best].second) best = i;
      }
      core_to_sched_thread_[core] = static_cast<int64_t>(v[best].first);
    }
    Verbose("  Core-to-thread mapping: " + std::to_string(core_to_sched_thread_.size()) +
            " cores (inferred via voting)");
  }
  for (size_t r = 0; r < rec_.tasks.size(); ++r) {
    const SwimlaneTask& t = rec_.tasks[r];
    if (t.dispatch_us < 0) continue;
    auto it = core_to_sched_thread_.find(t.core_id);
    if (it == core_to_sched_thread_.end()) continue;
    const int64_t sched_tid = SchedTid(it->second), core_tid = CoreTid(t.core_id);
    FlowStart("dispatch", 2, sched_tid, t.dispatch_us, std::nullopt);
    FlowFinish("dispatch", 4, core_tid, t.start_us, std::nullopt);
    ++flow_id_;
    FlowStart("dispatch", 2, sched_tid, t.dispatch_us, std::nullopt);
    FlowFinish("dispatch", 3, aicpu_tid_[r] >= 0 ? aicpu_tid_[r] : core_tid, t.dispatch_us,
               aicpu_eid_[r] >= 0 ? std::optional<int64_t>(aicpu_eid_[r]) : std::nullopt);
    ++flow_id_;
  }
}

void SwimlaneTraceBuilder::OrchestratorFlows() {
  if (rec_.orchestrator.empty() || rec_.scheduler.empty()) return;
  if (rec_.orchestrator_source == "host" && rec_.has_timeline_metadata &&
      !rec_.timeline_metadata.empty()) {
    auto it = rec_.timeline_metadata.find("cross_domain_latency_available");
    if (it == rec_.timeline_metadata.end() || !it->is_boolean() || !it->get<bool>()) return;
  }
  std::unordered_map<__int128, std::pair<double, size_t>, Int128Hash> anchors;  // first submit
  for (size_t o = 0; o < rec_.orchestrator.size(); ++o) {
    for (const OrchestratorPhase& p : rec_.orchestrator[o]) {
      if (p.task_id < 0) continue;
      anchors.try_emplace(Normalize(p.task_id), p.end_us, o);
    }
  }
  if (!has_aicpu_data_ || anchors.empty()) return;
  for (const SwimlaneTask& t : rec_.tasks) {
    if (t.dispatch_us < 0) continue;
    auto thread = core_to_sched_thread_.find(t.core_id);
    if (thread == core_to_sched_thread_.end()) continue;
    auto anchor = anchors.find(Normalize(t.task_id));
    if (anchor == anchors.end()) continue;
    const auto [end_us, orch] = anchor->second;
    FlowStart("submit\xE2\x86\x92" "dispatch", 1, 4000 + static_cast<int64_t>(orch), end_us, std::nullopt);
    FlowFinish("submit\xE2\x86\x92" "dispatch", 2, SchedTid(thread->second), t.dispatch_us, std::nullopt);
    ++flow_id_;
  }
}

}  // namespace depgraph
