// Logging, assertions and fatal reporting macros of the orchestration API
// (orchestration_api.md §2.4). Log lines go to stderr at the level set by the environment
// variable PTO_SHIM_LOG_LEVEL (none, error, warn, info, debug or 0-4; default warn).
#pragma once

#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <stdexcept>
#include <string>

#include "pto_shim/abi.h"

namespace pto_shim {

/// Log levels of the LOG_* macros.
enum LogLevel : int32_t { kLogError = 0, kLogWarn = 1, kLogInfo = 2, kLogDebug = 3 };

/// What always_assert / debug_assert throw after latching the fatal error.
class AssertionError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

namespace detail {

/// Formats `format` with `args` into a std::string.
inline std::string VFormat(const char* format, va_list args) {
  char small[512];
  va_list copy;
  va_copy(copy, args);
  const int needed = std::vsnprintf(small, sizeof small, format, copy);
  va_end(copy);
  if (needed < 0) return format;
  if (static_cast<size_t>(needed) < sizeof small) return std::string(small, needed);
  std::string text(static_cast<size_t>(needed) + 1, '\0');
  std::vsnprintf(text.data(), text.size(), format, args);
  text.resize(static_cast<size_t>(needed));
  return text;
}

/// rt_report_fatal: formats the message and latches it in the runtime.
inline void ReportFatal(int32_t code, const char* func, const char* format, ...)
    __attribute__((format(printf, 3, 4)));
inline void ReportFatal(int32_t code, const char* func, const char* format, ...) {
  va_list args;
  va_start(args, format);
  const std::string message = VFormat(format, args);
  va_end(args);
  pto_shim_report_fatal(code, func, message.c_str());
}

/// A failed always_assert / debug_assert: latches a fatal error naming the condition and the
/// place, then throws AssertionError (the orchestration is abandoned, as on the device).
[[noreturn]] inline void AssertFail(const char* condition, const char* file, int line,
                                    const char* func) {
  std::string message = std::string("assertion failed: ") + condition + " at " + file + ":" +
                        std::to_string(line);
  pto_shim_report_fatal(PTO2_ERROR_INVALID_ARGS, func, message.c_str());
  throw AssertionError(message);
}

}  // namespace detail
}  // namespace pto_shim

/// printf-style log lines, prefixed with the calling function. Arguments are always evaluated.
#define PTO_SHIM_LOG(level, fmt, ...) pto_shim_log((level), __FUNCTION__, fmt, ##__VA_ARGS__)
#define LOG_ERROR(fmt, ...) PTO_SHIM_LOG(::pto_shim::kLogError, fmt, ##__VA_ARGS__)
#define LOG_WARN(fmt, ...) PTO_SHIM_LOG(::pto_shim::kLogWarn, fmt, ##__VA_ARGS__)
#define LOG_INFO(fmt, ...) PTO_SHIM_LOG(::pto_shim::kLogInfo, fmt, ##__VA_ARGS__)
#define LOG_DEBUG(fmt, ...) PTO_SHIM_LOG(::pto_shim::kLogDebug, fmt, ##__VA_ARGS__)
#define LOG_TIMING(fmt, ...) PTO_SHIM_LOG(::pto_shim::kLogDebug, fmt, ##__VA_ARGS__)

/// Latches a fatal error with a printf-style message; every later API call is a no-op.
#define rt_report_fatal(code, fmt, ...) \
  ::pto_shim::detail::ReportFatal((code), __FUNCTION__, fmt, ##__VA_ARGS__)

/// Checks `cond`; on failure latches a fatal error and throws pto_shim::AssertionError.
#define always_assert(cond)                                                              \
  do {                                                                                   \
    if (!(cond)) ::pto_shim::detail::AssertFail(#cond, __FILE__, __LINE__, __FUNCTION__); \
  } while (0)

/// always_assert unless NDEBUG (orchestration builds do not define it).
#ifdef NDEBUG
#define debug_assert(cond) ((void)0)
#else
#define debug_assert(cond) always_assert(cond)
#endif

/// Busy-wait hint (a no-op on the host).
#define SPIN_WAIT_HINT() ((void)0)
