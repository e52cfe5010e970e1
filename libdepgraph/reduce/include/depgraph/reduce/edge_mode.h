// Edge modes: which pairs a view shows, after reduction and creator protection.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "depgraph/graph/graph.h"
#include "depgraph/reduce/reduction.h"

namespace depgraph {

/// The viewer's --edge-mode values.
enum class EdgeMode {
  kFull,             ///< every pair
  kReduced,          ///< drop redundant pairs without a creator row
  kOmitted,          ///< only the pairs kReduced drops
  kReducedDataflow,  ///< also drop creator pairs whose byte-level dataflow proof succeeds
  kOmittedDataflow,  ///< only the pairs kReducedDataflow drops
  kRetained,         ///< redundant pairs kept only by creator protection (kReduced keeps them)
};
/// Parses "full", "reduced", ...; false if unknown.
bool ParseEdgeMode(std::string_view text, EdgeMode* mode);
/// The command-line spelling of a mode.
const char* EdgeModeName(EdgeMode mode);
/// Whether SelectEdges runs the dataflow proof for `mode`, which reads the tensor views (a
/// graph loaded without them, LoadOptions::views, cannot be used). O(1).
inline bool EdgeModeReadsViews(EdgeMode mode) {
  return mode == EdgeMode::kReducedDataflow || mode == EdgeMode::kOmittedDataflow;
}

/// The line deps_viewer prints on stdout for a reduction mode (the reference tool's words):
/// `Transitive reduction: removed R redundant edge(s) of E (K kept)` for `reduced`, with `listed`
/// = EdgeSelection::listed.size() and `total` = pairs; "" for kFull. Shared by the viewer and
/// the Python module. O(1).
std::string EdgeModeHeadline(EdgeMode mode, size_t listed, size_t total);

/// The outcome of applying a mode to a graph.
struct EdgeSelection {
  EdgeMode mode = EdgeMode::kFull;
  bool cycle_fallback = false;  ///< a reduction mode met a cycle: everything is shown
  std::vector<uint8_t> shown;   ///< per pair: 1 if drawn
  size_t shown_count = 0;
  /// Pairs dropped by a reduced mode (or shown by an omitted/retained mode), ascending.
  std::vector<uint32_t> listed;
  /// Redundant pairs kept only because a creator row protects them (kReduced, kRetained).
  size_t retained_count = 0;
};

/// Applies `mode`. `reduction` must come from ReduceStructurally(graph). The dataflow modes
/// run the byte-level proof on creator-protected candidates on `threads` threads (0 = every
/// core; the result does not depend on it). O(E) plus the proof's cost.
EdgeSelection SelectEdges(const DepGraph& graph, const StructuralReduction& reduction,
                          EdgeMode mode, unsigned threads = 0);

}  // namespace depgraph
