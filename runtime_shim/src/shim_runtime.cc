#include "depgraph_shim/shim_runtime.h"

#include <atomic>

#include "shim_state.h"

namespace depgraph::shim {

namespace {
std::atomic<ShimRuntime*> g_current{nullptr};
}  // namespace

ShimRuntime::ShimRuntime(const ShimConfig& config) : state_(std::make_unique<ShimState>(config)) {}

ShimRuntime::~ShimRuntime() {
  ShimRuntime* self = this;
  g_current.compare_exchange_strong(self, nullptr);
}

void ShimRuntime::Bind() { g_current.store(this); }
void ShimRuntime::Unbind() { g_current.store(nullptr); }
ShimRuntime* ShimRuntime::Current() { return g_current.load(std::memory_order_relaxed); }

void ShimRuntime::BeginScope(int mode) {
  state_->ScopeBegin(static_cast<uint8_t>(mode < 0 ? 255 : mode), nullptr, 0);
}
void ShimRuntime::EndScope() { state_->ScopeEnd(); }

bool ShimRuntime::RegisterHostBuffer(uint64_t addr, void* data, uint64_t size) {
  return state_->RegisterHostBuffer(addr, data, size);
}
uint64_t ShimRuntime::AllocateEntryAddress(uint64_t size) {
  return state_->AllocateEntryAddress(size);
}

bool ShimRuntime::fatal() const { return state_->fatal(); }
const std::string& ShimRuntime::fatal_message() const { return state_->fatal_message(); }
int32_t ShimRuntime::fatal_code() const { return state_->fatal_code(); }

bool ShimRuntime::WriteDepsJson(std::ostream& out) const {
  std::string err;
  return state_->WriteDepsJson(out, &err);
}

uint64_t ShimRuntime::task_count() const { return state_->task_count(); }
uint64_t ShimRuntime::alloc_count() const { return state_->alloc_count(); }
uint64_t ShimRuntime::edge_count() const { return state_->edge_count(); }

}  // namespace depgraph::shim
