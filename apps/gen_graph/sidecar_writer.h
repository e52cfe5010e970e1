// A synthetic perf sidecar (`chip_swimlane_records.json`, level 1) for a generated graph, so
// that deps_viewer's timing features can be exercised at any size.
#pragma once

#include <string>

#include "graph_generator.h"

namespace gen_graph {

/// Writes timing records for every task with an active kernel slot of the graph `options`
/// generates, atomically to `path`: a2a3's 50 MHz clock, 24 AIC cores then 48 AIV cores, one
/// row per block (a MIX block one row on an AIC and one on an AIV core). Durations are
/// deterministic in the seed: a base of 2-62 µs per kernel id times 0.75-1.25 per task;
/// start times advance by a fraction of each duration in submit order (they follow no
/// dependency: a picture for the viewer, not a schedule). Streams: O(cores) memory.
/// Cost: one generator run plus O(rows). False with a message in *err on failure.
bool WriteSidecarFile(const GenOptions& options, const std::string& path, std::string* err);

}  // namespace gen_graph
