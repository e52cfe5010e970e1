// Parsing the blocks of one large JSON array on several threads, with the results taken in
// file order on the calling thread: the scheduling half of the parallel deps.json load.
#pragma once

#include <cstddef>

#include "depgraph/internal/parallel_scan.h"

namespace depgraph {

/// The work ParseBlocksInParallel hands out; the deps.json loader implements it.
class BlockWork {
 public:
  virtual ~BlockWork() = default;
  /// Parses block `block` into buffer `slot`. Runs on any of the threads, concurrently for
  /// different slots. False when the block has to be parsed sequentially instead: a syntax or
  /// semantic error, or elements that do not end exactly at `bounds.end`.
  virtual bool Parse(size_t slot, size_t block, const BlockBounds& bounds) = 0;
  /// Takes the results in buffer `slot` of block `block`, whose Parse succeeded. Called in
  /// block order, one call at a time, on whichever thread finished the block that let it go
  /// (so that the first writes into the output, page faults included, are shared). False when
  /// the results cannot be taken as they are.
  virtual bool Commit(size_t slot, size_t block, const BlockBounds& bounds) = 0;
  /// Called on the calling thread only, now and then, with the end of the last block
  /// committed so far (non-decreasing): for progress reports.
  virtual void CommittedUpTo(size_t end) = 0;
};

/// What ParseBlocksInParallel did.
struct BlockRunResult {
  size_t committed = 0;   ///< blocks committed, 0, 1, ... in order
  bool complete = false;  ///< all of the array's blocks were committed
  BlockBounds last;       ///< bounds of the last block committed (when committed > 0)
};

/// Cuts an array into blocks with `splitter` and has `work` parse them on `threads` threads,
/// the calling one included (std::thread, started here and joined before returning), and
/// commit them in order. At most `slots` blocks are parsed or wait for their commit at any
/// time (block j uses buffer j % slots), which bounds the memory ahead of the commits. Stops at the first block, in order, whose Parse or Commit fails: blocks after
/// it are dropped uncommitted, and the caller continues sequentially after `last`.
/// Cost: the splitter's scan plus the blocks' parse spread over the threads, one lock round
/// per block.
BlockRunResult ParseBlocksInParallel(ArraySplitter* splitter, unsigned threads, size_t slots,
                                     BlockWork* work);

}  // namespace depgraph
