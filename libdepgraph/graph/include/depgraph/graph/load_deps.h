// Loading deps.json into a DepGraph.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>

#include "depgraph/graph/graph.h"

namespace depgraph {

/// Called now and then during a load with the fraction of the input parsed so far: never
/// decreasing, always on the thread that called LoadDepsJson, ending with 1.0 on success.
using ProgressFn = std::function<void(double fraction)>;

/// What a load did with its threads, for tests and benchmarks (see LoadOptions::stats).
struct LoadStats {
  size_t blocks = 0;     ///< blocks of the big arrays parsed in parallel and committed
  size_t fallbacks = 0;  ///< arrays finished sequentially from a block that failed to parse
};

/// How LoadDepsJson runs. Whatever the values, the loaded model and every error message are
/// the same: only time and memory change.
struct LoadOptions {
  /// Threads parsing the `tasks`, `tensors` and `edges` arrays: 0 = every core
  /// (std::thread::hardware_concurrency()), 1 = only the calling thread. An array of two
  /// blocks or more is read in blocks even on one thread (copies of the input, never the
  /// mapping: on a VM the first touch of a mapped page costs more than the copy); shorter
  /// arrays are parsed on the calling thread straight from the mapping.
  unsigned threads = 0;
  /// Bytes of input per block; 0 = the default (1 MiB). Small values only help tests exercise
  /// many block boundaries; SIZE_MAX parses every array straight from the mapping, the
  /// sequential parse the tests compare the block parse with.
  size_t block_bytes = 0;
  /// When set, receives what the load did (reset first).
  LoadStats* stats = nullptr;
  /// Refuse a document without a top-level `tasks` array, saying what it is instead
  /// (document_kind.h: timing records, a name map, a trace...). The viewer, a drop-in for the
  /// Python tool, reads such a document as an empty graph; the gates must not pass on it.
  bool require_tasks = false;
  /// Decode the views: `dtype`, `shape`, `strides` and `start_offset` of task arguments,
  /// their `consumer_*` and `producer_*` forms on edge rows. False: their values are still
  /// checked as JSON (a syntax error is the same error) but skipped, so every View is left
  /// absent, `producer_views` is empty and DepGraph::views_loaded is false. For commands
  /// that never read a view (diff, query, wait-sim): the producer views' memory is saved
  /// (skipping a view costs about what decoding it does). No message changes either way: a
  /// view's value is never an error, only its syntax.
  bool views = true;
};

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
///
/// Threads: the big arrays are cut into ~1 MiB blocks between elements by a structural scan
/// (quotes, escapes and brackets only, 64 bytes a step: a `},{` inside a string never cuts),
/// the only sequential part of the parse; `options.threads` threads (the calling one
/// included) parse the blocks into per-block buffers, committed to the model in file order.
/// Malformed input gives the sequential parse's first error: from the first block that fails,
/// the rest of the array is parsed sequentially. An array of a single block is parsed on the
/// calling thread, and a graph under 65,536 rows + tasks is indexed there.
/// Cost: O(file size) parse, spread over the threads (the scan adds about a tenth to the
/// CPU); then an O(R + T) index build for R rows and T tasks (radix sort of the
/// tasks, a galloping search per row endpoint, counting sort of the rows, small sorts only),
/// partly on two threads. Measured on a 1.7 GB, 1 M-task capture: 6.6 s of CPU against 21.7 s
/// for the loader before it (docs/performance.md, "Parallel load"). Memory: the model
/// (O(tasks + rows), written once: vectors are sized from the first MiB of each array, grown
/// as usual only if that underestimates; capacity never written costs address space only)
/// plus 2 block buffers per thread; the file is mapped, never copied, and released as the
/// parse goes.
bool LoadDepsJson(const std::string& path, DepGraph* graph, std::string* err,
                  const LoadOptions& options, const ProgressFn& progress = nullptr);
/// LoadDepsJson with default LoadOptions: every core.
bool LoadDepsJson(const std::string& path, DepGraph* graph, std::string* err,
                  const ProgressFn& progress = nullptr);

/// Same as LoadDepsJson for an in-memory document; `display_name` prefixes error messages.
bool LoadDepsJsonText(std::string_view text, const std::string& display_name, DepGraph* graph,
                      std::string* err, const LoadOptions& options = LoadOptions());

}  // namespace depgraph
