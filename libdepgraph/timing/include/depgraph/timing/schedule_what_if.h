// What-if questions on the schedule simulation: which dependencies a change would drop, and
// what each false-serialization finding costs in makespan (`depgraph simulate --what-if`).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "depgraph/audit/false_serialization.h"
#include "depgraph/graph/graph.h"
#include "depgraph/timing/schedule_simulation.h"

namespace depgraph {

/// Per pair, 1 for the pairs `--edge-mode reduced_dataflow` keeps: every pair but the
/// structurally redundant ones without a creator row and the creator-protected ones the
/// dataflow proof frees, both on `threads` threads (0 = every core; the result does not depend
/// on it). False with a message naming a cycle. Cost: the structural reduction and the dataflow
/// proof (reduction.h, dataflow_proof.h).
bool KeepReducedDataflow(const DepGraph& graph, std::vector<uint8_t>* keep, std::string* err,
                         unsigned threads = 0);

/// The audit's false-serialization findings (tensormap-only pairs between tasks whose byte sets
/// do not conflict; false_serialization.h). False with a message naming a cycle.
/// Cost: the access model, the reachability index and the check (near-linear on runtime graphs).
bool FindFalseEdges(const DepGraph& graph, SerializationReport* report, std::string* err);

/// Per pair, 1 unless it belongs to one of `findings` (all of them when `only` < 0, else just
/// findings[only]). O(E + pairs of the findings).
std::vector<uint8_t> KeepWithoutFalseEdges(const DepGraph& graph,
                                           const std::vector<FalseSerialization>& findings,
                                           int64_t only = -1);

/// What one false-serialization finding costs: the makespan with only its pairs dropped.
struct FalseEdgeCost {
  uint32_t finding = 0;  ///< index into the findings
  int64_t makespan = 0;  ///< simulated without the finding's pairs
  int64_t saving = 0;    ///< baseline makespan - makespan (may be negative: list scheduling
                         ///< is not monotone)
};

/// Simulates the removal of each finding alone, up to `limit` of them (0: all), taking first
/// the findings the audit says shorten the graph's depth most (depth_gain, unknown first, then
/// submit order), and ranks them by saving, largest first (ties: finding index).
/// `baseline_makespan` is the makespan with every pair kept. False with SimulateSchedule's
/// message. Cost: min(limit, findings) simulations.
bool RankFalseEdges(const DepGraph& graph, const MachineModel& machine, const TaskWork& work,
                    const std::vector<FalseSerialization>& findings, int64_t baseline_makespan,
                    size_t limit, std::vector<FalseEdgeCost>* ranked, std::string* err);

}  // namespace depgraph
