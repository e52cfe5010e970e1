// gen_graph's entry points: choose a shape, generate it, write it as a deps.json.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "gen_records.h"

namespace gen_graph {

/// The graph families gen_graph can produce.
enum class Shape { kDecode, kChain, kWide, kRandom, kChainToLast, kHub, kDense };

/// Parses "decode" | "chain" | "wide" | "random" | "chain_to_last" | "hub" | "dense"; false if unknown.
bool ParseShape(std::string_view text, Shape* shape);
/// The command-line spelling of a shape.
const char* ShapeName(Shape shape);

/// What to generate. The same options always give the same bytes.
struct GenOptions {
  Shape shape = Shape::kDecode;
  uint64_t tasks = 10000;  ///< exact number of tasks[] entries
  uint64_t seed = 1;
};

/// Runs the generator once, sending every tensor, task and edge row to `sink` in file
/// order. Cost: O(tasks) time; memory bounded by the shape (see the shape functions).
void GenerateGraph(const GenOptions& options, GenSink* sink);

/// Sizes of a written file.
struct GenStats {
  uint64_t tasks = 0;
  uint64_t tensors = 0;
  uint64_t edges = 0;  ///< edge rows
  uint64_t bytes = 0;
};

/// Writes the graph to `path` atomically (a temporary file renamed on success), streaming:
/// the generator runs once per top-level array (tasks, tensors, edges), each run formatting
/// only its own records, so memory stays at a few MiB whatever the size.
/// Cost: 3 generator runs plus O(output bytes). False with a message in *err on failure.
bool WriteGraphFile(const GenOptions& options, const std::string& path, GenStats* stats,
                    std::string* err);

}  // namespace gen_graph
