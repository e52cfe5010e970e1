// What the machine charges for memory a process has not touched before: mapping 256 MiB of
// anonymous memory and writing one byte per 4 KiB page, with 4 KiB pages and with transparent
// huge pages asked for (MADV_HUGEPAGE). The kernel zeroes every fresh page on first touch, so
// this is the floor under any step that fills fresh arrays (a load, a reduction's tables). On
// the development VM it is about 2 s of CPU per GiB (docs/performance.md, issue 26), ten times
// a bare-metal machine's, which makes peak memory the first lever on wall time there.
//
//   depgraph_bench --benchmark_filter=FreshMemory
#include <benchmark/benchmark.h>
#include <sys/mman.h>

#include <cstddef>

namespace {

constexpr size_t kBytes = size_t{256} << 20;
constexpr size_t kPage = 4096;

void BM_FreshMemoryTouch(benchmark::State& state) {
  const bool huge = state.range(0) != 0;
  for (auto _ : state) {
    void* map = mmap(nullptr, kBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (map == MAP_FAILED) {
      state.SkipWithError("mmap failed");
      return;
    }
    if (huge) madvise(map, kBytes, MADV_HUGEPAGE);
    auto* bytes = static_cast<volatile char*>(map);
    for (size_t i = 0; i < kBytes; i += kPage) bytes[i] = 1;
    munmap(map, kBytes);
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * kBytes));
  state.SetLabel(huge ? "MADV_HUGEPAGE" : "4 KiB pages");
}
BENCHMARK(BM_FreshMemoryTouch)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
