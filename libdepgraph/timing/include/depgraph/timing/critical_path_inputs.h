// The dependency graph and the kernel names as the critical-path tool reads them (spec/timing.md
// §3.4, §3.6): task ids as Python prints them (the join key with the timing records), edges in
// file order, each task's first kernel id, and `callable_id_to_name` without any fallback.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "depgraph/timing/critical_path.h"
#include "depgraph/timing/timing_records.h"

namespace depgraph {

/// The callable id of a deps.json task: the first element of `kernel_ids` that is not null
/// and not negative.
struct CallableRef {
  enum State : uint8_t {
    kNone,  ///< no such element (or no kernel_ids): the task is named "unknown"
    kId,    ///< `id` holds it as Python's str() prints it ("3")
    kBad,   ///< an element before it cannot be compared with 0 (the reference crashes when it
            ///< names the task); `id` holds the reason
  };
  State state = kNone;
  std::string id;
};

/// deps.json reduced to what the critical path reads: `tasks[].task_id` / `kernel_ids` and
/// `edges[].pred` / `succ`. Task ids are interned texts.
struct CriticalPathDeps {
  std::vector<std::string> keys;  ///< distinct task id texts, in order of first appearance
  /// (pred, succ) per edge row, file order, as indices into `keys`.
  std::vector<std::pair<uint32_t, uint32_t>> edges;
  /// Per key: its task's callable (the last `tasks` entry with that id wins); kNone for keys
  /// that only appear in edges.
  std::vector<CallableRef> callables;
  std::vector<bool> is_task;  ///< per key: some `tasks` entry has this id
  /// (value, index) of the keys that are plain decimal ids (all of them in real captures),
  /// sorted by value; the other keys are in text_index.
  std::vector<std::pair<uint64_t, uint32_t>> numeric_index;
  std::unordered_map<std::string, uint32_t> text_index;

  /// Index of `key` in keys, or -1. O(log keys).
  int64_t Find(std::string_view key) const;
  /// The edges with both endpoints timed, as indices into `timings.tasks` (-1 otherwise), in
  /// file order: the input of BuildHappensBefore. O(keys + edges).
  std::vector<TimedEdge> TimedEdges(const TaskTimings& timings) const;
};

/// Reads deps.json. Requires a top-level object with `tasks` (array of objects each with a
/// scalar `task_id`) and `edges` (array of objects with scalar `pred` and `succ`); every other
/// field is skipped unread. False with one line `file: json.path: message` in *err otherwise
/// (e.g. `deps.json: edges[4]: missing "succ"`). Cost: O(file) time, O(tasks + edges) memory.
bool LoadCriticalPathDeps(const std::string& path, CriticalPathDeps* deps, std::string* err);
/// Same for an in-memory document named `display_name` in messages.
bool LoadCriticalPathDepsText(std::string_view text, const std::string& display_name,
                              CriticalPathDeps* deps, std::string* err);

/// `callable_id_to_name` of a name map, as the critical path reads it.
struct CriticalPathNames {
  enum State : uint8_t {
    kOk,        ///< `names` holds the map (empty when the key is absent)
    kUnusable,  ///< null, or not an object, or the top level is not an object: looking a name
                ///< up fails (`problem` says why)
  };
  State state = kOk;
  std::string problem;
  /// Callable id text -> the value: a string name, or (is_string false) a non-string value,
  /// which fails when the name is used.
  struct Value {
    std::string text;  ///< the name, or the JSON type of a non-string value
    bool is_string = true;
  };
  std::unordered_map<std::string, Value> names;
};

/// Reads a name map. False with one line in *err when the file cannot be read or is not JSON;
/// a valid document of the wrong shape loads as kUnusable (it only fails once a name is
/// needed, as the reference does). Cost: O(file).
bool LoadCriticalPathNames(const std::string& path, CriticalPathNames* names, std::string* err);
/// Same for an in-memory document.
bool LoadCriticalPathNamesText(std::string_view text, const std::string& display_name,
                               CriticalPathNames* names, std::string* err);

/// A task's name (§3.6) with whether it is a string (a non-string name-map value fails when
/// the report uses it; `name` then holds the value's JSON type).
struct TaskName {
  std::string name;
  bool is_string = true;
};

/// Names every timed task: "unknown" without a callable id, else the name map's entry for it,
/// else "cid<id>". False with a message when a timed task's kernel_ids or the name map cannot
/// be used (the reference crashes there). `deps_name` and `names_name` are the file names for
/// messages. Cost: O(tasks).
bool NameTimedTasks(const TaskTimings& timings, const CriticalPathDeps& deps,
                    const CriticalPathNames& names, const std::string& deps_name,
                    const std::string& names_name, std::vector<TaskName>* out, std::string* err);

/// Where one rank's inputs are and how to read them.
struct RankFiles {
  std::string records;              ///< chip_swimlane_records.json (or l2_perf_records.json)
  std::string deps;                 ///< deps.json
  std::string names;                ///< the name map to use; "": tasks are not named
  bool accept_legacy_rows = false;  ///< accept rows of 5 or more values (the reference: 6)
  CriticalPathOptions options;
};

/// One rank analysed: the inputs as read and the result.
struct RankAnalysis {
  TimingRecords records;
  TaskTimings timings;
  CriticalPathDeps deps;
  std::vector<TaskName> names;  ///< per task of `timings` (empty when RankFiles::names is "")
  HappensBefore hb;
  CriticalPathResult result;
  int64_t clock_freq_hz = 0;  ///< int() of metadata.clock_freq_hz
};

/// Loads the three files, checks what the reference requires of them (a clock frequency that
/// int() accepts, a non-empty `aicore_tasks` of 6-column rows), names the tasks and runs the
/// analysis. False with one line naming the file and the place otherwise (every case where
/// the reference crashes). Cost: the loads, then O(E + R log R).
bool AnalyzeRankFiles(const RankFiles& files, RankAnalysis* out, std::string* err);

/// The kernel family of a name: the name without its longest suffix of the form `_<digits>`,
/// `_aic`, `_aiv`, `_<digits>_aic` or `_<digits>_aiv` (a final newline is kept). O(|name|).
std::string KernelFamily(std::string_view name);

}  // namespace depgraph
