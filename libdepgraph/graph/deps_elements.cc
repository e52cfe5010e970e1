// The deps.json loader's element readers: one edge row, task (with its args) or tensor,
// and the scalar coercions they share (Python int() ids, dtypes, dims, truthiness).
#include <string>

#include "deps_loader.h"
#include "depgraph/internal/message_quote.h"
#include "depgraph/internal/py_int.h"

namespace depgraph {

namespace {

// Longest string value echoed in a "got ..." message, in bytes.
constexpr size_t kShownBytes = 40;
// Shapes and strides of up to this many dims take the reader's fast path (ReadDims).
constexpr size_t kPlainDims = 8;

}  // namespace

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

bool DepsLoader::ReadPyInt(PyInt* out, ShownValue* shown) {
  *out = PyInt{};
  const JsonKind kind = reader_.Peek();
  if (shown) shown->kind = kind;
  if (kind == JsonKind::kNumber || kind == JsonKind::kString) {
    uint64_t plain;
    std::string_view digits;
    if (reader_.TryReadPlainDecimal(&plain, &digits)) {
      *out = PyInt{PyInt::kOk, plain};
      if (shown) shown->token = digits;
      return true;
    }
  }
  switch (kind) {
    case JsonKind::kNumber: {
      std::string_view token;
      if (!reader_.ReadNumber(&token)) return SyntaxError();
      uint64_t plain;
      *out = PlainDecimal(token, &plain) ? PyInt{PyInt::kOk, plain} : PyIntFromNumber(token);
      if (shown) shown->token = token;
      return true;
    }
    case JsonKind::kString: {
      std::string_view text;
      if (!reader_.ReadString(&text)) return SyntaxError();
      uint64_t plain;
      *out = PlainDecimal(text, &plain) ? PyInt{PyInt::kOk, plain} : PyIntFromString(text);
      if (shown) shown->token = text;
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
      if (shown) shown->described = std::move(d);
      return Check();
    }
  }
}

std::string ShownValue::Text() const {
  switch (kind) {
    case JsonKind::kNumber: return std::string(token.substr(0, kShownBytes));
    case JsonKind::kString: return QuoteForMessage(token, kShownBytes);
    case JsonKind::kTrue:
    case JsonKind::kFalse: return "";
    default: return described;
  }
}

bool DepsLoader::ReadId(const char* leaf, TaskId* id) {
  uint64_t plain;
  std::string_view digits;
  if (reader_.TryReadPlainDecimal(&plain, &digits)) {  // what ReadPyInt would say, sooner
    *id = plain;
    return true;
  }
  PyInt value;
  ShownValue shown;
  if (!ReadPyInt(&value, &shown)) return false;
  if (!ToTaskId(value, id)) {
    return SemanticError(leaf, "expected an unsigned 64-bit id, got " + shown.Text());
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
  uint64_t plain;
  std::string_view digits;
  if (reader_.TryReadPlainDecimal(&plain, &digits)) {  // what ReadPyInt would say, sooner
    if (plain <= INT64_MAX) {
      *value = static_cast<int64_t>(plain);
      *state = FieldState::kValid;
    } else {
      *state = FieldState::kInvalid;  // as ToInt64 says of it below
    }
    return true;
  }
  PyInt v;
  if (!ReadPyInt(&v, nullptr)) return false;
  int64_t x = 0;
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
  const size_t start = graph_.dims.size();
  bool valid = true;
  int64_t plain[kPlainDims];
  size_t plain_count = 0;
  if (reader_.TryReadPlainNumberArray(plain, kPlainDims, &plain_count)) {
    for (size_t i = 0; i < plain_count; ++i) valid = valid && plain[i] > 0;
    graph_.dims.insert(graph_.dims.end(), plain, plain + plain_count);
  } else {
    if (!reader_.BeginArray()) return SyntaxError();
    while (reader_.NextElement()) {
      PyInt v;
      if (!ReadPyInt(&v, nullptr)) return false;
      int64_t x = 0;
      if (!ToInt64(v, &x) || x <= 0) valid = false;
      graph_.dims.push_back(x);
    }
    if (!Check()) return false;
  }
  size_t count = graph_.dims.size() - start;
  if (!valid || count == 0 || count > UINT16_MAX) {
    graph_.dims.resize(start);
    dims->state = FieldState::kInvalid;
    return true;
  }
  const uint32_t offset = dim_interner_.Intern(graph_.dims, static_cast<uint32_t>(start),
                                               static_cast<uint16_t>(count));
  if (offset != start) graph_.dims.resize(start);  // an equal list is stored already
  dims->offset = offset;
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
  // With LoadOptions::views off, a view key's value is only checked (SkipViewValue).
  *handled = true;
  if (key == "dtype") return views_ ? ReadDType(&view->dtype, &view->dtype_state) : SkipViewValue();
  if (key == "shape") return views_ ? ReadDims(&view->shape) : SkipViewValue();
  if (key == "strides") return views_ ? ReadDims(&view->strides) : SkipViewValue();
  if (key == "start_offset") {
    return views_ ? ReadSmallInt(&view->start_offset_state, &view->start_offset, true)
                  : SkipViewValue();
  }
  *handled = false;
  return true;
}

bool DepsLoader::SkipViewValue() {
  // The compact forms first (a shape, an offset): what SkipValue would accept, element by
  // element, without its general path.
  int64_t plain[kPlainDims];
  size_t count = 0;
  if (reader_.TryReadPlainNumberArray(plain, kPlainDims, &count)) return true;
  uint64_t value;
  std::string_view digits;
  if (reader_.TryReadPlainDecimal(&value, &digits)) return true;
  return reader_.SkipValue() || SyntaxError();
}

bool DepsLoader::ReadEdge(size_t i) {
  ReportProgress();
  if (reader_.Peek() != JsonKind::kObject) {
    return Check() && SemanticError(nullptr, "expected an object, got " + DescribeAndSkip());
  }
  EdgeRow row;
  View consumer, producer;
  bool has_producer = false;
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
      ok = ReadOverlap(&row.overlap);
    } else if (key.starts_with("consumer_")) {
      bool handled;
      ok = ReadViewField(key.substr(9), &consumer, &handled);
      if (ok && !handled) ok = reader_.SkipValue() || SyntaxError();
    } else if (key.starts_with("producer_")) {
      bool handled;
      ok = ReadViewField(key.substr(9), &producer, &handled);
      has_producer = has_producer || (handled && views_);
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
  if (has_producer) {
    row.producer_view = static_cast<uint32_t>(graph_.producer_views.size());
    graph_.producer_views.push_back(producer);
  }
  graph_.rows.push_back(row);
  if (views_) graph_.consumer_views.push_back(consumer);
  return true;
}

bool DepsLoader::ReadOverlap(uint8_t* overlap) {
  std::string_view name;
  std::string described;
  if (reader_.Peek() == JsonKind::kString) {
    if (!reader_.ReadString(&name)) return SyntaxError();
  } else {
    described = DescribeAndSkip();
    if (!Check()) return false;
    name = described;
  }
  auto it = overlap_ids_.find(std::string(name));
  if (it == overlap_ids_.end()) {
    if (graph_.overlap_names.size() >= 255) {
      return SemanticError("overlap", "more than 254 distinct overlap values");
    }
    it = overlap_ids_.emplace(std::string(name), graph_.overlap_names.size()).first;
    graph_.overlap_names.emplace_back(name);
  }
  *overlap = it->second;
  return true;
}

bool DepsLoader::ReadArg(size_t i) {
  if (reader_.Peek() != JsonKind::kObject) {
    return Check() && SemanticError(nullptr, "expected an object, got " + DescribeAndSkip());
  }
  TaskArg arg;
  View view;
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
      ok = ReadViewField(key, &view, &handled);
      if (ok && !handled) ok = reader_.SkipValue() || SyntaxError();
    }
    if (!ok) return false;
  }
  if (!Check()) return false;
  graph_.args.push_back(arg);
  if (views_) graph_.arg_views.push_back(view);
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
      if (views_) graph_.arg_views.resize(task.first_arg);
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

}  // namespace depgraph
