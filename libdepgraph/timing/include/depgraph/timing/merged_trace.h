// The merged Perfetto trace of a profiled run (`merged_swimlane*.json`, spec/timing.md §2,
// §3.14): its Worker View task bars, and the copy with every bar not on a given path renamed
// "·(<id>)", written as Python's json.dumps(indent=2, ensure_ascii=False) writes it.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <unordered_set>
#include <vector>

namespace depgraph {

/// A merged trace read for rewriting. Memory: the whole document as an ordered DOM.
struct MergedTrace {
  nlohmann::ordered_json doc;  ///< the document as read (object with traceEvents, or an array)
  /// Texts of the `args.taskId` of every task bar (ph "X", pid 4, a non-null taskId).
  std::unordered_set<std::string> bar_keys;
};

/// How reading or rewriting a merged trace went.
enum class MergedTraceStatus {
  kOk,
  kInvalid,  ///< not readable, not JSON, wrong shape or a critical task without a bar: the
             ///< reference reports "invalid merged_swimlane*.json" and goes on (exit 2)
  kFatal,    ///< an event's `args` is not an object: the reference crashes there (exit 1)
};

/// Reads the trace at `path` and checks its top level (an object whose `traceEvents` is an
/// array of objects, or such an array itself) and its events. On kInvalid / kFatal, *err holds
/// the message (for kInvalid the reference's "merged swimlane JSON must contain a traceEvents
/// list", or our parser's "line L:column C: ..." for a syntax error) and *trace is left empty.
/// Cost: O(file) time; the DOM's memory (about ten times the file).
MergedTraceStatus LoadMergedTrace(const std::string& path, MergedTrace* trace, std::string* err);
/// Same for an in-memory document.
MergedTraceStatus LoadMergedTraceText(std::string_view text, MergedTrace* trace, std::string* err);

/// The trace with every task bar whose key is not in `critical` renamed `·(<display id>)`
/// (ring 0: `t<local>`, else `r<ring>t<local>`), serialised like Python with a final newline,
/// into *out. kInvalid with "merged Worker View is missing <n> critical task(s): <first five
/// in string order>" when some critical key has no bar. Cost: O(trace size).
MergedTraceStatus RewriteMergedTrace(const MergedTrace& trace,
                                     const std::unordered_set<std::string>& critical,
                                     std::string* out, std::string* err);

/// The display form of a task id value as the trace rewrite shows it: Python int() of it
/// (strings parsed, floats truncated), masked to 64 bits, as `t<local>` or `r<ring>t<local>`;
/// the value's text when it is not a number. O(1).
std::string TraceDisplayId(const nlohmann::ordered_json& task_id);

/// Python's str() of a JSON value used as a key: integers in decimal, doubles as repr, strings
/// verbatim, True / False / None; containers as compact JSON. O(size).
std::string PythonKeyText(const nlohmann::ordered_json& value);

}  // namespace depgraph
