#include "depgraph/timing/perf_sidecar.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <deque>
#include <nlohmann/json.hpp>
#include <optional>
#include <utility>

#include "depgraph/internal/message_quote.h"
#include "depgraph/internal/py_int.h"
#include "depgraph/support/input_file.h"
#include "depgraph/support/json_dom.h"
#include "depgraph/support/json_reader.h"
#include "raw_records.h"

namespace depgraph {

namespace {

// Python's repr() of a str, as its error messages quote it: single quotes unless the text has
// one and no double quote; backslash, the quote, \t \n \r and control characters escaped.
std::string PyRepr(std::string_view s) {
  const bool use_double = s.find('\'') != std::string_view::npos &&
                          s.find('"') == std::string_view::npos;
  const char quote = use_double ? '"' : '\'';
  std::string out(1, quote);
  for (size_t i = 0; i < s.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    char hex[8];
    if (c == '\\' || c == static_cast<unsigned char>(quote)) {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c == '\t') {
      out += "\\t";
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c < 0x20 || c == 0x7F) {
      std::snprintf(hex, sizeof hex, "\\x%02x", c);
      out += hex;
    } else if (c == 0xC2 && i + 1 < s.size() && static_cast<unsigned char>(s[i + 1]) < 0xA0) {
      std::snprintf(hex, sizeof hex, "\\x%02x", static_cast<unsigned char>(s[++i]));  // C1
      out += hex;
    } else {
      out += static_cast<char>(c);
    }
  }
  out += quote;
  return EscapeForMessage(out);  // anything left that could break the line
}

// Reads one document the way the reference reader does, stopping at its first failure.
class SidecarReader {
 public:
  SidecarReader(const std::string& path, PerfSidecar* out) : path_(path), out_(*out) {}

  PerfSidecarStatus Read(const RawDocument& raw) {
    const ordered_json& doc = raw.rest;
    // 2. The level.
    const ordered_json* level = Member(doc, "chip_swimlane_level");
    if (level == nullptr) return Invalid("chip_swimlane_level", "missing");
    __int128 level_value = 0;
    if (!IntOf(*level, "chip_swimlane_level", &level_value)) return status_;
    if (level_value < 1 || level_value > 4) {
      return Unreadable("Unsupported chip_swimlane_level: " + Int128Text(level_value) +
                        " (expected 1, 2, 3, or 4)");
    }
    out_.level = static_cast<int>(level_value);

    // 3. The clock (`metadata or {}`, `clock_freq_hz or 0`).
    static const ordered_json kEmptyObject = ordered_json::object();
    const ordered_json* metadata = Member(doc, "metadata");
    if (metadata == nullptr || !Truthy(*metadata)) metadata = &kEmptyObject;
    if (!metadata->is_object()) return WrongType("metadata", *metadata, "an object");
    __int128 freq = 0;
    const ordered_json* freq_value = Member(*metadata, "clock_freq_hz");
    if (freq_value != nullptr && Truthy(*freq_value) &&
        !IntOf(*freq_value, "metadata.clock_freq_hz", &freq)) {
      return status_;
    }
    if (freq <= 0) {
      return Unreadable("metadata missing/zero clock_freq_hz: " + Int128Text(freq));
    }
    if (freq > INT64_MAX) return Unreadable("metadata.clock_freq_hz: out of range");
    out_.clock_freq_hz = static_cast<int64_t>(freq);
    const ordered_json* core_types = Member(*metadata, "core_types");
    if (core_types != nullptr && Truthy(*core_types)) {
      if (!core_types->is_array()) {
        return WrongType("metadata.core_types", *core_types, "an array");
      }
      for (const ordered_json& type : *core_types) core_types_.push_back(CoreTypeText(type));
    }
    core_type_index_.assign(core_types_.size(), -1);

    // 4. Device and host orchestrator phases together.
    const ordered_json* source = Member(*metadata, "orchestrator_source");
    const ordered_json* host_phases = Member(doc, "host_orchestrator_phases");
    const ordered_json* host_capture = Member(*metadata, "host_capture");
    const bool host_mode = (source != nullptr && source->is_string() && *source == "host") ||
                           (host_phases != nullptr && Truthy(*host_phases)) ||
                           (host_capture != nullptr && host_capture->is_object());
    const ordered_json* orch_phases = Member(doc, "aicpu_orchestrator_phases");
    if (host_mode && orch_phases != nullptr && Truthy(*orch_phases)) {
      return Unreadable(
          "both AICPU and host orchestrator phases are present; clock-domain source is "
          "ambiguous");
    }

    // 5. The rows, then the base tick over every stream the converter emits.
    if (!CheckRows(raw.aicore, "aicore_tasks") || !CheckRows(raw.aicpu, "aicpu_tasks") ||
        !ReadAicoreRows(raw.aicore) || !TrackAicpuRows(raw.aicpu) ||
        !TrackPhases(doc, "aicpu_scheduler_phases") ||
        !TrackPhases(doc, "aicpu_orchestrator_phases")) {
      return status_;
    }
    out_.base_ticks = base_ ? static_cast<int64_t>(*base_) : 0;
    return Join(raw.aicpu);
  }

 private:
  // One AICore row, converted.
  struct AicoreRow {
    __int128 core = 0, reg = 0, token = 0, start = 0, end = 0;
  };
  // One task record after the join, before grouping by id.
  struct Record {
    TaskId id;
    uint32_t core_type;  // index into core_type_names_
    __int128 start, end;
    int64_t core;
  };

  PerfSidecarStatus Unreadable(std::string message) {
    error = std::move(message);
    return status_ = PerfSidecarStatus::kUnreadable;
  }
  PerfSidecarStatus Invalid(const std::string& where, const std::string& what) {
    error = EscapeForMessage(path_) + ": " + (where.empty() ? "" : where + ": ") + what;
    return status_ = PerfSidecarStatus::kInvalid;
  }
  PerfSidecarStatus WrongType(const std::string& where, const ordered_json& v,
                              const char* expected) {
    return Invalid(where, std::string("expected ") + expected + ", got " + v.type_name());
  }

  // Python int() of `v` at JSON path `where`: false with status_ set when int() would raise
  // (a ValueError: kUnreadable with Python's message; a TypeError: kInvalid).
  bool IntOf(const ordered_json& v, const std::string& where, __int128* value) {
    switch (PyIntOfJsonValue(v, value)) {
      case PyIntOutcome::kOk:
        return true;
      case PyIntOutcome::kOutOfRange:
        Unreadable(where + ": " +
                   (v.is_string() ? QuoteForMessage(v.get_ref<const std::string&>()) : v.dump()) +
                   " is out of range");
        return false;
      case PyIntOutcome::kBadLiteral:
        Unreadable("invalid literal for int() with base 10: " +
                   PyRepr(v.get_ref<const std::string&>()));
        return false;
      default:
        Invalid(where, std::string("expected a number, got ") + v.type_name());
        return false;
    }
  }

  // `doc[key] or []` for the row arrays: an array, or a falsy value (no rows).
  bool CheckRows(const RawRows& rows, const char* key) {
    if (rows.is_array || !Truthy(rows.value)) return true;
    WrongType(key, rows.value, "an array");
    return false;
  }
  static size_t RowCount(const RawRows& rows) { return rows.is_array ? rows.rows.size() : 0; }
  // Whether row i is an array, and its length.
  static bool RowIsArray(const RawRows& rows, size_t i) {
    const RawRow& row = rows.rows[i];
    return row.odd < 0 || rows.odd[static_cast<size_t>(row.odd)].is_array();
  }
  static size_t RowSize(const RawRows& rows, size_t i) {
    const RawRow& row = rows.rows[i];
    return row.odd < 0 ? row.size : rows.odd[static_cast<size_t>(row.odd)].size();
  }
  // int() of cell k of row i of `key` (k < RowSize).
  bool CellInt(const RawRows& rows, size_t i, size_t k, const char* key, __int128* value) {
    const RawRow& row = rows.rows[i];
    if (row.odd >= 0) {
      return IntOf(rows.odd[static_cast<size_t>(row.odd)][k],
                   RowPath(key, i) + "[" + std::to_string(k) + "]", value);
    }
    *value = row.unsigned_mask & (1u << k) ? static_cast<__int128>(static_cast<uint64_t>(row.cells[k]))
                                           : static_cast<__int128>(row.cells[k]);
    return true;
  }
  static const ordered_json& OddRow(const RawRows& rows, size_t i) {
    return rows.odd[static_cast<size_t>(rows.rows[i].odd)];
  }

  // `doc[key] or []`, which must then be an array.
  bool Rows(const ordered_json& doc, const char* key, const ordered_json** rows) {
    static const ordered_json kEmptyArray = ordered_json::array();
    const ordered_json* value = Member(doc, key);
    if (value == nullptr || !Truthy(*value)) value = &kEmptyArray;
    if (!value->is_array()) {
      WrongType(key, *value, "an array");
      return false;
    }
    *rows = value;
    return true;
  }

  // The reader keeps `core_types[i]` as it is; a falsy one counts as "no type".
  static std::string CoreTypeText(const ordered_json& v) {
    if (v.is_string()) return v.get<std::string>();
    return Truthy(v) ? v.dump() : "";
  }

  void Track(__int128 ticks) {
    if (ticks > 0 && (!base_ || ticks < *base_)) base_ = ticks;
  }

  // `core, task, reg, start, end, *rest = row` for every row, the (core, reg) lookup (the
  // last row of a key wins) and the base tick (start - receive_to_start, end).
  bool ReadAicoreRows(const RawRows& rows) {
    const size_t count = RowCount(rows);
    aicore_.reserve(count);
    for (size_t i = 0; i < count; ++i) {
      if (!RowIsArray(rows, i)) {
        WrongType(RowPath("aicore_tasks", i), OddRow(rows, i), "an array");
        return false;
      }
      const size_t size = RowSize(rows, i);
      if (size < 5) {
        Unreadable("not enough values to unpack (expected at least 5, got " +
                   std::to_string(size) + ")");
        return false;
      }
      AicoreRow r;
      __int128 r2s = 0;
      auto column = [&](size_t k, __int128* value) {
        return CellInt(rows, i, k, "aicore_tasks", value);
      };
      // The reference converts receive_to_start first, then core, reg, task, start, end.
      if ((size > 5 && !column(5, &r2s)) || !column(0, &r.core) || !column(2, &r.reg) ||
          !column(1, &r.token) || !column(3, &r.start) || !column(4, &r.end)) {
        return false;
      }
      // Tracking the base tick cannot fail, so it runs here rather than in a second loop.
      Track(r.start - r2s);
      Track(r.end);
      aicore_.push_back(r);
    }
    return true;
  }

  // The AICore rows by (core, reg_task_id), for the AICPU join: sorted keys, the last row of
  // a key first (a dict keeps the last assignment). O(rows log rows), built once.
  struct JoinKey {
    __int128 core, reg;
    size_t row;
  };
  void BuildLookup() {
    lookup_.reserve(aicore_.size());
    for (size_t i = 0; i < aicore_.size(); ++i) {
      lookup_.push_back({aicore_[i].core, aicore_[i].reg, i});
    }
    std::sort(lookup_.begin(), lookup_.end(), [](const JoinKey& a, const JoinKey& b) {
      if (a.core != b.core) return a.core < b.core;
      if (a.reg != b.reg) return a.reg < b.reg;
      return a.row > b.row;
    });
  }
  // The aicore_ index of the last row with (core, reg), or SIZE_MAX. O(log rows).
  size_t Lookup(__int128 core, __int128 reg) const {
    auto it = std::lower_bound(lookup_.begin(), lookup_.end(), JoinKey{core, reg, SIZE_MAX},
                               [](const JoinKey& a, const JoinKey& b) {
                                 if (a.core != b.core) return a.core < b.core;
                                 if (a.reg != b.reg) return a.reg < b.reg;
                                 return a.row > b.row;
                               });
    if (it == lookup_.end() || it->core != core || it->reg != reg) return SIZE_MAX;
    return it->row;
  }

  // `for _, _, dispatch, finish in aicpu_tasks`: exactly four columns each.
  bool TrackAicpuRows(const RawRows& rows) {
    for (size_t i = 0; i < RowCount(rows); ++i) {
      if (!RowIsArray(rows, i)) {
        WrongType(RowPath("aicpu_tasks", i), OddRow(rows, i), "an array");
        return false;
      }
      const size_t size = RowSize(rows, i);
      if (size < 4) {
        Unreadable("not enough values to unpack (expected 4, got " + std::to_string(size) + ")");
        return false;
      }
      if (size > 4) {
        Unreadable("too many values to unpack (expected 4)");
        return false;
      }
      __int128 dispatch = 0, finish = 0;
      if (!CellInt(rows, i, 2, "aicpu_tasks", &dispatch) ||
          !CellInt(rows, i, 3, "aicpu_tasks", &finish)) {
        return false;
      }
      Track(dispatch);
      Track(finish);
    }
    return true;
  }

  // Scheduler / orchestrator phases: arrays (one per thread) of records whose start_cycles
  // and end_cycles (default 0) count for the base tick.
  bool TrackPhases(const ordered_json& doc, const char* key) {
    const ordered_json* threads = nullptr;
    if (!Rows(doc, key, &threads)) return false;
    for (size_t t = 0; t < threads->size(); ++t) {
      const ordered_json& records = (*threads)[t];
      const std::string thread_where = std::string(key) + "[" + std::to_string(t) + "]";
      if (!records.is_array()) {
        WrongType(thread_where, records, "an array");
        return false;
      }
      for (size_t r = 0; r < records.size(); ++r) {
        const ordered_json& record = records[r];
        const std::string where = thread_where + "[" + std::to_string(r) + "]";
        if (!record.is_object()) {
          WrongType(where, record, "an object");
          return false;
        }
        for (const char* field : {"start_cycles", "end_cycles"}) {
          const ordered_json* v = Member(record, field);
          __int128 ticks = 0;
          if (v != nullptr && !IntOf(*v, JsonPathMember(where, field), &ticks)) return false;
          Track(ticks);
        }
      }
    }
    return true;
  }

  // Index into core_type_names_ of core `core`'s type (`core_types[core]`, "aiv" outside).
  uint32_t CoreTypeOf(__int128 core) {
    const bool inside = core >= 0 && core < static_cast<__int128>(core_types_.size());
    int32_t& cached = inside ? core_type_index_[static_cast<size_t>(core)] : aiv_index_;
    if (cached >= 0) return static_cast<uint32_t>(cached);
    const std::string& type = inside ? core_types_[static_cast<size_t>(core)] : kAiv;
    auto it = std::find(core_type_names_.begin(), core_type_names_.end(), type);
    if (it == core_type_names_.end()) it = core_type_names_.insert(it, type);
    cached = static_cast<int32_t>(it - core_type_names_.begin());
    return static_cast<uint32_t>(cached);
  }

  void AddRecord(const AicoreRow& row, __int128 core) {
    records_.push_back(Record{static_cast<TaskId>(static_cast<unsigned __int128>(row.token)),
                              CoreTypeOf(core), row.start, row.end,
                              static_cast<int64_t>(std::clamp<__int128>(core, INT64_MIN, INT64_MAX))});
  }

  // The AICPU join (or the level-1 fallback), the unmatched warning, and one entry per id.
  PerfSidecarStatus Join(const RawRows& aicpu) {
    std::vector<std::pair<std::string, size_t>> unmatched;  // per core, first-seen order
    if (RowCount(aicpu) > 0) {
      BuildLookup();
      records_.reserve(RowCount(aicpu));
      for (size_t i = 0; i < RowCount(aicpu); ++i) {
        __int128 core = 0, reg = 0;
        if (!CellInt(aicpu, i, 0, "aicpu_tasks", &core) ||
            !CellInt(aicpu, i, 1, "aicpu_tasks", &reg)) {
          return status_;
        }
        const size_t match = Lookup(core, reg);
        if (match == SIZE_MAX) {
          const std::string name = Int128Text(core);
          auto seen = std::find_if(unmatched.begin(), unmatched.end(),
                                   [&](const auto& e) { return e.first == name; });
          if (seen == unmatched.end()) {
            unmatched.emplace_back(name, 1);
          } else {
            ++seen->second;
          }
          continue;
        }
        AddRecord(aicore_[match], core);
      }
    } else if (out_.level == 1) {
      records_.reserve(aicore_.size());
      for (const AicoreRow& row : aicore_) AddRecord(row, row.core);
    }
    if (!unmatched.empty()) out_.warnings.push_back(UnmatchedWarning(unmatched));
    for (const Record& r : records_) {
      for (__int128 ticks : {r.start, r.end}) {
        if (ticks > INT64_MAX || ticks < INT64_MIN) {
          return Unreadable("aicore_tasks: timestamp " + Int128Text(ticks) + " is out of range");
        }
      }
    }
    Group();
    return PerfSidecarStatus::kOk;
  }

  static std::string UnmatchedWarning(std::vector<std::pair<std::string, size_t>> per_core) {
    size_t total = 0;
    for (const auto& e : per_core) total += e.second;
    std::stable_sort(per_core.begin(), per_core.end(),
                     [](const auto& a, const auto& b) { return a.second > b.second; });
    std::string worst;
    for (size_t i = 0; i < per_core.size() && i < 3; ++i) {
      if (i) worst += ", ";
      worst += "core " + per_core[i].first + ": " + std::to_string(per_core[i].second);
    }
    return "Warning: " + std::to_string(total) +
           " aicpu_task(s) had no matching AICore record (top offenders: " + worst +
           "); the missing AICore buffer(s) were dropped on rotation. Bump "
           "PLATFORM_AICORE_BUFFERS_PER_CORE if you see this regularly.";
  }

  // µs as the converter computes them.
  double ToUs(int64_t ticks) const {
    if (ticks <= 0) return 0.0;
    const double factor = 1000000.0 / static_cast<double>(out_.clock_freq_hz);
    return static_cast<double>(static_cast<__int128>(ticks) - out_.base_ticks) * factor;
  }

  // Records grouped by id: core type (mix when several), earliest start, latest end.
  void Group() {
    std::stable_sort(records_.begin(), records_.end(),
                     [](const Record& a, const Record& b) { return a.id < b.id; });
    for (size_t i = 0; i < records_.size();) {
      size_t j = i;
      PerfTask task;
      task.id = records_[i].id;
      bool several_types = false;
      const int64_t first_start = static_cast<int64_t>(records_[i].start);
      const int64_t first_end = static_cast<int64_t>(records_[i].end);
      task.start_ticks = first_start;
      task.end_ticks = first_end;
      task.start_us = ToUs(first_start);
      task.end_us = ToUs(first_end);
      for (; j < records_.size() && records_[j].id == task.id; ++j) {
        const Record& r = records_[j];
        several_types = several_types || r.core_type != records_[i].core_type;
        const int64_t start = static_cast<int64_t>(r.start), end = static_cast<int64_t>(r.end);
        task.start_ticks = std::min(task.start_ticks, start);
        task.end_ticks = std::max(task.end_ticks, end);
        task.start_us = std::min(task.start_us, ToUs(start));
        task.end_us = std::max(task.end_us, ToUs(end));
      }
      task.blocks = static_cast<uint32_t>(j - i);
      for (size_t k = i; k < j; ++k) {
        const Record& r = records_[k];
        out_.runs.push_back(PerfRun{static_cast<uint32_t>(out_.tasks.size()), r.core,
                                    r.core_type, ToUs(static_cast<int64_t>(r.start)),
                                    ToUs(static_cast<int64_t>(r.end))});
      }
      task.core_type = several_types ? "mix" : core_type_names_[records_[i].core_type];
      task.duration_us = task.end_us - task.start_us;
      out_.tasks.push_back(std::move(task));
      i = j;
    }
    out_.core_type_names = core_type_names_;
  }

 public:
  std::string error;

 private:
  const std::string& path_;
  PerfSidecar& out_;
  PerfSidecarStatus status_ = PerfSidecarStatus::kOk;
  std::vector<std::string> core_types_;        // metadata.core_types as text
  std::vector<std::string> core_type_names_;   // distinct types of the records
  std::vector<int32_t> core_type_index_;       // per core: index into core_type_names_, or -1
  int32_t aiv_index_ = -1;                     // the same for cores outside core_types
  inline static const std::string kAiv = "aiv";
  std::vector<AicoreRow> aicore_;
  std::vector<JoinKey> lookup_;  // see BuildLookup
  std::vector<Record> records_;
  std::optional<__int128> base_;
};

}  // namespace

const PerfTask* PerfSidecar::Find(TaskId id) const {
  auto it = std::lower_bound(tasks.begin(), tasks.end(), id,
                             [](const PerfTask& t, TaskId value) { return t.id < value; });
  return it != tasks.end() && it->id == id ? &*it : nullptr;
}

std::vector<TaskId> PerfSidecar::TaskIds() const {
  std::vector<TaskId> ids;
  ids.reserve(tasks.size());
  for (const PerfTask& t : tasks) ids.push_back(t.id);
  return ids;
}

PerfSidecarStatus LoadPerfSidecar(const std::string& path, PerfSidecar* sidecar,
                                  std::string* err) {
  *sidecar = PerfSidecar();
  std::string text;
  InputFileError read_error;
  if (!ReadInputFile(path, kMaxPerfSidecarBytes, &text, &read_error)) {
    *err = PythonOpenErrorMessage(path, read_error);
    return PerfSidecarStatus::kUnreadable;
  }
  return LoadPerfSidecarText(text, path, sidecar, err);
}

PerfSidecarStatus LoadPerfSidecarText(std::string_view text, const std::string& path,
                                      PerfSidecar* sidecar, std::string* err) {
  *sidecar = PerfSidecar();
  RawDocument doc;
  bool object = false;
  if (!ReadRawDocument(text, &doc, &object, err)) return PerfSidecarStatus::kUnreadable;
  if (!object) {
    *err = EscapeForMessage(path) + ": expected a JSON object at the top level, got " +
           doc.rest.type_name();
    return PerfSidecarStatus::kInvalid;
  }
  PerfSidecar loaded;
  SidecarReader reader(path, &loaded);
  const PerfSidecarStatus status = reader.Read(doc);
  if (status != PerfSidecarStatus::kOk) {
    *err = reader.error;
    return status;
  }
  *sidecar = std::move(loaded);
  return status;
}

namespace {

CoreType ParseCoreType(const std::string& type) {
  if (type == "aic") return CoreType::kAic;
  if (type == "aiv") return CoreType::kAiv;
  if (type == "mix") return CoreType::kMix;
  return CoreType::kNone;
}

}  // namespace

std::vector<TaskLabel> ResolveTaskLabels(const DepGraph& graph, const NameMap& names,
                                         const PerfSidecar* sidecar) {
  std::vector<TaskLabel> labels = ResolveTaskLabels(graph, names);
  if (sidecar == nullptr) return labels;
  const std::string* perf_name = names.Find(-1);  // the sidecar's kernel id is always -1
  for (uint32_t n = 0; n < graph.nodes.size(); ++n) {
    const PerfTask* perf = sidecar->Find(graph.nodes[n]);
    if (perf == nullptr) continue;
    TaskLabel& label = labels[n];
    label.perf = true;
    // An empty type keeps the kernel slots' type (a submit) or kNone (any other node).
    if (!perf->core_type.empty()) label.core = ParseCoreType(perf->core_type);
    if (perf_name != nullptr && !perf_name->empty()) label.func_name = *perf_name;
  }
  return labels;
}

}  // namespace depgraph
