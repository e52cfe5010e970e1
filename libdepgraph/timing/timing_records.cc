#include "depgraph/timing/timing_records.h"

#include <algorithm>
#include <unordered_map>
#include <utility>

#include "depgraph/internal/message_quote.h"
#include "depgraph/internal/py_int.h"
#include "depgraph/support/json_reader.h"
#include "first_error.h"
#include "depgraph/internal/flat_id_map.h"
#include "json_scalar_text.h"

namespace depgraph {

namespace {

/// Longest number token echoed in a message, in bytes.
constexpr size_t kShownBytes = 40;

/// `array[row]` or `array[row][column]`, built only when a message needs it.
struct CellPath {
  const char* array;
  size_t row;
  int column = -1;
  std::string str() const {
    std::string out = std::string(array) + "[" + std::to_string(row) + "]";
    if (column >= 0) out += "[" + std::to_string(column) + "]";
    return out;
  }
};

bool IsIntegerToken(std::string_view token) {
  for (char c : token) {
    if (c == '.' || c == 'e' || c == 'E') return false;
  }
  return true;
}

/// Reads one records document from a JsonReader.
class RecordsLoader {
 public:
  RecordsLoader(JsonReader* reader, const std::string& name, TimingRecords* out)
      : reader_(*reader), errors_(*reader, name), out_(*out) {}

  bool Load(std::string* err) {
    if (Top()) return true;
    *err = errors_.Message();
    out_ = TimingRecords();
    return false;
  }

 private:

  /// Describes the next value for "got ..." messages and consumes it.
  std::string DescribeAndSkip() {
    switch (reader_.Peek()) {
      case JsonKind::kString: {
        std::string_view s;
        return reader_.ReadString(&s) ? QuoteForMessage(s) : "";
      }
      case JsonKind::kNumber: {
        std::string_view s;
        return reader_.ReadNumber(&s) ? std::string(s.substr(0, kShownBytes)) : "";
      }
      case JsonKind::kObject:
        reader_.SkipValue();
        return "an object";
      case JsonKind::kArray:
        reader_.SkipValue();
        return "an array";
      default: {
        std::string kind = JsonKindName(reader_.Peek());
        reader_.SkipValue();
        return kind;
      }
    }
  }

  /// A scalar as Python's str() and int() see it. Containers: state kInvalid, text "".
  bool Scalar(TimingScalar* out) {
    *out = TimingScalar();
    out->number = reader_.Peek() == JsonKind::kNumber;
    PyInt value;
    if (!ReadScalarText(&reader_, &out->text, &value)) {
      if (reader_.failed()) return errors_.Syntax();
      out->state = FieldState::kInvalid;
      return reader_.SkipValue() || errors_.Syntax();
    }
    int64_t v = 0;
    out->state = FieldState::kInvalid;
    if (value.status == PyInt::kOk && ToInt64(value, &v)) {
      out->state = FieldState::kValid;
      out->value = v;
    }
    return true;
  }

  /// A JSON integer that fits in int64 (ticks, core ids); an error naming `where` otherwise.
  bool Integer(const CellPath& where, const char* what, int64_t* out) {
    if (reader_.Peek() == JsonKind::kNumber) {
      std::string_view token;
      if (!reader_.ReadNumber(&token)) return errors_.Syntax();
      int64_t v = 0;
      const bool integer = IsIntegerToken(token);
      if (integer && ToInt64(PyIntFromNumber(token), &v) && v > -kMaxRecordedTicks &&
          v < kMaxRecordedTicks) {
        *out = v;
        return true;
      }
      if (integer) {  // an integer, but one whose differences could overflow
        return errors_.At(where.str(), std::string(token.substr(0, kShownBytes)) +
                                           " is out of range (below 2^62 in magnitude)");
      }
      return errors_.At(where.str(), std::string("expected ") + what + ", got " +
                                    std::string(token.substr(0, kShownBytes)));
    }
    const std::string shown = DescribeAndSkip();
    return errors_.Check() &&
           errors_.At(where.str(), std::string("expected ") + what + ", got " + shown);
  }

  bool Top() {
    const JsonKind top = reader_.Peek();
    if (top != JsonKind::kObject) {
      if (!reader_.SkipValue() || !reader_.ExpectEnd()) return errors_.Syntax();
      return errors_.At(
          "", std::string("expected a JSON object at the top level, got ") + JsonKindName(top));
    }
    if (!reader_.BeginObject()) return errors_.Syntax();
    std::string_view key;
    while (reader_.NextKey(&key)) {
      bool ok = true;
      if (key == "chip_swimlane_level") {
        ok = Scalar(&out_.level);
      } else if (key == "metadata") {
        ok = Metadata();
      } else if (key == "aicore_tasks") {
        ok = AicoreTasks();
      } else if (key == "aicpu_tasks") {
        ok = AicpuTasks();
      } else {
        ok = reader_.SkipValue() || errors_.Syntax();
      }
      if (!ok) return false;
    }
    return errors_.Check() && (reader_.ExpectEnd() || errors_.Syntax());
  }

  bool Metadata() {
    out_.clock_freq_hz = TimingScalar();
    out_.num_cores = TimingScalar();
    out_.core_types.clear();
    out_.core_types_state = FieldState::kAbsent;
    if (reader_.Peek() != JsonKind::kObject) {
      // Recorded as absent fields; the tools that need them say which one is missing.
      return reader_.SkipValue() || errors_.Syntax();
    }
    if (!reader_.BeginObject()) return errors_.Syntax();
    std::string_view key;
    while (reader_.NextKey(&key)) {
      bool ok = true;
      if (key == "clock_freq_hz") {
        ok = Scalar(&out_.clock_freq_hz);
      } else if (key == "num_cores") {
        ok = Scalar(&out_.num_cores);
      } else if (key == "core_types") {
        ok = CoreTypes();
      } else {
        ok = reader_.SkipValue() || errors_.Syntax();
      }
      if (!ok) return false;
    }
    return errors_.Check();
  }

  bool CoreTypes() {
    out_.core_types.clear();
    out_.core_types_state = FieldState::kInvalid;
    if (reader_.Peek() != JsonKind::kArray) return reader_.SkipValue() || errors_.Syntax();
    if (!reader_.BeginArray()) return errors_.Syntax();
    bool valid = true;
    while (reader_.NextElement()) {
      if (valid && reader_.Peek() == JsonKind::kString) {
        std::string_view s;
        if (!reader_.ReadString(&s)) return errors_.Syntax();
        out_.core_types.emplace_back(s);
      } else {
        valid = false;
        if (!reader_.SkipValue()) return errors_.Syntax();
      }
    }
    if (!errors_.Check()) return false;
    if (valid) out_.core_types_state = FieldState::kValid;
    return true;
  }

  bool AicoreTasks() {
    out_.rows.clear();
    out_.keys.clear();
    numeric_keys_.Reset();
    text_keys_.clear();
    out_.aicore_state = FieldState::kValid;
    if (reader_.Peek() != JsonKind::kArray) {
      const std::string shown = DescribeAndSkip();
      return errors_.Check() &&
             errors_.At("aicore_tasks", "expected an array of rows, got " + shown);
    }
    if (!reader_.BeginArray()) return errors_.Syntax();
    // About one row per 48 bytes of a collector's file: no reallocation on the way.
    out_.rows.reserve(std::min<size_t>(reader_.size() / 48, size_t{1} << 26));
    size_t index = 0;
    while (reader_.NextElement()) {
      if (!AicoreRow(index)) return false;
      ++index;
      if ((index & 4095) == 0) reader_.ReleaseConsumed();
    }
    return errors_.Check();
  }

  bool AicoreRow(size_t index) {
    const CellPath where{"aicore_tasks", index};
    if (reader_.Peek() != JsonKind::kArray) {
      const std::string shown = DescribeAndSkip();
      return errors_.Check() &&
             errors_.At(where.str(),
                        "expected a row (an array of at least 5 values), got " + shown);
    }
    if (!reader_.BeginArray()) return errors_.Syntax();
    TimingRow row;
    uint32_t column = 0;
    while (reader_.NextElement()) {
      const CellPath cell{"aicore_tasks", index, static_cast<int>(column)};
      bool ok = true;
      switch (column) {
        case 0:
          ok = Integer(cell, "an integer core id", &row.core);
          break;
        case 1:
          ok = TaskIdCell(cell, &row);
          break;
        case 2:
          ok = RegTaskId(&row);
          break;
        case 3:
          ok = Integer(cell, "an integer tick count", &row.start);
          break;
        case 4:
          ok = Integer(cell, "an integer tick count", &row.end);
          break;
        default:
          ok = reader_.SkipValue() || errors_.Syntax();  // receive_to_start and beyond: unused
      }
      if (!ok) return false;
      ++column;
    }
    if (!errors_.Check()) return false;
    if (column < 5) {
      return errors_.At(where.str(),
                   "expected at least 5 values [core_id, task_id, reg_task_id, "
                   "start_ticks, end_ticks, ...], got " +
                       std::to_string(column));
    }
    row.columns = column;
    out_.rows.push_back(std::move(row));
    return true;
  }

  /// reg_task_id: an integer in real files (fast path); anything else is kept as "no id".
  bool RegTaskId(TimingRow* row) {
    if (reader_.Peek() == JsonKind::kNumber) {
      std::string_view token;
      if (!reader_.ReadNumber(&token)) return errors_.Syntax();
      row->has_reg_task_id = ToInt64(PyIntFromNumber(token), &row->reg_task_id);
      return true;
    }
    TimingScalar reg;
    if (!Scalar(&reg)) return false;
    row->has_reg_task_id = reg.state == FieldState::kValid;
    row->reg_task_id = reg.value;
    return true;
  }

  bool TaskIdCell(const CellPath& where, TimingRow* row) {
    PyInt value;
    if (!ReadScalarText(&reader_, &key_text_, &value)) {
      if (reader_.failed()) return errors_.Syntax();
      const std::string shown = DescribeAndSkip();
      return errors_.Check() &&
             errors_.At(where.str(), "expected a task id (a number or a string), got " + shown);
    }
    row->has_task_id = value.status == PyInt::kOk && ToTaskId(value, &row->task_id);
    if (!row->has_task_id) row->task_id = 0;
    // Interned: plain decimal ids (all of them in real records) by number, others by text.
    const uint32_t next = static_cast<uint32_t>(out_.keys.size());
    uint64_t number = 0;
    bool fresh = false;
    if (CanonicalDecimal(key_text_, &number)) {
      row->key = numeric_keys_.FindOrInsert(number, next, &fresh);
    } else {
      auto [it, inserted] = text_keys_.emplace(key_text_, next);
      row->key = it->second;
      fresh = inserted;
    }
    if (fresh) out_.keys.push_back(key_text_);
    return true;
  }

  bool AicpuTasks() {
    out_.aicpu_rows.clear();
    out_.aicpu_error.clear();
    out_.aicpu_state = FieldState::kValid;
    if (reader_.Peek() != JsonKind::kArray) {
      const std::string shown = DescribeAndSkip();
      if (!errors_.Check()) return false;
      AicpuInvalid("aicpu_tasks", "expected an array of rows, got " + shown);
      return true;
    }
    if (!reader_.BeginArray()) return errors_.Syntax();
    size_t index = 0;
    while (reader_.NextElement()) {
      const std::string where = "aicpu_tasks[" + std::to_string(index++) + "]";
      if (out_.aicpu_state == FieldState::kInvalid) {
        if (!reader_.SkipValue()) return errors_.Syntax();
        continue;
      }
      if (reader_.Peek() != JsonKind::kArray) {
        const std::string shown = DescribeAndSkip();
        if (!errors_.Check()) return false;
        AicpuInvalid(where, "expected a row of 4 integers, got " + shown);
        continue;
      }
      if (!reader_.BeginArray()) return errors_.Syntax();
      int64_t cells[4] = {0, 0, 0, 0};
      size_t column = 0;
      while (reader_.NextElement()) {
        std::string_view token;
        int64_t v = 0;
        if (column < 4 && out_.aicpu_state == FieldState::kValid &&
            reader_.Peek() == JsonKind::kNumber) {
          if (!reader_.ReadNumber(&token)) return errors_.Syntax();
          if (IsIntegerToken(token) && ToInt64(PyIntFromNumber(token), &v)) {
            cells[column] = v;
          } else {
            AicpuInvalid(where + "[" + std::to_string(column) + "]",
                         "expected an integer, got " + std::string(token.substr(0, kShownBytes)));
          }
        } else {
          if (column < 4 && out_.aicpu_state == FieldState::kValid) {
            const std::string shown = DescribeAndSkip();
            if (!errors_.Check()) return false;
            AicpuInvalid(where + "[" + std::to_string(column) + "]",
                         "expected an integer, got " + shown);
          } else if (!reader_.SkipValue()) {
            return errors_.Syntax();
          }
        }
        ++column;
      }
      if (!errors_.Check()) return false;
      if (out_.aicpu_state != FieldState::kValid) continue;
      if (column < 4) {
        AicpuInvalid(where,
                     "expected 4 values [core_id, reg_task_id, dispatch_ticks, "
                     "finish_ticks], got " +
                         std::to_string(column));
        continue;
      }
      out_.aicpu_rows.push_back(AicpuRow{cells[0], cells[1], cells[2], cells[3]});
    }
    return errors_.Check();
  }

  void AicpuInvalid(const std::string& where, const std::string& message) {
    if (out_.aicpu_state == FieldState::kInvalid) return;
    out_.aicpu_state = FieldState::kInvalid;
    out_.aicpu_error = errors_.name() + ": " + where + ": " + message;
  }

  JsonReader& reader_;
  FirstError errors_;
  TimingRecords& out_;
  std::string key_text_;  // the task id text being read
  FlatIdMap numeric_keys_;
  std::unordered_map<std::string, uint32_t> text_keys_;
};

}  // namespace

std::string_view TimingRecords::CoreType(int64_t core) const {
  if (core >= 0 && static_cast<uint64_t>(core) < core_types.size()) {
    return core_types[static_cast<size_t>(core)];
  }
  return "aiv";
}

bool LoadTimingRecords(const std::string& path, TimingRecords* records, std::string* err) {
  *records = TimingRecords();
  JsonReader reader;
  if (!OpenLoaderInput(path, &reader, err)) return false;
  RecordsLoader loader(&reader, path, records);
  return loader.Load(err);
}

bool LoadTimingRecordsText(std::string_view text, const std::string& display_name,
                           TimingRecords* records, std::string* err) {
  *records = TimingRecords();
  JsonReader reader;
  reader.OpenBuffer(text);
  RecordsLoader loader(&reader, display_name, records);
  return loader.Load(err);
}

const TaskTiming* TaskTimings::Find(std::string_view key) const {
  auto it = by_key.find(std::string(key));
  return it == by_key.end() ? nullptr : &tasks[it->second];
}

TaskTimings ReduceTaskTimings(const TimingRecords& records) {
  TaskTimings out;
  // Keys are numbered in order of first row, so a key's number is its task's index.
  const size_t n = records.keys.size();
  out.tasks.resize(n);
  out.row_task.reserve(records.rows.size());
  // (task, core) of each task's rows, deduplicated within runs of one core (the collector
  // groups rows by core, so such a run holds all of a task's blocks on that core).
  std::vector<std::pair<uint32_t, int64_t>> task_cores;
  task_cores.reserve(records.rows.size());
  std::vector<uint32_t> last_run(n, UINT32_MAX);
  uint32_t run = 0;
  for (uint32_t r = 0; r < records.rows.size(); ++r) {
    const TimingRow& row = records.rows[r];
    if (r > 0 && row.core != records.rows[r - 1].core) ++run;
    const int64_t length = row.end - row.start;
    TaskTiming& task = out.tasks[row.key];
    if (task.blocks == 0) {
      task.key = records.keys[row.key];
      task.has_task_id = row.has_task_id;
      task.task_id = row.task_id;
      task.start = row.start;
      task.end = row.end;
      task.longest_block = length;
      task.first_row = r;
    }
    task.start = std::min(task.start, row.start);
    task.end = std::max(task.end, row.end);
    if (__builtin_add_overflow(task.work, length, &task.work)) {
      task.work = length > 0 ? INT64_MAX : INT64_MIN;  // saturated: rows of absurd lengths
    }
    task.longest_block = std::max(task.longest_block, length);
    ++task.blocks;
    if (last_run[row.key] != run) {
      last_run[row.key] = run;
      task_cores.emplace_back(row.key, row.core);
    }
    out.row_task.push_back(row.key);
  }
  // Grouped by task (stably: each task's cores stay in order of first row), without the
  // repeats of a core whose rows came in several runs.
  for (const auto& tc : task_cores) ++out.tasks[tc.first].core_count;
  uint32_t offset = 0;
  for (TaskTiming& task : out.tasks) {
    task.first_core = offset;
    offset += task.core_count;
    task.core_count = 0;
  }
  out.cores.resize(task_cores.size());
  for (const auto& [t, core] : task_cores) {
    TaskTiming& task = out.tasks[t];
    const auto begin = out.cores.begin() + task.first_core;
    if (std::find(begin, begin + task.core_count, core) == begin + task.core_count) {
      out.cores[task.first_core + task.core_count++] = core;
    }
  }
  out.by_key.reserve(n);
  for (size_t i = 0; i < n; ++i) {
    out.by_key.emplace(out.tasks[i].key, static_cast<uint32_t>(i));
    out.t0 = i == 0 ? out.tasks[i].start : std::min(out.t0, out.tasks[i].start);
    out.t1 = i == 0 ? out.tasks[i].end : std::max(out.t1, out.tasks[i].end);
  }
  return out;
}

}  // namespace depgraph
