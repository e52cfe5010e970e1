#include "orchestration_run.h"

#include <cctype>
#include <cstdio>
#include <cstring>
#include <exception>
#include <vector>

#include "depgraph/internal/message_quote.h"
#include "pto_orchestration_api.h"

namespace depgraph::orch_runner {

namespace {

using EntryFn = void (*)(const ChipTaskArgs&);
using ConfigFn = PTO2OrchestrationConfig (*)(const ChipTaskArgs&);

/// Calls `fn`, turning an escaping exception into a message. False if one escaped.
template <typename Fn>
bool Guarded(Fn&& fn, std::string* why) {
  try {
    fn();
    return true;
  } catch (const std::exception& e) {
    *why = e.what();
  } catch (...) {
    *why = "unknown exception";
  }
  return false;
}

/// Appends "(0x... = entry tensor i 'name')" for each entry address the message mentions, so a
/// shim message about an address names the runner-side tensor.
std::string NameEntryAddresses(const std::string& message, const RunDescription& desc,
                               const std::vector<uint64_t>& addrs) {
  std::string out = message;
  for (size_t i = 0; i < addrs.size(); ++i) {
    char hex[32];
    std::snprintf(hex, sizeof hex, "0x%llx", static_cast<unsigned long long>(addrs[i]));
    for (size_t at = message.find(hex); at != std::string::npos; at = message.find(hex, at + 1)) {
      const size_t end = at + std::strlen(hex);
      if (end < message.size() && std::isxdigit(static_cast<unsigned char>(message[end]))) continue;
      out += std::string(" (") + hex + " = entry tensor " + std::to_string(i) + " '" +
             EscapeForMessage(desc.tensors[i].name) + "')";
      break;
    }
  }
  return out;
}

/// Unbinds the shim runtime: nothing the orchestration left behind can reach it any more.
void ShimRuntimeUnbind() { shim::ShimRuntime::Unbind(); }

}  // namespace

RunStatus RunOrchestration(const OrchestrationLibrary& library, RunDescription& desc,
                           const RunSettings& settings,
                           std::unique_ptr<shim::ShimRuntime>* runtime, std::string* err) {
  const std::string lib = EscapeForMessage(library.path());
  const std::string entry_name = EscapeForMessage(settings.entry);
  const std::string config_name = EscapeForMessage(settings.config);
  auto entry = reinterpret_cast<EntryFn>(library.Find(settings.entry));
  if (entry == nullptr) {
    *err = lib + ": no entry function '" + entry_name + "' (extern \"C\" void " + entry_name +
           "(const ChipTaskArgs&))";
    return RunStatus::kSetupError;
  }
  auto config = reinterpret_cast<ConfigFn>(library.Find(settings.config));
  if (config == nullptr && settings.config_required) {
    *err = lib + ": no config function '" + config_name + "'";
    return RunStatus::kSetupError;
  }
  if (desc.tensors.size() > static_cast<size_t>(CHIP_MAX_TENSOR_ARGS) ||
      desc.scalars.size() > static_cast<size_t>(CHIP_MAX_SCALAR_ARGS)) {
    *err = "too many entry arguments: at most " + std::to_string(CHIP_MAX_TENSOR_ARGS) +
           " tensors and " + std::to_string(CHIP_MAX_SCALAR_ARGS) + " scalars";
    return RunStatus::kSetupError;
  }

  shim::ShimConfig config_values;
  config_values.flavor = settings.flavor;
  config_values.ring_heap_size = settings.ring_heap_size;
  config_values.available_clusters = settings.available_clusters;
  config_values.available_aiv = settings.available_aiv;
  *runtime = std::make_unique<shim::ShimRuntime>(config_values);
  shim::ShimRuntime& rt = **runtime;
  rt.Bind();

  // Entry tensors: contiguous external views at fresh addresses (orchestration_api.md §4.2).
  // The views live in `views` (never reallocated) because ChipTaskArgs stores their addresses.
  std::vector<ChipTensor> views;
  std::vector<uint64_t> addrs;
  views.reserve(desc.tensors.size());
  for (EntryTensor& t : desc.tensors) {
    const uint64_t addr = rt.AllocateEntryAddress(t.nbytes());
    addrs.push_back(addr);
    if (t.has_data && !rt.fatal()) rt.RegisterHostBuffer(addr, t.data.data(), t.nbytes());
    if (rt.fatal()) {
      *err = lib + ": cannot place entry tensor '" + EscapeForMessage(t.name) +
             "': " + EscapeForMessage(rt.fatal_message());
      ShimRuntimeUnbind();
      return RunStatus::kSetupError;
    }
    views.push_back(make_tensor_external(reinterpret_cast<const void*>(addr), t.shape.data(),
                                         static_cast<uint32_t>(t.shape.size()),
                                         static_cast<DataType>(t.dtype)));
  }
  auto args = std::make_unique<ChipTaskArgs>();
  for (const ChipTensor& v : views) args->add_input(v);
  for (uint64_t s : desc.scalars) args->add_scalar(s);

  std::string why;
  // The config function is only consulted by the TMRB executor (§4.3).
  if (config != nullptr && settings.flavor == shim::RuntimeFlavor::kTensormapRingbuffer) {
    PTO2OrchestrationConfig cfg{};
    if (!Guarded([&] { cfg = config(*args); }, &why)) {
      *err = lib + ": config function '" + config_name + "' threw: " + EscapeForMessage(why);
      ShimRuntimeUnbind();
      return RunStatus::kOrchestration;
    }
    const int64_t given = static_cast<int64_t>(desc.tensors.size() + desc.scalars.size());
    if (cfg.expected_arg_count > 0 && given < cfg.expected_arg_count) {
      *err = lib + ": " + config_name + " expects at least " +
             std::to_string(cfg.expected_arg_count) + " entry arguments, got " +
             std::to_string(given) + " (" + std::to_string(desc.tensors.size()) + " tensors, " +
             std::to_string(desc.scalars.size()) + " scalars)";
      ShimRuntimeUnbind();
      return RunStatus::kSetupError;
    }
  }

  rt.BeginScope(0);
  const bool returned = Guarded([&] { entry(*args); }, &why);
  rt.EndScope();
  ShimRuntimeUnbind();
  if (rt.fatal()) {
    *err = lib + ": orchestration failed: " +
           NameEntryAddresses(EscapeForMessage(rt.fatal_message()), desc, addrs);
    if (err->find("heap exhausted") != std::string::npos) {
      *err += " [orch_runner: --ring-heap-size BYTES, now " +
              std::to_string(settings.ring_heap_size) + "]";
    }
    return RunStatus::kOrchestration;
  }
  if (!returned) {
    *err = lib + ": orchestration failed: exception: " + EscapeForMessage(why);
    return RunStatus::kOrchestration;
  }
  return RunStatus::kOk;
}

}  // namespace depgraph::orch_runner
