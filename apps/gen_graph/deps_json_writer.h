// Streams one section of a deps.json (tasks, tensors or edges) in the runtime's compact
// format, without building a document in memory.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>

#include "gen_records.h"

namespace gen_graph {

/// The three top-level arrays of deps.json, in the order the runtime writes them.
enum class Section { kTasks, kTensors, kEdges };

/// A GenSink that formats the records of one Section and ignores the others. Running the
/// (deterministic) generator once per section with a writer for each, in order, produces
/// the whole file `{"tasks":[...],"tensors":[...],"edges":[...]}` followed by a newline.
/// Memory: one output buffer of about 1 MiB. Time: O(bytes written).
class DepsJsonWriter final : public GenSink {
 public:
  DepsJsonWriter(std::ostream* out, Section section);

  /// Writes what precedes this section's first element.
  void Begin();
  /// Writes what follows its last element (and the closing brace after edges) and flushes.
  /// False if the stream failed.
  bool Finish();
  /// Elements written in this section.
  uint64_t count() const { return count_; }
  /// Bytes written so far, including the section's framing.
  uint64_t bytes() const { return bytes_ + buffer_.size(); }

  void OnTensor(const GenTensor& tensor) override;
  void OnTask(const GenTask& task, std::span<const GenArg> args) override;
  void OnEdge(const GenEdge& edge) override;

 private:
  void StartElement();
  void Flush();
  void Raw(const char* text, size_t size) { buffer_.append(text, size); }
  template <size_t N>
  void Lit(const char (&text)[N]) { buffer_.append(text, N - 1); }
  void Int(int64_t value);
  void QuotedUInt(uint64_t value);
  void QuotedInt(int64_t value);
  void Dims(const int64_t* values, int count);
  // `"<prefix>dtype":..,"<prefix>shape":..,"<prefix>start_offset":..,"<prefix>strides":..`
  // with an empty prefix for args; `with_dtype` false for producer views.
  void ViewFields(const char* prefix, const GenView& view, bool with_dtype);

  std::ostream* out_;
  Section section_;
  std::string buffer_;
  uint64_t count_ = 0;
  uint64_t bytes_ = 0;
};

}  // namespace gen_graph
