#include "parallel_load.h"

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

// Hands out blocks in order, lets threads parse them into slots and has the calling thread
// commit them in order. Blocks past the first failure are never committed.
class Scheduler {
 public:
  Scheduler(ArraySplitter* splitter, size_t slots, BlockWork* work)
      : splitter_(splitter),
        slots_(slots),
        work_(work),
        state_(slots, SlotState::kFree),
        bounds_(slots) {}

  // A helper thread: parses blocks until none is left or the run stops.
  void HelperLoop() {
    std::unique_lock<std::mutex> lock(mu_);
    size_t block;
    while (TakeBlock(lock, /*wait=*/true, &block)) {
      lock.unlock();
      RunBlock(block);
      lock.lock();
    }
  }

  // The calling thread: commits parsed blocks in order and parses blocks too when none is
  // ready to commit.
  BlockRunResult MainLoop() {
    BlockRunResult result;
    bool failed = false;
    std::unique_lock<std::mutex> lock(mu_);
    for (;;) {
      while (!failed && committed_ < end_) {
        const size_t slot = committed_ % slots_;
        if (state_[slot] == SlotState::kFailed) failed = true;
        if (state_[slot] != SlotState::kParsed) break;
        const BlockBounds bounds = bounds_[slot];
        lock.unlock();
        const bool ok = work_->Commit(slot, committed_, bounds);
        lock.lock();
        if (!ok) {
          failed = true;
          break;
        }
        state_[slot] = SlotState::kFree;
        result.last = bounds;
        ++committed_;
        cv_.notify_all();
      }
      if (failed || committed_ >= end_) break;
      size_t block;
      if (TakeBlock(lock, /*wait=*/false, &block)) {
        lock.unlock();
        RunBlock(block);
        lock.lock();
        continue;
      }
      cv_.wait(lock);
    }
    stop_ = true;
    cv_.notify_all();
    result.committed = committed_;
    result.complete = !failed && committed_ >= end_;
    return result;
  }

 private:
  // Takes the next block (lock held). When every slot is in use, waits for a commit if
  // `wait`, else returns false; also false once the run has stopped or the array ended.
  bool TakeBlock(std::unique_lock<std::mutex>& lock, bool wait, size_t* block) {
    for (;;) {
      if (stop_ || next_ >= end_) return false;
      if (next_ < committed_ + slots_) {
        *block = next_++;
        state_[*block % slots_] = SlotState::kBusy;
        return true;
      }
      if (!wait) return false;
      cv_.wait(lock);
    }
  }

  // Finds block j's bounds and parses it (no lock held), then records the outcome.
  void RunBlock(size_t j) {
    const size_t slot = j % slots_;
    BlockBounds bounds;
    bool exists;
    {
      std::lock_guard<std::mutex> split_lock(split_mu_);
      work_->WillScanFrom(splitter_->scanned());
      exists = splitter_->Block(j, &bounds);
    }
    const bool ok = exists && work_->Parse(slot, j, bounds);
    std::lock_guard<std::mutex> lock(mu_);
    if (!exists) {
      end_ = std::min(end_, j);
      state_[slot] = SlotState::kFree;
    } else {
      bounds_[slot] = bounds;
      state_[slot] = ok ? SlotState::kParsed : SlotState::kFailed;
    }
    cv_.notify_all();
  }

  ArraySplitter* splitter_;
  const size_t slots_;
  BlockWork* work_;
  std::mutex split_mu_;  // guards splitter_ and WillScanFrom
  std::mutex mu_;        // guards everything below
  std::condition_variable cv_;
  size_t next_ = 0;          // next block to hand out
  size_t committed_ = 0;     // blocks committed
  size_t end_ = SIZE_MAX;    // first block that does not exist, once known
  bool stop_ = false;        // the calling thread is done: hand out nothing more
  std::vector<SlotState> state_;
  std::vector<BlockBounds> bounds_;
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
