// A compiled orchestration (shared object) loaded with dlopen, and its entry/config symbols.
#pragma once

#include <string>

namespace depgraph::orch_runner {

/// An orchestration shared object opened with dlopen(RTLD_NOW | RTLD_LOCAL), closed on
/// destruction. Symbols are looked up by their extern "C" names.
class OrchestrationLibrary {
 public:
  OrchestrationLibrary() = default;
  ~OrchestrationLibrary();
  OrchestrationLibrary(const OrchestrationLibrary&) = delete;
  OrchestrationLibrary& operator=(const OrchestrationLibrary&) = delete;

  /// Loads `path` (a path without '/' is taken relative to the working directory, not
  /// searched on the library path). Refuses a FIFO, device, socket or directory before dlopen
  /// (CheckRegularInput). False with "PATH: cannot load orchestration: <dlerror>" or the refusal.
  bool Open(const std::string& path, std::string* err);
  /// The address of symbol `name`, or nullptr if the library does not define it.
  void* Find(const std::string& name) const;
  /// The path given to Open.
  const std::string& path() const { return path_; }

 private:
  std::string path_;
  void* handle_ = nullptr;
};

}  // namespace depgraph::orch_runner
