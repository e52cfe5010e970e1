// The merged Perfetto trace of a profiled run (`merged_swimlane*.json`, spec/timing.md §2,
// §3.14): its Worker View task bars, and the copy with every bar not on a given path renamed
// "·(<id>)", written as Python's json.dumps(indent=2, ensure_ascii=False) writes it.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <string_view>
#include <utility>
#include <unordered_set>
#include <vector>

namespace depgraph {

/// One event of the event array that counts, as the rewrite needs it. O(1) memory each.
struct MergedTraceEvent {
  uint64_t begin = 0;       ///< offset of the event's first byte in the document
  uint64_t end = 0;         ///< offset just past its last byte
  uint64_t name_begin = 0;  ///< where its `name` value lies (`verbatim` task bars only)
  uint64_t name_end = 0;
  int64_t bar = -1;         ///< index in MergedTrace::bars, or -1 when not a task bar
  bool verbatim = false;    ///< its bytes are already what the rewrite writes (copied as is)
};

/// A task bar's key (Python's str() of its taskId) and the id its renamed bar shows.
struct MergedTraceBar {
  std::string key;
  std::string display;
};

/// A merged trace read for rewriting: where each event lies and what it is, never a DOM of the
/// whole document (the events are copied from the file, or the caller's text, again). Memory:
/// about 40 bytes per event and the bars' texts, plus the top-level members other than
/// `traceEvents` (small in every trace the tools write).
struct MergedTrace {
  /// Texts of the `args.taskId` of every task bar (ph "X", pid 4, a non-null taskId).
  std::unordered_set<std::string> bar_keys;
  std::vector<MergedTraceEvent> events;  ///< of the `traceEvents` array that counts, in order
  std::vector<MergedTraceBar> bars;
  std::string path;   ///< the file the events are read from again ("": `text`)
  std::string text;   ///< LoadMergedTraceText's document (a copy)
  bool bare = false;  ///< the document is the event array itself
  /// Top-level members in first-appearance order with their last values (Python's dict), the
  /// `traceEvents` slot holding null; and which slot that is.
  std::vector<std::pair<std::string, nlohmann::ordered_json>> members;
  size_t events_slot = 0;
};

/// How reading or rewriting a merged trace went.
enum class MergedTraceStatus {
  kOk,
  kInvalid,  ///< not readable, not JSON, wrong shape or a critical task without a bar: the
             ///< reference reports "invalid merged_swimlane*.json" and goes on (exit 2)
  kFatal,    ///< an event's `args` is not an object: the reference crashes there (exit 1)
  /// StreamMergedTraceRewrites only: the trace is valid, but its top level repeats a key
  /// (Python's dict keeps the first place and the last value), so what one pass wrote is not
  /// its rewrite. Discard the outputs; LoadMergedTrace + RewriteMergedTraces handle it.
  kNeedsTwoPasses,
};

/// Reads the trace at `path` in one streaming pass and checks it all: syntax (as
/// ParseJsonDocument: "line L:column C: ...", numbers beyond a double at their JSON path), the
/// top level (an object whose `traceEvents` is an array of objects, or such an array itself:
/// else the reference's "merged swimlane JSON must contain a traceEvents list") and each
/// event's `args` (kFatal when not an object), in the precedence a whole-document read gives.
/// Events already in the rewrite's form (Python's json.dumps(indent=2) of them, as the
/// swimlane tools write traces) are only located; others are read as a DOM, one at a time.
/// Cost: O(file) time; memory O(events + bar keys), the file mapped and released as read.
MergedTraceStatus LoadMergedTrace(const std::string& path, MergedTrace* trace, std::string* err);
/// Same for an in-memory document (copied into the trace).
MergedTraceStatus LoadMergedTraceText(std::string_view text, MergedTrace* trace, std::string* err);

/// kOk when every key of every critical set has a bar in the trace; else kInvalid with "merged
/// Worker View is missing <n> critical task(s): <first five in string order>" (the check
/// RewriteMergedTraces makes first, for callers that must decide before opening outputs).
/// O(critical keys).
MergedTraceStatus CheckCriticalBars(
    const MergedTrace& trace, const std::vector<const std::unordered_set<std::string>*>& criticals,
    std::string* err);

/// Writes, in one more pass over the events, one rewritten trace per critical set: outs[i]
/// gets the trace with every task bar whose key is not in *criticals[i] renamed
/// `·(<display id>)` (ring 0: `t<local>`, else `r<ring>t<local>`), serialised as Python's
/// json.dumps(indent=2, ensure_ascii=False) with a final newline. kInvalid with "merged Worker
/// View is missing <n> critical task(s): <first five in string order>" when some critical key
/// has no bar (nothing written then). On a failure part way, the outputs hold part of a trace:
/// write them through AtomicFile and commit only on kOk. Verbatim events are copied (a renamed
/// bar spliced around its name); others are read as a DOM and written again. Cost: O(trace
/// size) time, one event's DOM and text of memory besides the trace.
MergedTraceStatus RewriteMergedTraces(const MergedTrace& trace,
                                      const std::vector<const std::unordered_set<std::string>*>& criticals,
                                      const std::vector<std::ostream*>& outs, std::string* err);

/// LoadMergedTrace, CheckCriticalBars and RewriteMergedTraces in one pass over the file: each
/// event is written to the outputs as soon as it is read, so the outputs' copying overlaps the
/// reading, and no event table is kept. Returns what those three would return in turn (the same
/// messages, in the same precedence), or kNeedsTwoPasses. The outputs hold a whole rewrite only
/// on kOk: write them through AtomicFile and commit only then. Cost: O(trace size) time; memory
/// one event's DOM and the critical keys found, besides the mapped pages being read.
MergedTraceStatus StreamMergedTraceRewrites(
    const std::string& path, const std::vector<const std::unordered_set<std::string>*>& criticals,
    const std::vector<std::ostream*>& outs, std::string* err);
/// Same for an in-memory document.
MergedTraceStatus StreamMergedTraceRewritesText(
    std::string_view text, const std::vector<const std::unordered_set<std::string>*>& criticals,
    const std::vector<std::ostream*>& outs, std::string* err);

/// From how many bytes of event array on (default 16 MiB) the reading passes locate the events
/// of its second half on a second thread. For tests (0: always); the results never depend on it.
/// Returns the previous threshold, to put back.
size_t SetMergedTraceLookAheadThreshold(size_t bytes);

/// RewriteMergedTraces for one critical set, into a string (tests, small traces).
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
