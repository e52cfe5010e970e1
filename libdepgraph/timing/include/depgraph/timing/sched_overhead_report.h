// The scheduler-overhead report (docs/sched_overhead.md): the six parts as text, laid out and
// rounded as the reference sched_overhead_analysis.py prints them, or as JSON.
#pragma once

#include <string>

#include "depgraph/timing/sched_overhead.h"

namespace depgraph {

/// The text report, from the `Perf data:` line to Part 6's closing rule, each line ending in a
/// newline. `records_display` and `deps_display` are the paths as the `Perf data:` and
/// `Deps JSON:` lines show them. Numbers are formatted as Python's format() rounds them.
/// O(engines + threads) beyond the report.
std::string RenderSchedOverheadText(const SchedOverheadReport& report,
                                    const std::string& records_display,
                                    const std::string& deps_display);

/// The same numbers as a JSON document (indented by two spaces, newline-terminated): the
/// inputs, `overhead` (per engine and system, µs and % of the window, the verdict),
/// `aicore_switch`, `head_overhead` / `tail_overhead` (percentiles, max, mean, total),
/// `scheduler` (per thread and summed) and `critical_path` (null when none was resolved).
/// Unrounded doubles. O(engines + threads) beyond the report.
std::string RenderSchedOverheadJson(const SchedOverheadReport& report,
                                    const std::string& records_display,
                                    const std::string& deps_display);

}  // namespace depgraph
