// Synthetic stress shapes: a long chain, a few very wide levels, a random layered DAG, and two
// shapes built to be slow for searches bounded by submit-order windows (chain_to_last, hub), and
// a dense local DAG (dense).
#pragma once

#include <cstdint>

#include "graph_builder.h"

namespace gen_graph {

/// `chain`: every task reads the previous task's output (creator row); half the tasks add
/// an explicit skip row and a quarter a creator skip row from 2..16 tasks back, so the
/// reductions have shortcuts to drop (explicit) and to retain (creator).
/// About 1.75 rows per task. Cost: O(tasks) time, O(1) memory.
void GenerateChain(uint64_t seed, GraphBuilder* builder);

/// `wide`: a handful of levels (4..8). Each level starts with a hub task that waits on every
/// task of the previous level (explicit fan-in) and whose output every task of its level
/// reads (creator fan-out); level tasks also read two random outputs of the previous level
/// and one in eight waits on the previous level's hub (an explicit shortcut). About 3.7 rows
/// per task. Reduction cost grows as tasks * width here (the worst case of the windowed DFS).
/// Cost: O(tasks) time, O(tasks / levels) memory.
void GenerateWide(uint64_t seed, uint64_t tasks, GraphBuilder* builder);

/// `random`: a layered random DAG. Layers of 16..64 tasks; each task takes 1..3
/// predecessors from the 256 tasks before its layer (the locality window), through a
/// tensormap read of the predecessor's output (75%) or an explicit row (25%). Outputs live
/// in buffers owned by an allocation node per 4,096 tasks (creator rows).
/// About 4.5 rows per task. Cost: O(tasks) time, O(window) memory.
void GenerateRandom(uint64_t seed, GraphBuilder* builder);

/// `chain_to_last`: a chain (each task reads the previous task's output) plus an explicit row
/// from every task to the last one: two rows per task, and every task's topological window
/// reaches the end of the graph. Cost: O(tasks) time and memory (the last task's rows).
void GenerateChainToLast(uint64_t seed, uint64_t tasks, GraphBuilder* builder);

/// `hub`: the first task creates a buffer every other task reads (a creator fan-out of the
/// whole graph); each task also reads its predecessor's output with probability 1/2 and a
/// random output among the 64 before it with probability 1/4, so the closure is large and
/// made of short chains. About 2.7 rows per task. Cost: O(tasks) time, O(1) memory.
void GenerateHub(uint64_t seed, GraphBuilder* builder);

/// `dense`: every task reads the outputs of 12 random tasks among the 64 before it (creator
/// rows) and waits explicitly on 4 more: about 16 rows per task, most of them implied by the
/// others, so reductions, reachability queries and closures do the most work per task.
/// Cost: O(tasks) time, O(1) memory.
void GenerateDense(uint64_t seed, GraphBuilder* builder);

}  // namespace gen_graph
