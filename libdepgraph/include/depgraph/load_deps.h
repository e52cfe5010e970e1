// Loading deps.json into a DepGraph.
#pragma once

#include <functional>
#include <string>
#include <string_view>

#include "depgraph/graph.h"

namespace depgraph {

/// Called now and then during a load with the fraction of the input parsed so far.
using ProgressFn = std::function<void(double fraction)>;

/// Loads the deps.json at `path` into *graph.
///
/// Accepts every shape real runtimes write (tensormap_and_ringbuffer with `flags`,
/// host_build_graph without, legacy v2 fields, which are ignored) and coerces ids as Python's
/// int() does: JSON integers, truncated floats, booleans, and base-10 strings with optional
/// whitespace, sign and `_` separators; negatives wrap to 64 bits.
/// Unlike the Python tool, input it would silently drop or crash on is an error: on failure
/// returns false with a one-line message in *err naming the file and the JSON path or
/// line:column, e.g. `deps.json: edges[17].pred: expected an unsigned 64-bit id, got "0x10"`.
/// Only a regular file (or a symlink to one) is read: a directory, FIFO or device is refused
/// before it is opened (`deps.json: is a FIFO, not a regular file`).
/// Cost: O(file size + R log R) time for R rows, O(tasks + rows) memory; the file is streamed.
bool LoadDepsJson(const std::string& path, DepGraph* graph, std::string* err,
                  const ProgressFn& progress = nullptr);

/// Same as LoadDepsJson for an in-memory document; `display_name` prefixes error messages.
bool LoadDepsJsonText(std::string_view text, const std::string& display_name, DepGraph* graph,
                      std::string* err);

}  // namespace depgraph
