// Loading deps.json: the document walk, the parallel parse of its big arrays (blocks parsed
// on several threads, committed here in file order) and the public entry points. The element
// readers are in deps_elements.cc, the index build in deps_finish.cc.
#include "depgraph/graph/load_deps.h"


#include <algorithm>
#include <cstdint>
#include <memory>

#include "deps_loader.h"
#include "depgraph/graph/document_kind.h"
#include "depgraph/internal/huge_pages.h"
#include "depgraph/internal/message_quote.h"
#include "depgraph/internal/parallel_load.h"
#include "depgraph/support/input_file.h"
#include "depgraph/support/thread_count.h"

namespace depgraph {

namespace {

constexpr size_t kDefaultBlockBytes = size_t{1} << 20;
// Input bytes past a block's end that its copy also holds: the reader's fast paths look up to
// 36 bytes ahead, so the block's last tokens are read the same way as everywhere else.
constexpr size_t kBlockSlack = 64;
// Blocks parsed ahead of the commits per thread: enough that a slow commit (it faults in the
// model's pages) does not leave a parser without a free slot.
constexpr unsigned kSlotsPerThread = 8;
// The model's vectors are sized once from what this much of an array holds.
constexpr size_t kEstimateAfterBytes = size_t{1} << 20;

// One block buffer per slot of the parallel parse: a copy of the block's bytes (never the
// mapping itself: JsonReader::ReadAt), a reader over it and a loader filling a scratch graph,
// all reused from block to block.
class LoaderBlocks final : public BlockWork {
 public:
  LoaderBlocks(DepsLoader* main, JsonReader* main_reader, DepsLoader::ElementReader element,
               size_t slots)
      : main_(main), main_reader_(main_reader), element_(element), slots_(slots) {
    for (Slot& slot : slots_) {
      slot.loader = std::make_unique<DepsLoader>(&slot.reader, "", &slot.graph, no_progress_);
      slot.loader->set_views(main->views());
    }
  }

  bool Parse(size_t slot, size_t block, const BlockBounds& bounds) override {
    Slot& s = slots_[slot];
    const size_t end = std::min(main_reader_->size(), bounds.end + kBlockSlack);
    s.bytes.resize(end - bounds.begin + 1);  // never empty: its data() is a real pointer
    if (!main_reader_->ReadAt(bounds.begin, end - bounds.begin, s.bytes.data())) return false;
    s.reader.OpenWindow(s.bytes.data(), bounds.begin, end);
    s.loader->ResetBlock();
    return s.loader->ParseBlock(element_, bounds, block == 0, &s.count);
  }

  bool Commit(size_t slot, size_t block, const BlockBounds& bounds) override {
    Slot& s = slots_[slot];
    if (!main_->CommitBlock(*s.loader, elements_, bounds.end)) return false;
    elements_ += s.count;
    return true;
  }

  void CommittedUpTo(size_t end) override { main_->ReportProgressAt(end); }

  size_t elements() const { return elements_; }

 private:
  struct Slot {
    std::vector<char> bytes;
    JsonReader reader;
    DepGraph graph;
    std::unique_ptr<DepsLoader> loader;
    size_t count = 0;
  };
  const ProgressFn no_progress_;
  DepsLoader* main_;
  JsonReader* main_reader_;
  DepsLoader::ElementReader element_;
  std::vector<Slot> slots_;
  size_t elements_ = 0;  // committed so far
};

}  // namespace

DepsLoader::DepsLoader(JsonReader* reader, std::string display_name, DepGraph* graph,
                       const ProgressFn& progress)
    : reader_(*reader),
      name_(EscapeForMessage(display_name)),
      graph_(*graph),
      progress_(progress) {}

std::string DepsLoader::PathString(const char* leaf) const {
  std::string out;
  for (const PathPart& part : path_) {
    if (part.key) {
      if (!out.empty()) out += '.';
      out += part.key;
    } else {
      out += '[' + std::to_string(part.index) + ']';
    }
  }
  if (leaf) {
    if (!out.empty()) out += '.';
    out += leaf;
  }
  return out;
}

bool DepsLoader::SemanticError(const char* leaf, const std::string& message) {
  if (!error_.empty()) return false;
  std::string where = PathString(leaf);
  error_ = name_ + ": " + (where.empty() ? "" : where + ": ") + message;
  return false;
}

bool DepsLoader::SyntaxError() {
  if (error_.empty()) error_ = name_ + ": " + reader_.error();
  return false;
}

void DepsLoader::ReportProgress() {
  reader_.ReleaseConsumed();
  ReportProgressAt(reader_.position());
}

void DepsLoader::ReportProgressAt(size_t position) {
  if (!progress_ || position < next_progress_) return;
  next_progress_ = position + reader_.size() / 100 + 1;
  progress_(static_cast<double>(position) / static_cast<double>(reader_.size()));
}

void DepsLoader::BeginArrayEstimate(size_t open) {
  estimate_ = ArrayEstimate{open,
                            graph_.tasks.size(),
                            graph_.args.size(),
                            graph_.rows.size(),
                            graph_.producer_views.size(),
                            raw_tensors_.size(),
                            false};
}

void DepsLoader::ReserveFromEstimate(size_t position) {
  if (estimate_.done || position < estimate_.open + kEstimateAfterBytes) return;
  estimate_.done = true;
  // What the array's first bytes hold, scaled to the rest of the input, plus 5%.
  const double scale = 1.05 * static_cast<double>(reader_.size() - estimate_.open) /
                       static_cast<double>(position - estimate_.open);
  auto grow = [scale](auto* v, size_t at_open, double margin) {
    const size_t added = v->size() - at_open;
    if (added > 0) ReserveLarge(v, at_open + static_cast<size_t>(added * scale * margin) + 16);
  };
  grow(&graph_.tasks, estimate_.tasks, 1.0);
  grow(&graph_.args, estimate_.args, 1.0);
  grow(&graph_.rows, estimate_.rows, 1.0);
  if (views_) {  // parallel to args and rows
    grow(&graph_.arg_views, estimate_.args, 1.0);
    grow(&graph_.consumer_views, estimate_.rows, 1.0);
  }
  grow(&row_ends_, estimate_.rows, 1.0);
  grow(&graph_.producer_views, estimate_.producer_views, 1.0);
  // Not `dims`: it holds each distinct list once (dim_interner.h), so it stops growing early.
  grow(&raw_tensors_, estimate_.tensors, 1.0);
}

bool DepsLoader::ReadTopLevelArray(const char* key, ElementReader element,
                                   const LoadOptions& options) {
  path_.push_back({key, 0});
  JsonKind kind = reader_.Peek();
  if (kind == JsonKind::kNull) {
    path_.pop_back();
    return reader_.ReadNull() || SyntaxError();
  }
  if (kind != JsonKind::kArray) {
    if (!Check()) return false;
    if (kind == JsonKind::kInvalid) {
      reader_.SkipValue();
      return SyntaxError();
    }
    return SemanticError(nullptr, "expected an array, got " + DescribeAndSkip());
  }
  if (!reader_.BeginArray()) return SyntaxError();
  const size_t open = reader_.position() - 1;
  BeginArrayEstimate(open);
  size_t i = 0;
  const unsigned threads = ResolveThreadCount(options.threads);
  // In blocks even on one thread: copies cost less than first touches of the mapping
  // (1 M decode on one thread: 2.8 s against 3.2-4.0 s, docs/performance.md).
  if (options.block_bytes != SIZE_MAX) i = ReadArrayInBlocks(element, open, options, threads);
  // Sequentially: the whole array, or what the blocks left (nothing, unless one failed).
  while (reader_.NextElement()) {
    path_.push_back({nullptr, i});
    if (!(this->*element)(i)) return false;
    path_.pop_back();
    ++i;
    ReserveFromEstimate(reader_.position());
  }
  path_.pop_back();
  return Check();
}

size_t DepsLoader::ReadArrayInBlocks(ElementReader element, size_t open,
                                     const LoadOptions& options, unsigned threads) {
  const size_t block_bytes = options.block_bytes > 0 ? options.block_bytes : kDefaultBlockBytes;
  // The scan and the block parses read copies of the input (JsonReader::ReadAt), never the
  // mapping: on a VM each first touch of a fresh mapping's page costs a trip to the
  // hypervisor, ~0.5 ns a byte, more than the copy (docs/performance.md).
  ArraySplitter splitter(
      [this](size_t offset, size_t length, char* dest) {
        return reader_.ReadAt(offset, length, dest);
      },
      reader_.size(), open, block_bytes, block_bytes);
  BlockBounds second;
  if (!splitter.Block(1, &second)) return 0;  // a single block: nothing to share
  const size_t slots = kSlotsPerThread * static_cast<size_t>(threads);
  LoaderBlocks blocks(this, &reader_, element, slots);
  const BlockRunResult run = ParseBlocksInParallel(&splitter, threads, slots, &blocks);
  if (options.stats) {
    options.stats->blocks += run.committed;
    if (!run.complete) ++options.stats->fallbacks;
  }
  if (run.committed == 0) return 0;  // block 0 failed: the reader is still after the '['
  // Where the sequential parse would stand after the last committed element.
  reader_.ResumeInArray(run.last.end, 2, blocks.elements() > 0);
  return blocks.elements();
}

void DepsLoader::ResetBlock() {
  graph_.tasks.clear();
  graph_.args.clear();
  graph_.rows.clear();
  graph_.arg_views.clear();
  graph_.consumer_views.clear();
  graph_.producer_views.clear();
  graph_.dims.clear();
  graph_.overlap_names.assign(1, std::string());
  row_ends_.clear();
  raw_tensors_.clear();
  overlap_ids_.clear();
  dim_interner_.Clear();
  path_.clear();
  error_.clear();
}

bool DepsLoader::ParseBlock(ElementReader element, const BlockBounds& bounds, bool first_block,
                            size_t* count) {
  *count = 0;
  // Block 0 starts inside the '[', later ones at the ',' before their first element.
  reader_.ResumeInArray(first_block ? bounds.begin + 1 : bounds.begin, 2, !first_block);
  for (size_t i = 0;; ++i) {
    reader_.Peek();  // skips whitespace
    const size_t at = reader_.position();
    if (at >= bounds.end) {
      *count = i;
      if (at != bounds.end) return false;
      // Block 0 cut at a ',' before any element: a sequential parse reads it as an element.
      return !(first_block && i == 0 && at < reader_.size() && reader_.text()[at] == ',');
    }
    if (!reader_.NextElement()) return false;  // an error, or ']' before the cut
    if (!(this->*element)(i)) return false;
  }
}

bool DepsLoader::CommitBlock(DepsLoader& block, size_t element_base, size_t end) {
  DepGraph& b = block.graph_;
  // The sequential parse would stop with "too many edge rows" in this block.
  if (graph_.rows.size() + b.rows.size() > UINT32_MAX) return false;
  // Overlap names new to the document get the next ids, in the block's first-seen order,
  // as they would sequentially; past 254 names the sequential parse reports the error.
  size_t fresh = 0;
  for (size_t k = 1; k < b.overlap_names.size(); ++k) {
    fresh += overlap_ids_.count(b.overlap_names[k]) == 0 ? 1 : 0;
  }
  if (graph_.overlap_names.size() + fresh > 255) return false;
  overlap_map_.assign(b.overlap_names.size(), 0);
  for (size_t k = 1; k < b.overlap_names.size(); ++k) {
    auto [it, added] = overlap_ids_.emplace(b.overlap_names[k], graph_.overlap_names.size());
    if (added) graph_.overlap_names.push_back(b.overlap_names[k]);
    overlap_map_[k] = it->second;
  }

  // Block-local offsets become the document's: what sequential parsing would have written.
  // The block's distinct dimension lists are interned in the order the block read them,
  // as the sequential parse would have.
  dims_map_.resize(b.dims.size());
  for (const auto& [offset, size] : block.dim_interner_.lists()) {
    const size_t start = graph_.dims.size();
    graph_.dims.insert(graph_.dims.end(), b.dims.begin() + offset, b.dims.begin() + offset + size);
    dims_map_[offset] = dim_interner_.Intern(graph_.dims, static_cast<uint32_t>(start), size);
    if (dims_map_[offset] != start) graph_.dims.resize(start);
  }
  const size_t args_base = graph_.args.size();
  auto rebase = [this](DimList* list) {
    if (list->size > 0) list->offset = dims_map_[list->offset];
  };
  graph_.args.insert(graph_.args.end(), b.args.begin(), b.args.end());
  const size_t first_view = graph_.arg_views.size();
  graph_.arg_views.insert(graph_.arg_views.end(), b.arg_views.begin(), b.arg_views.end());
  for (size_t a = first_view; a < graph_.arg_views.size(); ++a) {
    rebase(&graph_.arg_views[a].shape);
    rebase(&graph_.arg_views[a].strides);
  }
  const size_t first_task = graph_.tasks.size();
  graph_.tasks.insert(graph_.tasks.end(), b.tasks.begin(), b.tasks.end());
  for (size_t t = first_task; t < graph_.tasks.size(); ++t) {
    graph_.tasks[t].first_arg = static_cast<uint32_t>(graph_.tasks[t].first_arg + args_base);
  }
  const uint32_t producer_base = static_cast<uint32_t>(graph_.producer_views.size());
  graph_.producer_views.insert(graph_.producer_views.end(), b.producer_views.begin(),
                               b.producer_views.end());
  for (size_t v = producer_base; v < graph_.producer_views.size(); ++v) {
    rebase(&graph_.producer_views[v].shape);
    rebase(&graph_.producer_views[v].strides);
  }
  const size_t first_row = graph_.rows.size();
  graph_.rows.insert(graph_.rows.end(), b.rows.begin(), b.rows.end());
  const size_t first_consumer = graph_.consumer_views.size();
  graph_.consumer_views.insert(graph_.consumer_views.end(), b.consumer_views.begin(),
                               b.consumer_views.end());
  for (size_t r = first_consumer; r < graph_.consumer_views.size(); ++r) {
    rebase(&graph_.consumer_views[r].shape);
    rebase(&graph_.consumer_views[r].strides);
  }
  for (size_t r = first_row; r < graph_.rows.size(); ++r) {
    EdgeRow& row = graph_.rows[r];
    if (row.producer_view != kNoProducerView) row.producer_view += producer_base;
    row.overlap = overlap_map_[row.overlap];
  }
  row_ends_.insert(row_ends_.end(), block.row_ends_.begin(), block.row_ends_.end());
  const size_t first_tensor = raw_tensors_.size();
  raw_tensors_.insert(raw_tensors_.end(), block.raw_tensors_.begin(), block.raw_tensors_.end());
  for (size_t t = first_tensor; t < raw_tensors_.size(); ++t) {
    raw_tensors_[t].index = static_cast<uint32_t>(raw_tensors_[t].index + element_base);
  }

  reader_.ReleaseBefore(end);
  ReserveFromEstimate(end);
  return true;
}

bool DepsLoader::Load(const LoadOptions& options, std::string* err) {
  if (options.stats) *options.stats = LoadStats();
  views_ = options.views;
  graph_.views_loaded = views_;
  bool ok = true;
  JsonKind top = reader_.Peek();
  if (top != JsonKind::kObject) {
    // A syntax error anywhere ("not json" only starts like null) is reported as such, at its
    // line and column; only a well-formed document of the wrong kind is a semantic error.
    if (!reader_.SkipValue() || !reader_.ExpectEnd()) {
      ok = SyntaxError();
    } else {
      ok = SemanticError(nullptr, std::string("expected a JSON object at the top level, got ") +
                                      JsonKindName(top));
    }
  } else if (!reader_.BeginObject()) {
    ok = SyntaxError();
  } else {
    std::string_view key;
    bool saw_tasks = false;
    std::vector<std::string> top_keys;  // the first few, to say what a non-capture is
    while (ok && reader_.NextKey(&key)) {
      if (top_keys.size() < 16) top_keys.emplace_back(key.substr(0, 64));
      saw_tasks = saw_tasks || key == "tasks";
      if (key == "edges") {
        graph_.rows.clear();
        graph_.consumer_views.clear();
        row_ends_.clear();
        ok = ReadTopLevelArray("edges", &DepsLoader::ReadEdge, options);
      } else if (key == "tasks") {
        graph_.tasks.clear();
        graph_.args.clear();
        graph_.arg_views.clear();
        ok = ReadTopLevelArray("tasks", &DepsLoader::ReadTask, options);
      } else if (key == "tensors") {
        raw_tensors_.clear();
        ok = ReadTopLevelArray("tensors", &DepsLoader::ReadTensor, options);
      } else if (key == "runtime" && reader_.Peek() == JsonKind::kString) {
        std::string_view runtime;
        ok = reader_.ReadString(&runtime) || SyntaxError();
        graph_.runtime = std::string(runtime);  // newer captures (spec/viewer.md §9)
      } else {
        ok = reader_.SkipValue() || SyntaxError();
      }
    }
    if (ok) ok = Check() && (reader_.ExpectEnd() || SyntaxError());
    if (ok && options.require_tasks && !saw_tasks) {
      error_ = name_ + ": " + DescribeNonCapture(top_keys);
      ok = false;
    }
  }
  if (ok) ok = Finish(ResolveThreadCount(options.threads));
  if (!ok) {
    *err = error_.empty() ? name_ + ": invalid input" : error_;
    graph_ = DepGraph();
    return false;
  }
  if (progress_) progress_(1.0);
  return true;
}

bool LoadDepsJson(const std::string& path, DepGraph* graph, std::string* err,
                  const LoadOptions& options, const ProgressFn& progress) {
  *graph = DepGraph();
  // Refuse FIFOs, devices and directories before JsonReader opens (and could block on) them.
  InputFileError refused;
  if (!CheckRegularInput(path, nullptr, &refused)) {
    *err = refused.message;
    return false;
  }
  JsonReader reader;
  std::string open_error;
  if (!reader.Open(path, &open_error)) {
    *err = path + ": " + open_error;
    return false;
  }
  DepsLoader loader(&reader, path, graph, progress);
  return loader.Load(options, err);
}

bool LoadDepsJson(const std::string& path, DepGraph* graph, std::string* err,
                  const ProgressFn& progress) {
  return LoadDepsJson(path, graph, err, LoadOptions(), progress);
}

bool LoadDepsJsonText(std::string_view text, const std::string& display_name, DepGraph* graph,
                      std::string* err, const LoadOptions& options) {
  *graph = DepGraph();
  JsonReader reader;
  reader.OpenBuffer(text);
  ProgressFn none;
  DepsLoader loader(&reader, display_name, graph, none);
  return loader.Load(options, err);
}

}  // namespace depgraph
