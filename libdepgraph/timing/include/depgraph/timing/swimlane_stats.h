// The swimlane converter's per-function table (docs/swimlane.md, "stdout"): task count, kernel
// time, AICPU latency and the overheads around the kernel per function id, with totals.
#pragma once

#include <string>

#include "depgraph/timing/swimlane_inputs.h"
#include "depgraph/timing/swimlane_records.h"

namespace depgraph {

/// Checks that every function id of the task rows with a name-map entry has a name the table
/// can print (a string, a number or a boolean; the reference fails on null, lists and objects
/// once it reaches that row, after writing the trace). False with a message naming the entry
/// otherwise. O(rows).
bool CheckSwimlaneStatisticsNames(const SwimlaneRecords& records, const SwimlaneNames& names,
                                  std::string* err);

/// The table as the reference prints it, from its leading empty line to its closing rule, each
/// line ending in a newline; numbers formatted as Python's format() rounds them, from sums
/// taken in the reference's order. Call after ResolveSwimlaneFuncIds. O(rows + functions log
/// functions).
std::string RenderSwimlaneStatistics(const SwimlaneRecords& records, const SwimlaneNames& names);

}  // namespace depgraph
