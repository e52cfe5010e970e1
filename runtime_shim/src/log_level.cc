#include "log_level.h"

#include <strings.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace depgraph::shim {

namespace {
constexpr int32_t kDefaultThreshold = 1;  // errors and warnings

int32_t Threshold() {
  static const int32_t threshold = ParseLogLevel(std::getenv("PTO_SHIM_LOG_LEVEL"),
                                                 kDefaultThreshold);
  return threshold;
}

const char* LevelName(int32_t level) {
  switch (level) {
    case 0: return "ERROR";
    case 1: return "WARN";
    case 2: return "INFO";
    default: return "DEBUG";
  }
}
}  // namespace

int32_t ParseLogLevel(const char* text, int32_t fallback) {
  if (text == nullptr || *text == '\0') return fallback;
  static const char* const kNames[] = {"none", "error", "warn", "info", "debug"};
  for (int32_t i = 0; i < 5; ++i) {
    if (strcasecmp(text, kNames[i]) == 0) return i - 1;
  }
  if (strcasecmp(text, "warning") == 0) return 1;
  if (strcasecmp(text, "off") == 0) return -1;
  if (text[0] >= '0' && text[0] <= '4' && text[1] == '\0') return (text[0] - '0') - 1;
  return fallback;
}

bool LogEnabled(int32_t level) { return level <= Threshold(); }

void LogLine(int32_t level, const char* func, const char* format, va_list args) {
  std::string line = std::string("[pto_shim ") + LevelName(level) + "] " +
                     (func ? func : "?") + ": ";
  char small[512];
  va_list copy;
  va_copy(copy, args);
  const int needed = std::vsnprintf(small, sizeof small, format ? format : "", copy);
  va_end(copy);
  if (needed >= 0 && static_cast<size_t>(needed) < sizeof small) {
    line.append(small, static_cast<size_t>(needed));
  } else if (needed >= 0) {
    std::string big(static_cast<size_t>(needed) + 1, '\0');
    std::vsnprintf(big.data(), big.size(), format, args);
    line.append(big.data(), static_cast<size_t>(needed));
  }
  if (line.empty() || line.back() != '\n') line.push_back('\n');
  std::fwrite(line.data(), 1, line.size(), stderr);
}

}  // namespace depgraph::shim
