#include "depgraph/load_deps.h"

#include <algorithm>
#include <unordered_map>

#include "depgraph/input_file.h"
#include "depgraph/json_reader.h"
#include "depgraph/message_quote.h"
#include "depgraph/py_int.h"

namespace depgraph {

namespace {

// Longest string value echoed in a "got ..." message, in bytes.
constexpr size_t kShownBytes = 40;

// A JSON path under construction, materialised only when an error is reported.
struct PathPart {
  const char* key;  // member name, or nullptr for an array index
  size_t index;
};

class DepsLoader {
 public:
  DepsLoader(JsonReader* reader, std::string display_name, DepGraph* graph,
             const ProgressFn& progress)
      : reader_(*reader),
        name_(EscapeForMessage(display_name)),
        graph_(*graph),
        progress_(progress) {}

  bool Load(std::string* err);

 private:
  // ---- error reporting ----
  std::string PathString(const char* leaf) const {
    std::string out;
    for (const PathPart& part : path_) {
      if (part.key) {
        if (!out.empty()) out += '.';
        out += part.key;
      } else {
        out += '[' + std::to_string(part.index) + ']';
      }
    }
    if (leaf) {
      if (!out.empty()) out += '.';
      out += leaf;
    }
    return out;
  }
  bool SemanticError(const char* leaf, const std::string& message) {
    if (!error_.empty()) return false;
    std::string where = PathString(leaf);
    error_ = name_ + ": " + (where.empty() ? "" : where + ": ") + message;
    return false;
  }
  bool SyntaxError() {
    if (error_.empty()) error_ = name_ + ": " + reader_.error();
    return false;
  }
  bool Check() { return reader_.failed() ? SyntaxError() : true; }

  // Describes the next value for "got ..." messages and consumes it.
  std::string DescribeAndSkip();

  // ---- scalar coercion ----
  // Reads any scalar as Python int(); containers and null give kInvalid.
  bool ReadPyInt(PyInt* out, std::string* shown);
  bool ReadId(const char* leaf, TaskId* id);
  // Optional id where null means "no id" (state kInvalid).
  bool ReadOptionalId(const char* leaf, FieldState* state, TaskId* id);
  bool ReadSmallInt(FieldState* state, int64_t* value, bool require_non_negative);
  bool ReadDType(DType* dtype, FieldState* state);
  bool ReadDims(DimList* dims);
  bool ReadTruthy(bool* out);
  // An edge row's `flags` array as kEdgeFlag* bits (unknown elements or a non-array: Other).
  bool ReadFlags(uint8_t* flags);

  bool ReadTopLevelArray(const char* key, bool (DepsLoader::*element)(size_t));
  bool ReadEdge(size_t i);
  bool ReadTask(size_t i);
  bool ReadArg(size_t i);
  bool ReadTensor(size_t i);
  bool ReadViewField(std::string_view key, View* view, bool* handled);
  bool Finish();
  void ReportProgress();

  JsonReader& reader_;
  std::string name_;
  DepGraph& graph_;
  const ProgressFn& progress_;
  std::vector<PathPart> path_;
  std::string error_;
  size_t next_progress_ = 0;

  std::vector<std::pair<TaskId, TaskId>> row_ends_;  // raw (pred, succ) per row
  std::vector<Tensor> raw_tensors_;
  std::unordered_map<std::string, uint8_t> overlap_ids_;
};

std::string DepsLoader::DescribeAndSkip() {
  std::string shown;
  switch (reader_.Peek()) {
    case JsonKind::kString: {
      std::string_view s;
      if (reader_.ReadString(&s)) shown = QuoteForMessage(s, kShownBytes);
      break;
    }
    case JsonKind::kNumber: {
      std::string_view s;
      if (reader_.ReadNumber(&s)) shown = std::string(s.substr(0, 40));
      break;
    }
    case JsonKind::kObject:
      shown = "an object";
      reader_.SkipValue();
      break;
    case JsonKind::kArray:
      shown = "an array";
      reader_.SkipValue();
      break;
    default:
      shown = JsonKindName(reader_.Peek());
      reader_.SkipValue();
      break;
  }
  return shown;
}

bool DepsLoader::ReadPyInt(PyInt* out, std::string* shown) {
  *out = PyInt{};
  switch (reader_.Peek()) {
    case JsonKind::kNumber: {
      std::string_view token;
      if (!reader_.ReadNumber(&token)) return SyntaxError();
      *out = PyIntFromNumber(token);
      if (shown) *shown = std::string(token.substr(0, 40));
      return true;
    }
    case JsonKind::kString: {
      std::string_view text;
      if (!reader_.ReadString(&text)) return SyntaxError();
      *out = PyIntFromString(text);
      if (shown) *shown = QuoteForMessage(text, kShownBytes);
      return true;
    }
    case JsonKind::kTrue:
    case JsonKind::kFalse: {
      bool b;
      if (!reader_.ReadBool(&b)) return SyntaxError();
      *out = PyIntFromBool(b);
      return true;
    }
    default: {
      std::string d = DescribeAndSkip();
      if (shown) *shown = d;
      return Check();
    }
  }
}

bool DepsLoader::ReadId(const char* leaf, TaskId* id) {
  PyInt value;
  std::string shown;
  if (!ReadPyInt(&value, &shown)) return false;
  if (!ToTaskId(value, id)) {
    return SemanticError(leaf, "expected an unsigned 64-bit id, got " + shown);
  }
  return true;
}

bool DepsLoader::ReadOptionalId(const char* leaf, FieldState* state, TaskId* id) {
  if (reader_.Peek() == JsonKind::kNull) {
    reader_.ReadNull();
    *state = FieldState::kInvalid;
    return true;
  }
  if (!ReadId(leaf, id)) return false;
  *state = FieldState::kValid;
  return true;
}

bool DepsLoader::ReadSmallInt(FieldState* state, int64_t* value, bool require_non_negative) {
  PyInt v;
  if (!ReadPyInt(&v, nullptr)) return false;
  int64_t x;
  if (ToInt64(v, &x) && (!require_non_negative || x >= 0)) {
    *value = x;
    *state = FieldState::kValid;
  } else {
    *state = FieldState::kInvalid;
  }
  return true;
}

bool DepsLoader::ReadFlags(uint8_t* flags) {
  *flags = 0;
  if (reader_.Peek() != JsonKind::kArray) {
    *flags = kEdgeFlagOther;
    return reader_.SkipValue() || SyntaxError();
  }
  if (!reader_.BeginArray()) return SyntaxError();
  while (reader_.NextElement()) {
    if (reader_.Peek() != JsonKind::kString) {
      *flags |= kEdgeFlagOther;
      if (!reader_.SkipValue()) return SyntaxError();
      continue;
    }
    std::string_view s;
    if (!reader_.ReadString(&s)) return SyntaxError();
    *flags |= s == "wait" ? kEdgeFlagWait : s == "retain" ? kEdgeFlagRetain : kEdgeFlagOther;
  }
  return Check();
}

bool DepsLoader::ReadDType(DType* dtype, FieldState* state) {
  *state = FieldState::kValid;
  if (reader_.Peek() == JsonKind::kString) {
    std::string_view s;
    if (!reader_.ReadString(&s)) return SyntaxError();
    *dtype = ParseDType(s);
    return true;
  }
  *dtype = DType::kOther;  // null -> "NONE", numbers etc. -> unknown names
  return reader_.SkipValue() || SyntaxError();
}

bool DepsLoader::ReadDims(DimList* dims) {
  if (reader_.Peek() != JsonKind::kArray) {
    dims->state = FieldState::kInvalid;
    return reader_.SkipValue() || SyntaxError();
  }
  size_t start = graph_.dims.size();
  bool valid = true;
  if (!reader_.BeginArray()) return SyntaxError();
  while (reader_.NextElement()) {
    PyInt v;
    if (!ReadPyInt(&v, nullptr)) return false;
    int64_t x;
    if (!ToInt64(v, &x) || x <= 0) valid = false;
    graph_.dims.push_back(x);
  }
  if (!Check()) return false;
  size_t count = graph_.dims.size() - start;
  if (!valid || count == 0 || count > UINT16_MAX) {
    graph_.dims.resize(start);
    dims->state = FieldState::kInvalid;
    return true;
  }
  dims->offset = static_cast<uint32_t>(start);
  dims->size = static_cast<uint16_t>(count);
  dims->state = FieldState::kValid;
  return true;
}

// Python truthiness of a JSON value.
bool DepsLoader::ReadTruthy(bool* out) {
  switch (reader_.Peek()) {
    case JsonKind::kTrue:
    case JsonKind::kFalse:
      return reader_.ReadBool(out) || SyntaxError();
    case JsonKind::kNull:
      *out = false;
      return reader_.ReadNull() || SyntaxError();
    case JsonKind::kString: {
      std::string_view s;
      if (!reader_.ReadString(&s)) return SyntaxError();
      *out = !s.empty();
      return true;
    }
    case JsonKind::kNumber: {
      std::string_view s;
      if (!reader_.ReadNumber(&s)) return SyntaxError();
      *out = s.find_first_of("123456789") != std::string_view::npos &&
             s.find_first_of("123456789") < s.find_first_of("eE");
      return true;
    }
    case JsonKind::kObject: {
      if (!reader_.BeginObject()) return SyntaxError();
      std::string_view key;
      *out = false;
      while (reader_.NextKey(&key)) {
        *out = true;
        if (!reader_.SkipValue()) break;
      }
      return Check();
    }
    case JsonKind::kArray: {
      if (!reader_.BeginArray()) return SyntaxError();
      *out = false;
      while (reader_.NextElement()) {
        *out = true;
        if (!reader_.SkipValue()) break;
      }
      return Check();
    }
    case JsonKind::kInvalid:
      reader_.SkipValue();
      return SyntaxError();
  }
  return false;
}

// Handles the view keys shared by task args and edge rows (with the prefix stripped).
bool DepsLoader::ReadViewField(std::string_view key, View* view, bool* handled) {
  *handled = true;
  if (key == "dtype") return ReadDType(&view->dtype, &view->dtype_state);
  if (key == "shape") return ReadDims(&view->shape);
  if (key == "strides") return ReadDims(&view->strides);
  if (key == "start_offset") {
    return ReadSmallInt(&view->start_offset_state, &view->start_offset, true);
  }
  *handled = false;
  return true;
}

void DepsLoader::ReportProgress() {
  reader_.ReleaseConsumed();
  if (!progress_ || reader_.position() < next_progress_) return;
  next_progress_ = reader_.position() + reader_.size() / 100 + 1;
  progress_(static_cast<double>(reader_.position()) / static_cast<double>(reader_.size()));
}

bool DepsLoader::ReadEdge(size_t i) {
  ReportProgress();
  if (reader_.Peek() != JsonKind::kObject) {
    return Check() && SemanticError(nullptr, "expected an object, got " + DescribeAndSkip());
  }
  EdgeRow row;
  TaskId pred = 0, succ = 0;
  bool has_pred = false, has_succ = false;
  if (!reader_.BeginObject()) return SyntaxError();
  std::string_view key;
  while (reader_.NextKey(&key)) {
    bool ok = true;
    if (key == "pred") {
      ok = ReadId("pred", &pred);
      has_pred = true;
    } else if (key == "succ") {
      ok = ReadId("succ", &succ);
      has_succ = true;
    } else if (key == "source") {
      row.source = EdgeSource::kOther;
      if (reader_.Peek() == JsonKind::kString) {
        std::string_view s;
        ok = reader_.ReadString(&s) || SyntaxError();
        if (s == "creator") {
          row.source = EdgeSource::kCreator;
        } else if (s == "tensormap") {
          row.source = EdgeSource::kTensormap;
        } else if (s == "explicit") {
          row.source = EdgeSource::kExplicit;
        }
      } else {
        ok = reader_.SkipValue() || SyntaxError();
      }
    } else if (key == "flags") {
      ok = ReadFlags(&row.flags);
    } else if (key == "arg") {
      ok = ReadSmallInt(&row.arg_state, &row.arg, false);
    } else if (key == "tensor_id") {
      ok = ReadOptionalId("tensor_id", &row.tensor_id_state, &row.tensor_id);
    } else if (key == "overlap") {
      std::string name;
      if (reader_.Peek() == JsonKind::kString) {
        std::string_view s;
        ok = reader_.ReadString(&s) || SyntaxError();
        name = s;
      } else {
        name = DescribeAndSkip();
        ok = Check();
      }
      auto it = overlap_ids_.find(name);
      if (it == overlap_ids_.end()) {
        if (graph_.overlap_names.size() >= 255) {
          return SemanticError("overlap", "more than 254 distinct overlap values");
        }
        it = overlap_ids_.emplace(name, graph_.overlap_names.size()).first;
        graph_.overlap_names.push_back(name);
      }
      row.overlap = it->second;
    } else if (key.starts_with("consumer_")) {
      bool handled;
      ok = ReadViewField(key.substr(9), &row.consumer, &handled);
      if (ok && !handled) ok = reader_.SkipValue() || SyntaxError();
    } else if (key.starts_with("producer_")) {
      bool handled;
      ok = ReadViewField(key.substr(9), &row.producer, &handled);
      if (ok && !handled) ok = reader_.SkipValue() || SyntaxError();
    } else {
      ok = reader_.SkipValue() || SyntaxError();
    }
    if (!ok) return false;
  }
  if (!Check()) return false;
  if (!has_pred) return SemanticError("pred", "missing");
  if (!has_succ) return SemanticError("succ", "missing");
  if (graph_.rows.size() >= UINT32_MAX) return SemanticError(nullptr, "too many edge rows");
  row_ends_.emplace_back(pred, succ);
  graph_.rows.push_back(row);
  return true;
}

bool DepsLoader::ReadArg(size_t i) {
  if (reader_.Peek() != JsonKind::kObject) {
    return Check() && SemanticError(nullptr, "expected an object, got " + DescribeAndSkip());
  }
  TaskArg arg;
  if (!reader_.BeginObject()) return SyntaxError();
  std::string_view key;
  while (reader_.NextKey(&key)) {
    bool ok = true;
    if (key == "idx") {
      FieldState state;
      ok = ReadSmallInt(&state, &arg.idx, false);
      // An unusable idx must never match a row's `arg`, not even -1.
      if (state != FieldState::kValid) arg.idx = INT64_MIN;
    } else if (key == "type") {
      arg.type = ArgType::kOther;
      if (reader_.Peek() == JsonKind::kString) {
        std::string_view s;
        ok = reader_.ReadString(&s) || SyntaxError();
        if (s == "INPUT") {
          arg.type = ArgType::kInput;
        } else if (s == "OUTPUT") {
          arg.type = ArgType::kOutput;
        } else if (s == "INOUT") {
          arg.type = ArgType::kInOut;
        } else if (s == "OUTPUT_EXISTING") {
          arg.type = ArgType::kOutputExisting;
        } else if (s == "UNKNOWN") {
          arg.type = ArgType::kNoDep;
        }
      } else {
        ok = reader_.SkipValue() || SyntaxError();
      }
    } else if (key == "tensor_id") {
      ok = ReadOptionalId("tensor_id", &arg.tensor_id_state, &arg.tensor_id);
    } else {
      bool handled;
      ok = ReadViewField(key, &arg.view, &handled);
      if (ok && !handled) ok = reader_.SkipValue() || SyntaxError();
    }
    if (!ok) return false;
  }
  if (!Check()) return false;
  graph_.args.push_back(arg);
  return true;
}

bool DepsLoader::ReadTask(size_t i) {
  ReportProgress();
  if (reader_.Peek() != JsonKind::kObject) {
    return Check() && SemanticError(nullptr, "expected an object, got " + DescribeAndSkip());
  }
  Task task;
  bool has_id = false;
  task.first_arg = static_cast<uint32_t>(graph_.args.size());
  if (!reader_.BeginObject()) return SyntaxError();
  std::string_view key;
  while (reader_.NextKey(&key)) {
    bool ok = true;
    if (key == "task_id") {
      ok = ReadId("task_id", &task.id);
      has_id = true;
    } else if (key == "kernel_ids") {
      for (int64_t& slot : task.kernel_ids) slot = -1;
      if (reader_.Peek() == JsonKind::kArray) {
        if (!reader_.BeginArray()) return SyntaxError();
        size_t slot = 0;
        while (reader_.NextElement()) {
          FieldState state;
          int64_t value = -1;
          if (!ReadSmallInt(&state, &value, false)) return false;
          if (slot < 3) task.kernel_ids[slot] = state == FieldState::kValid ? value : -1;
          ++slot;
        }
        ok = Check();
      } else {
        ok = reader_.SkipValue() || SyntaxError();
      }
    } else if (key == "block_num") {
      FieldState state;
      int64_t value = 1;
      ok = ReadSmallInt(&state, &value, false);
      task.block_num = (state == FieldState::kValid && value >= 1) ? value : 1;
    } else if (key == "early_dispatch") {
      ok = ReadTruthy(&task.early_dispatch);
    } else if (key == "scope") {
      std::string_view scope;
      if (reader_.Peek() == JsonKind::kString) {
        ok = reader_.ReadString(&scope) || SyntaxError();
        task.manual_scope = scope == "manual";
      } else {
        ok = reader_.SkipValue() || SyntaxError();
      }
    } else if (key == "args") {
      graph_.args.resize(task.first_arg);  // a repeated key replaces the earlier list
      if (reader_.Peek() != JsonKind::kArray) {
        return Check() && SemanticError("args", "expected an array, got " + DescribeAndSkip());
      }
      path_.push_back({"args", 0});
      if (!reader_.BeginArray()) return SyntaxError();
      size_t j = 0;
      while (reader_.NextElement()) {
        path_.push_back({nullptr, j});
        if (!ReadArg(j)) return false;
        path_.pop_back();
        ++j;
      }
      path_.pop_back();
      ok = Check();
    } else {
      ok = reader_.SkipValue() || SyntaxError();
    }
    if (!ok) return false;
  }
  if (!Check()) return false;
  if (!has_id) return SemanticError("task_id", "missing");
  task.num_args = static_cast<uint32_t>(graph_.args.size() - task.first_arg);
  graph_.tasks.push_back(task);
  return true;
}

bool DepsLoader::ReadTensor(size_t i) {
  if (reader_.Peek() != JsonKind::kObject) {
    return Check() && SemanticError(nullptr, "expected an object, got " + DescribeAndSkip());
  }
  Tensor tensor;
  tensor.index = static_cast<uint32_t>(i);
  bool has_id = false;
  if (!reader_.BeginObject()) return SyntaxError();
  std::string_view key;
  while (reader_.NextKey(&key)) {
    bool ok = true;
    if (key == "tensor_id") {
      ok = ReadId("tensor_id", &tensor.id);
      has_id = true;
    } else if (key == "buffer_addr") {
      ok = ReadSmallInt(&tensor.addr_state, &tensor.buffer_addr, true);
    } else if (key == "buffer_numel") {
      ok = ReadSmallInt(&tensor.numel_state, &tensor.buffer_numel, true);
    } else if (key == "dtype") {
      ok = ReadDType(&tensor.dtype, &tensor.dtype_state);
    } else {
      ok = reader_.SkipValue() || SyntaxError();
    }
    if (!ok) return false;
  }
  if (!Check()) return false;
  if (!has_id) return SemanticError("tensor_id", "missing");
  raw_tensors_.push_back(tensor);
  return true;
}

bool DepsLoader::ReadTopLevelArray(const char* key, bool (DepsLoader::*element)(size_t)) {
  path_.push_back({key, 0});
  JsonKind kind = reader_.Peek();
  if (kind == JsonKind::kNull) {
    path_.pop_back();
    return reader_.ReadNull() || SyntaxError();
  }
  if (kind != JsonKind::kArray) {
    if (!Check()) return false;
    if (kind == JsonKind::kInvalid) {
      reader_.SkipValue();
      return SyntaxError();
    }
    return SemanticError(nullptr, "expected an array, got " + DescribeAndSkip());
  }
  if (!reader_.BeginArray()) return SyntaxError();
  size_t i = 0;
  while (reader_.NextElement()) {
    path_.push_back({nullptr, i});
    if (!(this->*element)(i)) return false;
    path_.pop_back();
    ++i;
  }
  path_.pop_back();
  return Check();
}

bool DepsLoader::Load(std::string* err) {
  bool ok = true;
  JsonKind top = reader_.Peek();
  if (top != JsonKind::kObject) {
    // A syntax error anywhere ("not json" only starts like null) is reported as such, at its
    // line and column; only a well-formed document of the wrong kind is a semantic error.
    if (!reader_.SkipValue() || !reader_.ExpectEnd()) {
      ok = SyntaxError();
    } else {
      ok = SemanticError(nullptr, std::string("expected a JSON object at the top level, got ") +
                                      JsonKindName(top));
    }
  } else if (!reader_.BeginObject()) {
    ok = SyntaxError();
  } else {
    std::string_view key;
    while (ok && reader_.NextKey(&key)) {
      if (key == "edges") {
        graph_.rows.clear();
        row_ends_.clear();
        ok = ReadTopLevelArray("edges", &DepsLoader::ReadEdge);
      } else if (key == "tasks") {
        graph_.tasks.clear();
        graph_.args.clear();
        ok = ReadTopLevelArray("tasks", &DepsLoader::ReadTask);
      } else if (key == "tensors") {
        raw_tensors_.clear();
        ok = ReadTopLevelArray("tensors", &DepsLoader::ReadTensor);
      } else if (key == "runtime" && reader_.Peek() == JsonKind::kString) {
        std::string_view runtime;
        ok = reader_.ReadString(&runtime) || SyntaxError();
        graph_.runtime = std::string(runtime);  // newer captures (spec/viewer.md §9)
      } else {
        ok = reader_.SkipValue() || SyntaxError();
      }
    }
    if (ok) ok = Check() && (reader_.ExpectEnd() || SyntaxError());
  }
  if (ok) ok = Finish();
  if (!ok) {
    *err = error_.empty() ? name_ + ": invalid input" : error_;
    graph_ = DepGraph();
    return false;
  }
  if (progress_) progress_(1.0);
  return true;
}

// Builds nodes, the task/tensor indices and the unique pair graph.
bool DepsLoader::Finish() {
  // Tasks: last entry wins on duplicate ids.
  std::vector<std::pair<TaskId, uint32_t>>& index = graph_.task_index;
  index.clear();
  index.reserve(graph_.tasks.size());
  for (uint32_t t = 0; t < graph_.tasks.size(); ++t) index.emplace_back(graph_.tasks[t].id, t);
  std::stable_sort(index.begin(), index.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  {
    std::vector<std::pair<TaskId, uint32_t>> unique;
    unique.reserve(index.size());
    for (const auto& entry : index) {
      if (!unique.empty() && unique.back().first == entry.first) {
        unique.back() = entry;
      } else {
        unique.push_back(entry);
      }
    }
    index.swap(unique);
  }
  // Tensors: sorted by id, last entry wins.
  std::stable_sort(raw_tensors_.begin(), raw_tensors_.end(),
                   [](const Tensor& a, const Tensor& b) { return a.id < b.id; });
  graph_.tensors.clear();
  for (const Tensor& t : raw_tensors_) {
    if (!graph_.tensors.empty() && graph_.tensors.back().id == t.id) {
      graph_.tensors.back() = t;
    } else {
      graph_.tensors.push_back(t);
    }
  }
  raw_tensors_.clear();
  raw_tensors_.shrink_to_fit();

  // Nodes: edge endpoints and tasks with an active kernel slot.
  std::vector<TaskId>& nodes = graph_.nodes;
  nodes.clear();
  nodes.reserve(row_ends_.size() + index.size());
  for (const auto& [pred, succ] : row_ends_) {
    nodes.push_back(pred);
    nodes.push_back(succ);
  }
  for (const auto& entry : index) {
    if (graph_.tasks[entry.second].HasActiveKernel()) nodes.push_back(entry.first);
  }
  std::sort(nodes.begin(), nodes.end());
  nodes.erase(std::unique(nodes.begin(), nodes.end()), nodes.end());
  nodes.shrink_to_fit();
  if (nodes.size() >= UINT32_MAX) return SemanticError(nullptr, "too many tasks");

  graph_.node_task.assign(nodes.size(), -1);
  {
    size_t n = 0;
    for (const auto& entry : index) {
      while (n < nodes.size() && nodes[n] < entry.first) ++n;
      if (n < nodes.size() && nodes[n] == entry.first) {
        graph_.node_task[n] = static_cast<int32_t>(entry.second);
      }
    }
  }

  // Pairs, sorted by (pred, succ) index = numeric id order.
  auto node_of = [&](TaskId id) {
    return static_cast<uint32_t>(std::lower_bound(nodes.begin(), nodes.end(), id) - nodes.begin());
  };
  std::vector<Pair> row_pairs(row_ends_.size());
  for (size_t r = 0; r < row_ends_.size(); ++r) {
    row_pairs[r] = Pair{node_of(row_ends_[r].first), node_of(row_ends_[r].second)};
  }
  row_ends_.clear();
  row_ends_.shrink_to_fit();
  auto less = [](const Pair& a, const Pair& b) {
    return a.pred != b.pred ? a.pred < b.pred : a.succ < b.succ;
  };
  graph_.pairs = row_pairs;
  std::sort(graph_.pairs.begin(), graph_.pairs.end(), less);
  graph_.pairs.erase(std::unique(graph_.pairs.begin(), graph_.pairs.end(),
                                 [](const Pair& a, const Pair& b) {
                                   return a.pred == b.pred && a.succ == b.succ;
                                 }),
                     graph_.pairs.end());
  graph_.pairs.shrink_to_fit();
  for (size_t r = 0; r < row_pairs.size(); ++r) {
    graph_.rows[r].pair = static_cast<uint32_t>(
        std::lower_bound(graph_.pairs.begin(), graph_.pairs.end(), row_pairs[r], less) -
        graph_.pairs.begin());
  }
  row_pairs.clear();
  row_pairs.shrink_to_fit();
  graph_.rows.shrink_to_fit();
  graph_.dims.shrink_to_fit();

  std::vector<std::pair<uint32_t, uint32_t>> edge_list;
  edge_list.reserve(graph_.pairs.size());
  for (const Pair& p : graph_.pairs) edge_list.emplace_back(p.pred, p.succ);
  graph_.graph = PairGraph(boost::edges_are_unsorted_multi_pass, edge_list.begin(), edge_list.end(),
                           nodes.size());
  return true;
}

}  // namespace

bool LoadDepsJson(const std::string& path, DepGraph* graph, std::string* err,
                  const ProgressFn& progress) {
  *graph = DepGraph();
  // Refuse FIFOs, devices and directories before JsonReader opens (and could block on) them.
  InputFileError refused;
  if (!CheckRegularInput(path, nullptr, &refused)) {
    *err = refused.message;
    return false;
  }
  JsonReader reader;
  std::string open_error;
  if (!reader.Open(path, &open_error)) {
    *err = path + ": " + open_error;
    return false;
  }
  DepsLoader loader(&reader, path, graph, progress);
  return loader.Load(err);
}

bool LoadDepsJsonText(std::string_view text, const std::string& display_name, DepGraph* graph,
                      std::string* err) {
  *graph = DepGraph();
  JsonReader reader;
  reader.OpenBuffer(text);
  ProgressFn none;
  DepsLoader loader(&reader, display_name, graph, none);
  return loader.Load(err);
}

}  // namespace depgraph
