#include "process_memory.h"

#include <gnu/libc-version.h>
#include <malloc.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <new>
#include <string>

namespace depgraph::cli {

namespace {

constexpr const char* kTunable = "glibc.malloc.hugetlb";

// True when the kernel gives transparent huge pages only to memory advised MADV_HUGEPAGE.
bool HugePagesOnlyWhenAdvised() {
  std::ifstream in("/sys/kernel/mm/transparent_hugepage/enabled");
  std::string modes;
  return std::getline(in, modes) && modes.find("[madvise]") != std::string::npos;
}

// True for glibc 2.35 and later, which know the tunable.
bool GlibcKnowsTheTunable() {
  int major = 0, minor = 0;
  if (std::sscanf(gnu_get_libc_version(), "%d.%d", &major, &minor) != 2) return false;
  return major > 2 || (major == 2 && minor >= 35);
}

}  // namespace

void KeepFreedMemoryForReuse() {
  // No chunk gets its own mmap (they would be unmapped on free and faulted again on reuse);
  // a thread arena that cannot hold a large chunk falls back to the main heap.
  mallopt(M_MMAP_MAX, 0);
  // Never give the top of the heap back.
  mallopt(M_TRIM_THRESHOLD, INT32_MAX);
}

void UseHugePagesForTheHeap(char** argv) {
  const char* current = std::getenv("GLIBC_TUNABLES");
  if (current != nullptr && std::strstr(current, kTunable) != nullptr) return;
  if (!GlibcKnowsTheTunable() || !HugePagesOnlyWhenAdvised()) return;
  const std::string previous = current != nullptr ? current : "";
  const std::string value =
      (previous.empty() ? "" : previous + ":") + std::string(kTunable) + "=1";
  if (setenv("GLIBC_TUNABLES", value.c_str(), 1) != 0) return;
  execv("/proc/self/exe", argv);
  // Still here: the exec failed. Go on as started, with the environment as it was.
  if (current != nullptr) {
    setenv("GLIBC_TUNABLES", previous.c_str(), 1);
  } else {
    unsetenv("GLIBC_TUNABLES");
  }
}

int RunReportingOutOfMemory(const char* tool, const std::function<int()>& body) {
  try {
    return body();
  } catch (const std::bad_alloc&) {
    // Nothing that allocates: the heap is what just ran out.
    std::fputs(tool, stderr);
    std::fputs(": error: out of memory: the input needs more memory than this process may use\n",
               stderr);
    return 1;
  }
}

}  // namespace depgraph::cli
