#include "depgraph/timing/swimlane_records.h"

#include <algorithm>
#include <array>
#include <optional>
#include <utility>

#include "depgraph/internal/message_quote.h"
#include "depgraph/support/input_file.h"
#include "depgraph/timing/clock_alignment.h"
#include "raw_records.h"

namespace depgraph {

namespace {

/// Largest records file read (a 65,536-task capture with SPMD blocks writes ~45 MB).
constexpr uint64_t kMaxRecordsBytes = uint64_t{16} << 30;

constexpr __int128 kMask64 = (static_cast<__int128>(1) << 64) - 1;

/// Negative ids wrap to 64 bits, as the runtime's unsigned task ids do.
__int128 Normalize(__int128 id) { return id < 0 ? (id & kMask64) : id; }

/// One AICore row, converted.
struct AicoreRow {
  __int128 core = 0, token = 0, reg = 0, start = 0, end = 0, r2s = 0;
};

/// The (core, reg_task_id) -> row lookup of the AICPU join: sorted keys, the last row of a key
/// first (a dict keeps the last assignment).
struct JoinKey {
  __int128 core, reg;
  size_t row;
  bool operator<(const JoinKey& o) const {
    if (core != o.core) return core < o.core;
    if (reg != o.reg) return reg < o.reg;
    return row > o.row;
  }
};

/// A host orchestrator record before conversion.
struct HostRecord {
  size_t thread, index;
  __int128 start_ns, end_ns;
};

class Reader {
 public:
  Reader(const std::string& name, SwimlaneRecords* out) : name_(EscapeForMessage(name)), out_(*out) {}

  bool Read(const RawDocument& raw) {
    const ordered_json& doc = raw.rest;
    return Level(doc) && Metadata(doc) && Streams(doc, raw) && HostCapture() &&
           HostTimes() && AicoreRows(raw.aicore) && Base(raw) && Alignment() && Tasks(raw) &&
           Phases() && Uploads(doc) && HostPhases() && Assemble();
  }

  std::string error;

 private:
  bool Fail(const std::string& where, const std::string& what) {
    error = name_ + ": " + (where.empty() ? "" : where + ": ") + what;
    return false;
  }
  bool Int(const ordered_json& v, const std::string& where, __int128* value) {
    std::string why;
    return PyIntOfJson(v, value, &why) || Fail(where, why);
  }
  static std::string At(const std::string& parent, size_t i) {
    return parent + "[" + std::to_string(i) + "]";
  }

  bool Level(const ordered_json& doc) {
    const ordered_json* level = Member(doc, "chip_swimlane_level");
    if (level == nullptr) return Fail("chip_swimlane_level", "missing");
    __int128 value = 0;
    if (!Int(*level, "chip_swimlane_level", &value)) return false;
    if (value < 1 || value > 4) {
      return Fail("chip_swimlane_level", "expected 1, 2, 3 or 4, got " + Int128Text(value));
    }
    out_.level = static_cast<int>(value);
    return true;
  }

  /// `value or []` that must then be an array: nullptr for a falsy value.
  bool OptionalArray(const ordered_json* value, const std::string& where,
                     const ordered_json** out) {
    *out = nullptr;
    if (value == nullptr || !Truthy(*value)) return true;
    if (!value->is_array()) return Fail(where, std::string("expected an array, got ") + value->type_name());
    *out = value;
    return true;
  }

  bool Metadata(const ordered_json& doc) {
    static const ordered_json kEmpty = ordered_json::object();
    metadata_ = Member(doc, "metadata");
    if (metadata_ == nullptr || !Truthy(*metadata_)) metadata_ = &kEmpty;
    if (!metadata_->is_object()) {
      return Fail("metadata", std::string("expected an object, got ") + metadata_->type_name());
    }
    const ordered_json* freq = Member(*metadata_, "clock_freq_hz");
    __int128 value = 0;
    if (freq != nullptr && Truthy(*freq) && !Int(*freq, "metadata.clock_freq_hz", &value)) return false;
    if (value <= 0) return Fail("metadata.clock_freq_hz", "missing or zero");
    if (value > INT64_MAX) return Fail("metadata.clock_freq_hz", "out of range");
    freq_ = static_cast<int64_t>(value);
    const ordered_json* types = nullptr;
    if (!OptionalArray(Member(*metadata_, "core_types"), "metadata.core_types", &types)) return false;
    if (types != nullptr) {
      for (size_t i = 0; i < types->size(); ++i) {
        const ordered_json& t = (*types)[i];
        const std::string where = At("metadata.core_types", i);
        if (!t.is_string()) return Fail(where, std::string("expected a string, got ") + t.type_name());
        for (char c : t.get_ref<const std::string&>()) {
          if (static_cast<unsigned char>(c) >= 0x80) return Fail(where, "expected an ASCII name");
        }
        core_types_.push_back(t.get<std::string>());
      }
    }
    const ordered_json* threads = nullptr;
    if (!OptionalArray(Member(*metadata_, "core_to_thread"), "metadata.core_to_thread", &threads)) {
      return false;
    }
    if (threads != nullptr) {
      for (size_t i = 0; i < threads->size(); ++i) {
        const ordered_json& t = (*threads)[i];
        if (!t.is_number_integer()) {
          return Fail(At("metadata.core_to_thread", i),
                      std::string("expected an integer, got ") + t.type_name());
        }
        if (t.is_number_unsigned() && t.get<uint64_t>() > INT64_MAX) {
          return Fail(At("metadata.core_to_thread", i), "out of range");
        }
        out_.core_to_thread.push_back(t.get<int64_t>());
      }
    }
    return true;
  }

  /// A phase list: `value or []`, an array of arrays of objects.
  bool PhaseList(const ordered_json& doc, const char* key, const ordered_json** out) {
    if (!OptionalArray(Member(doc, key), key, out)) return false;
    if (*out == nullptr) return true;
    for (size_t t = 0; t < (*out)->size(); ++t) {
      const ordered_json& thread = (**out)[t];
      if (!thread.is_array()) {
        return Fail(At(key, t), std::string("expected an array, got ") + thread.type_name());
      }
      for (size_t r = 0; r < thread.size(); ++r) {
        if (!thread[r].is_object()) {
          return Fail(At(At(key, t), r), std::string("expected an object, got ") + thread[r].type_name());
        }
      }
    }
    return true;
  }

  bool Streams(const ordered_json& doc, const RawDocument& raw) {
    for (const auto& [rows, key] : {std::pair{&raw.aicore, "aicore_tasks"}, std::pair{&raw.aicpu, "aicpu_tasks"}}) {
      if (!rows->is_array && Truthy(rows->value)) {
        return Fail(key, std::string("expected an array, got ") + rows->value.type_name());
      }
    }
    if (!PhaseList(doc, "aicpu_scheduler_phases", &sched_) ||
        !PhaseList(doc, "aicpu_orchestrator_phases", &orch_) ||
        !PhaseList(doc, "host_orchestrator_phases", &host_)) {
      return false;
    }
    const ordered_json* source = Member(*metadata_, "orchestrator_source");
    host_capture_ = Member(*metadata_, "host_capture");
    host_mode_ = (source != nullptr && source->is_string() && *source == "host") ||
                 (host_ != nullptr && !host_->empty()) ||
                 (host_capture_ != nullptr && host_capture_->is_object());
    if (orch_ != nullptr && !orch_->empty() && host_mode_) {
      return Fail("aicpu_orchestrator_phases",
                  "both AICPU and host orchestrator phases are present; clock-domain source is "
                  "ambiguous");
    }
    if (host_ != nullptr) {
      for (const ordered_json& thread : *host_) host_records_ += thread.size();
    }
    return true;
  }

  bool HostCapture() {
    if (host_capture_ != nullptr && host_capture_->is_object()) {
      capture_ = *host_capture_;
      const ordered_json* status = Member(capture_, "status");
      const bool status_complete = status != nullptr && status->is_string() && *status == "complete";
      const auto optional_int = [&](const char* key, std::optional<__int128>* out) {
        const ordered_json* v = Member(capture_, key);
        if (v == nullptr || v->is_null()) return true;
        __int128 value = 0;
        if (!Int(*v, std::string("metadata.host_capture.") + key, &value)) return false;
        *out = value;
        return true;
      };
      std::optional<__int128> dropped, recorded, expected;
      if (!optional_int("dropped_records", &dropped) || !optional_int("recorded_records", &recorded) ||
          !optional_int("expected_records", &expected)) {
        return false;
      }
      const __int128 actual = static_cast<__int128>(host_records_);
      const bool count_matches = !recorded || *recorded == actual;
      const bool expected_matches = expected && *expected == actual;
      capture_complete_ = status_complete && dropped && *dropped == 0 && count_matches && expected_matches;
      ordered_json errors = ordered_json::array();
      if (!count_matches) errors.push_back("recorded_record_count_mismatch");
      if (!expected) {
        errors.push_back("expected_record_count_missing");
      } else if (!expected_matches) {
        errors.push_back("expected_record_count_mismatch");
      }
      if (!errors.empty()) capture_["converter_validation_errors"] = std::move(errors);
    } else if (host_mode_) {
      capture_ = ordered_json::object();
      capture_["status"] = "unknown";
      capture_["recorded_records"] = host_records_;
      capture_["dropped_records"] = nullptr;
      capture_["error"] = "legacy_capture_status_missing";
    }
    return true;
  }

  bool HostTimes() {
    if (host_ != nullptr) {
      for (size_t t = 0; t < host_->size(); ++t) {
        const ordered_json& thread = (*host_)[t];
        for (size_t r = 0; r < thread.size(); ++r) {
          const std::string where = At(At("host_orchestrator_phases", t), r);
          HostRecord rec{t, r, 0, 0};
          for (auto [key, value] : {std::pair{"start_host_ns", &rec.start_ns}, std::pair{"end_host_ns", &rec.end_ns}}) {
            const ordered_json* v = Member(thread[r], key);
            if (v == nullptr) return Fail(JsonPathMember(where, key), "missing");
            if (!Int(*v, JsonPathMember(where, key), value)) return false;
            if (!host_any_ || *value < host_min_) host_min_ = *value;
            if (!host_any_ || *value > host_max_) host_max_ = *value;
            host_any_ = true;
          }
          host_times_.push_back(rec);
        }
      }
    }
    const ordered_json* origin = Member(*metadata_, "host_orchestration_origin_ns");
    if (origin != nullptr && Truthy(*origin) &&
        !Int(*origin, "metadata.host_orchestration_origin_ns", &origin_)) {
      return false;
    }
    if (host_any_ && origin_ == 0) origin_ = host_min_;
    composite_end_us_ = host_any_ ? static_cast<double>(host_max_ - origin_) / 1000.0 : 0.0;
    return true;
  }

  bool AicoreRows(const RawRows& rows) {
    const size_t count = rows.count();
    aicore_.reserve(count);
    for (size_t i = 0; i < count; ++i) {
      const std::string_view key = "aicore_tasks";
      if (!rows.IsArray(i)) {
        return Fail(RowPath(key, i), std::string("expected an array, got ") + rows.Odd(i).type_name());
      }
      const size_t size = rows.Size(i);
      if (size < 5) {
        return Fail(RowPath(key, i), "expected at least 5 values, got " + std::to_string(size));
      }
      AicoreRow r;
      std::string why;
      const auto cell = [&](size_t k, __int128* value) {
        return RawCellInt(rows, i, k, value, &why) ||
               Fail(RowPath(key, i) + "[" + std::to_string(k) + "]", why);
      };
      if ((size > 5 && !cell(5, &r.r2s)) || !cell(0, &r.core) || !cell(2, &r.reg) ||
          !cell(1, &r.token) || !cell(3, &r.start) || !cell(4, &r.end)) {
        return false;
      }
      if (r.core < 0 || r.core > INT64_MAX) {
        return Fail(RowPath(key, i) + "[0]", "expected a core id >= 0, got " + Int128Text(r.core));
      }
      aicore_.push_back(r);
    }
    return true;
  }

  void Track(__int128 ticks) {
    if (ticks > 0 && (!base_any_ || ticks < base_)) {
      base_ = ticks;
      base_any_ = true;
    }
  }

  /// int() of a phase record's `start_cycles` / `end_cycles` (default 0).
  bool PhaseTicks(const ordered_json& record, const std::string& where, __int128* start,
                  __int128* end) {
    *start = *end = 0;
    for (auto [key, value] : {std::pair{"start_cycles", start}, std::pair{"end_cycles", end}}) {
      const ordered_json* v = Member(record, key);
      if (v != nullptr && !Int(*v, JsonPathMember(where, key), value)) return false;
    }
    return true;
  }

  /// The base tick over every emitted device stream, and the device timestamps' range.
  bool Base(const RawDocument& raw) {
    for (const AicoreRow& r : aicore_) {
      Track(r.start - r.r2s);
      Track(r.end);
      device_.Add(r.start - r.r2s);
      device_.Add(r.start);
      device_.Add(r.end);
    }
    const RawRows& aicpu = raw.aicpu;
    aicpu_.reserve(aicpu.count());
    for (size_t i = 0; i < aicpu.count(); ++i) {
      if (!aicpu.IsArray(i)) {
        return Fail(RowPath("aicpu_tasks", i),
                    std::string("expected an array, got ") + aicpu.Odd(i).type_name());
      }
      if (aicpu.Size(i) != 4) {
        return Fail(RowPath("aicpu_tasks", i),
                    "expected 4 values, got " + std::to_string(aicpu.Size(i)));
      }
      std::array<__int128, 4> v{};
      for (size_t k = 0; k < 4; ++k) {
        std::string why;
        if (!RawCellInt(aicpu, i, k, &v[k], &why)) {
          return Fail(RowPath("aicpu_tasks", i) + "[" + std::to_string(k) + "]", why);
        }
      }
      Track(v[2]);
      Track(v[3]);
      device_.Add(v[2]);
      device_.Add(v[3]);
      aicpu_.push_back(v);
    }
    for (const auto& [list, key] : {std::pair{sched_, "aicpu_scheduler_phases"}, std::pair{orch_, "aicpu_orchestrator_phases"}}) {
      if (list == nullptr) continue;
      for (size_t t = 0; t < list->size(); ++t) {
        const ordered_json& thread = (*list)[t];
        for (size_t r = 0; r < thread.size(); ++r) {
          __int128 start = 0, end = 0;
          if (!PhaseTicks(thread[r], At(At(key, t), r), &start, &end)) return false;
          Track(start);
          Track(end);
          device_.Add(start);
          device_.Add(end);
        }
      }
    }
    if (!base_any_) base_ = 0;
    return true;
  }

  bool Alignment() {
    if (!host_mode_) return true;
    __int128 quantization = 0;
    const ordered_json* q = Member(*metadata_, "host_timestamp_quantization_ns");
    if (q != nullptr && !Int(*q, "metadata.host_timestamp_quantization_ns", &quantization)) return false;
    int64_t bad_sample = -1;
    alignment_ = BuildClockAlignment(Member(*metadata_, "clock_anchors"), freq_, device_,
                                     quantization, &bad_sample);
    if (bad_sample >= 0) {
      return Fail(At("metadata.clock_anchors.samples", static_cast<size_t>(bad_sample)) + ".position",
                  "expected a string");
    }
    if (origin_ == 0 && alignment_.start) origin_ = alignment_.start->host_mid_ns;
    return true;
  }

  double ToUs(__int128 ticks) const {
    if (ticks <= 0) return 0.0;
    if (alignment_.calibrated) {
      return static_cast<double>(alignment_.MapTicksToHostNs(ticks) - origin_) / 1000.0;
    }
    const double relative = static_cast<double>(ticks - base_) * (1000000.0 / static_cast<double>(freq_));
    return host_mode_ ? composite_end_us_ + relative : relative;
  }

  uint32_t CoreType(__int128 core) {
    const std::string& name =
        core < static_cast<__int128>(core_types_.size()) ? core_types_[static_cast<size_t>(core)] : kAiv;
    auto it = std::find(out_.core_type_names.begin(), out_.core_type_names.end(), name);
    if (it == out_.core_type_names.end()) it = out_.core_type_names.insert(it, name);
    return static_cast<uint32_t>(it - out_.core_type_names.begin());
  }

  SwimlaneTask MakeTask(const AicoreRow& r) {
    SwimlaneTask t;
    t.task_id = r.token;
    t.core_id = static_cast<int64_t>(r.core);
    t.core_type = CoreType(r.core);
    t.start_us = ToUs(r.start);
    t.end_us = ToUs(r.end);
    t.duration_us = t.end_us - t.start_us;
    t.receive_us = ToUs(r.start - r.r2s);
    t.local_setup_us = t.start_us - t.receive_us;
    return t;
  }

  bool Tasks(const RawDocument& raw) {
    std::vector<std::pair<int64_t, size_t>> unmatched;  // per core, first-seen order
    if (!aicpu_.empty()) {
      std::vector<JoinKey> lookup;
      lookup.reserve(aicore_.size());
      for (size_t i = 0; i < aicore_.size(); ++i) lookup.push_back({aicore_[i].core, aicore_[i].reg, i});
      std::sort(lookup.begin(), lookup.end());
      out_.tasks.reserve(aicpu_.size());
      for (size_t i = 0; i < aicpu_.size(); ++i) {
        const auto& v = aicpu_[i];
        auto it = std::lower_bound(lookup.begin(), lookup.end(), JoinKey{v[0], v[1], SIZE_MAX});
        if (it == lookup.end() || it->core != v[0] || it->reg != v[1]) {
          if (v[0] < INT64_MIN || v[0] > INT64_MAX) {
            return Fail(RowPath("aicpu_tasks", i) + "[0]", "out of range");
          }
          const int64_t core = static_cast<int64_t>(v[0]);
          auto seen = std::find_if(unmatched.begin(), unmatched.end(),
                                   [&](const auto& e) { return e.first == core; });
          if (seen == unmatched.end()) {
            unmatched.emplace_back(core, 1);
          } else {
            ++seen->second;
          }
          continue;
        }
        SwimlaneTask t = MakeTask(aicore_[it->row]);
        t.dispatch_us = ToUs(v[2]);
        t.finish_us = ToUs(v[3]);
        t.propagation_us = t.receive_us - t.dispatch_us;
        t.has_propagation = true;
        out_.tasks.push_back(t);
      }
    } else if (out_.level == 1) {
      out_.tasks.reserve(aicore_.size());
      for (const AicoreRow& r : aicore_) out_.tasks.push_back(MakeTask(r));
    }
    (void)raw;
    SortTasks();
    if (!unmatched.empty()) {
      size_t total = 0;
      for (const auto& e : unmatched) total += e.second;
      std::stable_sort(unmatched.begin(), unmatched.end(),
                       [](const auto& a, const auto& b) { return a.second > b.second; });
      std::string worst;
      for (size_t i = 0; i < unmatched.size() && i < 3; ++i) {
        worst += (i ? ", core " : "core ") + std::to_string(unmatched[i].first) + ": " +
                 std::to_string(unmatched[i].second);
      }
      out_.warnings.push_back(
          "Warning: " + std::to_string(total) +
          " aicpu_task(s) had no matching AICore record (top offenders: " + worst +
          "); the missing AICore buffer(s) were dropped on rotation. Bump "
          "PLATFORM_AICORE_BUFFERS_PER_CORE if you see this regularly.");
    }
    return true;
  }

  /// Task rows by id, stable: (id, row) keys sorted, the rows then permuted in place.
  void SortTasks() {
    auto& tasks = out_.tasks;
    const auto by_id = [](const SwimlaneTask& a, const SwimlaneTask& b) { return a.task_id < b.task_id; };
    if (std::is_sorted(tasks.begin(), tasks.end(), by_id)) return;
    std::vector<std::pair<__int128, uint32_t>> keys(tasks.size());
    for (uint32_t i = 0; i < tasks.size(); ++i) keys[i] = {tasks[i].task_id, i};
    std::sort(keys.begin(), keys.end());  // the row index breaks ties: a stable order
    // Position k takes row keys[k].second: applied in place, one cycle at a time.
    std::vector<bool> done(tasks.size(), false);
    for (size_t i = 0; i < tasks.size(); ++i) {
      if (done[i]) continue;
      const SwimlaneTask first = tasks[i];
      size_t j = i;
      for (;;) {
        done[j] = true;
        const size_t source = keys[j].second;
        if (source == i) {
          tasks[j] = first;
          break;
        }
        tasks[j] = tasks[source];
        j = source;
      }
    }
  }

  bool Phases() {
    if (sched_ != nullptr) {
      for (size_t t = 0; t < sched_->size(); ++t) {
        const ordered_json& thread = (*sched_)[t];
        std::vector<SchedulerPhase>& converted = out_.scheduler.emplace_back();
        converted.reserve(thread.size());
        for (size_t r = 0; r < thread.size(); ++r) {
          const ordered_json& record = thread[r];
          SchedulerPhase p;
          __int128 start = 0, end = 0;
          PhaseTicks(record, "", &start, &end);  // checked by Base()
          p.start_us = ToUs(start);
          p.end_us = ToUs(end);
          const ordered_json* kind = Member(record, "kind");
          if (kind == nullptr) {
            p.phase = "unknown";
          } else if (kind->is_string()) {
            p.phase = kind->get<std::string>();
          } else {
            p.phase_is_string = false;
          }
          if (const ordered_json* id = Member(record, "task_id")) {
            std::string why;
            __int128 value = 0;
            if (PyIntOfJson(*id, &value, &why)) {
              p.has_task_id = true;
              p.task_id = Normalize(value);
            }
          }
          if (const ordered_json* v = Member(record, "loop_iter")) p.loop_iter = *v;
          if (const ordered_json* v = Member(record, "tasks_processed")) {
            p.has_tasks_processed = true;
            p.tasks_processed = *v;
          }
          if (const ordered_json* v = Member(record, "pop_hit")) p.pop_hit = *v;
          if (const ordered_json* v = Member(record, "pop_miss")) p.pop_miss = *v;
          const ordered_json* s = Member(record, "shared_at_start");
          const ordered_json* e = Member(record, "shared_at_end");
          if (s != nullptr && e != nullptr && s->is_array() && e->is_array() && s->size() == 3 &&
              e->size() == 3) {
            p.depths_valid = true;
            p.shared_at_start = *s;
            p.shared_at_end = *e;
          }
          converted.push_back(std::move(p));
        }
      }
    }
    if (orch_ != nullptr) {
      for (size_t t = 0; t < orch_->size(); ++t) {
        const ordered_json& thread = (*orch_)[t];
        std::vector<OrchestratorPhase>& converted = out_.orchestrator.emplace_back();
        for (size_t r = 0; r < thread.size(); ++r) {
          OrchestratorPhase p;
          __int128 start = 0, end = 0;
          PhaseTicks(thread[r], "", &start, &end);
          p.start_us = ToUs(start);
          p.end_us = ToUs(end);
          if (!OrchFields(thread[r], At(At("aicpu_orchestrator_phases", t), r), &p)) return false;
          converted.push_back(std::move(p));
        }
      }
    }
    return true;
  }

  /// `submit_idx` and `task_id` of an orchestrator record: the id must be an integer.
  bool OrchFields(const ordered_json& record, const std::string& where, OrchestratorPhase* p) {
    if (const ordered_json* v = Member(record, "submit_idx")) p->submit_idx = *v;
    if (const ordered_json* v = Member(record, "task_id")) {
      if (!v->is_number_integer()) {
        return Fail(JsonPathMember(where, "task_id"),
                    std::string("expected an integer, got ") + v->type_name());
      }
      p->task_id = v->is_number_unsigned() ? static_cast<__int128>(v->get<uint64_t>())
                                           : static_cast<__int128>(v->get<int64_t>());
    }
    return true;
  }

  bool Uploads(const ordered_json& doc) {
    const ordered_json* uploads = nullptr;
    if (!OptionalArray(Member(doc, "host_device_uploads"), "host_device_uploads", &uploads)) return false;
    if (uploads == nullptr) return true;
    for (size_t i = 0; i < uploads->size(); ++i) {
      const ordered_json& u = (*uploads)[i];
      const std::string where = At("host_device_uploads", i);
      if (!u.is_object()) return Fail(where, std::string("expected an object, got ") + u.type_name());
      __int128 start = 0, end = 0;
      for (auto [key, value] : {std::pair{"start_host_ns", &start}, std::pair{"end_host_ns", &end}}) {
        const ordered_json* v = Member(u, key);
        if (v != nullptr && !Int(*v, JsonPathMember(where, key), value)) return false;
      }
      if (start < origin_ || end < start) {
        return Fail(where, "invalid host device upload: origin=" + Int128Text(origin_) + ", start=" +
                               Int128Text(start) + ", end=" + Int128Text(end));
      }
      HostUpload up;
      up.start_us = static_cast<double>(start - origin_) / 1000.0;
      up.end_us = static_cast<double>(end - origin_) / 1000.0;
      const ordered_json* phase = Member(u, "phase");
      up.name = phase == nullptr ? "upload" : PyStrOfJson(*phase);
      if (const ordered_json* detail = Member(u, "detail")) up.detail = *detail;
      out_.uploads.push_back(std::move(up));
    }
    return true;
  }

  bool HostPhases() {
    if (host_ == nullptr) return true;
    std::vector<std::vector<OrchestratorPhase>> threads(host_->size());
    for (const HostRecord& rec : host_times_) {
      const std::string where = At(At("host_orchestrator_phases", rec.thread), rec.index);
      if (rec.start_ns < origin_ || rec.end_ns < rec.start_ns) {
        return Fail(where, "invalid host orchestrator phase: origin=" + Int128Text(origin_) +
                               ", start=" + Int128Text(rec.start_ns) + ", end=" + Int128Text(rec.end_ns));
      }
      OrchestratorPhase p;
      p.start_us = static_cast<double>(rec.start_ns - origin_) / 1000.0;
      p.end_us = static_cast<double>(rec.end_ns - origin_) / 1000.0;
      if (!OrchFields((*host_)[rec.thread][rec.index], where, &p)) return false;
      threads[rec.thread].push_back(std::move(p));
    }
    for (auto& thread : threads) {
      if (!thread.empty()) host_phases_.push_back(std::move(thread));
    }
    return true;
  }

  bool Assemble() {
    if (!out_.orchestrator.empty()) out_.orchestrator_source = "aicpu";
    if (!host_mode_) return true;
    out_.orchestrator_source = "host";
    const bool calibrated = alignment_.calibrated;
    ordered_json& m = out_.timeline_metadata;
    m = ordered_json::object();
    m["layout"] = calibrated ? "clock_aligned" : "causal_composite";
    m["trace_status"] = capture_complete_ ? "complete" : "partial";
    const ordered_json* relation = Member(*metadata_, "timeline_relation");
    m["relation"] = relation != nullptr ? *relation : ordered_json("host_orchestration_precedes_device");
    m["clock_alignment"] = alignment_.Metadata();
    m["host_capture"] = capture_;
    m["host_records_complete"] = capture_complete_;
    m["cross_domain_latency_available"] = calibrated && capture_complete_;
    if (!calibrated) {
      m["cross_domain_gap_unknown"] = true;
      m["logical_seam_us"] = composite_end_us_;
    }
    if (!host_phases_.empty()) {
      out_.orchestrator = std::move(host_phases_);
    } else {
      m["host_records_missing"] = true;
    }
    out_.has_timeline_metadata = true;
    return true;
  }

  inline static const std::string kAiv = "aiv";
  const std::string name_;
  SwimlaneRecords& out_;
  const ordered_json* metadata_ = nullptr;
  const ordered_json* sched_ = nullptr;
  const ordered_json* orch_ = nullptr;
  const ordered_json* host_ = nullptr;
  const ordered_json* host_capture_ = nullptr;
  std::vector<std::string> core_types_;
  int64_t freq_ = 0;
  bool host_mode_ = false;
  size_t host_records_ = 0;
  ordered_json capture_;
  bool capture_complete_ = false;
  std::vector<HostRecord> host_times_;
  bool host_any_ = false;
  __int128 host_min_ = 0, host_max_ = 0;
  __int128 origin_ = 0;
  double composite_end_us_ = 0.0;
  std::vector<AicoreRow> aicore_;
  std::vector<std::array<__int128, 4>> aicpu_;
  bool base_any_ = false;
  __int128 base_ = 0;
  DeviceTickRange device_;
  ClockAlignment alignment_;
  std::vector<std::vector<OrchestratorPhase>> host_phases_;
};

}  // namespace

bool LoadSwimlaneRecords(const std::string& path, SwimlaneRecords* records, std::string* err) {
  std::string text;
  InputFileError read_error;
  if (!ReadInputFile(path, kMaxRecordsBytes, &text, &read_error)) {
    *err = read_error.message;
    return false;
  }
  return LoadSwimlaneRecordsText(text, path, records, err);
}

bool LoadSwimlaneRecordsText(std::string_view text, const std::string& display_name,
                             SwimlaneRecords* records, std::string* err) {
  *records = SwimlaneRecords();
  RawDocument doc;
  bool object = false;
  if (!ReadRawDocument(text, &doc, &object, err)) {
    *err = EscapeForMessage(display_name) + ": " + *err;
    return false;
  }
  if (!object) {
    *err = EscapeForMessage(display_name) + ": expected a JSON object at the top level, got " +
           doc.rest.type_name();
    return false;
  }
  SwimlaneRecords loaded;
  Reader reader(display_name, &loaded);
  if (!reader.Read(doc)) {
    *err = reader.error;
    return false;
  }
  *records = std::move(loaded);
  return true;
}

}  // namespace depgraph
