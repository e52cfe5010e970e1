// The deps.json loader's parser state, shared by its three source files: the element readers
// (deps_elements.cc), the document walk and block commits (load_deps.cc) and the index build
// (deps_finish.cc). Private to libdepgraph.
#pragma once

#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "depgraph/graph/graph.h"
#include "depgraph/graph/load_deps.h"
#include "depgraph/internal/py_int.h"
#include "depgraph/support/json_reader.h"
#include "dim_interner.h"
#include "depgraph/internal/parallel_scan.h"

namespace depgraph {

/// A JSON path under construction, materialised only when an error is reported.
struct PathPart {
  const char* key;  ///< member name, or nullptr for an array index
  size_t index;
};

/// The scalar an integer field held, kept to describe it in a message ("got ...") only when
/// it is rejected: `token` views the reader's buffer until its next call.
struct ShownValue {
  JsonKind kind = JsonKind::kInvalid;
  std::string_view token;  ///< the number or string read
  std::string described;   ///< for other kinds: what DescribeAndSkip said
  /// The text of a "got ..." message. O(length shown).
  std::string Text() const;
};

/// Parses one deps.json document, or one block of one of its arrays, into a DepGraph.
///
/// A loader owns the parse state (JSON path, first error, raw endpoint ids, raw tensors and
/// the overlap-name table); the DepGraph it fills is complete only after Finish(). Block
/// loaders fill a scratch DepGraph whose offsets (args, dims, overlap ids, tensor indices) are
/// block-local; CommitBlock() rebases them onto the document loader's graph, which is then
/// the same as if the sequential parse had read those elements.
class DepsLoader {
 public:
  using ElementReader = bool (DepsLoader::*)(size_t);

  DepsLoader(JsonReader* reader, std::string display_name, DepGraph* graph,
             const ProgressFn& progress);

  /// Parses the whole document and builds the model; on failure *err has the message and the
  /// graph is reset. O(file + R).
  bool Load(const LoadOptions& options, std::string* err);

  // ---- block parsing (the parallel load) ----
  /// Empties the scratch results, keeping their capacity. O(1) amortised.
  void ResetBlock();
  /// Parses the elements of one block of a top-level array with `element`: from
  /// `bounds.begin` (block 0: the '[') until the reader stands at `bounds.end`. False on any
  /// error, and when the elements do not end exactly there (a wrong cut of malformed input).
  /// *count: elements read. O(block bytes).
  bool ParseBlock(ElementReader element, const BlockBounds& bounds, bool first_block,
                  size_t* count);
  /// Appends a parsed block's results to this loader's graph, rebased (`element_base`:
  /// elements of the array before the block; `end`: the block's last separator, for progress
  /// and page release). False when taking them would differ from a sequential parse (the
  /// 254-overlap-name or row-count limit is reached): the block must then be parsed
  /// sequentially. O(block results).
  bool CommitBlock(DepsLoader& block, size_t element_base, size_t end);
  /// Reports progress at byte `position` (on the thread that called Load). O(1).
  void ReportProgressAt(size_t position);

  // ---- element readers (deps_elements.cc), i = index within the array (or block) ----
  bool ReadEdge(size_t i);
  bool ReadTask(size_t i);
  bool ReadTensor(size_t i);

  /// Whether view fields are decoded (LoadOptions::views); set before parsing. O(1).
  void set_views(bool views) { views_ = views; }
  bool views() const { return views_; }

 private:
  // ---- error reporting ----
  std::string PathString(const char* leaf) const;
  bool SemanticError(const char* leaf, const std::string& message);
  bool SyntaxError();
  bool Check() { return reader_.failed() ? SyntaxError() : true; }

  // Describes the next value for "got ..." messages and consumes it.
  std::string DescribeAndSkip();

  // ---- scalar coercion ----
  // Reads any scalar as Python int(); containers and null give kInvalid. *shown (optional)
  // keeps what to echo if the caller rejects the value.
  bool ReadPyInt(PyInt* out, ShownValue* shown);
  bool ReadId(const char* leaf, TaskId* id);
  // Optional id where null means "no id" (state kInvalid).
  bool ReadOptionalId(const char* leaf, FieldState* state, TaskId* id);
  bool ReadSmallInt(FieldState* state, int64_t* value, bool require_non_negative);
  bool ReadDType(DType* dtype, FieldState* state);
  bool ReadDims(DimList* dims);
  bool ReadTruthy(bool* out);
  // An edge row's `flags` array as kEdgeFlag* bits (unknown elements or a non-array: Other).
  bool ReadFlags(uint8_t* flags);
  bool ReadOverlap(uint8_t* overlap);
  bool ReadArg(size_t i);
  bool ReadViewField(std::string_view key, View* view, bool* handled);
  // Checks and skips the value of a view key (LoadOptions::views off), compact forms first.
  bool SkipViewValue();

  // ---- the document (load_deps.cc) ----
  bool ReadTopLevelArray(const char* key, ElementReader element, const LoadOptions& options);
  // Parses the array the reader has just entered on several threads; returns the elements
  // committed and leaves the reader where the sequential parse must continue.
  size_t ReadArrayInBlocks(ElementReader element, size_t open, const LoadOptions& options,
                           unsigned threads);
  // Progress at the reader's position, releasing the pages behind it (sequential parse).
  void ReportProgress();
  // The model's vectors are reserved once, from the first MiB of each array.
  void BeginArrayEstimate(size_t open);
  void ReserveFromEstimate(size_t position);

  // ---- the indices (deps_finish.cc) ----
  bool Finish(unsigned threads);

  JsonReader& reader_;
  std::string name_;
  DepGraph& graph_;
  const ProgressFn& progress_;
  std::vector<PathPart> path_;
  bool views_ = true;  // LoadOptions::views
  std::string error_;
  size_t next_progress_ = 0;

  std::vector<std::pair<TaskId, TaskId>> row_ends_;  // raw (pred, succ) per row
  std::vector<Tensor> raw_tensors_;
  std::unordered_map<std::string, uint8_t> overlap_ids_;
  // Equal dimension lists share one copy in graph_.dims (a block's: block-local).
  DimInterner dim_interner_;
  // Per block-local dims offset of a block's distinct list: the document's offset.
  std::vector<uint32_t> dims_map_;
  // Per overlap id of a block: the document's id, rebuilt by each CommitBlock.
  std::vector<uint8_t> overlap_map_;

  // Sizes when the current top-level array began, to extrapolate from.
  struct ArrayEstimate {
    size_t open = 0;
    size_t tasks = 0, args = 0, rows = 0, producer_views = 0, tensors = 0;
    bool done = true;
  };
  ArrayEstimate estimate_;
};

}  // namespace depgraph
