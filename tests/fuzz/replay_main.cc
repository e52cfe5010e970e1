// A main() for a fuzz harness built without libFuzzer: runs LLVMFuzzerTestOneInput once on
// every file given, directories expanded to their regular files in name order. This is how the
// committed corpora run as ordinary CTest tests with any compiler.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

/// The harness under test (one of tests/fuzz/*_fuzzer.cc).
extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

/// Usage: fuzz_replay_<harness> FILE_OR_DIR...; exit 0 when every input ran (a broken
/// invariant aborts), 1 when a path is unreadable or nothing was given. O(total input bytes)
/// plus the harness's cost per input.
int main(int argc, char** argv) {
  namespace fs = std::filesystem;
  std::vector<fs::path> files;
  for (int i = 1; i < argc; ++i) {
    std::error_code ec;
    if (fs::is_directory(argv[i], ec)) {
      std::vector<fs::path> in_dir;
      for (const fs::directory_entry& e : fs::directory_iterator(argv[i], ec)) {
        if (e.is_regular_file(ec)) in_dir.push_back(e.path());
      }
      std::sort(in_dir.begin(), in_dir.end());
      files.insert(files.end(), in_dir.begin(), in_dir.end());
    } else if (fs::is_regular_file(argv[i], ec)) {
      files.emplace_back(argv[i]);
    } else {
      std::fprintf(stderr, "%s: not a file or directory\n", argv[i]);
      return 1;
    }
  }
  if (files.empty()) {
    std::fprintf(stderr, "usage: %s FILE_OR_DIR... (no inputs found)\n", argv[0]);
    return 1;
  }
  for (const fs::path& file : files) {
    std::ifstream in(file, std::ios::binary);
    if (!in) {
      std::fprintf(stderr, "%s: cannot read\n", file.c_str());
      return 1;
    }
    const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::fprintf(stderr, "replay %s (%zu bytes)\n", file.c_str(), bytes.size());
    LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
  }
  std::printf("replayed %zu inputs\n", files.size());
  return 0;
}
