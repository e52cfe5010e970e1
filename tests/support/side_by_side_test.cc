#include "depgraph/internal/side_by_side.h"

#include <gtest/gtest.h>

#include <atomic>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace depgraph {
namespace {

TEST(SideBySide, OneThreadRunsFirstThenSecondHere) {
  for (unsigned threads : {0u, 1u}) {
    std::vector<std::string> order;
    std::thread::id second_on;
    RunSideBySide(
        threads, [&] { order.push_back("first"); },
        [&] {
          order.push_back("second");
          second_on = std::this_thread::get_id();
        });
    EXPECT_EQ(order, (std::vector<std::string>{"first", "second"}));
    EXPECT_EQ(second_on, std::this_thread::get_id());
  }
}

TEST(SideBySide, TwoThreadsRunSecondOnAnotherThreadAndWaitForIt) {
  std::thread::id first_on, second_on;
  std::atomic<bool> second_done{false};
  RunSideBySide(
      2, [&] { first_on = std::this_thread::get_id(); },
      [&] {
        second_on = std::this_thread::get_id();
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
        second_done = true;
      });
  EXPECT_TRUE(second_done);  // returned only once the helper was done
  EXPECT_EQ(first_on, std::this_thread::get_id());
  EXPECT_NE(second_on, std::this_thread::get_id());
}

// An exception on either side reaches the caller once both sides are done; the first
// side's wins when both throw. Before, a throw on the helper thread was std::terminate.
TEST(SideBySide, ExceptionsReachTheCallerAfterBothFinish) {
  for (unsigned threads : {1u, 2u}) {
    std::atomic<bool> other_done{false};
    try {
      RunSideBySide(
          threads, [&] { other_done = true; }, [] { throw std::runtime_error("second"); });
      ADD_FAILURE() << "no exception, threads " << threads;
    } catch (const std::runtime_error& e) {
      EXPECT_STREQ(e.what(), "second");
      EXPECT_TRUE(other_done);
    }
    if (threads > 1) {
      other_done = false;
      try {
        RunSideBySide(
            threads, [] { throw std::runtime_error("first"); },
            [&] {
              std::this_thread::sleep_for(std::chrono::milliseconds(20));
              other_done = true;
            });
        ADD_FAILURE() << "no exception";
      } catch (const std::runtime_error& e) {
        EXPECT_STREQ(e.what(), "first");
        EXPECT_TRUE(other_done);
      }
    }
    try {
      RunSideBySide(
          threads, [] { throw std::runtime_error("first"); },
          [] { throw std::runtime_error("second"); });
      ADD_FAILURE() << "no exception, threads " << threads;
    } catch (const std::runtime_error& e) {
      EXPECT_STREQ(e.what(), "first");
    }
  }
}

}  // namespace
}  // namespace depgraph
