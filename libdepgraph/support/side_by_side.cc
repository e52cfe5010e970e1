#include "depgraph/internal/side_by_side.h"

#include <exception>
#include <system_error>
#include <thread>

namespace depgraph {

void RunSideBySide(unsigned threads, const std::function<void()>& first,
                   const std::function<void()>& second) {
  if (threads > 1) {
    std::exception_ptr second_error;
    std::thread helper;
    try {
      helper = std::thread([&] {
        try {
          second();
        } catch (...) {
          second_error = std::current_exception();
        }
      });
    } catch (const std::system_error&) {
      // No thread to be had: one after the other, below.
    }
    if (helper.joinable()) {
      std::exception_ptr first_error;
      try {
        first();
      } catch (...) {
        first_error = std::current_exception();
      }
      helper.join();
      if (first_error) std::rethrow_exception(first_error);
      if (second_error) std::rethrow_exception(second_error);
      return;
    }
  }
  first();
  second();
}

}  // namespace depgraph
