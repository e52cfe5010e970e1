// The `decode` shape: a transformer decode loop as the runtime captures it.
#pragma once

#include <cstdint>

#include "graph_builder.h"

namespace gen_graph {

/// Emits decode steps until `builder` is full. Each step: an embedding task, L layers
/// (rmsnorm, q/k/v projection tiles, a KV-cache write, attention per head group, an o_proj
/// INOUT accumulation chain into the residual, rmsnorm, gate/up tiles, a down-projection
/// INOUT chain), a final norm, lm_head tiles and a sampler that feeds the next step.
/// Layer buffers belong to per-layer allocation nodes (creator rows with consumer views);
/// producers are found through a tensor-map model (tensormap rows with covered/other
/// overlap and producer views); a few explicit ordering rows and transitive shortcuts are
/// added. Model sizes come from `seed`. About 3.6 rows and 1.7 KB of JSON per task.
/// Cost: O(tasks) time, O(layers) memory.
void GenerateDecode(uint64_t seed, GraphBuilder* builder);

}  // namespace gen_graph
