// What the swimlane converter reads besides the records: deps.json reduced to its edges, each
// task's kernel slots and block count, and the kernel names of a name map (docs/swimlane.md,
// "deps.json and names").
#pragma once

#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace depgraph {

/// Hash of a 128-bit task id, for the maps below.
struct Int128Hash {
  size_t operator()(__int128 v) const {
    const uint64_t lo = static_cast<uint64_t>(v), hi = static_cast<uint64_t>(v >> 64);
    return std::hash<uint64_t>()(lo * 0x9E3779B97F4A7C15ull ^ hi);
  }
};

/// deps.json as the converter reads it. Ids are int() of the JSON values with negatives
/// wrapped to 64 bits.
struct SwimlaneDeps {
  /// Whether each part is usable: `edges` a list (else no arrows, and no overhead counters),
  /// `tasks` a list holding at least one entry with three kernel slots / with a usable id.
  bool has_edges = false;
  bool has_kernel_ids = false;
  bool has_block_nums = false;
  /// Predecessors in order of first appearance, each with its successors in file order;
  /// duplicate (pred, succ) pairs dropped.
  std::vector<__int128> preds;
  std::vector<std::vector<__int128>> succs;  ///< per entry of preds
  std::unordered_map<__int128, uint32_t, Int128Hash> pred_index;  ///< id -> index into preds
  /// Per task id its kernel slots [aic, aiv0, aiv1] (the last entry of an id wins).
  std::unordered_map<__int128, std::array<int64_t, 3>, Int128Hash> kernel_ids;
  /// Per task id its block_num (at least 1; 1 when unreadable; the last entry wins).
  std::unordered_map<__int128, int64_t, Int128Hash> block_nums;
  /// Sum of the successor lists' lengths (the distinct pairs).
  size_t edge_count = 0;

  /// The successors of `id`, or nullptr. O(1) expected.
  const std::vector<__int128>* Successors(__int128 id) const {
    auto it = pred_index.find(id);
    return it == pred_index.end() ? nullptr : &succs[it->second];
  }
};

/// How a deps.json load went.
enum class SwimlaneDepsStatus {
  kOk,       ///< read (some parts may still be unusable: see the has_ flags)
  kMissing,  ///< no such path: no deps at all, silently (the caller warns)
  kUnreadable,  ///< not readable or not JSON: no deps, and a warning in *warning
  kError,    ///< what the reference crashes on (the top level not an object, a kernel slot
             ///< int() refuses): *err holds the one-line message
};

/// Reads deps.json at `path` (streamed: `args`, `tensors` and every other field are skipped,
/// but the whole file is checked as JSON). On kUnreadable *warning holds the reference's
/// `Warning: failed to read <path>: <why>` line; a readable file without an `edges` list is
/// kOk with has_edges false and *warning `Warning: <path> has no 'edges' array`.
/// Cost: O(file) time, O(tasks + distinct pairs) memory.
SwimlaneDepsStatus LoadSwimlaneDeps(const std::string& path, SwimlaneDeps* deps,
                                    std::string* warning, std::string* err);

/// Kernel names: `callable_id_to_name` of a name map (or of a kernel_config.py).
struct SwimlaneNames {
  /// Whether the map is used at all (Python truthiness of the value: a non-empty object).
  bool any = false;
  /// Key -> value as written (names are strings; other values print as Python's str()).
  nlohmann::ordered_json names = nlohmann::ordered_json::object();
  /// False when `callable_id_to_name` is present but not an object (the reference can then
  /// not list it under -v).
  bool is_object = true;
  /// `orchestrator_name` (null when absent).
  nlohmann::ordered_json orchestrator_name;

  /// The value for function `func_id` (its decimal text as key), or nullptr. O(1) expected.
  const nlohmann::ordered_json* Find(int64_t func_id) const;
  /// Python's str() of the value for `func_id`, "" when there is none. O(name).
  std::string Name(int64_t func_id) const;
};

/// Reads a name map: its `callable_id_to_name` (absent, null or another falsy value: no
/// names; a truthy value that is not an object: an error) and `orchestrator_name`. False with
/// one line in *err when the file cannot be read, is not JSON or its top level is not an
/// object. Cost: O(file).
bool LoadSwimlaneNames(const std::string& path, SwimlaneNames* names, std::string* err);

/// The same from a document already parsed (a kernel_config.py's mapping); `display_name`
/// names it in messages. O(size).
bool SwimlaneNamesFromJson(const nlohmann::ordered_json& doc, const std::string& display_name,
                           SwimlaneNames* names, std::string* err);

/// Python's str() of a JSON value (strings as they are, numbers as Python prints them, True /
/// False / None, containers as Python's repr prints them). O(size).
std::string PythonStrOfJson(const nlohmann::ordered_json& value);

/// Python's truthiness of a JSON value (null, false, 0, "", [] and {} are false). O(1).
bool PythonTruthy(const nlohmann::ordered_json& value);

/// The regular files (symlinks followed) named `name_map*.json` directly in `dir`, sorted by
/// name. O(entries of dir).
std::vector<std::filesystem::path> SiblingNameMaps(const std::filesystem::path& dir);

}  // namespace depgraph
