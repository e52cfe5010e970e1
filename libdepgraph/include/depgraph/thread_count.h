// The `--threads N` value of the tools: how many threads a parallel step may use.
#pragma once

namespace depgraph {

/// The number of threads `requested` means: itself when positive, else every core
/// (std::thread::hardware_concurrency(), or 1 when that is unknown). O(1).
unsigned ResolveThreadCount(unsigned requested);

}  // namespace depgraph
