// The swimlane converter's Perfetto trace (docs/swimlane.md, "The trace"): lanes per core and
// per scheduler / orchestrator thread, dependency and scheduling flow arrows, optional overhead
// counters, written event by event as Python's json.dump(indent=2) writes the reference's.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "depgraph/timing/swimlane_inputs.h"
#include "depgraph/timing/swimlane_records.h"

namespace depgraph {

/// What to write besides the events every trace has.
struct SwimlaneTraceOptions {
  bool overhead = false;  ///< the eight `oh_*` counter tracks (need deps.json edges)
  bool verbose = false;   ///< collect the reference's `-v` progress lines in the log
  std::string output_display;  ///< the output path as the `-v` line names it
};

/// Lines the reference prints while it draws, for the caller to print: `out` on stdout (only
/// with verbose, except none), `err` on stderr (the dummy-task warnings).
struct SwimlaneTraceLog {
  std::vector<std::string> out;
  std::vector<std::string> err;
};

/// Sets the function id of every task row still at -1 from deps.json's kernel slots: an AIC
/// row takes slot 0, any other row AIV0 then AIV1; a negative slot is no id. Does nothing
/// without deps kernel ids. O(rows).
void ResolveSwimlaneFuncIds(SwimlaneRecords* records, const SwimlaneDeps* deps);

/// Writes the trace of `records` to `out`: `{"traceEvents": [...]}` plus the timeline
/// metadata of host-mode captures, without a final newline. `deps` is null when there is no
/// usable deps.json (its has_* flags say which parts are usable otherwise). The function ids
/// of the rows must be resolved already (ResolveSwimlaneFuncIds). False with a message when
/// the stream fails. Cost: O(rows + phases + flow pairs + distinct pairs) time, written as it
/// goes (O(tasks + pairs) memory for the lookups, no document built); SPMD tasks collapse to
/// one flow anchor per function, other tasks contribute every row to each of their pairs.
bool WriteSwimlaneTrace(const SwimlaneRecords& records, const SwimlaneDeps* deps,
                        const SwimlaneNames& names, const SwimlaneTraceOptions& options,
                        std::ostream& out, SwimlaneTraceLog* log, std::string* err);

/// A task's label as the lanes show it: `<name>(<id>)`, `func_<n>_<letters>(<id>)` when the
/// function has no name, `task(<id>)` when the function id is negative, with `_spmd` before
/// the parenthesis for SPMD tasks whose name does not say so. O(name).
std::string SwimlaneTaskLabel(int64_t func_id, const SwimlaneNames& names,
                              const std::string& display_id, bool spmd);

/// `t<local>` on ring 0, else `r<ring>t<local>`, of a task id (negatives wrapped to 64 bits).
/// O(1).
std::string SwimlaneDisplayId(__int128 task_id);

/// `<n>_<letters>`: the function id and its bijective base-26 letters (`0_a`, `26_aa`; a
/// negative id has none: `-1_`). O(log n).
std::string SwimlaneFuncLetters(int64_t func_id);

}  // namespace depgraph
