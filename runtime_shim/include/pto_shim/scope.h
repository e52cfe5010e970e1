// Scopes: PTO2ScopeGuard, PTO2_SCOPE, PTO2_SCOPE_GUARD and rt_scope_begin / rt_scope_end
// (orchestration_api.md §2.3-§2.4, runtime.md §2.1-§2.2). A scope creates no edges; its depth
// picks the task ring and a MANUAL scope switches dependency inference off.
#pragma once

#include <cstdint>

#include "pto_shim/abi.h"
#include "pto_shim/types.h"

/// Opens a scope for its lifetime. AUTO inside an active MANUAL scope is a fatal error.
class PTO2ScopeGuard {
 public:
  /// Opens a scope of `mode`; `file`/`line` default to the caller's position.
  explicit PTO2ScopeGuard(PTO2ScopeMode mode = PTO2ScopeMode::AUTO,
                          const char* file = __builtin_FILE(), int line = __builtin_LINE()) {
    pto_shim_scope_begin(static_cast<uint8_t>(mode), file, line);
  }
  /// Closes the scope.
  ~PTO2ScopeGuard() { pto_shim_scope_end(); }
  /// Not copyable: one guard, one scope.
  PTO2ScopeGuard(const PTO2ScopeGuard&) = delete;
  PTO2ScopeGuard& operator=(const PTO2ScopeGuard&) = delete;
};

/// Opens a scope (bracket form; pair with rt_scope_end).
inline void rt_scope_begin(PTO2ScopeMode mode = PTO2ScopeMode::AUTO,
                           const char* file = __builtin_FILE(), int line = __builtin_LINE()) {
  pto_shim_scope_begin(static_cast<uint8_t>(mode), file, line);
}
/// Closes the innermost scope.
inline void rt_scope_end() { pto_shim_scope_end(); }

#define PTO_SHIM_CONCAT_INNER(a, b) a##b
#define PTO_SHIM_CONCAT(a, b) PTO_SHIM_CONCAT_INNER(a, b)

/// `PTO2_SCOPE(mode) { ... }`: a scope around the following block or statement.
#define PTO2_SCOPE(...) \
  if (PTO2ScopeGuard PTO_SHIM_CONCAT(pto2_scope_guard_, __COUNTER__){__VA_ARGS__}; true)

/// `PTO2_SCOPE_GUARD();`: a scope until the end of the enclosing C++ block (TMRB also takes
/// the mode; host_build_graph takes no arguments).
#if PTO_SHIM_IS_HBG
#define PTO2_SCOPE_GUARD() \
  [[maybe_unused]] PTO2ScopeGuard PTO_SHIM_CONCAT(pto2_scope_guard_, __COUNTER__) {}
#else
#define PTO2_SCOPE_GUARD(...) \
  [[maybe_unused]] PTO2ScopeGuard PTO_SHIM_CONCAT(pto2_scope_guard_, __COUNTER__) { __VA_ARGS__ }
#endif
