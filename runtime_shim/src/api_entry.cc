// The C boundary (pto_shim/abi.h): forwards each call to the bound runtime's state. Nothing
// may throw across it; an escaping exception becomes a fatal error.
#include <cstdarg>
#include <cstdio>
#include <exception>
#include <string>

#include "depgraph_shim/shim_runtime.h"
#include "log_level.h"
#include "pto_orchestration_api.h"
#include "shim_state.h"

namespace depgraph::shim {
namespace {

ShimState* State() {
  ShimRuntime* runtime = ShimRuntime::Current();
  return runtime ? &runtime->state() : nullptr;
}

// Runs `body` on the bound state, turning exceptions into a fatal error.
template <typename Body>
void Guarded(const char* api, Body&& body) {
  ShimState* state = State();
  if (state == nullptr) return;
  try {
    body(*state);
  } catch (const std::exception& e) {
    state->Fatal(PTO2_ERROR_INVALID_ARGS, api, std::string("internal error: ") + e.what());
  } catch (...) {
    state->Fatal(PTO2_ERROR_INVALID_ARGS, api, "internal error");
  }
}

}  // namespace
}  // namespace depgraph::shim

using depgraph::shim::Guarded;
using depgraph::shim::ShimState;

extern "C" {

void pto_shim_submit(const PtoShimTaskDesc* desc, PtoShimOutputs* out) {
  if (out == nullptr) return;
  out->task_id = PTO2TaskId::invalid();
  out->count = 0;
  out->tensors = nullptr;
  if (desc == nullptr) return;
  Guarded(desc->api, [&](ShimState& s) { s.Submit(*desc, out); });
}

void pto_shim_scope_begin(uint8_t mode, const char* file, int line) {
  Guarded("rt_scope_begin", [&](ShimState& s) { s.ScopeBegin(mode, file, line); });
}

void pto_shim_scope_end(void) {
  Guarded("rt_scope_end", [&](ShimState& s) { s.ScopeEnd(); });
}

void pto_shim_report_fatal(int32_t code, const char* func, const char* message) {
  Guarded("rt_report_fatal",
          [&](ShimState& s) { s.Fatal(code, func, message ? message : "fatal error"); });
}

bool pto_shim_is_fatal(void) {
  bool fatal = false;
  Guarded("rt_is_fatal", [&](ShimState& s) { fatal = s.fatal(); });
  return fatal;
}

void pto_shim_orchestration_done(void) {
  Guarded("rt_orchestration_done", [&](ShimState& s) { s.OrchestrationDone(); });
}

uint64_t pto_shim_tensor_read(const ChipTensor* tensor, uint32_t ndims, const uint32_t* indices) {
  uint64_t bits = 0;
  if (tensor == nullptr) return 0;
  Guarded("get_tensor_data",
          [&](ShimState& s) { bits = s.ReadElement(*tensor, ndims, indices); });
  return bits;
}

void pto_shim_tensor_write(const ChipTensor* tensor, uint32_t ndims, const uint32_t* indices,
                           uint64_t bits) {
  if (tensor == nullptr) return;
  Guarded("set_tensor_data", [&](ShimState& s) { s.WriteElement(*tensor, ndims, indices, bits); });
}

void* pto_shim_host_pointer(uint64_t addr) {
  void* pointer = reinterpret_cast<void*>(static_cast<uintptr_t>(addr));
  Guarded("data_as", [&](ShimState& s) { pointer = s.HostPointer(addr); });
  return pointer;
}

uint64_t pto_shim_device_address(const void* pointer) {
  uint64_t addr = static_cast<uint64_t>(reinterpret_cast<uintptr_t>(pointer));
  Guarded("make_tensor_external", [&](ShimState& s) { addr = s.DeviceAddress(pointer); });
  return addr;
}

int32_t pto_shim_available_cluster_count(void) {
  int32_t count = depgraph::shim::ShimConfig{}.available_clusters;
  Guarded("rt_available_cluster_count",
          [&](ShimState& s) { count = s.config().available_clusters; });
  return count;
}

int32_t pto_shim_available_aiv_count(void) {
  int32_t count = depgraph::shim::ShimConfig{}.available_aiv;
  Guarded("rt_available_aiv_count", [&](ShimState& s) { count = s.config().available_aiv; });
  return count;
}

bool pto_shim_log_enabled(int32_t level) { return depgraph::shim::LogEnabled(level); }

void pto_shim_log(int32_t level, const char* func, const char* format, ...) {
  if (!depgraph::shim::LogEnabled(level)) return;
  try {
    va_list args;
    va_start(args, format);
    depgraph::shim::LogLine(level, func, format, args);
    va_end(args);
  } catch (...) {
    // Logging never fails the orchestration.
  }
}

}  // extern "C"
