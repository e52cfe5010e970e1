// What reading an input file costs, by the two ways the loader can read it: touching a fresh
// read-only mapping of the file (one load per 64-byte line; the file is in the page cache),
// with and without MADV_POPULATE_READ first, and pread(2) into one reused 1 MiB buffer. On
// the development VM the first touch of each page of a fresh mapping is a trip to the
// hypervisor (~1.8 us a page: 117 ms for 256 MiB, with or without populating) and pread takes
// 17.5 ms, which is why the parallel load reads copies (JsonReader::ReadAt;
// docs/performance.md, "Stop 35"). On bare metal the two are much closer.
//
//   depgraph_bench --benchmark_filter=MappedInput
#include <benchmark/benchmark.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

namespace {

constexpr size_t kBytes = size_t{256} << 20;
constexpr size_t kLine = 64;
constexpr size_t kChunk = size_t{1} << 20;

// A 256 MiB file of JSON-like bytes in the temporary directory, read once so that it sits in
// the page cache; removed at exit.
class InputFile {
 public:
  InputFile() {
    path_ = (std::filesystem::temp_directory_path() /
             ("depgraph_mapped_input_" + std::to_string(getpid()) + ".json"))
                .string();
    FILE* out = std::fopen(path_.c_str(), "wb");
    if (out == nullptr) return;
    std::string chunk;
    while (chunk.size() < kChunk) chunk += R"({"pred":"4294967298","succ":"4294967299"},)";
    chunk.resize(kChunk);
    bool ok = true;
    for (size_t written = 0; written < kBytes && ok; written += kChunk) {
      ok = std::fwrite(chunk.data(), 1, chunk.size(), out) == chunk.size();
    }
    ok = std::fclose(out) == 0 && ok;
    if (!ok) return;
    std::vector<char> buffer(kChunk);
    const int fd = open(path_.c_str(), O_RDONLY);
    while (fd >= 0 && read(fd, buffer.data(), buffer.size()) > 0) {
    }
    if (fd >= 0) close(fd);
    ready_ = fd >= 0;
  }
  ~InputFile() { std::remove(path_.c_str()); }
  const std::string& path() const { return path_; }
  bool ready() const { return ready_; }

 private:
  std::string path_;
  bool ready_ = false;
};

const InputFile& Input() {
  static const InputFile input;
  return input;
}

void BM_MappedInputFirstTouch(benchmark::State& state) {
  const bool populate = state.range(0) != 0;
  if (!Input().ready()) {
    state.SkipWithError("cannot write the input file");
    return;
  }
  const int fd = open(Input().path().c_str(), O_RDONLY);
  unsigned sum = 0;
  for (auto _ : state) {
    void* map = mmap(nullptr, kBytes, PROT_READ, MAP_PRIVATE, fd, 0);
    if (map == MAP_FAILED) {
      state.SkipWithError("mmap failed");
      break;
    }
#ifdef MADV_POPULATE_READ
    if (populate) madvise(map, kBytes, MADV_POPULATE_READ);
#endif
    const auto* bytes = static_cast<const volatile char*>(map);
    for (size_t i = 0; i < kBytes; i += kLine) sum += static_cast<unsigned char>(bytes[i]);
    munmap(map, kBytes);
  }
  close(fd);
  benchmark::DoNotOptimize(sum);
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * kBytes));
  state.SetLabel(populate ? "mmap + MADV_POPULATE_READ" : "mmap");
}
BENCHMARK(BM_MappedInputFirstTouch)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_MappedInputPread(benchmark::State& state) {
  if (!Input().ready()) {
    state.SkipWithError("cannot write the input file");
    return;
  }
  const int fd = open(Input().path().c_str(), O_RDONLY);
  std::vector<char> buffer(kChunk);
  unsigned sum = 0;
  for (auto _ : state) {
    for (size_t offset = 0; offset < kBytes; offset += kChunk) {
      if (pread(fd, buffer.data(), kChunk, static_cast<off_t>(offset)) !=
          static_cast<ssize_t>(kChunk)) {
        state.SkipWithError("pread failed");
        break;
      }
      const volatile char* bytes = buffer.data();
      for (size_t i = 0; i < kChunk; i += kLine) sum += static_cast<unsigned char>(bytes[i]);
    }
  }
  close(fd);
  benchmark::DoNotOptimize(sum);
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * kBytes));
  state.SetLabel("pread, 1 MiB reused buffer");
}
BENCHMARK(BM_MappedInputPread)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
