#include "depgraph/timing/merged_trace.h"

#include <algorithm>
#include <cmath>

#include "depgraph/internal/py_int.h"
#include "depgraph/support/input_file.h"
#include "depgraph/support/json_dom.h"
#include "depgraph/support/json_writer.h"

namespace depgraph {

namespace {

using nlohmann::ordered_json;

/// Largest merged trace read, in bytes (the DOM needs about ten times as much memory).
constexpr uint64_t kMaxTraceBytes = uint64_t{1} << 36;

constexpr const char* kShapeMessage = "merged swimlane JSON must contain a traceEvents list";

/// The event list of a document with a valid top level, or nullptr.
const ordered_json* EventsOf(const ordered_json& doc) {
  const ordered_json* events = nullptr;
  if (doc.is_array()) {
    events = &doc;
  } else if (doc.is_object()) {
    auto it = doc.find("traceEvents");
    if (it != doc.end() && it->is_array()) events = &*it;
  }
  if (events == nullptr) return nullptr;
  for (const ordered_json& event : *events) {
    if (!event.is_object()) return nullptr;
  }
  return events;
}

/// `args.taskId` of a Worker View task bar (ph "X", pid numerically 4, taskId not null), else
/// nullptr. The event's `args` must be an object if present (checked by LoadMergedTrace).
const ordered_json* BarTaskId(const ordered_json& event) {
  auto ph = event.find("ph");
  if (ph == event.end() || !ph->is_string() || ph->get_ref<const std::string&>() != "X") {
    return nullptr;
  }
  auto pid = event.find("pid");
  if (pid == event.end()) return nullptr;
  if (pid->is_number_integer() || pid->is_number_unsigned()) {
    if (!(pid->is_number_unsigned() ? pid->get<uint64_t>() == 4 : pid->get<int64_t>() == 4)) {
      return nullptr;
    }
  } else if (!pid->is_number_float() || pid->get<double>() != 4.0) {
    return nullptr;
  }
  auto args = event.find("args");
  if (args == event.end() || !args->is_object()) return nullptr;
  auto id = args->find("taskId");
  if (id == args->end() || id->is_null()) return nullptr;
  return &*id;
}

MergedTraceStatus Check(MergedTrace* trace, std::string* err) {
  const ordered_json* events = EventsOf(trace->doc);
  if (events == nullptr) {
    *err = kShapeMessage;
    return MergedTraceStatus::kInvalid;
  }
  for (size_t i = 0; i < events->size(); ++i) {
    const ordered_json& event = (*events)[i];
    auto args = event.find("args");
    if (args != event.end() && !args->is_object()) {
      *err = "traceEvents[" + std::to_string(i) + "].args: expected an object, got " +
             std::string(args->type_name());
      return MergedTraceStatus::kFatal;
    }
    if (const ordered_json* id = BarTaskId(event)) trace->bar_keys.insert(PythonKeyText(*id));
  }
  return MergedTraceStatus::kOk;
}

}  // namespace

std::string PythonKeyText(const ordered_json& value) {
  switch (value.type()) {
    case ordered_json::value_t::string:
      return value.get<std::string>();
    case ordered_json::value_t::number_integer:
      return std::to_string(value.get<int64_t>());
    case ordered_json::value_t::number_unsigned:
      return std::to_string(value.get<uint64_t>());
    case ordered_json::value_t::number_float:
      return PythonFloatRepr(value.get<double>());
    case ordered_json::value_t::boolean:
      return value.get<bool>() ? "True" : "False";
    case ordered_json::value_t::null:
      return "None";
    default:
      return value.dump();
  }
}

std::string TraceDisplayId(const ordered_json& task_id) {
  PyInt v;
  switch (task_id.type()) {
    case ordered_json::value_t::number_integer:
      v = PyInt{PyInt::kOk, task_id.get<int64_t>()};
      break;
    case ordered_json::value_t::number_unsigned:
      v = PyInt{PyInt::kOk, static_cast<__int128>(task_id.get<uint64_t>())};
      break;
    case ordered_json::value_t::number_float: {
      const double d = task_id.get<double>();
      if (std::isfinite(d) && std::fabs(d) < 8.5e37) {
        v = PyInt{PyInt::kOk, static_cast<__int128>(std::trunc(d))};
      }
      break;
    }
    case ordered_json::value_t::string:
      v = PyIntFromString(task_id.get_ref<const std::string&>());
      break;
    case ordered_json::value_t::boolean:
      v = PyIntFromBool(task_id.get<bool>());
      break;
    default:
      break;
  }
  if (v.status != PyInt::kOk) return PythonKeyText(task_id);
  const uint64_t bits = static_cast<uint64_t>(static_cast<unsigned __int128>(v.value));
  const uint64_t ring = (bits >> 32) & 0xFF, local = bits & 0xFFFFFFFFu;
  return ring == 0 ? "t" + std::to_string(local)
                   : "r" + std::to_string(ring) + "t" + std::to_string(local);
}

MergedTraceStatus LoadMergedTrace(const std::string& path, MergedTrace* trace, std::string* err) {
  *trace = MergedTrace();
  std::string text;
  InputFileError error;
  if (!ReadInputFile(path, kMaxTraceBytes, &text, &error)) {
    *err = error.message;
    return MergedTraceStatus::kInvalid;
  }
  return LoadMergedTraceText(text, trace, err);
}

MergedTraceStatus LoadMergedTraceText(std::string_view text, MergedTrace* trace, std::string* err) {
  *trace = MergedTrace();
  if (!ParseJsonDocument(text, &trace->doc, err)) {
    *trace = MergedTrace();  // the parser may have built part of the document
    return MergedTraceStatus::kInvalid;
  }
  const MergedTraceStatus status = Check(trace, err);
  if (status != MergedTraceStatus::kOk) *trace = MergedTrace();
  return status;
}

MergedTraceStatus RewriteMergedTrace(const MergedTrace& trace,
                                     const std::unordered_set<std::string>& critical,
                                     std::string* out, std::string* err) {
  std::vector<std::string> missing;
  for (const std::string& key : critical) {
    if (trace.bar_keys.count(key) == 0) missing.push_back(key);
  }
  if (!missing.empty()) {
    std::sort(missing.begin(), missing.end());
    *err =
        "merged Worker View is missing " + std::to_string(missing.size()) + " critical task(s): ";
    for (size_t i = 0; i < missing.size() && i < 5; ++i) *err += (i ? ", " : "") + missing[i];
    return MergedTraceStatus::kInvalid;
  }
  const ordered_json* events = EventsOf(trace.doc);
  if (events == nullptr) {
    *err = kShapeMessage;
    return MergedTraceStatus::kInvalid;
  }
  // Written event by event (no copy of the document): the events array sits at level 1 inside
  // a top-level object, at level 0 as a bare array.
  out->clear();
  const bool bare = trace.doc.is_array();
  const auto append_events = [&](int level) {
    if (events->empty()) {
      out->append("[]");
      return;
    }
    out->push_back('[');
    for (size_t i = 0; i < events->size(); ++i) {
      const ordered_json& event = (*events)[i];
      out->append(i ? ",\n" : "\n");
      out->append(static_cast<size_t>(2 * (level + 1)), ' ');
      const ordered_json* id = BarTaskId(event);
      if (id == nullptr || critical.count(PythonKeyText(*id)) != 0) {
        AppendPythonJsonDump(event, 2, out, level + 1);
      } else {
        ordered_json copy = event;
        copy["name"] = "\xC2\xB7(" + TraceDisplayId(*id) + ")";  // U+00B7 MIDDLE DOT
        AppendPythonJsonDump(copy, 2, out, level + 1);
      }
    }
    out->push_back('\n');
    out->append(static_cast<size_t>(2 * level), ' ');
    out->push_back(']');
  };
  if (bare) {
    append_events(0);
  } else {
    out->push_back('{');
    bool first = true;
    for (auto it = trace.doc.begin(); it != trace.doc.end(); ++it) {
      out->append(first ? "\n  " : ",\n  ");
      first = false;
      AppendPythonJsonString(out, it.key());
      out->append(": ");
      if (it.key() == "traceEvents") {
        append_events(1);
      } else {
        AppendPythonJsonDump(it.value(), 2, out, 1);
      }
    }
    out->append("\n}");
  }
  out->push_back('\n');
  return MergedTraceStatus::kOk;
}

}  // namespace depgraph
