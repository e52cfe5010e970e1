#include "depgraph/timing/simulation_inputs.h"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "depgraph/graph/graph_query.h"
#include "depgraph/internal/message_quote.h"
#include "depgraph/support/input_file.h"
#include "depgraph/support/json_dom.h"

namespace depgraph {

namespace {

using Json = nlohmann::ordered_json;

// Reads one JSON document of a regular file with the usual refusals.
bool ReadDocument(const std::string& path, std::string* text, std::string* err) {
  InputFileError error;
  if (!ReadInputFile(path, kMaxSmallInputBytes, text, &error)) {
    *err = error.message;
    return false;
  }
  return true;
}

bool ParseDocument(std::string_view text, const std::string& name, Json* doc, std::string* err) {
  std::string error;
  if (!ParseJsonDocument(text, doc, &error)) {
    *err = EscapeForMessage(name) + ": " + error;
    return false;
  }
  return true;
}

// Messages: "<name>: <path>: <what>".
struct Context {
  const std::string& name;
  std::string* err;
  bool Fail(const std::string& path, const std::string& what) const {
    *err = EscapeForMessage(name) + ": " + path + ": " + what;
    return false;
  }
};

// A value as the message shows it: compact JSON, cut where QuoteForMessage cuts (never the whole
// of a huge value, which could not even be allocated).
std::string Shown(const Json& value) {
  return QuoteForMessage(JsonValueForMessage(value, kMessageQuoteMaxBytes + 8));
}

// A JSON integer in [min, max].
bool Integer(const Context& c, const std::string& path, const Json& value, int64_t min, int64_t max,
             const char* what, int64_t* out) {
  if (value.is_number_unsigned() && value.get<uint64_t>() <= static_cast<uint64_t>(max) &&
      static_cast<int64_t>(value.get<uint64_t>()) >= min) {
    *out = static_cast<int64_t>(value.get<uint64_t>());
    return true;
  }
  if (value.is_number_integer() && !value.is_number_unsigned() && value.get<int64_t>() >= min &&
      value.get<int64_t>() <= max) {
    *out = value.get<int64_t>();
    return true;
  }
  return c.Fail(path, std::string("expected ") + what + ", got " + Shown(value));
}

// 2^40 ticks: 6 hours at 50 MHz, 18 minutes at 1 GHz; sums over millions of runs stay in range.
constexpr int64_t kMaxTicks = int64_t{1} << 40;
constexpr const char* kTicks = "a non-negative integer number of ticks";

bool Ticks(const Context& c, const std::string& path, const Json& value, int64_t* out) {
  return Integer(c, path, value, 0, kMaxTicks, kTicks, out);
}

bool Object(const Context& c, const std::string& path, const Json& value) {
  return value.is_object() || c.Fail(path, "expected an object, got " + Shown(value));
}

bool TaskKey(const Context& c, const std::string& path, const std::string& key, TaskId* id) {
  std::string error;
  if (ParseTaskRef(key, id, &error)) return true;
  return c.Fail(path, "expected a task id (decimal or \"(ring, local)\")");
}

bool KernelId(const std::string& key, int64_t* id) {
  if (key.empty() || key.size() > 18) return false;
  for (char ch : key) {
    if (ch < '0' || ch > '9') return false;
  }
  *id = std::stoll(key);
  return true;
}

// `{"<callable id>": T}` into ids (and, when names is given, other keys as kernel names).
bool KernelTimes(const Context& c, const std::string& path, const Json& value,
                 std::map<int64_t, int64_t>* ids, std::map<std::string, int64_t>* names) {
  if (!Object(c, path, value)) return false;
  for (const auto& [key, item] : value.items()) {
    const std::string item_path = JsonPathMember(path, key);
    int64_t ticks = 0;
    if (!Ticks(c, item_path, item, &ticks)) return false;
    int64_t id = 0;
    if (KernelId(key, &id)) {
      (*ids)[id] = ticks;
    } else if (names) {
      (*names)[key] = ticks;
    } else {
      return c.Fail(item_path, "expected a callable id (a decimal integer) as the key");
    }
  }
  return true;
}

// A ring-local index: a decimal key below 2^32.
bool LocalKey(const std::string& key, uint32_t* local) {
  int64_t value = 0;
  if (!KernelId(key, &value) || value > UINT32_MAX) return false;
  *local = static_cast<uint32_t>(value);
  return true;
}

// `{"<task>": T or [T, ...]}`; with `locals`, keys below 2^32 are local indices.
bool TaskTimes(const Context& c, const std::string& path, const Json& value,
               std::map<TaskId, std::vector<int64_t>>* tasks,
               std::map<uint32_t, std::vector<int64_t>>* locals = nullptr) {
  if (!Object(c, path, value)) return false;
  for (const auto& [key, item] : value.items()) {
    const std::string item_path = JsonPathMember(path, key);
    TaskId id = 0;
    if (!TaskKey(c, item_path, key, &id)) return false;
    std::vector<int64_t> runs;
    if (item.is_array()) {
      if (item.empty()) return c.Fail(item_path, "expected at least one run time");
      for (size_t i = 0; i < item.size(); ++i) {
        int64_t ticks = 0;
        if (!Ticks(c, item_path + "[" + std::to_string(i) + "]", item[i], &ticks)) return false;
        runs.push_back(ticks);
      }
    } else {
      int64_t ticks = 0;
      if (!Ticks(c, item_path, item, &ticks)) return false;
      runs.push_back(ticks);
    }
    uint32_t local = 0;
    if (locals && LocalKey(key, &local)) {
      (*locals)[local] = std::move(runs);
    } else {
      (*tasks)[id] = std::move(runs);
    }
  }
  return true;
}

bool ParseMachineObject(const Context& c, const std::string& path, const Json& doc,
                        MachineDescription* out) {
  if (!Object(c, path.empty() ? "(top level)" : path, doc)) return false;
  MachineModel& m = out->machine;
  for (const auto& [key, value] : doc.items()) {
    const std::string p = JsonPathMember(path, key);
    int64_t v = 0;
    if (key == "aic" || key == "aiv") {
      if (!Integer(c, p, value, 0, 1 << 20, "a core count from 0 to 1048576", &v)) return false;
      (key == "aic" ? m.aic : m.aiv) = static_cast<uint32_t>(v);
      out->has_cores = true;
    } else if (key == "base") {
      if (!Integer(c, p, value, 0, int64_t{1} << 56, "a tick from 0 to 2^56", &m.base))
        return false;
    } else if (key == "orch" || key == "disp" || key == "lat" || key == "fin" ||
               key == "dummy_cost" || key == "edge_cost") {
      if (!Ticks(c, p, value, &v)) return false;
      (key == "orch"         ? m.orch
       : key == "disp"       ? m.dispatch
       : key == "lat"        ? m.launch
       : key == "fin"        ? m.finish
       : key == "dummy_cost" ? m.dummy_cost
                             : m.edge_cost) = v;
    } else if (key == "ring_capacity") {
      if (!Integer(c, p, value, 0, UINT32_MAX, "a task count (0: unbounded)", &v)) return false;
      m.ring_capacity = static_cast<uint32_t>(v);
    } else if (key == "freq") {
      if (!Integer(c, p, value, 1, INT64_MAX, "a positive frequency in Hz", &out->freq_hz)) {
        return false;
      }
    } else if (key == "policy") {
      if (value == "lowest") {
        m.policy = CorePolicy::kLowest;
      } else if (value == "spread") {
        m.policy = CorePolicy::kSpread;
      } else {
        return c.Fail(p, "expected \"lowest\" or \"spread\", got " + Shown(value));
      }
    } else if (key == "dur") {
      if (!KernelTimes(c, p, value, &out->nominal.kernel_ids, nullptr)) return false;
    } else if (key == "task_dur") {
      if (!TaskTimes(c, p, value, &out->nominal.tasks, &out->nominal.local_tasks)) return false;
    } else if (key == "delay") {
      if (!Object(c, p, value)) return false;
      for (const auto& [task, ticks] : value.items()) {
        const std::string tp = JsonPathMember(p, task);
        TaskId id = 0;
        if (!TaskKey(c, tp, task, &id) || !Ticks(c, tp, ticks, &v)) return false;
        uint32_t local = 0;
        if (LocalKey(task, &local)) {
          out->local_delay[local] = v;
        } else {
          out->delay[id] = v;
        }
      }
    } else if (key == "warmup" || key == "extra") {
      if (!value.is_array()) return c.Fail(p, "expected an array, got " + Shown(value));
      for (size_t i = 0; i < value.size(); ++i) {
        const std::string rp = p + "[" + std::to_string(i) + "]";
        const Json& row = value[i];
        int64_t core = 0, offset = 0, length = 0;
        if (!row.is_array() || row.size() != 4) {
          return c.Fail(rp, "expected [core, task id, offset, length], got " + Shown(row));
        }
        if (!Integer(c, rp + "[0]", row[0], 0, 1 << 21, "a core id", &core) ||
            !Ticks(c, rp + "[2]", row[2], &offset) || !Ticks(c, rp + "[3]", row[3], &length)) {
          return false;
        }
        m.reserved.push_back(CoreReservation{static_cast<uint32_t>(core), offset, offset + length});
      }
    } else if (key == "src" || key == "sub" || key == "level" || key == "jitter" || key == "seed" ||
               key == "skew" || key == "model") {
      // Facts of how a timing case was made that the simulation does not use.
    } else {
      return c.Fail(p, "unknown key");
    }
  }
  return true;
}

// Mean of a kernel's recorded runs, per (slot type: aic or aiv, kernel id).
struct KernelMean {
  int64_t sum = 0;
  int64_t count = 0;
};

// ParseDurationTable into a table that is empty on entry (left partly filled on failure).
bool ParseDurationTableInto(std::string_view text, const std::string& name, DurationTable* table,
                            std::string* err) {
  Json doc;
  if (!ParseDocument(text, name, &doc, err)) return false;
  const Context c{name, err};
  if (!Object(c, "(top level)", doc)) return false;
  for (const auto& [key, value] : doc.items()) {
    if (key == "default") {
      int64_t ticks = 0;
      if (!Ticks(c, key, value, &ticks)) return false;
      table->fallback = ticks;
    } else if (key == "kernels") {
      if (!KernelTimes(c, key, value, &table->kernel_ids, &table->kernel_names)) return false;
    } else if (key == "tasks") {
      if (!TaskTimes(c, key, value, &table->tasks)) return false;
    } else {
      return c.Fail(JsonPathMember("", key), "unknown key (expected default, kernels, tasks)");
    }
  }
  return true;
}

}  // namespace

bool ParseDurationTable(std::string_view text, const std::string& name, DurationTable* table,
                        std::string* err) {
  DurationTable parsed;
  *table = DurationTable();
  if (!ParseDurationTableInto(text, name, &parsed, err)) return false;
  *table = std::move(parsed);
  return true;
}

bool LoadDurationTable(const std::string& path, DurationTable* table, std::string* err) {
  std::string text;
  return ReadDocument(path, &text, err) && ParseDurationTable(text, path, table, err);
}

namespace {

// A path's components ("a/./b/" and "a\\b" both give a, b), for matching a rank's `sub`.
std::vector<std::string> PathParts(std::string_view path) {
  std::vector<std::string> parts;
  std::string part;
  for (char ch : std::string(path) + "/") {
    if (ch != '/' && ch != '\\') {
      part += ch;
    } else if (!part.empty() && part != ".") {
      parts.push_back(std::move(part));
      part.clear();
    } else {
      part.clear();
    }
  }
  return parts;
}

// Whether `dir` ends with the components of `sub`.
bool NamesDirectory(const std::string& sub, const std::string& dir) {
  const std::vector<std::string> s = PathParts(sub), d = PathParts(dir);
  return !s.empty() && s.size() <= d.size() && std::equal(s.rbegin(), s.rend(), d.rbegin());
}

// The `sub` of a rank object, "" when absent or not a string.
std::string SubOf(const Json& rank) {
  if (!rank.is_object() || !rank.contains("sub") || !rank["sub"].is_string()) return "";
  return rank["sub"].get<std::string>();
}

// ParseMachineDescription into a description that is default on entry (left partly filled on
// failure).
bool ParseMachineDescriptionInto(std::string_view text, const std::string& name,
                                 const RankChoice& rank, MachineDescription* machine,
                                 std::string* err) {
  Json doc;
  if (!ParseDocument(text, name, &doc, err)) return false;
  const Context c{name, err};
  if (doc.is_object() && doc.contains("ranks")) {
    const Json& ranks = doc["ranks"];
    if (!ranks.is_array() || ranks.empty()) {
      return c.Fail("ranks", "expected a non-empty array, got " + Shown(ranks));
    }
    std::vector<size_t> naming;
    for (size_t r = 0; r < ranks.size(); ++r) {
      if (!rank.capture_dir.empty() && NamesDirectory(SubOf(ranks[r]), rank.capture_dir)) {
        naming.push_back(r);
      }
    }
    size_t taken = 0;
    bool matches = true;
    if (rank.index >= 0) {
      if (static_cast<size_t>(rank.index) >= ranks.size()) {
        return c.Fail("ranks", "has " + std::to_string(ranks.size()) + " rank(s); rank " +
                                   std::to_string(rank.index) + " asked for");
      }
      taken = static_cast<size_t>(rank.index);
      matches = naming.empty() || std::find(naming.begin(), naming.end(), taken) != naming.end();
    } else if (ranks.size() > 1) {
      if (naming.size() != 1) {
        return c.Fail("ranks", "has " + std::to_string(ranks.size()) + " ranks and " +
                                   (naming.empty() ? std::string("none") : "several") +
                                   " of their `sub` names the capture's directory " +
                                   QuoteForMessage(rank.capture_dir) + ": give --rank");
      }
      taken = naming.front();
    }
    if (!ParseMachineObject(c, "ranks[" + std::to_string(taken) + "]", ranks[taken], machine)) {
      return false;
    }
    machine->rank = static_cast<int64_t>(taken);
    machine->rank_sub = SubOf(ranks[taken]);
    machine->rank_matches_capture = matches;
    return true;
  }
  if (rank.index > 0) {
    return c.Fail("(top level)",
                  "has no ranks; rank " + std::to_string(rank.index) + " asked for");
  }
  return ParseMachineObject(c, "", doc, machine);
}

}  // namespace

bool ParseMachineDescription(std::string_view text, const std::string& name,
                             const RankChoice& rank, MachineDescription* machine,
                             std::string* err) {
  MachineDescription parsed;
  *machine = MachineDescription();
  if (!ParseMachineDescriptionInto(text, name, rank, &parsed, err)) return false;
  *machine = std::move(parsed);
  return true;
}

bool LoadMachineDescription(const std::string& path, const RankChoice& rank,
                            MachineDescription* machine, std::string* err) {
  std::string text;
  return ReadDocument(path, &text, err) && ParseMachineDescription(text, path, rank, machine, err);
}

std::vector<RecordedRun> RecordedRuns(const TimingRecords& records) {
  std::vector<RecordedRun> runs;
  runs.reserve(records.rows.size());
  std::vector<uint8_t> aic(records.core_types.size());
  for (size_t c = 0; c < aic.size(); ++c) aic[c] = records.core_types[c] == "aic";
  for (const TimingRow& row : records.rows) {
    if (!row.has_task_id) continue;
    const bool is_aic = row.core >= 0 && static_cast<size_t>(row.core) < aic.size() &&
                        aic[static_cast<size_t>(row.core)];
    runs.push_back(
        RecordedRun{row.task_id, static_cast<uint32_t>(row.core), is_aic, row.start, row.end});
  }
  return runs;
}

RecordedSpan MeasureRecordedSpan(const DepGraph& graph, const std::vector<RecordedRun>& runs) {
  RecordedSpan span;
  std::vector<uint8_t> seen(graph.tasks.size(), 0);
  TaskId last_id = 0;
  const Task* last = nullptr;
  for (const RecordedRun& run : runs) {
    // Rows come grouped by core, a task's blocks often next to each other: reuse the lookup.
    if (!last || run.task != last_id) {
      last = graph.FindTask(run.task);
      last_id = run.task;
    }
    if (!last) continue;
    if (span.runs == 0 || run.start < span.first_start) span.first_start = run.start;
    if (span.runs == 0 || run.end > span.last_end) span.last_end = run.end;
    ++span.runs;
    const size_t t = static_cast<size_t>(last - graph.tasks.data());
    span.tasks += seen[t] ? 0 : 1;
    seen[t] = 1;
  }
  return span;
}

void RecordedCores(const TimingRecords& records, uint32_t* aic, uint32_t* aiv) {
  *aic = *aiv = 0;
  for (const std::string& type : records.core_types) ++(type == "aic" ? *aic : *aiv);
}

bool BuildTaskWork(const DepGraph& graph, const NameMap& names, const DurationTable& overrides,
                   const std::vector<RecordedRun>& recorded, const MachineDescription& machine,
                   TaskWork* work, WorkSources* sources, std::string* err) {
  const DurationTable& nominal = machine.nominal;
  *work = TaskWork();
  *sources = WorkSources();
  const size_t task_count = graph.tasks.size();
  // Recorded runs grouped by task id, each task's sorted by (aic first, start, core).
  const IdDisplay display = graph.Display();
  for (const RecordedRun& r : recorded) {
    if (r.end < r.start || r.end - r.start > kMaxTicks) {
      if (!graph.FindTask(r.task)) continue;  // not simulated: its times do not matter
      *err = "records: task " + FormatTaskId(r.task, display) + " has a run on core " +
             std::to_string(r.core) + " from " + std::to_string(r.start) + " to " +
             std::to_string(r.end) + " ticks (it must end after it starts, within 2^40 ticks)";
      return false;
    }
  }
  std::vector<RecordedRun> runs = recorded;
  std::sort(runs.begin(), runs.end(), [](const RecordedRun& a, const RecordedRun& b) {
    return std::tie(a.task, b.aic, a.start, a.core) < std::tie(b.task, a.aic, b.start, b.core);
  });
  // Kernel means: a run on an AIC core belongs to the task's aic slot, an AIV run to its
  // first active AIV slot (aiv0 and aiv1 runs of one task are not told apart).
  std::map<std::pair<bool, int64_t>, KernelMean> means;
  for (size_t i = 0; i < runs.size();) {
    size_t j = i;
    while (j < runs.size() && runs[j].task == runs[i].task) ++j;
    if (const Task* task = graph.FindTask(runs[i].task)) {
      for (size_t k = i; k < j; ++k) {
        const int64_t kernel = runs[k].aic                ? task->kernel_ids[0]
                               : task->kernel_ids[1] >= 0 ? task->kernel_ids[1]
                                                          : task->kernel_ids[2];
        if (kernel < 0) continue;
        KernelMean& m = means[{runs[k].aic, kernel}];
        m.sum += runs[k].end - runs[k].start;
        ++m.count;
      }
    }
    i = j;
  }
  work->first.assign(task_count + 1, 0);
  work->delay.assign(task_count, 0);
  const char* slot_names[3] = {"aic", "aiv0", "aiv1"};
  for (size_t t = 0; t < task_count; ++t) {
    const Task& task = graph.tasks[t];
    work->first[t] = work->ticks.size();
    if (auto it = machine.delay.find(task.id); it != machine.delay.end()) {
      work->delay[t] = it->second;
    } else if (auto lt = machine.local_delay.find(LocalOf(task.id));
               lt != machine.local_delay.end()) {
      work->delay[t] = lt->second;
    }
    if (task.block_num > kMaxSimulatedBlocksPerTask) {
      *err = BlockLimitMessage(task, display);
      return false;
    }
    const uint8_t slots = ActiveSlots(task);
    if (slots == 0) {
      ++sources->without_kernel;
      continue;
    }
    if (auto it = overrides.tasks.find(task.id); it != overrides.tasks.end()) {
      work->ticks.insert(work->ticks.end(), it->second.begin(), it->second.end());
      ++sources->from_task_overrides;
      continue;
    }
    // This task's recorded runs: AIC rows then AIV rows, each in start order.
    auto lo = std::lower_bound(runs.begin(), runs.end(), task.id,
                               [](const RecordedRun& r, TaskId id) { return r.task < id; });
    auto hi = lo;
    while (hi != runs.end() && hi->task == task.id) ++hi;
    const auto aic_end = std::find_if(lo, hi, [](const RecordedRun& r) { return !r.aic; });
    const size_t aic_rows = static_cast<size_t>(aic_end - lo);
    const size_t aiv_rows = static_cast<size_t>(hi - aic_end);
    const int aiv_slots = (slots >> 1 & 1) + (slots >> 2 & 1);
    const uint64_t blocks = static_cast<uint64_t>(std::max<int64_t>(task.block_num, 1));
    // Per-kernel times apply to every block alike; recorded rows differ per block.
    const bool per_block = aic_rows + aiv_rows > 0;
    const uint64_t rounds = per_block ? blocks : 1;
    bool used_records = false, used_kernels = false, used_default = false;
    for (uint64_t b = 0; b < rounds; ++b) {
      int aiv_seen = 0;
      for (int s = 0; s < 3; ++s) {
        if (!(slots >> s & 1)) continue;
        const int64_t kernel = task.kernel_ids[s];
        const bool aic = s == 0;
        // Names are looked up only when the overrides name kernels (or for a message).
        const std::string* kernel_name =
            overrides.kernel_names.empty() ? nullptr : names.Find(kernel);
        int64_t ticks = -1;
        if (auto it = overrides.kernel_ids.find(kernel); it != overrides.kernel_ids.end()) {
          ticks = it->second;
          used_kernels = true;
        } else if (auto nt = kernel_name ? overrides.kernel_names.find(*kernel_name)
                                         : overrides.kernel_names.end();
                   nt != overrides.kernel_names.end()) {
          ticks = nt->second;
          used_kernels = true;
        } else if (aic && aic_rows > 0) {
          const RecordedRun& r = lo[b % aic_rows];
          ticks = r.end - r.start;
          used_records = true;
        } else if (!aic && aiv_rows > 0) {
          const RecordedRun& r = aic_end[(b * aiv_slots + aiv_seen) % aiv_rows];
          ticks = r.end - r.start;
          used_records = true;
        } else if (aic_rows + aiv_rows > 0 && (slots & (slots - 1))) {
          // A MIX task recorded on one core type only (one row per block): its other slots
          // take the block's row of that type.
          const RecordedRun& r = aic_rows ? lo[b % aic_rows] : aic_end[b % aiv_rows];
          ticks = r.end - r.start;
          used_records = true;
        } else if (auto mt = means.find({aic, kernel}); mt != means.end()) {
          ticks = mt->second.sum / mt->second.count;
          used_kernels = true;
        } else if (auto tt = nominal.tasks.find(task.id); tt != nominal.tasks.end()) {
          ticks = tt->second[0];
          used_kernels = true;
        } else if (auto lt = nominal.local_tasks.find(LocalOf(task.id));
                   lt != nominal.local_tasks.end()) {
          ticks = lt->second[0];
          used_kernels = true;
        } else if (auto kt = nominal.kernel_ids.find(kernel); kt != nominal.kernel_ids.end()) {
          ticks = kt->second;
          used_kernels = true;
        } else if (overrides.fallback) {
          ticks = *overrides.fallback;
          used_default = true;
        } else {
          *err = "task " + FormatTaskId(task.id, display) + ": no run time for its " +
                 slot_names[s] + " kernel " + std::to_string(kernel) +
                 (names.Find(kernel) ? " (" + QuoteForMessage(*names.Find(kernel)) + ")"
                                     : std::string()) +
                 " (no recorded run, no kernel time, no default)";
          return false;
        }
        if (!aic) ++aiv_seen;
        work->ticks.push_back(ticks);
      }
    }
    if (used_default) {
      ++sources->from_default;
    } else if (used_records && !used_kernels) {
      ++sources->from_records;
    } else {
      ++sources->from_kernels;
    }
  }
  work->first[task_count] = work->ticks.size();
  return true;
}

}  // namespace depgraph
