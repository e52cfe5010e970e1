// How the tools' processes use memory: settings made once in main(), never by a library.
#pragma once

#include <functional>

namespace depgraph::cli {

/// Runs a tool's main body and turns an allocation failure anywhere in it into the one-line
/// error "<tool>: error: out of memory ..." and exit code 1, instead of std::terminate's abort.
/// Outputs are unaffected: unwinding removes an unfinished AtomicFile's temporary, so no
/// partial file is left. O(1) beyond `body`.
int RunReportingOutOfMemory(const char* tool, const std::function<int()>& body);

/// Keeps memory the process frees for its own later allocations instead of handing it back
/// to the kernel: large buffers come from the heap rather than from their own mappings, and
/// the heap is not trimmed. A load's transient arrays are then reused by the reduction, the
/// proof and the writers, which otherwise fault and clear the same amount of fresh pages
/// again (the 1 M-task reduced_dataflow run: 5.8 s -> 4.9 s, peak 0.93 -> 1.01 GB; see
/// docs/performance.md). Peak memory is unchanged in kind: nothing is kept that was not
/// allocated at some point. Call first thing in main(). O(1).
void KeepFreedMemoryForReuse();

/// Backs the heap with transparent huge pages where the kernel only gives them on request
/// (THP mode "madvise", Debian's default): re-executes the process once, before it has done
/// anything, with glibc's `glibc.malloc.hugetlb=1` tunable added to GLIBC_TUNABLES, so that
/// malloc advises MADV_HUGEPAGE on the memory it takes from the kernel. A 2 MiB page then
/// costs one fault instead of 512: on the 1 M-task reduced_dataflow run, about a second of
/// the 4-6 s went to faulting 4 KiB pages (docs/performance.md).
///
/// Does nothing when GLIBC_TUNABLES already names `glibc.malloc.hugetlb` (the user's setting
/// wins: `glibc.malloc.hugetlb=0` keeps the process as started, e.g. under valgrind), when
/// THP is "always" or "never", when glibc is older than 2.35 (no such tunable), or when the
/// re-execution fails (the process then goes on as it is). Output is the same either way.
/// Call first thing in main(), before any thread or file is opened. O(1) plus one exec.
void UseHugePagesForTheHeap(char** argv);

}  // namespace depgraph::cli
