// The byte-level proof that lets `reduced_dataflow` drop a creator-protected redundant pair.
#pragma once

#include <cstdint>
#include <vector>

#include "depgraph/graph/graph.h"

namespace depgraph {

/// For each pair with candidates[pair] != 0 that carries at least one creator row, decides
/// whether the creator edge (owner -> task) may go: every creator row must describe an exactly
/// known INOUT view of the owner's buffer, and every byte of it must arrive through a direct
/// tensormap edge from a task that itself holds a creator view of the same owner's buffer, and
/// leave through a direct tensormap edge into an INOUT view of a task that does too.
/// OUTPUT_EXISTING (the start of a buffer-reuse generation), unknown regions and views over
/// 10,000 outer intervals veto. Returns a per-pair vector: 1 = proven removable.
/// Pairs without creator rows are left 0 (the caller removes them without proof).
/// Cost: O(R * I log I) to build region records for R creator/tensormap rows of at most
/// I intervals each, plus per candidate O(sum of modifier * record intersections). Both
/// halves run on `threads` threads (0 = all cores, but one per 65,536 rows or pairs at most):
/// the records from ranges of rows, joined in file order, then the candidates over ranges of
/// pairs; each decision is independent, so the result is the same.
std::vector<uint8_t> ProveDataflowRemovable(const DepGraph& graph,
                                            const std::vector<uint8_t>& candidates,
                                            unsigned threads = 0);

}  // namespace depgraph
