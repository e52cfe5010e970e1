// Streaming writer of the runtime's deps.json byte format (runtime.md §7): records in, bytes out.
#pragma once

#include <cstdint>
#include <ostream>
#include <span>
#include <string>

#include "depgraph/graph/graph.h"

namespace depgraph {

/// Most dimensions a view can have (the runtime's MAX_TENSOR_DIMS).
inline constexpr int kMaxViewDims = 5;

/// A strided view as deps.json prints it: dtype, shape, start offset (elements), strides.
/// Only the first `ndims` entries of `shape` and `strides` are written.
struct DepsViewRecord {
  uint64_t start_offset = 0;
  uint32_t shape[kMaxViewDims] = {};
  uint32_t strides[kMaxViewDims] = {};
  uint8_t ndims = 0;
  /// Printed by name; anything outside FLOAT32..FP4E2M1 prints "UNKNOWN".
  DType dtype = DType::kFloat32;
};

/// One entry of `tasks[].args`; its `idx` is its position in the task's argument list.
/// kOutput prints only idx and type; every other type prints tensor_id and the view.
/// Types outside INPUT/OUTPUT/INOUT/OUTPUT_EXISTING (e.g. kNoDep) print "UNKNOWN".
struct DepsArgRecord {
  DepsViewRecord view;
  uint64_t tensor_id = 0;
  ArgType type = ArgType::kInput;
};

/// One entry of `tasks[]`.
struct DepsTaskRecord {
  uint64_t task_id = 0;
  bool manual_scope = false;  ///< "scope":"manual" (else "auto")
  bool early_dispatch = false;
  int32_t kernel_ids[3] = {-1, -1, -1};  ///< [aic, aiv0, aiv1]
  uint32_t block_num = 1;
  std::span<const DepsArgRecord> args;
};

/// One entry of `tensors[]`.
struct DepsTensorRecord {
  uint64_t tensor_id = 0;
  uint64_t buffer_addr = 0;
  int32_t version = 0;
  DType dtype = DType::kFloat32;
  uint64_t buffer_numel = 0;
};

/// `overlap` of a tensormap edge.
enum class DepsOverlap : uint8_t { kCovered, kOther };

/// Bits of DepsEdgeRecord::flags, printed in this order as "wait", "retain".
inline constexpr uint8_t kDepFlagWait = 1;
inline constexpr uint8_t kDepFlagRetain = 2;

/// One entry of `edges[]`. Which keys are written depends on `source` (runtime.md §7):
/// explicit — pred, succ, arg, source, flags; creator — plus tensor_id and the consumer view;
/// tensormap — plus overlap and the producer view (shape, offset, strides; no dtype).
/// `consumer` must be set for creator and tensormap edges, `producer` for tensormap edges.
/// kOther is written as "explicit".
struct DepsEdgeRecord {
  uint64_t pred = 0;
  uint64_t succ = 0;
  int32_t arg = -1;
  EdgeSource source = EdgeSource::kExplicit;
  uint8_t flags = kDepFlagWait | kDepFlagRetain;  ///< written only with Options::write_flags
  DepsOverlap overlap = DepsOverlap::kCovered;
  uint64_t tensor_id = 0;
  const DepsViewRecord* consumer = nullptr;
  const DepsViewRecord* producer = nullptr;
};

/// The JSON name of a runtime dtype ("FLOAT32", ...; "UNKNOWN" outside the runtime's enum).
const char* DepsDTypeName(DType dtype);
/// The JSON name of an argument type ("INPUT", ...; "UNKNOWN" for NO_DEP and anything else).
const char* DepsArgTypeName(ArgType type);

/// Writes one deps.json document, `{"tasks":[...],"tensors":[...],"edges":[...]}\n` on one line,
/// exactly as the runtime does. Records are added section by section in file order (all tasks,
/// then all tensors, then all edges); a section with no records is written as `[]`. Adding a
/// record of an earlier section after a later one has begun is an error reported by Finish().
/// Output goes through a ~1 MiB buffer. Time O(bytes), memory O(1).
class DepsWriter {
 public:
  /// Format switches.
  struct Options {
    /// Write `flags` on edges (tensormap_and_ringbuffer); false for host_build_graph.
    bool write_flags = true;
  };

  /// Writes to `out` (which must outlive the writer).
  DepsWriter(std::ostream* out, Options options);
  /// Writes to `out` with default options (flags on).
  explicit DepsWriter(std::ostream* out) : DepsWriter(out, Options()) {}
  DepsWriter(const DepsWriter&) = delete;
  DepsWriter& operator=(const DepsWriter&) = delete;

  /// Appends a tasks[] entry.
  void AddTask(const DepsTaskRecord& task);
  /// Appends a tensors[] entry (closes tasks[]).
  void AddTensor(const DepsTensorRecord& tensor);
  /// Appends an edges[] entry (closes tensors[]).
  void AddEdge(const DepsEdgeRecord& edge);
  /// Closes the open sections, writes the final `]}\n` and flushes. False with a message if a
  /// record was out of order, a required view was missing, or the stream failed.
  bool Finish(std::string* err);
  /// Bytes produced so far (written plus buffered).
  uint64_t bytes() const { return written_ + buffer_.size(); }

 private:
  /// Where the document is.
  enum class Section : uint8_t { kNone, kTasks, kTensors, kEdges, kDone };
  /// Moves to `section`, writing the framing of the sections in between; false if backwards.
  bool Enter(Section section);
  /// Writes the separator before an element; flushes a full buffer.
  void StartElement();
  /// Writes the buffer to the stream.
  void Flush();
  /// Appends a string literal.
  template <size_t N>
  void Lit(const char (&text)[N]) {
    buffer_.append(text, N - 1);
  }
  /// Appends a C string.
  void Str(const char* text);
  /// Appends a decimal integer.
  void Int(int64_t value);
  /// Appends a decimal integer in quotes.
  void QuotedUInt(uint64_t value);
  /// Appends `[d0,d1,...]`.
  void Dims(const uint32_t* values, uint8_t count);
  // `"<prefix>dtype":..,` (if with_dtype) then shape, start_offset and strides.
  void ViewFields(const char* prefix, const DepsViewRecord& view, bool with_dtype);
  /// Records the first error for Finish().
  void Fail(const std::string& message);

  std::ostream* out_;
  Options options_;
  std::string buffer_;
  std::string error_;
  uint64_t written_ = 0;
  uint64_t in_section_ = 0;
  Section section_ = Section::kNone;
};

}  // namespace depgraph
