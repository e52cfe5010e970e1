#include "depgraph/timing/swimlane_trace.h"

#include <algorithm>
#include <set>
#include <utility>

#include "raw_records.h"
#include "swimlane_trace_builder.h"

namespace depgraph {

namespace {

constexpr __int128 kMask64 = (static_cast<__int128>(1) << 64) - 1;
constexpr int64_t kAicpuTidBase = 19000;

__int128 Normalize(__int128 id) { return id < 0 ? (id & kMask64) : id; }

std::string Upper(std::string text) {
  for (char& c : text) {
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
  }
  return text;
}

/// A ring-1 graph node id: (outer task, node index), else nothing.
std::optional<std::pair<__int128, int64_t>> GraphNode(__int128 id) {
  const __int128 tid = Normalize(id);
  if (((tid >> 32) & 0xFFFFFFFF) != 1) return std::nullopt;
  const int64_t local = static_cast<int64_t>(tid & 0xFFFFFFFF);
  return std::pair<__int128, int64_t>{local >> 10, local & 0x3FF};
}

}  // namespace

std::string SwimlaneDisplayId(__int128 task_id) {
  const __int128 tid = Normalize(task_id);
  const int64_t ring = static_cast<int64_t>((tid >> 32) & 0xFF);
  const int64_t local = static_cast<int64_t>(tid & 0xFFFFFFFF);
  return ring == 0 ? "t" + std::to_string(local)
                   : "r" + std::to_string(ring) + "t" + std::to_string(local);
}

std::string SwimlaneFuncLetters(int64_t func_id) {
  std::string letters;
  for (__int128 m = static_cast<__int128>(func_id) + 1; m > 0;) {
    const __int128 rem = (m - 1) % 26;
    m = (m - 1) / 26;
    letters.push_back(static_cast<char>('a' + static_cast<int>(rem)));
  }
  return std::to_string(func_id) + "_" + std::string(letters.rbegin(), letters.rend());
}

std::string SwimlaneTaskLabel(int64_t func_id, const SwimlaneNames& names,
                              const std::string& display_id, bool spmd) {
  std::string label;
  if (func_id < 0) {
    label = "task(" + display_id + ")";
  } else if (const nlohmann::ordered_json* name = names.Find(func_id)) {
    label = names.Name(func_id) + "(" + display_id + ")";
    (void)name;
  } else {
    label = "func_" + SwimlaneFuncLetters(func_id) + "(" + display_id + ")";
  }
  if (spmd) {
    const size_t paren = label.find('(');
    if (paren != std::string::npos) {
      const std::string base = label.substr(0, paren);
      std::string lower = base;
      for (char& c : lower) {
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
      }
      if (lower.find("spmd") == std::string::npos) {
        return base + "_spmd(" + label.substr(paren + 1);
      }
    }
  }
  return label;
}

void ResolveSwimlaneFuncIds(SwimlaneRecords* records, const SwimlaneDeps* deps) {
  if (deps == nullptr || !deps->has_kernel_ids) return;
  for (SwimlaneTask& task : records->tasks) {
    if (task.func_id >= 0) continue;
    auto it = deps->kernel_ids.find(task.task_id);
    if (it == deps->kernel_ids.end()) continue;
    const auto& slots = it->second;
    int64_t resolved = -1;
    if (records->CoreType(task) == "aic") {
      resolved = slots[0] >= 0 ? slots[0] : -1;
    } else if (slots[1] >= 0) {
      resolved = slots[1];
    } else if (slots[2] >= 0) {
      resolved = slots[2];
    }
    if (resolved >= 0) task.func_id = resolved;
  }
}

SwimlaneTraceBuilder::SwimlaneTraceBuilder(const SwimlaneRecords& records, const SwimlaneDeps* deps,
                                           const SwimlaneNames& names,
                                           const SwimlaneTraceOptions& options, PyJsonStream& out,
                                           SwimlaneTraceLog& log)
    : rec_(records), deps_(deps), names_(names), options_(options), w_(out), log_(log) {}

std::string SwimlaneTraceBuilder::Label(int64_t func_id, __int128 id) const {
  return SwimlaneTaskLabel(func_id, names_, SwimlaneDisplayId(id), IsSpmd(id));
}

void SwimlaneTraceBuilder::BeginEvent() {
  ++events_;
  w_.BeginObject();
}

void SwimlaneTraceBuilder::Meta(std::string_view meta_name, int64_t pid,
                                std::optional<int64_t> tid, std::string_view name) {
  BeginEvent();
  w_.Key("args");
  w_.BeginObject();
  w_.Key("name");
  w_.String(name);
  w_.EndObject();
  w_.Key("cat");
  w_.String("__metadata");
  w_.Key("name");
  w_.String(meta_name);
  w_.Key("ph");
  w_.String("M");
  w_.Key("pid");
  w_.Int(pid);
  if (tid) {
    w_.Key("tid");
    w_.Int(*tid);
  }
  w_.EndObject();
}

void SwimlaneTraceBuilder::MetaSort(std::string_view meta_name, int64_t pid,
                                    std::optional<int64_t> tid, int64_t sort_index) {
  BeginEvent();
  w_.Key("args");
  w_.BeginObject();
  w_.Key("sort_index");
  w_.Int(sort_index);
  w_.EndObject();
  w_.Key("cat");
  w_.String("__metadata");
  w_.Key("name");
  w_.String(meta_name);
  w_.Key("ph");
  w_.String("M");
  w_.Key("pid");
  w_.Int(pid);
  if (tid) {
    w_.Key("tid");
    w_.Int(*tid);
  }
  w_.EndObject();
}

void SwimlaneTraceBuilder::Index() {
  const auto& tasks = rec_.tasks;
  std::set<int64_t> cores;
  for (const SwimlaneTask& t : tasks) cores.insert(t.core_id);
  cores_.assign(cores.begin(), cores.end());
  row_group_.resize(tasks.size());
  for (uint32_t i = 0; i < tasks.size(); ++i) {
    if (groups_.empty() || groups_.back().id != tasks[i].task_id) {
      group_of_.emplace(tasks[i].task_id, static_cast<uint32_t>(groups_.size()));
      groups_.push_back(Group{tasks[i].task_id, i, i});
    }
    groups_.back().end = i + 1;
    row_group_[i] = static_cast<uint32_t>(groups_.size() - 1);
  }
  // (id, core) -> its last row: the reference's task_to_event_id.
  worker_key_row_.resize(tasks.size());
  for (const Group& g : groups_) {
    for (uint32_t i = g.begin; i < g.end; ++i) {
      uint32_t last = i;
      for (uint32_t j = i + 1; j < g.end; ++j) {
        if (tasks[j].core_id == tasks[i].core_id) last = j;
      }
      worker_key_row_[i] = last;
      if (g.end - g.begin > 64) {  // large groups: one pass per core instead
        std::unordered_map<int64_t, uint32_t> last_of;
        for (uint32_t j = g.begin; j < g.end; ++j) last_of[tasks[j].core_id] = j;
        for (uint32_t j = g.begin; j < g.end; ++j) worker_key_row_[j] = last_of[tasks[j].core_id];
        break;
      }
    }
  }
  // SPMD tasks: block_num > 1 in deps.json, else several rows all of one core type.
  if (HasBlockNums()) {
    for (const auto& [id, blocks] : deps_->block_nums) {
      if (blocks > 1) spmd_.insert(id);
    }
  }
  for (const Group& g : groups_) {
    if (IsSpmd(g.id) || g.end - g.begin <= 1) continue;
    if (HasBlockNums() && deps_->block_nums.count(g.id)) continue;
    bool one_type = true;
    for (uint32_t i = g.begin + 1; i < g.end && one_type; ++i) {
      one_type = tasks[i].core_type == tasks[g.begin].core_type;
    }
    if (one_type) spmd_.insert(g.id);
  }
  if (HasEdges()) {
    for (size_t p = 0; p < deps_->preds.size(); ++p) {
      for (__int128 s : deps_->succs[p]) fanin_[s].push_back(deps_->preds[p]);
    }
  }
  for (const SwimlaneTask& t : tasks) {
    if (t.dispatch_us >= 0 && t.finish_us > 0) {
      has_aicpu_data_ = true;
      break;
    }
  }
}

void SwimlaneTraceBuilder::GraphExecution() {
  struct Instance {
    __int128 outer;
    std::vector<size_t> prepares;  // indices into `prepare_refs`
    std::vector<uint32_t> rows;
    std::vector<std::pair<const SchedulerPhase*, int64_t>> markers;  // (record, node index)
    std::set<int64_t> nodes;
    double exec_start = 0, exec_end = 0, prepare_start = 0, prepare_duration = 0;
    size_t lane = 0;
  };
  std::vector<Instance> instances;
  std::unordered_map<__int128, size_t, Int128Hash> by_outer;
  std::vector<const SchedulerPhase*> prepare_refs;
  std::vector<std::pair<const SchedulerPhase*, size_t>> dummies;
  for (size_t t = 0; t < rec_.scheduler.size(); ++t) {
    for (const SchedulerPhase& p : rec_.scheduler[t]) {
      if (!p.phase_is_string) continue;
      if (p.phase == "graph_prepare") {
        if (p.has_task_id && (p.task_id >> 32) == 0) {
          auto [it, fresh] = by_outer.emplace(p.task_id, instances.size());
          if (fresh) instances.push_back(Instance{p.task_id, {}, {}, {}, {}});
          instances[it->second].prepares.push_back(prepare_refs.size());
          prepare_refs.push_back(&p);
        }
      } else if (p.phase == "dummy_task") {
        dummies.emplace_back(&p, t);
      }
    }
  }
  if (instances.empty()) return;
  for (uint32_t r = 0; r < rec_.tasks.size(); ++r) {
    auto node = GraphNode(rec_.tasks[r].task_id);
    if (!node) continue;
    auto it = by_outer.find(node->first);
    if (it == by_outer.end()) continue;
    instances[it->second].rows.push_back(r);
    instances[it->second].nodes.insert(node->second);
  }
  for (const auto& [record, thread] : dummies) {
    if (!record->has_task_id) continue;
    auto node = GraphNode(record->task_id);
    if (!node) continue;
    auto it = by_outer.find(node->first);
    if (it == by_outer.end()) continue;
    instances[it->second].markers.emplace_back(record, node->second);
    instances[it->second].nodes.insert(node->second);
  }
  std::vector<Instance> kept;
  for (Instance& inst : instances) {
    if (inst.rows.empty() && inst.markers.empty()) continue;
    std::vector<double> starts, ends;
    for (uint32_t r : inst.rows) {
      const SwimlaneTask& t = rec_.tasks[r];
      starts.push_back(t.dispatch_us >= 0 ? t.dispatch_us : t.receive_us);
      ends.push_back(t.finish_us > 0 ? t.finish_us : t.end_us);
    }
    for (const auto& [record, node] : inst.markers) {
      starts.push_back(record->start_us);
      ends.push_back(record->end_us);
    }
    inst.exec_start = *std::min_element(starts.begin(), starts.end());
    inst.exec_end = *std::max_element(ends.begin(), ends.end());
    inst.prepare_start = prepare_refs[inst.prepares[0]]->start_us;
    for (size_t k : inst.prepares) inst.prepare_start = std::min(inst.prepare_start, prepare_refs[k]->start_us);
    inst.prepare_duration = 0.0;
    for (size_t k : inst.prepares) {
      inst.prepare_duration += prepare_refs[k]->end_us - prepare_refs[k]->start_us;
    }
    kept.push_back(std::move(inst));
  }
  if (kept.empty()) return;
  std::stable_sort(kept.begin(), kept.end(), [](const Instance& a, const Instance& b) {
    return a.prepare_start < b.prepare_start;
  });
  std::vector<double> lane_finish;
  std::set<size_t> lanes;
  for (Instance& inst : kept) {
    size_t lane = 0;
    while (lane < lane_finish.size() && !(lane_finish[lane] <= inst.prepare_start)) ++lane;
    if (lane == lane_finish.size()) lane_finish.push_back(0.0);
    lane_finish[lane] = inst.exec_end;
    inst.lane = lane;
    lanes.insert(lane);
  }
  Meta("process_name", 5, std::nullopt, "Graph Execution");
  MetaSort("process_sort_index", 5, std::nullopt, 1);
  for (size_t lane : lanes) {
    Meta("thread_name", 5, 5000 + static_cast<int64_t>(lane), "Graph_" + std::to_string(lane));
  }
  for (const Instance& inst : kept) {
    const int64_t count = static_cast<int64_t>(inst.nodes.size());
    BeginEvent();
    w_.Key("args");
    w_.BeginObject();
    w_.Key("outer_task_id");
    w_.Int(inst.outer);
    w_.Key("visible_node_count");
    w_.Int(count);
    w_.Key("visible_node_index_min");
    w_.Int(*inst.nodes.begin());
    w_.Key("visible_node_index_max");
    w_.Int(*inst.nodes.rbegin());
    w_.Key("prepare_slice_count");
    w_.Int(static_cast<int64_t>(inst.prepares.size()));
    w_.Key("prepare_duration_us");
    w_.Float(inst.prepare_duration);
    w_.Key("execution_start_us");
    w_.Float(inst.exec_start);
    w_.Key("execution_duration_us");
    w_.Float(inst.exec_end - inst.exec_start);
    w_.Key("synthetic_id_layout");
    w_.String("ring1:(outer_task_id << 10) | node_index");
    w_.EndObject();
    w_.Key("cat");
    w_.String("graph_execution");
    w_.Key("cname");
    w_.String("rail_animation");
    w_.Key("name");
    w_.String("GraphExecution(" + SwimlaneDisplayId(inst.outer) + ", " + std::to_string(count) +
              " visible nodes)");
    w_.Key("ph");
    w_.String("X");
    w_.Key("pid");
    w_.Int(5);
    w_.Key("tid");
    w_.Int(5000 + static_cast<int64_t>(inst.lane));
    w_.Key("ts");
    w_.Float(inst.prepare_start);
    w_.Key("dur");
    w_.Float(inst.exec_end - inst.prepare_start);
    w_.EndObject();
  }
}

void SwimlaneTraceBuilder::WorkerView() {
  const auto& tasks = rec_.tasks;
  Meta("process_name", 4, std::nullopt, "Worker View");
  MetaSort("process_sort_index", 4, std::nullopt, 4);
  if (has_aicpu_data_) {
    Meta("process_name", 3, std::nullopt, "Scheduler View");
    MetaSort("process_sort_index", 3, std::nullopt, 3);
  }
  for (int64_t core : cores_) {
    std::string type;
    for (const SwimlaneTask& t : tasks) {
      if (t.core_id == core) {
        type = rec_.CoreType(t);
        break;
      }
    }
    Meta("thread_name", 4, CoreTid(core), Upper(type.empty() ? "unknown" : type) + "_" + std::to_string(core));
  }
  // AICPU lanes: the scheduler threads (by index), then the orchestrator threads.
  int64_t max_thread = -1;
  for (int64_t t : rec_.core_to_thread) max_thread = std::max(max_thread, t);
  for (size_t t = 0; t < rec_.scheduler.size(); ++t) {
    if (!rec_.scheduler[t].empty()) max_thread = std::max(max_thread, static_cast<int64_t>(t));
  }
  const int64_t scheduler_threads =
      max_thread >= 0 ? max_thread + 1 : static_cast<int64_t>(rec_.scheduler.size());
  orchestrator_thread_base_ = scheduler_threads;
  const int64_t worker_threads = scheduler_threads + static_cast<int64_t>(rec_.orchestrator.size());
  for (int64_t t = 0; t < worker_threads; ++t) {
    Meta("thread_name", 4, kAicpuTidBase + t, "AICPU_" + std::to_string(t));
  }
  // One bar per row; fan-out / fan-in hints computed once per task id.
  std::string fanout, fanin;
  uint32_t hint_group = UINT32_MAX;
  for (uint32_t r = 0; r < tasks.size(); ++r) {
    const SwimlaneTask& t = tasks[r];
    if (row_group_[r] != hint_group) {
      hint_group = row_group_[r];
      const auto hint = [](const std::vector<__int128>* ids) {
        std::string s = std::to_string(ids ? ids->size() : 0) + ": [";
        if (ids) {
          for (size_t i = 0; i < ids->size(); ++i) {
            if (i) s += ", ";
            s += SwimlaneDisplayId((*ids)[i]);
          }
        }
        return s + "]";
      };
      const std::vector<__int128>* out = HasEdges() ? deps_->Successors(t.task_id) : nullptr;
      auto in_it = fanin_.find(t.task_id);
      fanout = hint(out);
      fanin = hint(in_it == fanin_.end() ? nullptr : &in_it->second);
    }
    const double ts = t.receive_us;
    const double dur = t.end_us - ts;
    const std::string display = SwimlaneDisplayId(t.task_id);
    BeginEvent();
    w_.Key("args");
    w_.BeginObject();
    w_.Key("event-hint");
    w_.String("Task:" + display + ", FuncId:" + std::to_string(t.func_id) +
              ", CoreId:" + std::to_string(t.core_id));
    w_.Key("fanout-hint");
    w_.String(fanout);
    w_.Key("fanin-hint");
    w_.String(fanin);
    w_.Key("duration-us");
    w_.Float(dur);
    w_.Key("kernel-duration-us");
    w_.Float(t.duration_us);
    w_.Key("local_setup_us");
    w_.Float(t.local_setup_us != 0 ? t.local_setup_us : 0.0);
    w_.Key("taskId");
    w_.Int(t.task_id);
    w_.EndObject();
    w_.Key("cat");
    w_.String("event");
    w_.Key("id");
    w_.Int(event_id_++);
    w_.Key("name");
    w_.String(SwimlaneTaskLabel(t.func_id, names_, display, IsSpmd(t.task_id)));
    w_.Key("ph");
    w_.String("X");
    w_.Key("pid");
    w_.Int(4);
    w_.Key("tid");
    w_.Int(CoreTid(t.core_id));
    w_.Key("ts");
    w_.Float(ts);
    w_.Key("dur");
    w_.Float(dur);
    w_.EndObject();
  }
}

void SwimlaneTraceBuilder::SchedulerView() {
  const auto& tasks = rec_.tasks;
  aicpu_tid_.assign(tasks.size(), -1);
  aicpu_eid_.assign(tasks.size(), -1);
  if (!has_aicpu_data_) return;
  // Per core (in order of first row) its rows with AICPU times, by dispatch; greedy lanes.
  std::vector<int64_t> core_order;
  std::unordered_map<int64_t, std::vector<uint32_t>> per_core;
  for (uint32_t r = 0; r < tasks.size(); ++r) {
    if (tasks[r].dispatch_us < 0 || tasks[r].finish_us <= 0) continue;
    auto [it, fresh] = per_core.try_emplace(tasks[r].core_id);
    if (fresh) core_order.push_back(tasks[r].core_id);
    it->second.push_back(r);
  }
  std::vector<int64_t> lane_of_row(tasks.size(), -1), position(tasks.size(), -1);
  std::unordered_set<int64_t> used_tids;
  for (int64_t core : core_order) {
    std::vector<uint32_t>& rows = per_core[core];
    std::stable_sort(rows.begin(), rows.end(), [&](uint32_t a, uint32_t b) {
      return tasks[a].dispatch_us < tasks[b].dispatch_us;
    });
    std::vector<double> lane_finish = {0.0};
    for (size_t k = 0; k < rows.size(); ++k) {
      const SwimlaneTask& t = tasks[rows[k]];
      size_t lane = 0;
      while (lane < lane_finish.size() && !(lane_finish[lane] <= t.dispatch_us)) ++lane;
      if (lane == lane_finish.size()) lane_finish.push_back(0.0);
      lane_finish[lane] = t.finish_us;
      const int64_t tid = CoreTid(core) + static_cast<int64_t>(lane);
      lane_of_row[rows[k]] = tid;
      position[rows[k]] = static_cast<int64_t>(k);
      used_tids.insert(tid);
    }
  }
  // Event ids follow row order; (id, core) keys take the last lane and the last event.
  std::vector<int64_t> eid_of_row(tasks.size(), -1);
  int64_t next = event_id_;
  for (uint32_t r = 0; r < tasks.size(); ++r) {
    if (lane_of_row[r] >= 0) eid_of_row[r] = next++;
  }
  for (const Group& g : groups_) {
    for (uint32_t i = g.begin; i < g.end; ++i) {
      int64_t best_pos = -1, eid = -1;
      for (uint32_t j = g.begin; j < g.end; ++j) {
        if (tasks[j].core_id != tasks[i].core_id || lane_of_row[j] < 0) continue;
        if (position[j] > best_pos) {
          best_pos = position[j];
          aicpu_tid_[i] = lane_of_row[j];
        }
        eid = eid_of_row[j];
      }
      aicpu_eid_[i] = eid;
    }
  }
  for (int64_t core : cores_) {
    auto it = per_core.find(core);
    const std::string name = (it != per_core.end() ? Upper(rec_.CoreType(tasks[it->second[0]])) : "unknown") +
                             "_" + std::to_string(core);
    if (used_tids.count(CoreTid(core)) || used_tids.empty()) Meta("thread_name", 3, CoreTid(core), name);
    if (used_tids.count(CoreTid(core) + 1)) Meta("thread_name", 3, CoreTid(core) + 1, name);
  }
  for (uint32_t r = 0; r < tasks.size(); ++r) {
    const SwimlaneTask& t = tasks[r];
    if (t.dispatch_us < 0 || t.finish_us <= 0) continue;
    const std::string display = SwimlaneDisplayId(t.task_id);
    BeginEvent();
    w_.Key("args");
    w_.BeginObject();
    w_.Key("event-hint");
    w_.String("Task:" + display + ", FuncId:" + std::to_string(t.func_id) +
              ", CoreId:" + std::to_string(t.core_id));
    w_.Key("dispatch-time-us");
    w_.Float(t.dispatch_us);
    w_.Key("finish-time-us");
    w_.Float(t.finish_us);
    w_.Key("aicpu-duration-us");
    w_.Float(t.finish_us - t.dispatch_us);
    w_.Key("taskId");
    w_.Int(t.task_id);
    w_.EndObject();
    w_.Key("cat");
    w_.String("event");
    w_.Key("id");
    w_.Int(event_id_++);
    w_.Key("name");
    w_.String(SwimlaneTaskLabel(t.func_id, names_, display, IsSpmd(t.task_id)));
    w_.Key("ph");
    w_.String("X");
    w_.Key("pid");
    w_.Int(3);
    w_.Key("tid");
    w_.Int(aicpu_tid_[r] >= 0 ? aicpu_tid_[r] : CoreTid(t.core_id));
    w_.Key("ts");
    w_.Float(t.dispatch_us);
    w_.Key("dur");
    w_.Float(t.finish_us - t.dispatch_us);
    w_.EndObject();
  }
}

void SwimlaneTraceBuilder::Write() {
  w_.BeginObject();
  w_.Key("traceEvents");
  w_.BeginArray();
  Verbose("Generating Chrome Trace JSON...");
  Verbose("  Tasks: " + std::to_string(rec_.tasks.size()));
  if (names_.any) Verbose("  Function names: " + std::to_string(names_.names.size()) + " entries");
  Index();
  Verbose("  Unique cores: " + std::to_string(cores_.size()));
  GraphExecution();
  WorkerView();
  SchedulerView();
  SchedulerPhases();
  Uploads();
  Orchestrator();
  DependencyFlows();
  SchedulerDependencyFlows();
  CompleteFlows();
  DispatchFlows();
  OrchestratorFlows();
  Verbose("  Total events: " + std::to_string(events_));
  Verbose("  Flow events: " + std::to_string(flow_id_));
  if (options_.overhead) OverheadCounters();
  w_.EndArray();
  if (rec_.has_timeline_metadata && !rec_.timeline_metadata.empty()) {
    w_.Key("metadata");
    w_.Json(rec_.timeline_metadata);
  }
  w_.EndObject();
  Verbose("JSON written to: " + options_.output_display);
}

bool WriteSwimlaneTrace(const SwimlaneRecords& records, const SwimlaneDeps* deps,
                        const SwimlaneNames& names, const SwimlaneTraceOptions& options,
                        std::ostream& out, SwimlaneTraceLog* log, std::string* err) {
  PyJsonStream stream(out);
  SwimlaneTraceBuilder builder(records, deps, names, options, stream, *log);
  builder.Write();
  stream.Flush();
  if (stream.failed()) {
    *err = "write error";
    return false;
  }
  return true;
}

}  // namespace depgraph
