#include "sidecar_writer.h"

#include <algorithm>
#include <ostream>
#include <vector>

#include "depgraph/atomic_file.h"

namespace gen_graph {

namespace {

constexpr int kAicCores = 24;
constexpr int kAivCores = 48;
constexpr uint64_t kBaseTick = 120000000000;  // device counters do not start at 0

// A 64-bit mix (splitmix64's finaliser): the same bits everywhere for the same input.
uint64_t Mix(uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

// Writes the rows of each task as the generator emits it.
class SidecarSink final : public GenSink {
 public:
  SidecarSink(std::ostream& out, uint64_t seed) : out_(out), seed_(seed) {
    reg_.assign(kAicCores + kAivCores, 0);
  }
  void OnTensor(const GenTensor&) override {}
  void OnEdge(const GenEdge&) override {}
  void OnTask(const GenTask& task, std::span<const GenArg>) override {
    const bool aic = task.kernel_ids[0] >= 0;
    const bool aiv = task.kernel_ids[1] >= 0 || task.kernel_ids[2] >= 0;
    if (!aic && !aiv) return;  // a dummy runs on no core
    const int32_t kernel = aic ? task.kernel_ids[0] : std::max(task.kernel_ids[1], task.kernel_ids[2]);
    // Kernel base 100-3099 ticks (2-62 µs at 50 MHz), times 0.75-1.25 for the task.
    const uint64_t base = 100 + Mix(seed_ * 1000003 + static_cast<uint64_t>(kernel)) % 3000;
    const uint64_t duration = base * (750 + Mix(seed_ ^ task.id) % 501) / 1000;
    for (int32_t block = 0; block < task.block_num; ++block) {
      const uint64_t jitter = Mix(task.id * 131 + static_cast<uint64_t>(block)) % (duration / 8 + 1);
      const uint64_t start = cursor_ + jitter, end = start + duration;
      if (aic) Row(static_cast<int>(next_ % kAicCores), task.id, start, end);
      if (aiv) Row(kAicCores + static_cast<int>(next_ % kAivCores), task.id, start + 3, end);
      ++next_;
    }
    cursor_ += duration / 6 + 1;
  }

 private:
  void Row(int core, TaskId id, uint64_t start, uint64_t end) {
    out_ << (rows_++ ? ",\n    [" : "\n    [") << core << ", " << id << ", " << ++reg_[core]
         << ", " << start << ", " << end << ", 7]";
  }

  std::ostream& out_;
  uint64_t seed_;
  std::vector<uint32_t> reg_;  // per-core dispatch token
  uint64_t cursor_ = kBaseTick;
  uint64_t next_ = 0;  // round-robin over the cores
  uint64_t rows_ = 0;
};

}  // namespace

bool WriteSidecarFile(const GenOptions& options, const std::string& path, std::string* err) {
  depgraph::AtomicFile file;
  if (!file.Open(path, err)) return false;
  std::ostream& out = file.stream();
  out << "{\n  \"chip_swimlane_level\": 1,\n  \"metadata\": {\"clock_freq_hz\": 50000000, "
         "\"num_cores\": "
      << kAicCores + kAivCores << ", \"core_types\": [";
  for (int core = 0; core < kAicCores + kAivCores; ++core) {
    out << (core ? ", " : "") << (core < kAicCores ? "\"aic\"" : "\"aiv\"");
  }
  out << "]},\n  \"aicore_tasks\": [";
  SidecarSink sink(out, options.seed);
  GenerateGraph(options, &sink);
  out << "\n  ],\n  \"aicpu_tasks\": []\n}\n";
  return file.Commit(err);
}

}  // namespace gen_graph
