// The LOG_* sink: level from PTO_SHIM_LOG_LEVEL, lines to stderr.
#pragma once

#include <cstdarg>
#include <cstdint>

namespace depgraph::shim {

/// Whether `level` (0 error, 1 warn, 2 info, 3 debug) is printed. The threshold is read once
/// from PTO_SHIM_LOG_LEVEL: none|error|warn|info|debug or 0..4 (0 = none); default warn.
bool LogEnabled(int32_t level);
/// Prints "[pto_shim LEVEL] func: message" and a newline to stderr in one write.
void LogLine(int32_t level, const char* func, const char* format, va_list args);
/// Parses a PTO_SHIM_LOG_LEVEL value into a threshold (-1 = nothing); `fallback` if unknown.
int32_t ParseLogLevel(const char* text, int32_t fallback);

}  // namespace depgraph::shim
