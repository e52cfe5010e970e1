#include "depgraph/reduce/edge_mode.h"

#include "depgraph/reduce/dataflow_proof.h"

namespace depgraph {

namespace {
constexpr struct {
  EdgeMode mode;
  const char* name;
} kModes[] = {
    {EdgeMode::kFull, "full"},
    {EdgeMode::kReduced, "reduced"},
    {EdgeMode::kOmitted, "omitted"},
    {EdgeMode::kReducedDataflow, "reduced_dataflow"},
    {EdgeMode::kOmittedDataflow, "omitted_dataflow"},
    {EdgeMode::kRetained, "retained"},
};
}  // namespace

bool ParseEdgeMode(std::string_view text, EdgeMode* mode) {
  for (const auto& entry : kModes) {
    if (text == entry.name) {
      *mode = entry.mode;
      return true;
    }
  }
  return false;
}

const char* EdgeModeName(EdgeMode mode) {
  for (const auto& entry : kModes) {
    if (entry.mode == mode) return entry.name;
  }
  return "?";
}

std::string EdgeModeHeadline(EdgeMode mode, size_t listed, size_t total) {
  const std::string r = std::to_string(listed), e = std::to_string(total),
                    k = std::to_string(total - listed);
  switch (mode) {
    case EdgeMode::kReduced:
      return "Transitive reduction: removed " + r + " redundant edge(s) of " + e + " (" + k +
             " kept)";
    case EdgeMode::kOmitted:
      return "Redundant edges only: showing " + r + " redundant edge(s) of " + e;
    case EdgeMode::kReducedDataflow:
      return "Dataflow-verified transitive reduction: removed " + r + " redundant edge(s) of " +
             e + " (" + k + " kept)";
    case EdgeMode::kOmittedDataflow:
      return "Dataflow-verified redundant edges only: showing " + r + " redundant edge(s) of " +
             e;
    case EdgeMode::kRetained:
      return "Creator-retained redundant edges only: showing " + r + " redundant edge(s) of " +
             e;
    case EdgeMode::kFull:
      break;
  }
  return "";
}

EdgeSelection SelectEdges(const DepGraph& graph, const StructuralReduction& reduction,
                          EdgeMode mode, unsigned threads) {
  EdgeSelection selection;
  selection.mode = mode;
  const size_t pair_count = graph.pairs.size();
  selection.shown.assign(pair_count, 1);
  selection.shown_count = pair_count;
  if (mode == EdgeMode::kFull) return selection;
  if (!reduction.is_dag) {
    selection.cycle_fallback = true;
    return selection;
  }
  // A pair is lifetime-protected when any of its rows comes from creator retention.
  std::vector<uint8_t> has_creator(pair_count, 0);
  for (const EdgeRow& row : graph.rows) {
    if (row.source == EdgeSource::kCreator) has_creator[row.pair] = 1;
  }
  std::vector<uint8_t> proven;
  if (mode == EdgeMode::kReducedDataflow || mode == EdgeMode::kOmittedDataflow) {
    proven = ProveDataflowRemovable(graph, reduction.redundant, threads);
  }
  std::vector<uint8_t> removed(pair_count, 0);
  for (size_t p = 0; p < pair_count; ++p) {
    if (!reduction.redundant[p]) continue;
    if (!has_creator[p]) {
      removed[p] = 1;
    } else if (!proven.empty() && proven[p]) {
      removed[p] = 1;
    } else {
      ++selection.retained_count;
    }
  }
  const bool show_removed = mode == EdgeMode::kOmitted || mode == EdgeMode::kOmittedDataflow;
  selection.shown_count = 0;
  for (size_t p = 0; p < pair_count; ++p) {
    bool listed;
    bool shown;
    if (mode == EdgeMode::kRetained) {
      listed = shown = reduction.redundant[p] && has_creator[p];
    } else {
      listed = removed[p];
      shown = show_removed ? removed[p] : !removed[p];
    }
    selection.shown[p] = shown;
    selection.shown_count += shown;
    if (listed) selection.listed.push_back(static_cast<uint32_t>(p));
  }
  return selection;
}

}  // namespace depgraph
