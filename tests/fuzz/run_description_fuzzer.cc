// Fuzz harness of orch_runner's run description (LoadRunDescriptionText): any text either loads
// or fails with a one-line message; a loaded description is consistent (every tensor with data
// has exactly numel * element-size bytes, shapes have 1..5 positive dims).
//
// Data files: a description may name one (`data_file`). Only names relative to the harness's
// own scratch directory are let through (it holds a few small files), so the fuzzer never reads
// devices or the rest of the file system.
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "entry_args.h"
#include "fuzz_check.h"

namespace depgraph::fuzz {
namespace {

/// The scratch directory, removed when the process exits normally.
std::string& ScratchPath() {
  static std::string path;
  return path;
}

/// A scratch directory with data files of 0, 1, 4, 8, 16 and 64 bytes (d0.bin ... d64.bin),
/// made once per process. O(1) after the first call.
const std::string& DataDir() {
  static const std::string dir = [] {
    char tmpl[] = "/tmp/depgraph-fuzz-run-XXXXXX";
    Require(mkdtemp(tmpl) != nullptr, "mkdtemp");
    for (int n : {0, 1, 4, 8, 16, 64}) {
      std::ofstream out(std::string(tmpl) + "/d" + std::to_string(n) + ".bin", std::ios::binary);
      for (int i = 0; i < n; ++i) out.put(static_cast<char>(i * 37));
    }
    ScratchPath() = tmpl;
    std::atexit([] {
      std::error_code ec;
      std::filesystem::remove_all(ScratchPath(), ec);
    });
    return std::string(tmpl);
  }();
  return dir;
}

/// True when every `data_file` the description names is a plain name ([A-Za-z0-9_.-], not
/// starting with a dot), i.e. resolves inside DataDir(). O(document).
bool DataFilesStayInScratch(const nlohmann::json& doc) {
  if (!doc.is_object()) return true;
  auto tensors = doc.find("tensors");
  if (tensors == doc.end() || !tensors->is_array()) return true;
  for (const nlohmann::json& t : *tensors) {
    if (!t.is_object()) continue;
    auto file = t.find("data_file");
    if (file == t.end() || !file->is_string()) continue;
    const std::string name = file->get<std::string>();
    if (name.empty() || name[0] == '.') return false;
    for (char c : name) {
      const bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                         (c >= '0' && c <= '9') || c == '_' || c == '.' || c == '-';
      if (!plain) return false;
    }
  }
  return true;
}

}  // namespace
}  // namespace depgraph::fuzz

/// libFuzzer entry point: loads `data` as a run description and checks the result. Inputs
/// above kMaxInputBytes, and those naming a data file outside the scratch directory, are
/// skipped. Cost: O(bytes) for the screening parse plus the loader's O(bytes + data).
extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace depgraph::orch_runner;
  using namespace depgraph::fuzz;
  if (size > kMaxInputBytes) return 0;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const nlohmann::json screen = nlohmann::json::parse(text.begin(), text.end(), nullptr, false);
  if (!screen.is_discarded() && !DataFilesStayInScratch(screen)) return 0;
  RunDescription description;
  std::string err;
  if (!LoadRunDescriptionText(text, "run.json", DataDir(), &description, &err)) {
    RequireOneLineMessage(err);
    return 0;
  }
  for (const EntryTensor& t : description.tensors) {
    Require(!t.shape.empty() && t.shape.size() <= 5, "1..5 dims");
    for (uint32_t d : t.shape) Require(d > 0, "dims > 0");
    Require(DtypeSize(t.dtype) > 0, "a known dtype");
    if (t.has_data) Require(t.data.size() == t.nbytes(), "data is numel * element size bytes");
  }
  return 0;
}
