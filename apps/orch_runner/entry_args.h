// The runner's description of one orchestration run: entry tensors (shape, dtype, optional
// data), u64 scalars, and run settings, read from a small JSON file and/or command-line specs.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "platform.h"

namespace depgraph::orch_runner {

/// Number of element types of the runtime's DataType enum (values 0..14, runtime.md §0).
inline constexpr int kDtypeCount = 15;

/// The DataType value for a name: the runtime identifiers (FLOAT32, BFLOAT16, ...) in any case,
/// or a short alias (f32, f16, bf16, i8, i16, i32, i64, u8, u16, u32, u64, bool). -1 if unknown.
int DtypeFromName(std::string_view name);
/// The runtime identifier of a DataType value ("FLOAT32"), "UNKNOWN" out of range.
const char* DtypeName(int dtype);
/// Bytes per element (FLOAT32 4, BFLOAT16 2, ...); 0 out of range.
uint64_t DtypeSize(int dtype);

/// One entry tensor, handed to the orchestration as a contiguous external view (runtime.md §1).
struct EntryTensor {
  std::string name;                ///< for messages and the run summary ("tensors[3]" if unnamed)
  std::vector<uint32_t> shape;     ///< 1..5 dims, each > 0
  int dtype = 0;                   ///< DataType value
  bool has_data = false;           ///< true: the orchestration may read the values
  std::vector<unsigned char> data; ///< exactly numel * elem bytes when has_data
  std::string data_file;           ///< the file the data was read from, if any

  /// Product of the shape.
  uint64_t numel() const;
  /// numel * element size.
  uint64_t nbytes() const;
};

/// Everything the runner needs for one run. Optional fields left unset fall back to the
/// command-line flags or their defaults.
struct RunDescription {
  std::vector<EntryTensor> tensors;   ///< in entry order: orch_args.tensor(i)
  std::vector<uint64_t> scalars;      ///< in entry order: orch_args.scalar(i)
  std::optional<std::string> runtime; ///< "tensormap_and_ringbuffer" | "host_build_graph"
  std::optional<std::string> arch;    ///< "a2a3" | "a5": the chip (default platform)
  std::optional<Platform> platform;   ///< clusters and cores; default: the arch's full chip
  std::optional<uint64_t> ring_heap_size;  ///< bytes per ring heap
  std::optional<std::string> entry;   ///< entry symbol name
  std::optional<std::string> config;  ///< config symbol name
  /// Kernel names by callable id, in id order, for the name map (empty: no name map).
  std::vector<std::pair<int, std::string>> kernel_names;
  std::optional<std::string> orchestrator_name;  ///< name map "orchestrator_name" (null if unset)
};

/// Reads a run description file (format: docs/runtime_shim.md). Relative `data_file` paths are
/// resolved against the file's directory. Errors name the file and the JSON path
/// ("case.json: tensors[2].values[5]: 300 does not fit INT8"). O(file + data).
bool LoadRunDescription(const std::string& path, RunDescription* out, std::string* err);

/// Same as LoadRunDescription for an in-memory document: `path` names it in messages and
/// relative `data_file` paths are resolved against `base_dir` ("" = the working directory).
/// O(text + data).
bool LoadRunDescriptionText(std::string_view text, const std::string& path,
                            const std::string& base_dir, RunDescription* out, std::string* err);

/// Parses a command-line tensor spec `DTYPE:D0xD1x...[=v0,v1,...|@file]`, e.g. `FLOAT32:64x64`,
/// `INT32:2=33,17`, `INT64:4@config.bin` (file relative to the working directory).
bool ParseTensorSpec(const std::string& spec, EntryTensor* out, std::string* err);

/// Parses a command-line scalar: decimal or 0x-hex u64, a negative integer (two's complement,
/// 64 bits), `f32:X` / `f64:X` (bit pattern, zero-extended).
bool ParseScalarSpec(const std::string& spec, uint64_t* out, std::string* err);

/// Parses `--kernel-names`: `A,B,C` (ids 0, 1, 2) or `3=UP,0=QK`.
bool ParseKernelNames(const std::string& spec, std::vector<std::pair<int, std::string>>* out,
                      std::string* err);

}  // namespace depgraph::orch_runner
