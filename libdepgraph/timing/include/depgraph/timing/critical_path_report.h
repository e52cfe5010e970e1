// The critical-path report (spec/timing.md §3.12, §3.13): the markdown document per rank and
// for all ranks, and the one-line summary per rank, byte for byte as the reference writes them.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "depgraph/timing/critical_path.h"
#include "depgraph/timing/critical_path_inputs.h"
#include "depgraph/timing/timing_records.h"

namespace depgraph {

/// One rank's analysis, as the report needs it. All pointers must outlive the call.
struct RankReportInput {
  std::string label;  ///< path relative to the root, or the root's name
  const TaskTimings* timings = nullptr;
  const CriticalPathResult* result = nullptr;
  const std::vector<TaskName>* names = nullptr;  ///< per task of `timings`
  int64_t clock_freq_hz = 0;                     ///< ticks per second; 0 is an error
};

/// The rank's section of the markdown report and its summary line, rendered together so
/// that every error surfaces before anything is written.
struct RankReport {
  std::vector<std::string> section;  ///< lines of "## Rank ..." block (starts with "")
  std::string summary;               ///< "[label] makespan=...ms  CPM=...", no newline
};

/// Renders one rank. False with a message when the clock frequency is 0 or a task on the
/// observed path has a non-string name (where the reference crashes). `top` rows of the
/// kernel-family table (none if <= 0). Cost: O(path length + families log families).
bool RenderRankReport(const RankReportInput& input, int64_t top, RankReport* out, std::string* err);

/// The markdown document: the fixed header, then each section, joined by newlines; ends with
/// one newline. O(output).
std::string CriticalPathDocument(const std::vector<const RankReport*>& ranks);

}  // namespace depgraph
