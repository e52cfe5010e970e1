#include "depgraph/timing/merged_trace.h"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <unordered_map>

#include "depgraph/internal/py_int.h"
#include "depgraph/internal/message_quote.h"
#include "depgraph/support/input_file.h"
#include "depgraph/support/json_dom.h"
#include "depgraph/support/json_reader.h"
#include "depgraph/support/json_writer.h"
#include "depgraph/support/python_json_form.h"

namespace depgraph {

namespace {

using nlohmann::ordered_json;

constexpr const char* kShapeMessage = "merged swimlane JSON must contain a traceEvents list";

/// `args.taskId` of a Worker View task bar (ph "X", pid numerically 4, taskId not null), else
/// nullptr. An `args` that is not an object makes no bar (LoadMergedTrace reports it).
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

/// What one `traceEvents` array held, for the checks made once the whole document is read.
struct EventsScan {
  bool is_array = false;
  bool all_objects = true;
  std::string fatal;  ///< the first event whose `args` is not an object, as a message
  std::unordered_set<std::string> bar_keys;
  std::vector<MergedTraceEvent> events;
  std::vector<MergedTraceBar> bars;
};

/// Events between two releases of the mapped pages already read.
constexpr size_t kEventsPerRelease = 4096;

/// The JSON path of event `i` in messages (the reference's wording, for a bare array too).
std::string EventPath(size_t i) { return "traceEvents[" + std::to_string(i) + "]"; }

/// The members of an event a rewrite looks at, and of its `args`.
constexpr std::string_view kEventKeys[] = {"ph", "pid", "args", "name"};
enum EventKey { kPh, kPid, kArgs, kName };
constexpr std::string_view kArgsKeys[] = {"taskId"};

/// The name a bar off the path gets: `·(<display id>)` (U+00B7 MIDDLE DOT).
std::string RenamedBarName(const MergedTraceBar& bar) { return "\xC2\xB7(" + bar.display + ")"; }

/// Records a bar whose taskId is `id` in *scan; returns its index.
int64_t AddBar(const ordered_json& id, EventsScan* scan) {
  MergedTraceBar bar{PythonKeyText(id), TraceDisplayId(id)};
  scan->bar_keys.insert(bar.key);
  scan->bars.push_back(std::move(bar));
  return static_cast<int64_t>(scan->bars.size() - 1);
}

/// Fills *event (begin and end set) for an event whose text is in the rewrite's form, without
/// a DOM; false when it needs one after all (an `args` that is not an object, a bar without a
/// name or with a container as its taskId). `level`: the event's nesting level.
bool LocateVerbatimEvent(std::string_view text, int level, MergedTraceEvent* event,
                         EventsScan* scan) {
  JsonMemberSpan spans[4];
  if (!MatchPythonIndentedJson(text, level, kEventKeys, 4, spans)) return false;
  const auto value = [&](const JsonMemberSpan& span) {
    return text.substr(span.begin, span.end - span.begin);
  };
  event->verbatim = true;
  if (spans[kArgs].found && value(spans[kArgs])[0] != '{') return false;  // DOM: its message
  if (!spans[kPh].found || value(spans[kPh]) != "\"X\"" || !spans[kPid].found ||
      (value(spans[kPid]) != "4" && value(spans[kPid]) != "4.0") || !spans[kArgs].found) {
    return true;  // not a task bar
  }
  JsonMemberSpan id_span;
  const std::string_view args = value(spans[kArgs]);
  if (!MatchPythonIndentedJson(args, level + 1, kArgsKeys, 1, &id_span)) return false;
  if (!id_span.found) return true;
  const std::string_view id_text = args.substr(id_span.begin, id_span.end - id_span.begin);
  if (id_text == "null") return true;
  if (id_text[0] == '{' || id_text[0] == '[' || !spans[kName].found) return false;
  ordered_json id;
  std::string unused;
  if (!ParseJsonDocument(id_text, &id, &unused)) return false;
  event->bar = AddBar(id, scan);
  event->name_begin = event->begin + spans[kName].begin;
  event->name_end = event->begin + spans[kName].end;
  return true;
}

/// Reads the event array at the reader (its '[' next) one event at a time, checking each and
/// locating it in *scan. `level`: the events' nesting level. False with the error in *err.
bool ScanEvents(JsonReader* reader, std::string_view base, int level, EventsScan* scan,
                std::string* err) {
  scan->is_array = true;
  if (!reader->BeginArray()) {
    *err = reader->error();
    return false;
  }
  const std::string_view document = reader->text();
  ordered_json dom;
  for (size_t i = 0; reader->NextElement(); ++i) {
    if (i % kEventsPerRelease == kEventsPerRelease - 1) reader->ReleaseConsumed();
    // The JSON path, for the DOM reads' messages only (not built for verbatim events).
    const auto path = [&] { return std::string(base) + "[" + std::to_string(i) + "]"; };
    if (reader->Peek() != JsonKind::kObject) {
      scan->all_objects = false;
      if (!ReadJsonValue(reader, path(), &dom, err)) return false;
      continue;
    }
    MergedTraceEvent event;
    event.begin = reader->position();
    if (!reader->SkipValue()) {
      *err = reader->error();
      return false;
    }
    event.end = reader->position();
    const std::string_view text = document.substr(event.begin, event.end - event.begin);
    const size_t bars_before = scan->bars.size();
    if (!LocateVerbatimEvent(text, level, &event, scan)) {
      // Not in the rewrite's form: read it as a DOM (numbers beyond a double fail here, at
      // their path), as a whole-document read would.
      if (scan->bars.size() != bars_before) scan->bars.resize(bars_before);
      event = MergedTraceEvent{event.begin, event.end};
      JsonReader one;
      one.OpenBuffer(text);
      if (!ReadJsonValue(&one, path(), &dom, err)) return false;
      auto args = dom.find("args");
      if (args != dom.end() && !args->is_object()) {
        if (scan->fatal.empty()) {
          scan->fatal = EventPath(i) + ".args: expected an object, got " + args->type_name();
        }
      } else if (const ordered_json* id = BarTaskId(dom)) {
        event.bar = AddBar(*id, scan);
      }
    }
    scan->events.push_back(event);
  }
  if (reader->failed()) {
    *err = reader->error();
    return false;
  }
  return true;
}

/// The whole-document pass of LoadMergedTrace*: syntax first (anywhere in the document), then
/// the shape, then the first non-object `args` of the event array that counts.
MergedTraceStatus Scan(JsonReader* reader, MergedTrace* trace, std::string* err) {
  EventsScan events;  // of the last `traceEvents` (the one Python's dict keeps)
  bool has_events = false;
  const JsonKind kind = reader->Peek();
  if (kind == JsonKind::kArray) {
    trace->bare = true;
    has_events = true;
    if (!ScanEvents(reader, "", 1, &events, err)) return MergedTraceStatus::kInvalid;
  } else if (kind == JsonKind::kObject) {
    if (!reader->BeginObject()) {
      *err = reader->error();
      return MergedTraceStatus::kInvalid;
    }
    std::unordered_map<std::string, size_t> slot_of;
    std::string_view key_view;
    while (reader->NextKey(&key_view)) {
      std::string key(key_view);
      auto [it, fresh] = slot_of.emplace(key, trace->members.size());
      if (fresh) trace->members.emplace_back(key, nullptr);
      ordered_json& value = trace->members[it->second].second;
      if (key == "traceEvents") {
        has_events = true;
        trace->events_slot = it->second;
        events = EventsScan();
        value = nullptr;  // the slot stays empty: the events are streamed, not kept
        ordered_json not_an_array;  // read only to check it
        const bool read = reader->Peek() == JsonKind::kArray
                              ? ScanEvents(reader, "traceEvents", 2, &events, err)
                              : ReadJsonValue(reader, "traceEvents", &not_an_array, err);
        if (!read) return MergedTraceStatus::kInvalid;
      } else if (!ReadJsonValue(reader, JsonPathMember("", key), &value, err)) {
        return MergedTraceStatus::kInvalid;
      }
    }
    if (reader->failed()) {
      *err = reader->error();
      return MergedTraceStatus::kInvalid;
    }
  } else {
    ordered_json value;
    if (!ReadJsonValue(reader, "", &value, err)) return MergedTraceStatus::kInvalid;
  }
  if (!reader->ExpectEnd()) {
    *err = reader->error();
    return MergedTraceStatus::kInvalid;
  }
  if (!has_events || !events.is_array || !events.all_objects) {
    *err = kShapeMessage;
    return MergedTraceStatus::kInvalid;
  }
  if (!events.fatal.empty()) {
    *err = events.fatal;
    return MergedTraceStatus::kFatal;
  }
  trace->bar_keys = std::move(events.bar_keys);
  trace->events = std::move(events.events);
  trace->bars = std::move(events.bars);
  return MergedTraceStatus::kOk;
}

/// Opens a reader on the trace's document again: its file, or the text it was read from.
bool Reopen(const MergedTrace& trace, JsonReader* reader, std::string* err) {
  if (trace.path.empty()) {
    reader->OpenBuffer(trace.text);
    return true;
  }
  return reader->Open(trace.path, err);
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
  InputFileError error;
  uint64_t size = 0;
  if (!CheckRegularInput(path, &size, &error)) {
    *err = error.message;
    return MergedTraceStatus::kInvalid;
  }
  JsonReader reader;
  if (!reader.Open(path, err)) {
    *err = EscapeForMessage(path) + ": " + *err;
    return MergedTraceStatus::kInvalid;
  }
  trace->path = path;
  const MergedTraceStatus status = Scan(&reader, trace, err);
  if (status != MergedTraceStatus::kOk) *trace = MergedTrace();
  return status;
}

MergedTraceStatus LoadMergedTraceText(std::string_view text, MergedTrace* trace, std::string* err) {
  *trace = MergedTrace();
  trace->text.assign(text);
  JsonReader reader;
  reader.OpenBuffer(trace->text);
  const MergedTraceStatus status = Scan(&reader, trace, err);
  if (status != MergedTraceStatus::kOk) *trace = MergedTrace();
  return status;
}

MergedTraceStatus CheckCriticalBars(
    const MergedTrace& trace, const std::vector<const std::unordered_set<std::string>*>& criticals,
    std::string* err) {
  for (const std::unordered_set<std::string>* critical : criticals) {
    std::vector<std::string> missing;
    for (const std::string& key : *critical) {
      if (trace.bar_keys.count(key) == 0) missing.push_back(key);
    }
    if (missing.empty()) continue;
    std::sort(missing.begin(), missing.end());
    *err =
        "merged Worker View is missing " + std::to_string(missing.size()) + " critical task(s): ";
    for (size_t i = 0; i < missing.size() && i < 5; ++i) *err += (i ? ", " : "") + missing[i];
    return MergedTraceStatus::kInvalid;
  }
  return MergedTraceStatus::kOk;
}

MergedTraceStatus RewriteMergedTraces(
    const MergedTrace& trace, const std::vector<const std::unordered_set<std::string>*>& criticals,
    const std::vector<std::ostream*>& outs, std::string* err) {
  if (CheckCriticalBars(trace, criticals, err) != MergedTraceStatus::kOk) {
    return MergedTraceStatus::kInvalid;
  }
  if (trace.members.empty() && !trace.bare) {
    *err = kShapeMessage;  // not a loaded trace
    return MergedTraceStatus::kInvalid;
  }
  JsonReader reader;
  if (!Reopen(trace, &reader, err)) return MergedTraceStatus::kInvalid;
  const std::string_view document = reader.text();
  const auto write = [](std::ostream* out, std::string_view text) {
    out->write(text.data(), static_cast<std::streamsize>(text.size()));
  };
  const auto write_all = [&](std::string_view text) {
    for (std::ostream* out : outs) write(out, text);
  };
  // The events array sits at level 1 inside a top-level object, at level 0 as a bare array.
  const auto stream_events = [&](int level) {
    if (trace.events.empty()) {
      write_all("[]");
      return true;
    }
    const std::string indent(static_cast<size_t>(2 * (level + 1)), ' ');
    const std::string first = "[\n" + indent, next = ",\n" + indent;
    ordered_json dom;
    std::string kept, renamed;  // the DOM path's texts, each made at most once per event
    for (size_t i = 0; i < trace.events.size(); ++i) {
      const MergedTraceEvent& event = trace.events[i];
      if (i % kEventsPerRelease == 0) {
        reader.PrefetchTo(std::min<uint64_t>(event.end + (uint64_t{64} << 20), document.size()));
        reader.ReleaseBefore(event.begin);
      }
      write_all(i == 0 ? first : next);
      const std::string_view text = document.substr(event.begin, event.end - event.begin);
      const MergedTraceBar* bar = event.bar >= 0 ? &trace.bars[event.bar] : nullptr;
      if (event.verbatim) {
        renamed.clear();  // the renamed bar's name as JSON, made once for every output
        for (size_t o = 0; o < outs.size(); ++o) {
          if (bar == nullptr || criticals[o]->count(bar->key) != 0) {
            write(outs[o], text);
            continue;
          }
          if (renamed.empty()) AppendPythonJsonString(&renamed, RenamedBarName(*bar));
          write(outs[o], text.substr(0, event.name_begin - event.begin));
          write(outs[o], renamed);
          write(outs[o], text.substr(event.name_end - event.begin));
        }
        continue;
      }
      JsonReader one;
      one.OpenBuffer(text);
      if (!ReadJsonValue(&one, EventPath(i), &dom, err)) return false;
      kept.clear();
      renamed.clear();
      for (size_t o = 0; o < outs.size(); ++o) {
        const bool rename = bar != nullptr && criticals[o]->count(bar->key) == 0;
        std::string& out_text = rename ? renamed : kept;
        if (out_text.empty()) {
          if (rename) {
            ordered_json copy = dom;
            copy["name"] = RenamedBarName(*bar);
            AppendPythonJsonDump(copy, 2, &out_text, level + 1);
          } else {
            AppendPythonJsonDump(dom, 2, &out_text, level + 1);
          }
        }
        write(outs[o], out_text);
      }
    }
    write_all("\n" + std::string(static_cast<size_t>(2 * level), ' ') + "]");
    return true;
  };
  if (trace.bare) {
    if (!stream_events(0)) return MergedTraceStatus::kInvalid;
  } else {
    write_all("{");
    std::string text;
    for (size_t m = 0; m < trace.members.size(); ++m) {
      text.assign(m ? ",\n  " : "\n  ");
      AppendPythonJsonString(&text, trace.members[m].first);
      text.append(": ");
      if (m == trace.events_slot) {
        write_all(text);
        if (!stream_events(1)) return MergedTraceStatus::kInvalid;
        continue;
      }
      AppendPythonJsonDump(trace.members[m].second, 2, &text, 1);
      write_all(text);
    }
    write_all("\n}");
  }
  write_all("\n");
  return MergedTraceStatus::kOk;
}

MergedTraceStatus RewriteMergedTrace(const MergedTrace& trace,
                                     const std::unordered_set<std::string>& critical,
                                     std::string* out, std::string* err) {
  std::ostringstream stream;
  const MergedTraceStatus status = RewriteMergedTraces(trace, {&critical}, {&stream}, err);
  *out = status == MergedTraceStatus::kOk ? std::move(stream).str() : std::string();
  return status;
}

}  // namespace depgraph
