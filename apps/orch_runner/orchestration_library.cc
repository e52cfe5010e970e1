#include "orchestration_library.h"

#include <dlfcn.h>

#include "depgraph/support/input_file.h"

namespace depgraph::orch_runner {

OrchestrationLibrary::~OrchestrationLibrary() {
  if (handle_ != nullptr) dlclose(handle_);
}

bool OrchestrationLibrary::Open(const std::string& path, std::string* err) {
  path_ = path;
  const std::string to_open = path.find('/') == std::string::npos ? "./" + path : path;
  // Like every other input: a FIFO, device or directory is refused before dlopen, which
  // would block forever reading a FIFO.
  InputFileError refused;
  if (!CheckRegularInput(path, nullptr, &refused)) {
    *err = refused.message;
    return false;
  }
  dlerror();
  handle_ = dlopen(to_open.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (handle_ == nullptr) {
    const char* why = dlerror();
    *err = path + ": cannot load orchestration: " + (why != nullptr ? why : "unknown error");
    return false;
  }
  return true;
}

void* OrchestrationLibrary::Find(const std::string& name) const {
  if (handle_ == nullptr) return nullptr;
  dlerror();
  return dlsym(handle_, name.c_str());
}

}  // namespace depgraph::orch_runner
