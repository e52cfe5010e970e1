#include "depgraph/reduce/dataflow_proof.h"

#include <algorithm>
#include <span>
#include <thread>
#include <tuple>

#include "depgraph/reduce/byte_region.h"
#include "depgraph/support/thread_count.h"

namespace depgraph {

namespace {

// A creator row whose consumer arg is INOUT/OUTPUT_EXISTING with a known region.
struct CreatorRecord {
  uint32_t pair = 0;  // (owner -> task)
  ArgType type = ArgType::kMissing;
  int64_t buffer = 0;
  int64_t arg = 0;
  size_t first = 0;  // intervals in RecordIndex::pool
  size_t count = 0;
};

// A tensormap row into an INOUT arg with a known, non-empty producer/consumer overlap.
struct ModifierRecord {
  uint32_t pred = 0;
  uint32_t succ = 0;
  int64_t arg = 0;
  int64_t buffer = 0;
  size_t first = 0;  // the overlap, in RecordIndex::pool
  size_t count = 0;
};

// The records built from one range of rows: intervals in `pool`, records pointing into it.
struct RecordPart {
  std::vector<ByteInterval> pool;
  std::vector<CreatorRecord> creators;   // file order
  std::vector<ModifierRecord> modifiers;  // file order
  ByteRegion consumer;                    // scratch
  ByteRegion producer;                    // scratch
};

// Every record the proof can consult, with sorted indexes for range lookups.
class RecordIndex {
 public:
  explicit RecordIndex(const DepGraph& graph) : graph_(graph) {}

  // Builds records for creator rows whose owner is in `owners` and tensormap rows touching a
  // node in `tasks` (no other record can be consulted), ranges of rows on `threads` threads,
  // joined in file order. O(R * I log I / threads + records log records).
  void Build(const std::vector<uint8_t>& owners, const std::vector<uint8_t>& tasks,
             unsigned threads);

  std::span<const ByteInterval> Intervals(size_t first, size_t count) const {
    return {pool_.data() + first, count};
  }
  // Creator records of a pair (all buffers), sorted by buffer.
  std::span<const CreatorRecord> CreatorsOf(uint32_t pair) const;
  // Creator records of a pair on one buffer.
  std::span<const CreatorRecord> CreatorsOf(uint32_t pair, int64_t buffer) const;
  // Modifiers into (succ, arg, buffer), as indices into modifiers().
  std::span<const uint32_t> Incoming(uint32_t succ, int64_t arg, int64_t buffer) const;
  // Modifiers out of (pred, buffer), as indices into modifiers().
  std::span<const uint32_t> Outgoing(uint32_t pred, int64_t buffer) const;
  const std::vector<ModifierRecord>& modifiers() const { return modifiers_; }

 private:
  void BuildPart(size_t first_row, size_t last_row, const std::vector<uint8_t>& owners,
                 const std::vector<uint8_t>& tasks, RecordPart* part) const;
  void AddCreator(const EdgeRow& row, const Pair& pair, RecordPart* part) const;
  void AddModifier(const EdgeRow& row, const Pair& pair, RecordPart* part) const;
  // Appends a part's records, their intervals rebased onto pool_.
  void Take(RecordPart* part);

  const DepGraph& graph_;
  std::vector<ByteInterval> pool_;
  std::vector<CreatorRecord> creators_;   // sorted by (pair, buffer, file order)
  std::vector<ModifierRecord> modifiers_;  // file order
  std::vector<uint32_t> incoming_;         // modifier ids by (succ, arg, buffer)
  std::vector<uint32_t> outgoing_;         // modifier ids by (pred, buffer)
};

void RecordIndex::AddCreator(const EdgeRow& row, const Pair& pair, RecordPart* part) const {
  const Task* task = graph_.TaskOfNode(pair.succ);
  if (task == nullptr || row.arg_state != FieldState::kValid) return;
  const TaskArg* arg = graph_.FindArg(*task, row.arg);
  if (arg == nullptr) return;
  if (arg->type != ArgType::kInOut && arg->type != ArgType::kOutputExisting) return;
  if (!ComputeRowRegion(graph_, row, arg, ViewRole::kConsumer, &part->consumer)) return;
  CreatorRecord record;
  record.pair = row.pair;
  record.type = arg->type;
  record.buffer = part->consumer.buffer_addr;
  record.arg = row.arg;
  record.first = part->pool.size();
  record.count = part->consumer.intervals.size();
  part->pool.insert(part->pool.end(), part->consumer.intervals.begin(),
                    part->consumer.intervals.end());
  part->creators.push_back(record);
}

void RecordIndex::AddModifier(const EdgeRow& row, const Pair& pair, RecordPart* part) const {
  const Task* task = graph_.TaskOfNode(pair.succ);
  if (task == nullptr || row.arg_state != FieldState::kValid) return;
  const TaskArg* arg = graph_.FindArg(*task, row.arg);
  if (arg == nullptr || arg->type != ArgType::kInOut) return;
  if (!ComputeRowRegion(graph_, row, arg, ViewRole::kConsumer, &part->consumer)) return;
  if (!ComputeRowRegion(graph_, row, arg, ViewRole::kProducer, &part->producer)) return;
  if (part->consumer.buffer_addr != part->producer.buffer_addr) return;
  const size_t first = part->pool.size();
  AppendIntersection(part->consumer.intervals, part->producer.intervals, &part->pool);
  if (part->pool.size() == first) return;  // the views do not overlap
  ModifierRecord record;
  record.pred = pair.pred;
  record.succ = pair.succ;
  record.arg = row.arg;
  record.buffer = part->consumer.buffer_addr;
  record.first = first;
  record.count = part->pool.size() - first;
  part->modifiers.push_back(record);
}

void RecordIndex::BuildPart(size_t first_row, size_t last_row,
                            const std::vector<uint8_t>& owners,
                            const std::vector<uint8_t>& tasks, RecordPart* part) const {
  for (size_t r = first_row; r < last_row; ++r) {
    const EdgeRow& row = graph_.rows[r];
    const Pair& pair = graph_.pairs[row.pair];
    if (row.source == EdgeSource::kCreator) {
      if (owners[pair.pred]) AddCreator(row, pair, part);
    } else if (row.source == EdgeSource::kTensormap) {
      if (tasks[pair.pred] || tasks[pair.succ]) AddModifier(row, pair, part);
    }
  }
}

void RecordIndex::Take(RecordPart* part) {
  const size_t base = pool_.size();
  pool_.insert(pool_.end(), part->pool.begin(), part->pool.end());
  for (CreatorRecord& record : part->creators) record.first += base;
  for (ModifierRecord& record : part->modifiers) record.first += base;
  creators_.insert(creators_.end(), part->creators.begin(), part->creators.end());
  modifiers_.insert(modifiers_.end(), part->modifiers.begin(), part->modifiers.end());
  *part = RecordPart();
}

void RecordIndex::Build(const std::vector<uint8_t>& owners, const std::vector<uint8_t>& tasks,
                        unsigned threads) {
  const size_t rows = graph_.rows.size();
  threads = ThreadCount(threads, rows, size_t{1} << 16);
  std::vector<RecordPart> parts(threads);
  std::vector<std::thread> workers;
  for (unsigned t = 1; t < threads; ++t) {
    workers.emplace_back([&, t] {
      BuildPart(rows * t / threads, rows * (t + 1) / threads, owners, tasks, &parts[t]);
    });
  }
  BuildPart(0, rows / threads, owners, tasks, &parts[0]);
  for (std::thread& worker : workers) worker.join();
  // Ranges joined in order: records stay in file order, as one pass over the rows gives.
  for (RecordPart& part : parts) Take(&part);
  std::stable_sort(creators_.begin(), creators_.end(),
                   [](const CreatorRecord& a, const CreatorRecord& b) {
                     return std::tie(a.pair, a.buffer) < std::tie(b.pair, b.buffer);
                   });
  incoming_.resize(modifiers_.size());
  outgoing_.resize(modifiers_.size());
  for (uint32_t i = 0; i < modifiers_.size(); ++i) incoming_[i] = outgoing_[i] = i;
  const auto& m = modifiers_;
  std::sort(incoming_.begin(), incoming_.end(), [&m](uint32_t a, uint32_t b) {
    return std::tie(m[a].succ, m[a].arg, m[a].buffer, a) <
           std::tie(m[b].succ, m[b].arg, m[b].buffer, b);
  });
  std::sort(outgoing_.begin(), outgoing_.end(), [&m](uint32_t a, uint32_t b) {
    return std::tie(m[a].pred, m[a].buffer, a) < std::tie(m[b].pred, m[b].buffer, b);
  });
}

std::span<const CreatorRecord> RecordIndex::CreatorsOf(uint32_t pair) const {
  auto lo = std::lower_bound(creators_.begin(), creators_.end(), pair,
                             [](const CreatorRecord& r, uint32_t p) { return r.pair < p; });
  auto hi = std::upper_bound(lo, creators_.end(), pair,
                             [](uint32_t p, const CreatorRecord& r) { return p < r.pair; });
  return {lo, hi};
}

std::span<const CreatorRecord> RecordIndex::CreatorsOf(uint32_t pair, int64_t buffer) const {
  auto key = std::make_tuple(pair, buffer);
  auto lo = std::lower_bound(creators_.begin(), creators_.end(), key,
                             [](const CreatorRecord& r, const std::tuple<uint32_t, int64_t>& k) {
                               return std::tie(r.pair, r.buffer) < k;
                             });
  auto hi = std::upper_bound(lo, creators_.end(), key,
                             [](const std::tuple<uint32_t, int64_t>& k, const CreatorRecord& r) {
                               return k < std::tie(r.pair, r.buffer);
                             });
  return {lo, hi};
}

std::span<const uint32_t> RecordIndex::Incoming(uint32_t succ, int64_t arg,
                                                int64_t buffer) const {
  const auto& m = modifiers_;
  auto key = std::make_tuple(succ, arg, buffer);
  auto lo = std::lower_bound(incoming_.begin(), incoming_.end(), key,
                             [&m](uint32_t i, const std::tuple<uint32_t, int64_t, int64_t>& k) {
                               return std::tie(m[i].succ, m[i].arg, m[i].buffer) < k;
                             });
  auto hi = std::upper_bound(lo, incoming_.end(), key,
                             [&m](const std::tuple<uint32_t, int64_t, int64_t>& k, uint32_t i) {
                               return k < std::tie(m[i].succ, m[i].arg, m[i].buffer);
                             });
  return {lo, hi};
}

std::span<const uint32_t> RecordIndex::Outgoing(uint32_t pred, int64_t buffer) const {
  const auto& m = modifiers_;
  auto key = std::make_tuple(pred, buffer);
  auto lo = std::lower_bound(outgoing_.begin(), outgoing_.end(), key,
                             [&m](uint32_t i, const std::tuple<uint32_t, int64_t>& k) {
                               return std::tie(m[i].pred, m[i].buffer) < k;
                             });
  auto hi = std::upper_bound(lo, outgoing_.end(), key,
                             [&m](const std::tuple<uint32_t, int64_t>& k, uint32_t i) {
                               return k < std::tie(m[i].pred, m[i].buffer);
                             });
  return {lo, hi};
}

// Whether `bytes` is covered by the union over modifiers `mods` of (overlap ∩ P.intervals) for
// the creator records P on (owner -> other end of the modifier) for `buffer` that `accept`.
// `incoming` picks the modifier's pred as the other end, else its succ. *pieces is scratch.
template <typename Accept>
bool Covered(const DepGraph& graph, const RecordIndex& index, uint32_t owner, int64_t buffer,
             std::span<const uint32_t> mods, bool incoming, Accept accept,
             std::span<const ByteInterval> bytes, std::vector<ByteInterval>* pieces) {
  pieces->clear();
  for (uint32_t id : mods) {
    const ModifierRecord& m = index.modifiers()[id];
    const int64_t peer_pair = graph.FindPair(owner, incoming ? m.pred : m.succ);
    if (peer_pair < 0) continue;
    const auto overlap = index.Intervals(m.first, m.count);
    for (const CreatorRecord& p : index.CreatorsOf(static_cast<uint32_t>(peer_pair), buffer)) {
      if (!accept(m, p)) continue;
      AppendIntersection(overlap, index.Intervals(p.first, p.count), pieces);
    }
  }
  if (pieces->empty()) return bytes.empty();
  NormalizeIntervals(pieces);
  return CoversIntervals(std::span<const ByteInterval>(*pieces), bytes);
}

// The decision for one candidate pair with `creator_rows` creator rows.
bool ProvePair(const DepGraph& graph, const RecordIndex& index, uint32_t pair_id,
               uint32_t creator_rows, std::vector<ByteInterval>* pieces) {
  const Pair& pair = graph.pairs[pair_id];
  const auto records = index.CreatorsOf(pair_id);
  if (records.size() != creator_rows) return false;
  for (const CreatorRecord& r : records) {
    if (r.type != ArgType::kInOut) return false;
  }
  for (const CreatorRecord& r : records) {
    const auto bytes = index.Intervals(r.first, r.count);
    const bool earlier = Covered(
        graph, index, pair.pred, r.buffer, index.Incoming(pair.succ, r.arg, r.buffer), true,
        [](const ModifierRecord&, const CreatorRecord&) { return true; }, bytes, pieces);
    if (!earlier) return false;
    const bool later = Covered(
        graph, index, pair.pred, r.buffer, index.Outgoing(pair.succ, r.buffer), false,
        [](const ModifierRecord& m, const CreatorRecord& p) {
          return p.arg == m.arg && p.type == ArgType::kInOut;
        },
        bytes, pieces);
    if (!later) return false;
  }
  return true;
}

}  // namespace

std::vector<uint8_t> ProveDataflowRemovable(const DepGraph& graph,
                                            const std::vector<uint8_t>& candidates,
                                            unsigned threads) {
  const size_t num_pairs = graph.pairs.size();
  std::vector<uint8_t> removable(num_pairs, 0);
  std::vector<uint32_t> creator_rows(num_pairs, 0);
  for (const EdgeRow& row : graph.rows) {
    if (row.source == EdgeSource::kCreator) ++creator_rows[row.pair];
  }
  // Only records reachable from a candidate's owner or task can matter; skip the rest.
  std::vector<uint8_t> owners(graph.nodes.size(), 0);
  std::vector<uint8_t> tasks(graph.nodes.size(), 0);
  bool any = false;
  const size_t limit = std::min(num_pairs, candidates.size());
  for (size_t p = 0; p < limit; ++p) {
    if (!candidates[p] || creator_rows[p] == 0) continue;
    owners[graph.pairs[p].pred] = 1;
    tasks[graph.pairs[p].succ] = 1;
    any = true;
  }
  if (!any) return removable;

  RecordIndex index(graph);
  index.Build(owners, tasks, threads);
  // The candidates are independent and the index is read-only: ranges of pairs go to
  // threads, each writing only its own bytes of `removable`.
  auto prove_range = [&](size_t first, size_t last) {
    std::vector<ByteInterval> pieces;
    for (size_t p = first; p < last; ++p) {
      if (!candidates[p] || creator_rows[p] == 0) continue;
      const uint32_t id = static_cast<uint32_t>(p);
      removable[p] = ProvePair(graph, index, id, creator_rows[p], &pieces) ? 1 : 0;
    }
  };
  threads = ThreadCount(threads, limit, size_t{1} << 16);
  std::vector<std::thread> workers;
  for (unsigned t = 1; t < threads; ++t) {
    workers.emplace_back(prove_range, limit * t / threads, limit * (t + 1) / threads);
  }
  prove_range(0, limit / threads);
  for (std::thread& worker : workers) worker.join();
  return removable;
}

}  // namespace depgraph
