#include "depgraph/timing/swimlane_inputs.h"

#include <algorithm>
#include <array>
#include <optional>
#include <unordered_set>
#include <utility>

#include "depgraph/internal/message_quote.h"
#include "depgraph/support/input_file.h"
#include "depgraph/support/json_dom.h"
#include "depgraph/support/json_reader.h"
#include "json_scalar_text.h"
#include "raw_records.h"

namespace depgraph {

namespace fs = std::filesystem;

namespace {

constexpr __int128 kMask64 = (static_cast<__int128>(1) << 64) - 1;

/// Python's normalisation of an id: int() of the value, negatives wrapped to 64 bits; nothing
/// when int() refuses it (null, a container, a string that is no integer).
std::optional<__int128> NormalizedId(const PyInt& v) {
  if (v.status != PyInt::kOk) return std::nullopt;
  return v.value < 0 ? (v.value & kMask64) : v.value;
}

struct PairHash {
  size_t operator()(const std::pair<__int128, __int128>& p) const {
    return Int128Hash()(p.first) * 31 + Int128Hash()(p.second);
  }
};

/// Streams deps.json: `tasks` and `edges`, everything else skipped (but checked).
class DepsReader {
 public:
  DepsReader(JsonReader* reader, const std::string& name, SwimlaneDeps* out)
      : reader_(*reader), name_(EscapeForMessage(name)), out_(*out) {}

  /// kOk, kUnreadable (syntax: *why holds the reader's message) or kError (*why the message).
  SwimlaneDepsStatus Read(std::string* why) {
    const SwimlaneDepsStatus status = Top();
    if (status == SwimlaneDepsStatus::kUnreadable) *why = reader_.error();
    if (status == SwimlaneDepsStatus::kError) *why = error_;
    return status;
  }

 private:
  SwimlaneDepsStatus Syntax() { return SwimlaneDepsStatus::kUnreadable; }

  SwimlaneDepsStatus Top() {
    const JsonKind top = reader_.Peek();
    if (top != JsonKind::kObject) {
      if (!reader_.SkipValue() || !reader_.ExpectEnd()) return Syntax();
      error_ = name_ + ": expected a JSON object at the top level, got " + JsonKindName(top);
      return SwimlaneDepsStatus::kError;
    }
    if (!reader_.BeginObject()) return Syntax();
    std::string_view key;
    while (reader_.NextKey(&key)) {
      if (key == "tasks") {
        if (!Tasks()) return Syntax();
      } else if (key == "edges") {
        if (!Edges()) return Syntax();
      } else if (!reader_.SkipValue()) {
        return Syntax();
      }
    }
    if (reader_.failed() || !reader_.ExpectEnd()) return Syntax();
    return Finish();
  }

  /// An id value: int() of a scalar; nothing for containers (skipped).
  bool Id(std::optional<__int128>* id) {
    std::string text;
    PyInt value;
    if (ReadScalarText(&reader_, &text, &value)) {
      *id = NormalizedId(value);
      return true;
    }
    if (reader_.failed()) return false;
    *id = std::nullopt;
    return reader_.SkipValue();
  }

  struct RawTask {
    std::optional<__int128> id;
    bool has_kernel_ids = false;
    ordered_json kernel_ids;
    std::optional<int64_t> block_num;  // nothing: absent or unreadable -> 1
    size_t index = 0;
  };

  bool Tasks() {
    tasks_.clear();
    tasks_is_list_ = reader_.Peek() == JsonKind::kArray;
    if (!tasks_is_list_) return reader_.SkipValue();
    if (!reader_.BeginArray()) return false;
    for (size_t i = 0; reader_.NextElement(); ++i) {
      if (reader_.Peek() != JsonKind::kObject) {
        if (!reader_.SkipValue()) return false;
        continue;
      }
      RawTask task;
      task.index = i;
      if (!reader_.BeginObject()) return false;
      std::string_view key;
      while (reader_.NextKey(&key)) {
        if (key == "task_id") {
          if (!Id(&task.id)) return false;
        } else if (key == "kernel_ids") {
          task.has_kernel_ids = true;
          std::string err;
          if (!ReadJsonValue(&reader_, "", &task.kernel_ids, &err)) return false;
        } else if (key == "block_num") {
          std::string text;
          PyInt value;
          task.block_num.reset();
          if (ReadScalarText(&reader_, &text, &value)) {
            int64_t n = 0;
            if (value.status == PyInt::kOk) {
              n = value.value > INT64_MAX ? INT64_MAX : value.value < 1 ? 1 : static_cast<int64_t>(value.value);
              task.block_num = n;
            }
          } else if (reader_.failed() || !reader_.SkipValue()) {
            return false;
          }
        } else if (!reader_.SkipValue()) {
          return false;
        }
      }
      if (reader_.failed()) return false;
      tasks_.push_back(std::move(task));
      if ((i & 4095) == 4095) reader_.ReleaseConsumed();
    }
    return !reader_.failed();
  }

  bool Edges() {
    edges_.clear();
    edges_is_list_ = reader_.Peek() == JsonKind::kArray;
    if (!edges_is_list_) return reader_.SkipValue();
    if (!reader_.BeginArray()) return false;
    for (size_t i = 0; reader_.NextElement(); ++i) {
      if (reader_.Peek() != JsonKind::kObject) {
        if (!reader_.SkipValue()) return false;
        continue;
      }
      // Ends as (has, value) pairs: GCC 12 warns, wrongly, of a maybe-uninitialized
      // optional<__int128> when the two are copied into the edge.
      __int128 ends[2] = {0, 0};
      bool has[2] = {false, false};
      if (!reader_.BeginObject()) return false;
      std::string_view key;
      while (reader_.NextKey(&key)) {
        if (key == "pred" || key == "succ") {
          std::optional<__int128> id;
          if (!Id(&id)) return false;
          const int end = key == "pred" ? 0 : 1;
          has[end] = id.has_value();
          ends[end] = id.value_or(0);
        } else if (!reader_.SkipValue()) {
          return false;
        }
      }
      if (reader_.failed()) return false;
      if (has[0] && has[1]) edges_.emplace_back(ends[0], ends[1]);
      if ((i & 4095) == 4095) reader_.ReleaseConsumed();
    }
    return !reader_.failed();
  }

  SwimlaneDepsStatus Finish() {
    if (edges_is_list_) {
      out_.has_edges = true;
      std::unordered_set<std::pair<__int128, __int128>, PairHash> seen;
      seen.reserve(edges_.size());
      for (const auto& edge : edges_) {
        if (!seen.insert(edge).second) continue;
        auto [it, fresh] = out_.pred_index.emplace(edge.first, static_cast<uint32_t>(out_.preds.size()));
        if (fresh) {
          out_.preds.push_back(edge.first);
          out_.succs.emplace_back();
        }
        out_.succs[it->second].push_back(edge.second);
        ++out_.edge_count;
      }
    }
    if (!tasks_is_list_) return SwimlaneDepsStatus::kOk;
    for (const RawTask& task : tasks_) {
      if (!task.id || !task.has_kernel_ids || !task.kernel_ids.is_array() ||
          task.kernel_ids.size() != 3) {
        continue;
      }
      std::array<int64_t, 3> slots{};
      for (size_t k = 0; k < 3; ++k) {
        __int128 value = 0;
        std::string why;
        const std::string where = "tasks[" + std::to_string(task.index) + "].kernel_ids[" + std::to_string(k) + "]";
        if (!PyIntOfJson(task.kernel_ids[k], &value, &why)) {
          error_ = name_ + ": " + where + ": " + why;
          return SwimlaneDepsStatus::kError;
        }
        if (value < INT64_MIN || value > INT64_MAX) {
          error_ = name_ + ": " + where + ": out of range";
          return SwimlaneDepsStatus::kError;
        }
        slots[k] = static_cast<int64_t>(value);
      }
      out_.kernel_ids[*task.id] = slots;
    }
    for (const RawTask& task : tasks_) {
      if (task.id) out_.block_nums[*task.id] = task.block_num.value_or(1);
    }
    out_.has_kernel_ids = !out_.kernel_ids.empty();
    out_.has_block_nums = !out_.block_nums.empty();
    return SwimlaneDepsStatus::kOk;
  }

  JsonReader& reader_;
  const std::string name_;
  SwimlaneDeps& out_;
  std::string error_;
  bool tasks_is_list_ = false, edges_is_list_ = false;
  std::vector<RawTask> tasks_;
  std::vector<std::pair<__int128, __int128>> edges_;
};

}  // namespace

SwimlaneDepsStatus LoadSwimlaneDeps(const std::string& path, SwimlaneDeps* deps,
                                    std::string* warning, std::string* err) {
  *deps = SwimlaneDeps();
  warning->clear();
  std::error_code ec;
  if (!fs::exists(path, ec)) return SwimlaneDepsStatus::kMissing;
  InputFileError refused;
  JsonReader reader;
  std::string open_error;
  if (!CheckRegularInput(path, nullptr, &refused)) {
    *warning = "Warning: failed to read " + path + ": " + PythonOpenErrorMessage(path, refused);
    return SwimlaneDepsStatus::kUnreadable;
  }
  if (!reader.Open(path, &open_error)) {
    *warning = "Warning: failed to read " + path + ": " + open_error;
    return SwimlaneDepsStatus::kUnreadable;
  }
  SwimlaneDeps loaded;
  DepsReader deps_reader(&reader, path, &loaded);
  std::string why;
  const SwimlaneDepsStatus status = deps_reader.Read(&why);
  if (status == SwimlaneDepsStatus::kUnreadable) {
    *warning = "Warning: failed to read " + path + ": " + why;
    return status;
  }
  if (status == SwimlaneDepsStatus::kError) {
    *err = why;
    return status;
  }
  if (!loaded.has_edges) *warning = "Warning: " + path + " has no 'edges' array";
  *deps = std::move(loaded);
  return SwimlaneDepsStatus::kOk;
}

const ordered_json* SwimlaneNames::Find(int64_t func_id) const {
  if (!any) return nullptr;
  auto it = names.find(std::to_string(func_id));
  return it == names.end() ? nullptr : &*it;
}

std::string SwimlaneNames::Name(int64_t func_id) const {
  const ordered_json* v = Find(func_id);
  return v == nullptr ? std::string() : PyStrOfJson(*v);
}

bool SwimlaneNamesFromJson(const ordered_json& doc, const std::string& display_name,
                           SwimlaneNames* names, std::string* err) {
  *names = SwimlaneNames();
  if (!doc.is_object()) {
    *err = EscapeForMessage(display_name) + ": expected a JSON object at the top level, got " +
           doc.type_name();
    return false;
  }
  const ordered_json* map = Member(doc, "callable_id_to_name");
  if (map != nullptr && !map->is_object()) names->is_object = false;
  if (map != nullptr && Truthy(*map)) {
    if (!map->is_object()) {
      *err = EscapeForMessage(display_name) + ": callable_id_to_name: expected an object, got " +
             map->type_name();
      return false;
    }
    names->names = *map;
    names->any = true;
  }
  if (const ordered_json* orch = Member(doc, "orchestrator_name")) names->orchestrator_name = *orch;
  return true;
}

bool LoadSwimlaneNames(const std::string& path, SwimlaneNames* names, std::string* err) {
  std::string text;
  InputFileError read_error;
  if (!ReadInputFile(path, kMaxSmallInputBytes, &text, &read_error)) {
    *err = read_error.message;
    return false;
  }
  ordered_json doc;
  if (!ParseJsonDocument(text, &doc, err)) {
    *err = EscapeForMessage(path) + ": " + *err;
    return false;
  }
  return SwimlaneNamesFromJson(doc, path, names, err);
}

std::string PythonStrOfJson(const ordered_json& value) { return PyStrOfJson(value); }

bool PythonTruthy(const ordered_json& value) { return Truthy(value); }

std::vector<fs::path> SiblingNameMaps(const fs::path& dir) {
  std::vector<fs::path> out;
  std::error_code ec;
  const fs::path where = dir.empty() ? fs::path(".") : dir;
  for (fs::directory_iterator it(where, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.rfind("name_map", 0) != 0 || name.size() < 13 ||
        name.compare(name.size() - 5, 5, ".json") != 0) {
      continue;
    }
    std::error_code type_error;
    if (!fs::is_regular_file(it->path(), type_error)) continue;
    out.push_back(dir / name);
  }
  std::sort(out.begin(), out.end(),
            [](const fs::path& a, const fs::path& b) { return a.filename().string() < b.filename().string(); });
  return out;
}

}  // namespace depgraph
