// How the tools' processes use memory: settings made once in main(), never by a library.
#pragma once

namespace depgraph::cli {

/// Keeps memory the process frees for its own later allocations instead of handing it back
/// to the kernel: large buffers come from the heap rather than from their own mappings, and
/// the heap is not trimmed. A load's transient arrays are then reused by the reduction, the
/// proof and the writers, which otherwise fault and clear the same amount of fresh pages
/// again (the 1 M-task reduced_dataflow run: 5.8 s -> 4.9 s, peak 0.93 -> 1.01 GB; see
/// docs/performance.md). Peak memory is unchanged in kind: nothing is kept that was not
/// allocated at some point. Call first thing in main(). O(1).
void KeepFreedMemoryForReuse();

}  // namespace depgraph::cli
