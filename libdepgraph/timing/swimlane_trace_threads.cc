// The thread lanes of the swimlane trace: the AICPU scheduler's phases (and the AICPU worker
// markers they carry), the host-to-device uploads and the orchestrator's submits.
#include <algorithm>

#include "raw_records.h"
#include "swimlane_trace_builder.h"

namespace depgraph {

namespace {

constexpr int64_t kAicpuTidBase = 19000;
constexpr double kMarkerMinUs = 0.02;  // AICPU worker markers are drawn at least this wide

/// Python's max(a, b) for the marker widths: a unless b is larger.
double PyMax(double a, double b) { return b > a ? b : a; }

/// The scheduler phases drawn on the Sched lanes, with their colours.
const char* PhaseColor(const std::string& phase) {
  static const std::pair<const char*, const char*> kColors[] = {
      {"complete", "good"},
      {"dispatch", "terrible"},
      {"async_poll", "yellow"},
      {"release", "olive"},
      {"dummy", "grey"},
      {"early_dispatch", "rail_animation"},
      {"drain", "cq_build_running"},
      {"drain_prepare", "cq_build_attempt_runnable"},
      {"drain_publish", "cq_build_attempt_passed"},
      {"graph_prepare", "rail_animation"},
      {"resolve", "vsync_highlight_color"},
  };
  for (const auto& [name, color] : kColors) {
    if (phase == name) return color;
  }
  return nullptr;
}

}  // namespace

std::optional<SwimlaneTraceBuilder::PhaseRef> SwimlaneTraceBuilder::ContainingComplete(
    size_t thread, double finish_us) const {
  const std::vector<size_t>& phases = completes_[thread];
  const std::vector<double>& starts = complete_starts_[thread];
  if (phases.empty()) return std::nullopt;
  const size_t idx = static_cast<size_t>(std::upper_bound(starts.begin(), starts.end(), finish_us) - starts.begin());
  if (idx > 0) {
    const SchedulerPhase& prev = rec_.scheduler[thread][phases[idx - 1]];
    if (prev.start_us <= finish_us && finish_us <= prev.end_us) return PhaseRef{thread, phases[idx - 1]};
  }
  if (idx < phases.size()) return PhaseRef{thread, phases[idx]};
  return std::nullopt;
}

void SwimlaneTraceBuilder::SchedulerPhases() {
  const auto& sched = rec_.scheduler;
  completes_.assign(sched.size(), {});
  complete_starts_.assign(sched.size(), {});
  for (size_t t = 0; t < sched.size(); ++t) {
    for (size_t i = 0; i < sched[t].size(); ++i) {
      if (sched[t][i].phase_is_string && sched[t][i].phase == "complete") completes_[t].push_back(i);
    }
    std::stable_sort(completes_[t].begin(), completes_[t].end(), [&](size_t a, size_t b) {
      return sched[t][a].start_us < sched[t][b].start_us;
    });
    for (size_t i : completes_[t]) complete_starts_[t].push_back(sched[t][i].start_us);
  }
  if (sched.empty()) return;
  Meta("process_name", 2, std::nullopt, "AICPU Scheduler");
  MetaSort("process_sort_index", 2, std::nullopt, 2);
  // Task finishes attributed to the complete phase that holds them.
  std::unordered_map<size_t, std::unordered_map<size_t, int64_t>> finishes;  // thread -> index -> n
  const auto& ctt = rec_.core_to_thread;
  if (!ctt.empty()) {
    for (const SwimlaneTask& task : rec_.tasks) {
      if (task.finish_us < 0 || task.core_id >= static_cast<int64_t>(ctt.size())) continue;
      const int64_t thread = ctt[static_cast<size_t>(task.core_id)];
      if (thread < 0 || thread >= static_cast<int64_t>(sched.size())) continue;
      if (auto ref = ContainingComplete(static_cast<size_t>(thread), task.finish_us)) {
        ++finishes[ref->thread][ref->index];
      }
    }
  }
  for (size_t t = 0; t < sched.size(); ++t) {
    const int64_t tid = SchedTid(static_cast<int64_t>(t)), resolve_tid = SchedTid(static_cast<int64_t>(t), 1);
    const std::string lane = "Sched_" + std::to_string(t);
    Meta("thread_name", 2, tid, lane);
    if (std::any_of(sched[t].begin(), sched[t].end(), [](const SchedulerPhase& p) {
          return p.phase_is_string && p.phase == "resolve";
        })) {
      Meta("thread_name", 2, resolve_tid, lane);
    }
    for (size_t i = 0; i < sched[t].size(); ++i) {
      const SchedulerPhase& p = sched[t][i];
      if (!p.phase_is_string) continue;
      if (p.phase == "dummy_task" || p.phase == "predicated_skip") {
        const double dur = PyMax(p.end_us - p.start_us, kMarkerMinUs);
        const std::string label = p.has_task_id ? SwimlaneDisplayId(p.task_id) : "unknown";
        std::string name;
        if (p.phase == "dummy_task") {
          name = "dummy(" + label + ")";
        } else {
          int64_t func_id = -1;
          if (p.has_task_id && HasKernelIds()) {
            auto it = deps_->kernel_ids.find(p.task_id);
            if (it != deps_->kernel_ids.end()) {
              for (int64_t k : it->second) {
                if (k >= 0) {
                  func_id = k;
                  break;
                }
              }
            }
          }
          name = SwimlaneTaskLabel(func_id, names_, label, p.has_task_id && IsSpmd(p.task_id));
        }
        BeginEvent();
        w_.Key("args");
        w_.BeginObject();
        w_.Key("loop_iter");
        w_.Json(p.loop_iter);
        w_.Key("task_id");
        if (p.has_task_id) {
          w_.Int(p.task_id);
        } else {
          w_.Null();
        }
        w_.Key("event-hint");
        w_.String(name);
        if (p.phase == "dummy_task") {
          w_.Key("phase");
          w_.String(p.phase);
        } else {
          w_.Key("predicated_pass");
          w_.Bool(false);
        }
        w_.EndObject();
        w_.Key("cat");
        w_.String("event");
        w_.Key("id");
        w_.Int(event_id_);
        w_.Key("name");
        w_.String(name);
        w_.Key("ph");
        w_.String("X");
        w_.Key("pid");
        w_.Int(4);
        w_.Key("tid");
        w_.Int(kAicpuTidBase + static_cast<int64_t>(t));
        w_.Key("ts");
        w_.Float(p.start_us);
        w_.Key("dur");
        w_.Float(dur);
        w_.EndObject();
        if (p.has_task_id) {
          markers_[p.task_id].push_back(SwimlaneAnchor{-1, p.start_us, p.start_us + dur,
                                                       kAicpuTidBase + static_cast<int64_t>(t), event_id_});
        }
        ++event_id_;
        continue;
      }
      const char* color = PhaseColor(p.phase);
      if (color == nullptr) continue;
      nlohmann::ordered_json processed = p.tasks_processed;
      BeginEvent();
      w_.Key("args");
      w_.BeginObject();
      w_.Key("phase");
      w_.String(p.phase);
      w_.Key("loop_iter");
      w_.Json(p.loop_iter);
      int64_t matched = 0;
      if (p.phase == "complete") {
        auto th = finishes.find(t);
        if (th != finishes.end()) {
          auto it = th->second.find(i);
          if (it != th->second.end()) matched = it->second;
        }
        if (!p.has_tasks_processed) processed = matched;
      }
      w_.Key("tasks_processed");
      w_.Json(processed);
      if (p.depths_valid) {
        w_.Key("shared_at_start (aic,aiv,mix)");
        w_.Json(p.shared_at_start);
        w_.Key("shared_at_end (aic,aiv,mix)");
        w_.Json(p.shared_at_end);
      }
      if (p.phase == "complete") {
        w_.Key("finishes_processed");
        if (p.has_tasks_processed) {
          w_.Json(p.tasks_processed);
          w_.Key("finish_rows_attributed");
          w_.Int(matched);
        } else {
          w_.Int(matched);
        }
      }
      w_.EndObject();
      w_.Key("cat");
      w_.String("scheduler");
      w_.Key("cname");
      w_.String(color);
      w_.Key("name");
      w_.String(p.phase + "(" + PyStrOfJson(processed) + ")");
      w_.Key("ph");
      w_.String("X");
      w_.Key("pid");
      w_.Int(2);
      w_.Key("tid");
      w_.Int(p.phase == "resolve" ? resolve_tid : tid);
      w_.Key("ts");
      w_.Float(p.start_us);
      w_.Key("dur");
      w_.Float(p.end_us - p.start_us);
      w_.EndObject();
      if ((p.phase != "complete" && p.phase != "dispatch") || !p.depths_valid) continue;
      BeginEvent();
      w_.Key("args");
      w_.BeginObject();
      w_.Key("AIC");
      w_.Json(p.shared_at_end[0]);
      w_.Key("AIV");
      w_.Json(p.shared_at_end[1]);
      w_.Key("MIX");
      w_.Json(p.shared_at_end[2]);
      w_.EndObject();
      w_.Key("cat");
      w_.String("queue");
      w_.Key("name");
      w_.String("shared_ready_queue");
      w_.Key("ph");
      w_.String("C");
      w_.Key("pid");
      w_.Int(2);
      w_.Key("tid");
      w_.Int(3999);
      w_.Key("ts");
      w_.Float(p.end_us);
      w_.EndObject();
    }
  }
  Meta("thread_name", 2, 3999, "shared_ready_queue (global)");
  MetaSort("thread_sort_index", 2, 3999, 100);
}

void SwimlaneTraceBuilder::Uploads() {
  if (rec_.uploads.empty()) return;
  Meta("process_name", 1, std::nullopt, "Host Prepare");
  Meta("thread_name", 1, 4100, "H2D");
  for (const HostUpload& u : rec_.uploads) {
    BeginEvent();
    w_.Key("name");
    w_.String(u.name);
    w_.Key("cat");
    w_.String("host_h2d");
    w_.Key("ph");
    w_.String("X");
    w_.Key("pid");
    w_.Int(1);
    w_.Key("tid");
    w_.Int(4100);
    w_.Key("ts");
    w_.Float(u.start_us);
    w_.Key("dur");
    w_.Float(PyMax(0.0, u.end_us - u.start_us));
    w_.Key("cname");
    w_.String("thread_state_iowait");
    w_.Key("args");
    w_.BeginObject();
    w_.Key("bytes");
    w_.Json(u.detail);
    w_.EndObject();
    w_.EndObject();
  }
}

void SwimlaneTraceBuilder::Orchestrator() {
  if (rec_.orchestrator.empty()) return;
  const bool host = rec_.orchestrator_source == "host";
  std::string label = "AICPU Orchestrator";
  if (host) {
    label = "Host Orchestrator";
  } else if (Truthy(names_.orchestrator_name)) {
    label = "AICPU " + PyStrOfJson(names_.orchestrator_name);
  }
  Meta("process_name", 1, std::nullopt, label);
  MetaSort("process_sort_index", 1, std::nullopt, 1);
  for (size_t o = 0; o < rec_.orchestrator.size(); ++o) {
    Meta("thread_name", 1, 4000 + static_cast<int64_t>(o), (host ? "Host_" : "Orch_") + std::to_string(o));
  }
  std::unordered_set<__int128, Int128Hash> regular, dummies, skips, deps_dummies, warned;
  for (const Group& g : groups_) regular.insert(g.id);
  for (const auto& thread : rec_.scheduler) {
    for (const SchedulerPhase& p : thread) {
      if (!p.phase_is_string || !p.has_task_id) continue;
      if (p.phase == "dummy_task") dummies.insert(p.task_id);
      if (p.phase == "predicated_skip") skips.insert(p.task_id);
    }
  }
  if (HasKernelIds()) {
    for (const auto& [id, slots] : deps_->kernel_ids) {
      if (slots[0] < 0 && slots[1] < 0 && slots[2] < 0) deps_dummies.insert(id);
    }
  }
  for (size_t o = 0; o < rec_.orchestrator.size(); ++o) {
    const int64_t tid = 4000 + static_cast<int64_t>(o);
    const int64_t worker_tid = kAicpuTidBase + orchestrator_thread_base_ + static_cast<int64_t>(o);
    for (const OrchestratorPhase& p : rec_.orchestrator[o]) {
      const double dur = p.end_us - p.start_us;
      const std::string display = p.task_id >= 0 ? SwimlaneDisplayId(p.task_id) : "";
      BeginEvent();
      w_.Key("args");
      w_.BeginObject();
      w_.Key("phase");
      w_.String("orch_submit");
      w_.Key("submit_idx");
      w_.Json(p.submit_idx);
      w_.Key("task_id");
      w_.Int(p.task_id);
      w_.EndObject();
      w_.Key("cat");
      w_.String("orchestrator");
      w_.Key("cname");
      w_.String("rail_animation");
      w_.Key("name");
      w_.String("submit(" + (p.task_id >= 0 ? display : PyStrOfJson(p.submit_idx)) + ")");
      w_.Key("ph");
      w_.String("X");
      w_.Key("pid");
      w_.Int(1);
      w_.Key("tid");
      w_.Int(tid);
      w_.Key("ts");
      w_.Float(p.start_us);
      w_.Key("dur");
      w_.Float(dur);
      w_.EndObject();
      if (p.task_id < 0) continue;
      bool is_regular = false, is_dummy = false;
      if (HasKernelIds() && deps_->kernel_ids.count(p.task_id)) {
        is_dummy = deps_dummies.count(p.task_id) != 0;
        is_regular = !is_dummy;
        if (is_dummy && !dummies.count(p.task_id) && warned.insert(p.task_id).second) {
          log_.err.push_back("Warning: dummy(" + display +
                             ") has no dummy_task scheduler record; its Worker View bar cannot be "
                             "rendered.");
        }
      } else {
        is_regular = regular.count(p.task_id) != 0;
        is_dummy = dummies.count(p.task_id) != 0;
      }
      if (is_regular || is_dummy || skips.count(p.task_id)) continue;
      const double width = PyMax(dur, kMarkerMinUs);
      const std::string name = "alloc(" + display + ")";
      BeginEvent();
      w_.Key("args");
      w_.BeginObject();
      w_.Key("phase");
      w_.String("alloc");
      w_.Key("task_id");
      w_.Int(p.task_id);
      w_.Key("event-hint");
      w_.String(name);
      w_.EndObject();
      w_.Key("cat");
      w_.String("event");
      w_.Key("cname");
      w_.String("olive");
      w_.Key("id");
      w_.Int(event_id_);
      w_.Key("name");
      w_.String(name);
      w_.Key("ph");
      w_.String("X");
      w_.Key("pid");
      w_.Int(4);
      w_.Key("tid");
      w_.Int(worker_tid);
      w_.Key("ts");
      w_.Float(p.start_us);
      w_.Key("dur");
      w_.Float(width);
      w_.EndObject();
      markers_[p.task_id].push_back(SwimlaneAnchor{-1, p.start_us, p.start_us + width, worker_tid, event_id_});
      ++event_id_;
    }
  }
}

}  // namespace depgraph
