// Two independent pieces of work run at once: the stage-level parallelism of the loader's
// Finish and of the audit.
#pragma once

#include <functional>

namespace depgraph {

/// Runs `first` on the calling thread and `second` on a new thread when `threads` > 1, and
/// returns when both are done; with `threads` <= 1, or when no thread can be started, runs
/// `first` and then `second` on the calling thread. The two must not share mutable state.
/// An exception thrown by either (std::bad_alloc on a huge input) is rethrown here once both
/// have finished, `first`'s when both throw, so a caller never loses one to std::terminate.
/// O(1) beyond the two calls (one thread start).
void RunSideBySide(unsigned threads, const std::function<void()>& first,
                   const std::function<void()>& second);

}  // namespace depgraph
