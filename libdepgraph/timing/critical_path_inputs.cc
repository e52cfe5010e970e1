#include "depgraph/timing/critical_path_inputs.h"

#include <algorithm>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <thread>
#include <utility>

#include "depgraph/internal/message_quote.h"
#include "depgraph/support/input_file.h"
#include "depgraph/support/json_dom.h"
#include "depgraph/support/json_reader.h"
#include "first_error.h"
#include "depgraph/internal/flat_id_map.h"
#include "json_scalar_text.h"

namespace depgraph {

namespace {

/// `array[index]` or `array[index].member`, built only when a message needs it.
struct ElementPath {
  const char* array;
  size_t index;
  const char* member = nullptr;
  std::string str() const {
    std::string out = std::string(array) + "[" + std::to_string(index) + "]";
    if (member) out += std::string(".") + member;
    return out;
  }
};

/// Streams the `tasks` and `edges` of a deps.json into CriticalPathDeps.
class DepsKeysLoader {
 public:
  DepsKeysLoader(JsonReader* reader, const std::string& name, CriticalPathDeps* out)
      : reader_(*reader), errors_(*reader, name), out_(*out) {}

  bool Load(std::string* err) {
    if (Top()) return true;
    *err = errors_.Message();
    out_ = CriticalPathDeps();
    return false;
  }

 private:
  /// "an object", "an array", ... of the next value, which is skipped.
  std::string KindAndSkip() {
    const JsonKind kind = reader_.Peek();
    reader_.SkipValue();
    if (kind == JsonKind::kObject) return "an object";
    if (kind == JsonKind::kArray) return "an array";
    return JsonKindName(kind);
  }

  uint32_t Intern(std::string&& key) {
    const uint32_t next = static_cast<uint32_t>(out_.keys.size());
    uint64_t value = 0;
    bool fresh = false;
    uint32_t index;
    if (CanonicalDecimal(key, &value)) {
      index = numeric_.FindOrInsert(value, next, &fresh);
      if (fresh) out_.numeric_index.emplace_back(value, next);
    } else {
      auto [it, inserted] = out_.text_index.emplace(key, next);
      index = it->second;
      fresh = inserted;
    }
    if (fresh) {
      out_.keys.push_back(std::move(key));
      out_.callables.emplace_back();
      out_.is_task.push_back(false);
    }
    return index;
  }

  bool Top() {
    const JsonKind top = reader_.Peek();
    if (top != JsonKind::kObject) {
      if (!reader_.SkipValue() || !reader_.ExpectEnd()) return errors_.Syntax();
      return errors_.At(
          "", std::string("expected a JSON object at the top level, got ") + JsonKindName(top));
    }
    if (!reader_.BeginObject()) return errors_.Syntax();
    bool have_tasks = false, have_edges = false;
    std::vector<std::pair<uint32_t, CallableRef>> tasks;  // (key, callable) in file order
    std::string_view key;
    while (reader_.NextKey(&key)) {
      bool ok = true;
      if (key == "tasks") {
        have_tasks = true;
        tasks.clear();
        ok = Array("tasks", [&](size_t i) { return Task(i, &tasks); });
      } else if (key == "edges") {
        have_edges = true;
        out_.edges.clear();
        ok = Array("edges", [&](size_t i) { return Edge(i); });
      } else {
        ok = reader_.SkipValue() || errors_.Syntax();
      }
      if (!ok) return false;
    }
    if (!errors_.Check() || !(reader_.ExpectEnd() || errors_.Syntax())) return false;
    if (!have_tasks) return errors_.At("", "missing \"tasks\"");
    if (!have_edges) return errors_.At("", "missing \"edges\"");
    for (auto& [index, callable] : tasks) {  // the last entry of an id wins
      out_.callables[index] = std::move(callable);
      out_.is_task[index] = true;
    }
    std::sort(out_.numeric_index.begin(), out_.numeric_index.end());
    return true;
  }

  template <typename Element>
  bool Array(const char* name, Element&& element) {
    if (reader_.Peek() != JsonKind::kArray) {
      const std::string shown = KindAndSkip();
      return errors_.Check() && errors_.At(name, "expected an array, got " + shown);
    }
    if (!reader_.BeginArray()) return errors_.Syntax();
    size_t index = 0;
    while (reader_.NextElement()) {
      if (!element(index)) return false;
      if ((++index & 4095) == 0) reader_.ReleaseConsumed();
    }
    return errors_.Check();
  }

  /// A scalar id (`task_id`, `pred`, `succ`) as its text.
  bool Id(const ElementPath& where, std::string* text) {
    PyInt value;
    if (ReadScalarText(&reader_, text, &value)) return true;
    if (reader_.failed()) return errors_.Syntax();
    const std::string shown = KindAndSkip();
    return errors_.Check() &&
           errors_.At(where.str(), "expected a task id (a number or a string), got " + shown);
  }

  bool Task(size_t i, std::vector<std::pair<uint32_t, CallableRef>>* tasks) {
    const ElementPath where{"tasks", i};
    if (reader_.Peek() != JsonKind::kObject) {
      const std::string shown = KindAndSkip();
      return errors_.Check() && errors_.At(where.str(), "expected an object, got " + shown);
    }
    if (!reader_.BeginObject()) return errors_.Syntax();
    bool have_id = false;
    std::string id;
    CallableRef callable;
    std::string_view key;
    while (reader_.NextKey(&key)) {
      bool ok = true;
      if (key == "task_id") {
        have_id = true;
        ok = Id(ElementPath{"tasks", i, "task_id"}, &id);
      } else if (key == "kernel_ids") {
        ok = KernelIds(ElementPath{"tasks", i, "kernel_ids"}, &callable);
      } else {
        ok = reader_.SkipValue() || errors_.Syntax();
      }
      if (!ok) return false;
    }
    if (!errors_.Check()) return false;
    if (!have_id) return errors_.At(where.str(), "missing \"task_id\"");
    tasks->emplace_back(Intern(std::move(id)), std::move(callable));
    return true;
  }

  /// The first element that is not null and not negative; an element that Python cannot
  /// compare with 0 before it makes the callable kBad.
  bool KernelIds(const ElementPath& where, CallableRef* out) {
    *out = CallableRef();
    const JsonKind kind = reader_.Peek();
    if (kind == JsonKind::kNull) return reader_.ReadNull() || errors_.Syntax();
    if (kind != JsonKind::kArray) {
      out->state = CallableRef::kBad;
      out->id = where.str() + ": expected an array of kernel ids, got " + KindAndSkip();
      return errors_.Check();
    }
    if (!reader_.BeginArray()) return errors_.Syntax();
    size_t index = 0;
    while (reader_.NextElement()) {
      const JsonKind element = reader_.Peek();
      if (out->state != CallableRef::kNone || element == JsonKind::kNull) {
        if (!reader_.SkipValue()) return errors_.Syntax();
      } else if (element == JsonKind::kNumber) {
        std::string text;
        PyInt value;
        if (!ReadScalarText(&reader_, &text, &value)) return errors_.Syntax();
        // `k >= 0`: Python's str() of a negative number starts with '-', "-0.0" excepted.
        if (text[0] != '-' || text == "-0.0") {
          out->state = CallableRef::kId;
          out->id = std::move(text);
        }
      } else if (element == JsonKind::kTrue || element == JsonKind::kFalse) {
        PyInt unused;  // True >= 0 and False >= 0 hold in Python: the "id" is their text
        out->state = CallableRef::kId;
        if (!ReadScalarText(&reader_, &out->id, &unused)) return errors_.Syntax();
      } else {
        out->state = CallableRef::kBad;
        out->id = where.str() + "[" + std::to_string(index) + "]: expected a number, got " +
                  (element == JsonKind::kString ? "a string" : KindAndSkip());
        if (element == JsonKind::kString && !reader_.SkipValue()) return errors_.Syntax();
      }
      ++index;
    }
    return errors_.Check();
  }

  bool Edge(size_t i) {
    const ElementPath where{"edges", i};
    if (reader_.Peek() != JsonKind::kObject) {
      const std::string shown = KindAndSkip();
      return errors_.Check() && errors_.At(where.str(), "expected an object, got " + shown);
    }
    if (!reader_.BeginObject()) return errors_.Syntax();
    bool have_pred = false, have_succ = false;
    std::string pred, succ;
    std::string_view key;
    while (reader_.NextKey(&key)) {
      bool ok = true;
      if (key == "pred") {
        have_pred = true;
        ok = Id(ElementPath{"edges", i, "pred"}, &pred);
      } else if (key == "succ") {
        have_succ = true;
        ok = Id(ElementPath{"edges", i, "succ"}, &succ);
      } else {
        ok = reader_.SkipValue() || errors_.Syntax();
      }
      if (!ok) return false;
    }
    if (!errors_.Check()) return false;
    if (!have_pred) return errors_.At(where.str(), "missing \"pred\"");
    if (!have_succ) return errors_.At(where.str(), "missing \"succ\"");
    const uint32_t p = Intern(std::move(pred));
    out_.edges.emplace_back(p, Intern(std::move(succ)));
    return true;
  }

  JsonReader& reader_;
  FirstError errors_;
  CriticalPathDeps& out_;
  FlatIdMap numeric_;  // value -> index of the plain decimal keys, while loading
};

bool ParseNames(std::string_view text, const std::string& display_name, CriticalPathNames* out,
                std::string* err) {
  *out = CriticalPathNames();
  nlohmann::ordered_json doc;
  std::string syntax_error;
  if (!ParseJsonDocument(text, &doc, &syntax_error)) {
    *err = EscapeForMessage(display_name) + ": " + syntax_error;
    return false;
  }
  if (!doc.is_object()) {
    out->state = CriticalPathNames::kUnusable;
    out->problem = std::string("expected a JSON object at the top level, got ") + doc.type_name();
    return true;
  }
  auto it = doc.find("callable_id_to_name");
  if (it == doc.end()) return true;  // no fallback to a flat map (spec/timing.md §3.4)
  if (!it->is_object()) {
    out->state = CriticalPathNames::kUnusable;
    out->problem = std::string("callable_id_to_name: expected an object, got ") + it->type_name();
    return true;
  }
  for (auto entry = it->begin(); entry != it->end(); ++entry) {
    if (entry.value().is_string()) {
      out->names[entry.key()] = {entry.value().get<std::string>(), true};
    } else {
      out->names[entry.key()] = {entry.value().type_name(), false};
    }
  }
  return true;
}

/// Loads the records and checks what the reference requires of them.
bool CheckedRecords(const RankFiles& files, TimingRecords* records, int64_t* clock_freq_hz,
                    std::string* err) {
  if (!LoadTimingRecords(files.records, records, err)) return false;
  const std::string records_name = EscapeForMessage(files.records);
  if (records->clock_freq_hz.state == FieldState::kAbsent) {
    *err = records_name + ": metadata.clock_freq_hz: missing";
    return false;
  }
  const TimingScalar& freq = records->clock_freq_hz;
  const std::string freq_where = records_name + ": metadata.clock_freq_hz: ";
  if (freq.state == FieldState::kInvalid && !freq.number) {
    *err = freq_where + "expected an integer, got " + QuoteForMessage(freq.text);
    return false;
  }
  if (freq.state == FieldState::kValid && freq.value == 0 && std::strtod(freq.text.c_str(), nullptr) == 0) {
    *err = freq_where + "missing or zero: cannot convert ticks to time";
    return false;
  }
  if (freq.state == FieldState::kInvalid || freq.value < 1) {  // a number: shown unquoted
    *err = freq_where + "must be a positive integer, at least 1 Hz, got " +
           EscapeForMessage(freq.text);
    return false;
  }
  *clock_freq_hz = freq.value;
  if (records->aicore_state == FieldState::kAbsent) {
    *err = records_name + ": aicore_tasks: missing";
    return false;
  }
  if (records->rows.empty()) {
    *err = "no aicore_tasks records in " + records_name + " (empty/failed profiling run?)";
    return false;
  }
  for (size_t r = 0; r < records->rows.size(); ++r) {
    const uint32_t columns = records->rows[r].columns;
    if (columns != 6 && !files.accept_legacy_rows) {  // the loader ensured at least 5
      *err = records_name + ": aicore_tasks[" + std::to_string(r) + "]: expected 6 values, got " +
             std::to_string(columns) + " (--accept-v2-rows reads rows of 5 or more)";
      return false;
    }
  }
  return true;
}

}  // namespace

int64_t CriticalPathDeps::Find(std::string_view key) const {
  uint64_t value = 0;
  if (CanonicalDecimal(key, &value)) {
    auto it = std::lower_bound(numeric_index.begin(), numeric_index.end(),
                               std::make_pair(value, uint32_t{0}));
    return it != numeric_index.end() && it->first == value ? static_cast<int64_t>(it->second) : -1;
  }
  auto it = text_index.find(std::string(key));
  return it == text_index.end() ? -1 : static_cast<int64_t>(it->second);
}

std::vector<TimedEdge> CriticalPathDeps::TimedEdges(const TaskTimings& timings) const {
  std::vector<int32_t> timed(keys.size(), -1);
  for (size_t k = 0; k < keys.size(); ++k) {
    auto it = timings.by_key.find(keys[k]);
    if (it != timings.by_key.end()) timed[k] = static_cast<int32_t>(it->second);
  }
  std::vector<TimedEdge> out;
  out.reserve(edges.size());
  for (const auto& [p, s] : edges) out.push_back(TimedEdge{timed[p], timed[s]});
  return out;
}

bool LoadCriticalPathDeps(const std::string& path, CriticalPathDeps* deps, std::string* err) {
  *deps = CriticalPathDeps();
  JsonReader reader;
  if (!OpenLoaderInput(path, &reader, err)) return false;
  DepsKeysLoader loader(&reader, path, deps);
  return loader.Load(err);
}

bool LoadCriticalPathDepsText(std::string_view text, const std::string& display_name,
                              CriticalPathDeps* deps, std::string* err) {
  *deps = CriticalPathDeps();
  JsonReader reader;
  reader.OpenBuffer(text);
  DepsKeysLoader loader(&reader, display_name, deps);
  return loader.Load(err);
}

bool LoadCriticalPathNames(const std::string& path, CriticalPathNames* names, std::string* err) {
  std::string text;
  InputFileError error;
  if (!ReadInputFile(path, kMaxSmallInputBytes, &text, &error)) {
    *names = CriticalPathNames();
    *err = error.message;
    return false;
  }
  return ParseNames(text, path, names, err);
}

bool LoadCriticalPathNamesText(std::string_view text, const std::string& display_name,
                               CriticalPathNames* names, std::string* err) {
  return ParseNames(text, display_name, names, err);
}

bool NameTimedTasks(const TaskTimings& timings, const CriticalPathDeps& deps,
                    const CriticalPathNames& names, const std::string& deps_name,
                    const std::string& names_name, std::vector<TaskName>* out, std::string* err) {
  out->assign(timings.tasks.size(), TaskName{"unknown", true});
  for (size_t t = 0; t < timings.tasks.size(); ++t) {
    const int64_t k = deps.Find(timings.tasks[t].key);
    if (k < 0 || !deps.is_task[static_cast<size_t>(k)]) continue;
    const CallableRef& callable = deps.callables[static_cast<size_t>(k)];
    if (callable.state == CallableRef::kNone) continue;
    if (callable.state == CallableRef::kBad) {
      *err = EscapeForMessage(deps_name) + ": " + callable.id;
      return false;
    }
    if (names.state == CriticalPathNames::kUnusable) {
      *err = EscapeForMessage(names_name) + ": " + names.problem;
      return false;
    }
    auto it = names.names.find(callable.id);
    if (it == names.names.end()) {
      (*out)[t] = TaskName{"cid" + callable.id, true};
    } else {
      (*out)[t] = TaskName{it->second.text, it->second.is_string};
    }
  }
  return true;
}

bool AnalyzeRankFiles(const RankFiles& files, RankAnalysis* out, std::string* err) {
  *out = RankAnalysis();
  // deps.json is read on a second thread while the records are read here; errors are
  // reported in the reference's order (records first).
  std::string deps_error;
  bool deps_ok = false;
  std::thread deps_reader(
      [&] { deps_ok = LoadCriticalPathDeps(files.deps, &out->deps, &deps_error); });
  const bool records_ok = CheckedRecords(files, &out->records, &out->clock_freq_hz, err);
  if (records_ok) {  // what needs only the records, while deps.json is still being read
    out->timings = ReduceTaskTimings(out->records);
    AddCorePredecessors(out->records, out->timings, files.options, &out->hb);
  }
  deps_reader.join();
  if (!records_ok) return false;
  if (!deps_ok) {
    *err = deps_error;
    return false;
  }
  if (!files.names.empty()) {
    CriticalPathNames names;
    if (!LoadCriticalPathNames(files.names, &names, err)) return false;
    if (!NameTimedTasks(out->timings, out->deps, names, files.deps, files.names, &out->names,
                        err)) {
      return false;
    }
  }
  AddDependencyEdges(out->timings, out->deps.TimedEdges(out->timings), files.options, &out->hb);
  out->result = AnalyzeCriticalPath(out->timings, out->hb, files.options);
  return true;
}

std::string KernelFamily(std::string_view name) {
  // re.sub(r"(_\d+)?(_(?:aic|aiv))?$", "", name): `$` also matches before a final newline.
  std::string_view body = name;
  std::string_view tail;
  if (!body.empty() && body.back() == '\n') {
    tail = body.substr(body.size() - 1);
    body.remove_suffix(1);
  }
  auto ends_with = [&](std::string_view s) {
    return body.size() >= s.size() && body.substr(body.size() - s.size()) == s;
  };
  if (ends_with("_aic") || ends_with("_aiv")) body.remove_suffix(4);
  size_t digits = 0;
  while (digits < body.size() && body[body.size() - 1 - digits] >= '0' &&
         body[body.size() - 1 - digits] <= '9') {
    ++digits;
  }
  if (digits > 0 && digits < body.size() && body[body.size() - 1 - digits] == '_') {
    body.remove_suffix(digits + 1);
  }
  return std::string(body) + std::string(tail);
}

}  // namespace depgraph
