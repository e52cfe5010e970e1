#include "depgraph/internal/parallel_load.h"

#include <algorithm>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <system_error>
#include <thread>
#include <vector>

namespace depgraph {

namespace {

enum class SlotState : uint8_t { kFree, kBusy, kParsed, kFailed };

// What a thread found to do.
enum class Did : uint8_t {
  kWork,      // scanned or parsed a block
  kWait,      // nothing now; more may come (someone is scanning or a slot is in use)
  kFinished,  // every block is handed out, or the run has stopped
};

// Runs three kinds of work on every thread, the calling one included: scanning for the next
// block's bounds (one thread at a time, kept a few blocks ahead of the parsers), parsing a
// block whose bounds are known into its slot, and committing the parsed blocks that come
// next in order (one thread at a time). Blocks past the first failure are never committed.
class Scheduler {
 public:
  Scheduler(ArraySplitter* splitter, size_t slots, BlockWork* work)
      : splitter_(splitter), slots_(slots), work_(work), state_(slots, SlotState::kFree) {}

  // A helper thread: works until no block is left to scan or parse.
  void HelperLoop() {
    std::unique_lock<std::mutex> lock(mu_);
    for (;;) {
      const Did did = DoSomeWork(lock);
      if (did == Did::kFinished) return;
      if (did == Did::kWait) cv_.wait(lock);
    }
  }

  // The calling thread: the same, and it reports progress; returns when every block is
  // committed or the next one in order failed.
  BlockRunResult MainLoop() {
    std::unique_lock<std::mutex> lock(mu_);
    size_t reported = 0;
    for (;;) {
      CommitReady(lock);
      if (result_.committed > reported) {
        reported = result_.committed;
        const size_t end = result_.last.end;
        lock.unlock();
        work_->CommittedUpTo(end);
        lock.lock();
        continue;
      }
      if (failed_ || result_.committed >= end_) break;
      if (DoSomeWork(lock) != Did::kWork) cv_.wait(lock);  // for the commits of others
    }
    stop_ = true;
    cv_.notify_all();
    BlockRunResult result = result_;
    result.complete = !failed_;
    return result;
  }

 private:
  // Scans or parses one block, then commits what it can (lock held; released while working).
  Did DoSomeWork(std::unique_lock<std::mutex>& lock) {
    if (stop_ || failed_) return Did::kFinished;
    // Scan first while fewer than `slots_` blocks have known bounds: parsers never wait for
    // the scan, and it reads the input ahead of them.
    if (scan_next_ < end_ && !scanning_ && scan_next_ < next_ + slots_) {
      Scan(lock);
      return Did::kWork;
    }
    if (next_ < scan_next_ && next_ < result_.committed + slots_) {
      const size_t block = next_++;
      Parse(lock, block);
      CommitReady(lock);
      return Did::kWork;
    }
    if (scan_next_ >= end_ && next_ >= end_) return Did::kFinished;  // all handed out
    return Did::kWait;
  }

  void Scan(std::unique_lock<std::mutex>& lock) {
    scanning_ = true;
    const size_t block = scan_next_;
    lock.unlock();
    BlockBounds bounds;
    const bool exists = splitter_->Block(block, &bounds);
    lock.lock();
    scanning_ = false;
    if (exists) {
      bounds_.push_back(bounds);
      ++scan_next_;
    } else {
      end_ = block;
    }
    cv_.notify_all();
  }

  void Parse(std::unique_lock<std::mutex>& lock, size_t block) {
    const size_t slot = block % slots_;
    state_[slot] = SlotState::kBusy;
    const BlockBounds bounds = bounds_[block];
    lock.unlock();
    const bool ok = work_->Parse(slot, block, bounds);
    lock.lock();
    state_[slot] = ok ? SlotState::kParsed : SlotState::kFailed;
    cv_.notify_all();
  }

  // Commits the parsed blocks that come next in order (lock held; released during each
  // Commit). Only one thread commits at a time.
  void CommitReady(std::unique_lock<std::mutex>& lock) {
    while (!committing_ && !failed_ && result_.committed < end_ &&
           result_.committed < scan_next_) {
      const size_t slot = result_.committed % slots_;
      if (state_[slot] == SlotState::kFailed) failed_ = true;
      if (state_[slot] != SlotState::kParsed) break;
      committing_ = true;
      const BlockBounds bounds = bounds_[result_.committed];
      lock.unlock();
      const bool ok = work_->Commit(slot, result_.committed, bounds);
      lock.lock();
      committing_ = false;
      if (!ok) {
        failed_ = true;
      } else {
        state_[slot] = SlotState::kFree;
        result_.last = bounds;
        ++result_.committed;
      }
      cv_.notify_all();
    }
  }

  ArraySplitter* splitter_;  // used by the one thread that is scanning
  const size_t slots_;
  BlockWork* work_;
  std::mutex mu_;  // guards everything below
  std::condition_variable cv_;
  std::vector<BlockBounds> bounds_;  // of the blocks scanned so far
  size_t scan_next_ = 0;             // next block to scan for
  bool scanning_ = false;            // a thread is scanning
  size_t next_ = 0;                  // next block to parse
  size_t end_ = SIZE_MAX;            // first block that does not exist, once known
  BlockRunResult result_;            // blocks committed so far
  bool committing_ = false;          // a thread is in Commit
  bool failed_ = false;              // the next block in order failed to parse or commit
  bool stop_ = false;                // the calling thread is done: nothing more to do
  std::vector<SlotState> state_;     // per slot
};

}  // namespace

BlockRunResult ParseBlocksInParallel(ArraySplitter* splitter, unsigned threads, size_t slots,
                                     BlockWork* work) {
  Scheduler scheduler(splitter, std::max<size_t>(slots, 1), work);
  std::vector<std::thread> helpers;
  for (unsigned t = 1; t < threads; ++t) {
    try {
      helpers.emplace_back([&scheduler] { scheduler.HelperLoop(); });
    } catch (const std::system_error&) {
      break;  // no more threads to be had: the ones running (at least this one) do the work
    }
  }
  const BlockRunResult result = scheduler.MainLoop();
  for (std::thread& helper : helpers) helper.join();
  return result;
}

}  // namespace depgraph
