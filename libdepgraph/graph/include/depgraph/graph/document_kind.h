// Telling a deps.json capture from the other JSON documents a run leaves beside it (timing
// records, name maps, traces, depgraph's own reports), so that passing the wrong file is an
// error that says which file it is instead of an empty graph that passes every check.
#pragma once

#include <string>
#include <vector>

namespace depgraph {

/// Why a JSON object with these top-level keys (in file order) is not a deps.json capture,
/// as the tail of a one-line error: "these are timing records (chip_swimlane_records.json);
/// pass the run's deps.json", or "it has no \"tasks\" array (top-level keys: a, b)".
/// Called when the object has no `tasks` key. O(keys).
std::string DescribeNonCapture(const std::vector<std::string>& top_level_keys);

}  // namespace depgraph
