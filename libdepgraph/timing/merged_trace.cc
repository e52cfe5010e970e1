#include "depgraph/timing/merged_trace.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <deque>
#include <sstream>
#include <thread>
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

/// The name a bar off the path gets: `·(<display id>)` (U+00B7 MIDDLE DOT).
std::string RenamedBarName(const MergedTraceBar& bar) { return "\xC2\xB7(" + bar.display + ")"; }

/// Writes a rewrite of the trace to every output at once, piece by piece in document order:
/// events (copied, spliced or dumped from their DOM) and top-level members. One per rewrite.
class TraceWriter {
 public:
  TraceWriter(const std::vector<const std::unordered_set<std::string>*>& criticals,
              const std::vector<std::ostream*>& outs)
      : criticals_(criticals), outs_(outs) {}

  /// The same text to every output.
  void All(std::string_view text) {
    for (std::ostream* out : outs_) Write(out, text);
  }
  /// Top-level member `index` (0: the first): its key and, unless `value` is null, its value.
  void Member(size_t index, const std::string& key, const ordered_json* value) {
    std::string text(index ? ",\n  " : "\n  ");
    AppendPythonJsonString(&text, key);
    text.append(": ");
    if (value != nullptr) AppendPythonJsonDump(*value, 2, &text, 1);
    All(text);
  }
  /// Starts the event array at nesting level `level` (0: the document is the array).
  void BeginEvents(int level) {
    level_ = level;
    count_ = 0;
    const std::string indent(static_cast<size_t>(2 * (level + 1)), ' ');
    first_ = "[\n" + indent;
    next_ = ",\n" + indent;
  }
  /// One event: `text` its bytes; `bar` its bar or nullptr; `dom` its DOM unless verbatim.
  void Event(const MergedTraceEvent& event, const MergedTraceBar* bar, std::string_view text,
             const ordered_json* dom) {
    All(count_++ == 0 ? first_ : next_);
    renamed_.clear();  // the renamed bar's text, made once for every output
    kept_.clear();
    for (size_t o = 0; o < outs_.size(); ++o) {
      const bool rename = bar != nullptr && criticals_[o]->count(bar->key) == 0;
      if (event.verbatim) {
        if (!rename) {
          Write(outs_[o], text);
          continue;
        }
        if (renamed_.empty()) AppendPythonJsonString(&renamed_, RenamedBarName(*bar));
        Write(outs_[o], text.substr(0, event.name_begin - event.begin));
        Write(outs_[o], renamed_);
        Write(outs_[o], text.substr(event.name_end - event.begin));
        continue;
      }
      std::string& out_text = rename ? renamed_ : kept_;
      if (out_text.empty()) {
        if (rename) {
          ordered_json copy = *dom;
          copy["name"] = RenamedBarName(*bar);
          AppendPythonJsonDump(copy, 2, &out_text, level_ + 1);
        } else {
          AppendPythonJsonDump(*dom, 2, &out_text, level_ + 1);
        }
      }
      Write(outs_[o], out_text);
    }
  }
  /// Closes the event array.
  void EndEvents() {
    All(count_ == 0 ? std::string("[]")
                    : "\n" + std::string(static_cast<size_t>(2 * level_), ' ') + "]");
  }

 private:
  static void Write(std::ostream* out, std::string_view text) {
    out->write(text.data(), static_cast<std::streamsize>(text.size()));
  }

  const std::vector<const std::unordered_set<std::string>*>& criticals_;
  const std::vector<std::ostream*>& outs_;
  int level_ = 0;
  size_t count_ = 0;
  std::string first_, next_, kept_, renamed_;
};

/// What one `traceEvents` array held, for the checks made once the whole document is read.
/// Recording (LoadMergedTrace) keeps each event and bar; streaming (StreamMergedTraceRewrites)
/// hands each to the writer and keeps only which critical keys have a bar.
struct EventsScan {
  bool is_array = false;
  bool all_objects = true;
  std::string fatal;  ///< the first event whose `args` is not an object, as a message
  std::unordered_set<std::string> bar_keys;
  std::vector<MergedTraceEvent> events;
  std::vector<MergedTraceBar> bars;
  TraceWriter* writer = nullptr;  ///< streaming: where events go
  const std::vector<const std::unordered_set<std::string>*>* criticals = nullptr;
  std::vector<std::unordered_set<std::string>> found;  ///< streaming: critical keys with a bar

  /// Takes one located event (`dom`: its DOM, for one not verbatim).
  void Take(MergedTraceEvent event, const MergedTraceBar* bar, std::string_view text,
            const ordered_json* dom) {
    if (writer == nullptr) {
      if (bar != nullptr) {
        bar_keys.insert(bar->key);
        bars.push_back(*bar);
        event.bar = static_cast<int64_t>(bars.size() - 1);
      }
      events.push_back(event);
      return;
    }
    if (bar != nullptr) {
      found.resize(criticals->size());
      for (size_t o = 0; o < criticals->size(); ++o) {
        if ((*criticals)[o]->count(bar->key) != 0) found[o].insert(bar->key);
      }
    }
    writer->Event(event, bar, text, dom);
  }
};

/// Events between two releases of the mapped pages already read.
constexpr size_t kEventsPerRelease = 4096;

/// The JSON path of event `i` in messages (the reference's wording, for a bare array too).
std::string EventPath(size_t i) { return "traceEvents[" + std::to_string(i) + "]"; }

/// The members of an event a rewrite looks at, and of its `args`.
constexpr std::string_view kEventKeys[] = {"ph", "pid", "args", "name"};
enum EventKey { kPh, kPid, kArgs, kName };
constexpr std::string_view kArgsKeys[] = {"taskId"};

/// The bar of a task bar whose taskId is `id`.
MergedTraceBar MakeBar(const ordered_json& id) { return {PythonKeyText(id), TraceDisplayId(id)}; }

/// How LocateVerbatimEvent found an event.
enum class Located {
  kNoMatch,   ///< not in the rewrite's form (or not valid): read it with a reader
  kNeedsDom,  ///< in the form, event->end set, but it needs a DOM all the same
  kVerbatim,  ///< copied as is: event->end set, *bar filled when *is_bar
};

/// Locates the event at the start of `rest` (its offset in the document: event->begin) when its
/// text is in the rewrite's form, without a DOM and in one scan: its extent, and *bar when it is
/// a task bar (*is_bar). kNeedsDom for an `args` that is not an object, a bar without a name or
/// with a container as its taskId. `level`: the event's nesting level.
Located LocateVerbatimEvent(std::string_view rest, int level, MergedTraceEvent* event,
                            MergedTraceBar* bar, bool* is_bar) {
  *is_bar = false;
  JsonMemberSpan spans[4];
  const size_t length = MatchPythonIndentedJsonPrefix(rest, level, kEventKeys, 4, spans);
  if (length == 0) return Located::kNoMatch;
  event->end = event->begin + length;
  const std::string_view text = rest.substr(0, length);
  const auto value = [&](const JsonMemberSpan& span) {
    return text.substr(span.begin, span.end - span.begin);
  };
  if (spans[kArgs].found && value(spans[kArgs])[0] != '{') return Located::kNeedsDom;
  event->verbatim = true;
  if (!spans[kPh].found || value(spans[kPh]) != "\"X\"" || !spans[kPid].found ||
      (value(spans[kPid]) != "4" && value(spans[kPid]) != "4.0") || !spans[kArgs].found) {
    return Located::kVerbatim;  // not a task bar
  }
  JsonMemberSpan id_span;
  const std::string_view args = value(spans[kArgs]);
  if (!MatchPythonIndentedJson(args, level + 1, kArgsKeys, 1, &id_span)) {
    return Located::kNeedsDom;
  }
  if (!id_span.found) return Located::kVerbatim;
  const std::string_view id_text = args.substr(id_span.begin, id_span.end - id_span.begin);
  if (id_text == "null") return Located::kVerbatim;
  if (id_text[0] == '{' || id_text[0] == '[' || !spans[kName].found) return Located::kNeedsDom;
  ordered_json id;
  std::string unused;
  if (!ParseJsonDocument(id_text, &id, &unused)) return Located::kNeedsDom;
  *bar = MakeBar(id);
  *is_bar = true;
  event->name_begin = event->begin + spans[kName].begin;
  event->name_end = event->begin + spans[kName].end;
  return Located::kVerbatim;
}

/// An event located by LookAhead: what LocateVerbatimEvent found at its offset.
struct AheadEvent {
  MergedTraceEvent event;
  Located located = Located::kNoMatch;
  bool is_bar = false;
  MergedTraceBar bar;
};

/// The event-array size from which LookAhead runs (SetMergedTraceLookAheadThreshold).
std::atomic<size_t> look_ahead_threshold{size_t{16} << 20};

/// Locates the events of the second half of a large event array on a second core while the
/// reader works through the first half, so that matching, most of the checking, runs on both.
/// The thread starts at the first line past the middle that looks like an event's start (a
/// newline, the events' indentation, '{') and goes on while each event is followed by the next
/// (",\n", the indentation, '{'). What LocateVerbatimEvent finds depends on nothing but the
/// offset, so the reader takes an entry only when one of its own events starts there: a wrong
/// guess (a line of another member, say) costs time, never a different result. Memory: one
/// entry (about 130 bytes) per event of the second half; the mapped pages it has read are let
/// go every 32 MiB, so the reader's bound on them holds.
class LookAhead {
 public:
  /// Starts the thread when `document` past `from` is at least the threshold long.
  LookAhead(const JsonReader& reader, size_t from, int level)
      : reader_(reader), document_(reader.text()), level_(level) {
    const std::string_view document = document_;
    if (document.size() - from < look_ahead_threshold.load()) return;
    indent_ = "\n" + std::string(static_cast<size_t>(2 * level), ' ') + "{";
    const size_t start = document.find(indent_, from + (document.size() - from) / 2);
    if (start == std::string_view::npos) return;
    start_ = start + indent_.size() - 1;
    thread_ = std::thread([this] { Run(); });
  }
  ~LookAhead() {
    stop_ = true;
    if (thread_.joinable()) thread_.join();
  }
  LookAhead(const LookAhead&) = delete;
  LookAhead& operator=(const LookAhead&) = delete;

  /// The event located at `offset`, or nullptr. Offsets must grow from call to call; the first
  /// call at or past the thread's start waits for it to finish.
  const AheadEvent* At(size_t offset) {
    if (offset < start_) return nullptr;
    if (thread_.joinable()) thread_.join();
    while (next_ < events_.size() && events_[next_].event.begin < offset) ++next_;
    return next_ < events_.size() && events_[next_].event.begin == offset ? &events_[next_]
                                                                          : nullptr;
  }

 private:
  void Run() {
    size_t dropped = start_;  // the mapped pages before it (and past start_) are let go
    for (size_t at = start_; !stop_;) {
      if (at - dropped >= kDropBytes) {  // the reader maps them again when it gets there
        reader_.DropPages(dropped, at);
        dropped = at;
      }
      AheadEvent ahead;
      ahead.event.begin = at;
      ahead.located = LocateVerbatimEvent(document_.substr(at), level_, &ahead.event, &ahead.bar,
                                          &ahead.is_bar);
      if (ahead.located == Located::kNoMatch) return;
      at = ahead.event.end;
      events_.push_back(std::move(ahead));
      // The next event follows when ",", a newline, the indentation and '{' come next.
      if (document_.substr(at, 1) != "," || document_.substr(at + 1, indent_.size()) != indent_) {
        return;
      }
      at += indent_.size();  // at its '{'
    }
  }

  static constexpr size_t kDropBytes = size_t{32} << 20;

  const JsonReader& reader_;
  std::string_view document_;
  int level_;
  std::string indent_;  // a newline, the events' indentation, '{'
  size_t start_ = std::string_view::npos;
  std::deque<AheadEvent> events_;  // no reallocation copies as it grows
  size_t next_ = 0;
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

/// Reads the event array at the reader (its '[' next) one event at a time, checking each and
/// handing it to *scan. `level`: the events' nesting level (and the array's depth). False with
/// the error in *err.
bool ScanEvents(JsonReader* reader, std::string_view base, int level, EventsScan* scan,
                std::string* err) {
  scan->is_array = true;
  if (!reader->BeginArray()) {
    *err = reader->error();
    return false;
  }
  if (scan->writer != nullptr) scan->writer->BeginEvents(level - 1);
  const std::string_view document = reader->text();
  LookAhead ahead(*reader, reader->position(), level);
  ordered_json dom;
  MergedTraceBar bar;
  for (size_t i = 0; reader->NextElement(); ++i) {
    if (i % kEventsPerRelease == kEventsPerRelease - 1) reader->ReleaseConsumed();
    // The JSON path, for the DOM reads' messages only (not built for verbatim events).
    const auto path = [&] { return std::string(base) + "[" + std::to_string(i) + "]"; };
    if (reader->Peek() != JsonKind::kObject) {
      scan->all_objects = false;
      scan->writer = nullptr;  // the shape is wrong: nothing more to write
      if (!ReadJsonValue(reader, path(), &dom, err)) return false;
      continue;
    }
    MergedTraceEvent event;
    event.begin = reader->position();
    bool is_bar = false;
    Located located;
    if (const AheadEvent* found = ahead.At(event.begin)) {
      event = found->event;
      located = found->located;
      is_bar = found->is_bar;
      if (is_bar) bar = found->bar;
    } else {
      located = LocateVerbatimEvent(document.substr(event.begin), level, &event, &bar, &is_bar);
    }
    if (located == Located::kNoMatch) {
      // The reader finds its end, checking its syntax.
      if (!reader->SkipValue()) {
        *err = reader->error();
        return false;
      }
      event.end = reader->position();
    } else {
      // The match checked it: go on after it.
      reader->ResumeInArray(event.end, static_cast<size_t>(level), true);
    }
    const std::string_view text = document.substr(event.begin, event.end - event.begin);
    if (located == Located::kVerbatim) {
      scan->Take(event, is_bar ? &bar : nullptr, text, nullptr);
      continue;
    }
    // Not in the rewrite's form: read it as a DOM (numbers beyond a double fail here, at
    // their path), as a whole-document read would.
    event = MergedTraceEvent{event.begin, event.end};
    JsonReader one;
    one.OpenBuffer(text);
    if (!ReadJsonValue(&one, path(), &dom, err)) return false;
    auto args = dom.find("args");
    if (args != dom.end() && !args->is_object()) {
      if (scan->fatal.empty()) {
        scan->fatal = EventPath(i) + ".args: expected an object, got " + args->type_name();
      }
      scan->writer = nullptr;  // fatal: nothing more to write
      continue;
    }
    const ordered_json* id = BarTaskId(dom);
    if (id != nullptr) bar = MakeBar(*id);
    scan->Take(event, id != nullptr ? &bar : nullptr, text, &dom);
  }
  if (reader->failed()) {
    *err = reader->error();
    return false;
  }
  if (scan->writer != nullptr) scan->writer->EndEvents();
  return true;
}

/// The whole-document pass of LoadMergedTrace* and StreamMergedTraceRewrites*: syntax first
/// (anywhere in the document), then the shape, then the first non-object `args` of the event
/// array that counts. With `writer`, the rewrite is written as the document is read, and
/// *found receives, per critical set, its keys that have a bar.
MergedTraceStatus Scan(JsonReader* reader, MergedTrace* trace, TraceWriter* writer,
                       const std::vector<const std::unordered_set<std::string>*>* criticals,
                       std::vector<std::unordered_set<std::string>>* found, std::string* err) {
  EventsScan events;  // of the last `traceEvents` (the one Python's dict keeps)
  bool has_events = false;
  bool repeated_key = false;
  bool writing = false;  // the events have been written: members follow them as they are read
  const auto begin_events = [&](EventsScan* scan) {
    scan->writer = writer;
    scan->criticals = criticals;
  };
  const JsonKind kind = reader->Peek();
  if (kind == JsonKind::kArray) {
    trace->bare = true;
    has_events = true;
    begin_events(&events);
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
      repeated_key |= !fresh;
      ordered_json& value = trace->members[it->second].second;
      if (key == "traceEvents") {
        has_events = true;
        trace->events_slot = it->second;
        events = EventsScan();
        value = nullptr;  // the slot stays empty: the events are streamed, not kept
        ordered_json not_an_array;  // read only to check it
        const bool array = reader->Peek() == JsonKind::kArray;
        if (array && writer != nullptr && !repeated_key) {
          // The members so far come first, then this one's key and the streamed events.
          writer->All("{");
          for (size_t m = 0; m < it->second; ++m) {
            writer->Member(m, trace->members[m].first, &trace->members[m].second);
          }
          writer->Member(it->second, key, nullptr);
          begin_events(&events);
          writing = true;
        }
        const bool read = array ? ScanEvents(reader, "traceEvents", 2, &events, err)
                                : ReadJsonValue(reader, "traceEvents", &not_an_array, err);
        if (!read) return MergedTraceStatus::kInvalid;
      } else {
        if (!ReadJsonValue(reader, JsonPathMember("", key), &value, err)) {
          return MergedTraceStatus::kInvalid;
        }
        if (writing && !repeated_key) writer->Member(it->second, key, &value);
      }
    }
    if (reader->failed()) {
      *err = reader->error();
      return MergedTraceStatus::kInvalid;
    }
    if (writing && !repeated_key) writer->All("\n}");
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
  if (writer != nullptr) {
    if (repeated_key) return MergedTraceStatus::kNeedsTwoPasses;
    writer->All("\n");
    *found = std::move(events.found);
    found->resize(criticals->size());
    return MergedTraceStatus::kOk;
  }
  trace->bar_keys = std::move(events.bar_keys);
  trace->events = std::move(events.events);
  trace->bars = std::move(events.bars);
  return MergedTraceStatus::kOk;
}

/// The first critical set with keys that have no bar, as CheckCriticalBars reports it.
/// `has_bar(o, key)`: whether `key` of set `o` has one. O(critical keys).
template <typename HasBar>
MergedTraceStatus ReportMissingBars(
    const std::vector<const std::unordered_set<std::string>*>& criticals, HasBar has_bar,
    std::string* err) {
  for (size_t o = 0; o < criticals.size(); ++o) {
    std::vector<std::string> missing;
    for (const std::string& key : *criticals[o]) {
      if (!has_bar(o, key)) missing.push_back(key);
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

/// The streaming rewrite over an open reader: Scan with a writer, then the critical bars.
MergedTraceStatus StreamRewrites(JsonReader* reader,
                                 const std::vector<const std::unordered_set<std::string>*>& criticals,
                                 const std::vector<std::ostream*>& outs, std::string* err) {
  MergedTrace members;  // the top-level members only
  TraceWriter writer(criticals, outs);
  std::vector<std::unordered_set<std::string>> found;
  const MergedTraceStatus status = Scan(reader, &members, &writer, &criticals, &found, err);
  if (status != MergedTraceStatus::kOk) return status;
  return ReportMissingBars(
      criticals, [&](size_t o, const std::string& key) { return found[o].count(key) != 0; }, err);
}

/// Opens a reader on the trace file at `path` (a regular file, else a message naming it).
bool OpenTrace(const std::string& path, JsonReader* reader, std::string* err) {
  InputFileError error;
  uint64_t size = 0;
  if (!CheckRegularInput(path, &size, &error)) {
    *err = error.message;
    return false;
  }
  if (!reader->Open(path, err)) {
    *err = EscapeForMessage(path) + ": " + *err;
    return false;
  }
  return true;
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
  JsonReader reader;
  if (!OpenTrace(path, &reader, err)) return MergedTraceStatus::kInvalid;
  trace->path = path;
  const MergedTraceStatus status = Scan(&reader, trace, nullptr, nullptr, nullptr, err);
  if (status != MergedTraceStatus::kOk) *trace = MergedTrace();
  return status;
}

MergedTraceStatus LoadMergedTraceText(std::string_view text, MergedTrace* trace, std::string* err) {
  *trace = MergedTrace();
  trace->text.assign(text);
  JsonReader reader;
  reader.OpenBuffer(trace->text);
  const MergedTraceStatus status = Scan(&reader, trace, nullptr, nullptr, nullptr, err);
  if (status != MergedTraceStatus::kOk) *trace = MergedTrace();
  return status;
}

MergedTraceStatus CheckCriticalBars(
    const MergedTrace& trace, const std::vector<const std::unordered_set<std::string>*>& criticals,
    std::string* err) {
  return ReportMissingBars(
      criticals, [&](size_t, const std::string& key) { return trace.bar_keys.count(key) != 0; },
      err);
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
  TraceWriter writer(criticals, outs);
  // The events array sits at level 1 inside a top-level object, at level 0 as a bare array.
  const auto stream_events = [&](int level) {
    writer.BeginEvents(level);
    ordered_json dom;
    for (size_t i = 0; i < trace.events.size(); ++i) {
      const MergedTraceEvent& event = trace.events[i];
      if (i % kEventsPerRelease == 0) {
        reader.PrefetchTo(std::min<uint64_t>(event.end + (uint64_t{64} << 20), document.size()));
        reader.ReleaseBefore(event.begin);
      }
      const std::string_view text = document.substr(event.begin, event.end - event.begin);
      const MergedTraceBar* bar = event.bar >= 0 ? &trace.bars[event.bar] : nullptr;
      if (!event.verbatim) {
        JsonReader one;
        one.OpenBuffer(text);
        if (!ReadJsonValue(&one, EventPath(i), &dom, err)) return false;
      }
      writer.Event(event, bar, text, &dom);
    }
    writer.EndEvents();
    return true;
  };
  if (trace.bare) {
    if (!stream_events(0)) return MergedTraceStatus::kInvalid;
  } else {
    writer.All("{");
    for (size_t m = 0; m < trace.members.size(); ++m) {
      if (m == trace.events_slot) {
        writer.Member(m, trace.members[m].first, nullptr);
        if (!stream_events(1)) return MergedTraceStatus::kInvalid;
        continue;
      }
      writer.Member(m, trace.members[m].first, &trace.members[m].second);
    }
    writer.All("\n}");
  }
  writer.All("\n");
  return MergedTraceStatus::kOk;
}

size_t SetMergedTraceLookAheadThreshold(size_t bytes) {
  return look_ahead_threshold.exchange(bytes);
}

MergedTraceStatus StreamMergedTraceRewrites(
    const std::string& path, const std::vector<const std::unordered_set<std::string>*>& criticals,
    const std::vector<std::ostream*>& outs, std::string* err) {
  JsonReader reader;
  if (!OpenTrace(path, &reader, err)) return MergedTraceStatus::kInvalid;
  return StreamRewrites(&reader, criticals, outs, err);
}

MergedTraceStatus StreamMergedTraceRewritesText(
    std::string_view text, const std::vector<const std::unordered_set<std::string>*>& criticals,
    const std::vector<std::ostream*>& outs, std::string* err) {
  JsonReader reader;
  reader.OpenBuffer(text);
  return StreamRewrites(&reader, criticals, outs, err);
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
