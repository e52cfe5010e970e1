#include "depgraph/timing/wait_reduction.h"
#include "depgraph/support/cycle_text.h"

#include <algorithm>
#include <tuple>

#include "depgraph/internal/message_quote.h"
#include "depgraph/reduce/reduction.h"

namespace depgraph {

namespace {

constexpr uint8_t kRowWait = 1, kRowRetain = 2;

// The wait/retain bits of one edge row: its `flags`, or what its source implies.
uint8_t RowFlags(const EdgeRow& row) {
  if (row.flags != 0) {
    return static_cast<uint8_t>(((row.flags & kEdgeFlagWait) ? kRowWait : 0) |
                                ((row.flags & kEdgeFlagRetain) ? kRowRetain : 0));
  }
  return row.source == EdgeSource::kTensormap ? kRowWait : kRowWait | kRowRetain;
}

uint64_t ScopeOf(TaskId id, WaitScopeKey key) {
  switch (key) {
    case WaitScopeKey::kRing:
      return RingOf(id);
    case WaitScopeKey::kHbgScope:
      return ((id >> 62) << 20) | ((id >> 32) & 0xFFFFF);
    case WaitScopeKey::kHighWord:
      break;
  }
  return id >> 32;
}

// A place in the submission order: tasks[] entry `anchor` (kind 1), or an allocation placed
// just before it (kind 0, `seq` = insertion count), or after every entry (anchor = size).
struct OrderKey {
  uint64_t anchor = 0;
  uint8_t kind = 0;
  uint64_t seq = 0;
  bool operator<(const OrderKey& o) const {
    return std::tie(anchor, kind, seq) < std::tie(o.anchor, o.kind, o.seq);
  }
};

// The WAIT pairs as a graph of their own, for the structural reduction.
DepGraph WaitGraph(const DepGraph& graph, const std::vector<uint32_t>& wait) {
  DepGraph sub;
  sub.nodes = graph.nodes;
  sub.node_task = graph.node_task;
  sub.pairs.reserve(wait.size());
  std::vector<std::pair<uint32_t, uint32_t>> edges;
  edges.reserve(wait.size());
  for (uint32_t p : wait) {
    sub.pairs.push_back(graph.pairs[p]);
    edges.emplace_back(graph.pairs[p].pred, graph.pairs[p].succ);
  }
  sub.graph = PairGraph(boost::edges_are_unsorted_multi_pass, edges.begin(), edges.end(),
                        graph.nodes.size());
  return sub;
}

// Bitmaps of BL bits in 64-bit words.
class Bitmaps {
 public:
  Bitmaps(uint32_t bits, uint32_t slots)
      : bits_(bits), words_((bits + 63) / 64), data_(static_cast<size_t>(words_) * slots, 0) {}
  uint64_t* Slot(uint32_t slot) { return data_.data() + static_cast<size_t>(slot) * words_; }
  uint32_t words() const { return words_; }
  // dst |= src << shift (bits shifted past the last word are lost).
  void OrShifted(uint64_t* dst, const uint64_t* src, uint32_t shift) const {
    const uint32_t word_shift = shift / 64, bit_shift = shift % 64;
    for (uint32_t i = words_; i-- > word_shift;) {
      const uint32_t j = i - word_shift;
      uint64_t v = src[j] << bit_shift;
      if (bit_shift != 0 && j > 0) v |= src[j - 1] >> (64 - bit_shift);
      dst[i] |= v;
    }
  }
  void Mask(uint64_t* dst) const {
    if (bits_ % 64 != 0) dst[words_ - 1] &= (uint64_t{1} << (bits_ % 64)) - 1;
  }
  static bool Test(const uint64_t* w, uint32_t bit) { return (w[bit / 64] >> (bit % 64)) & 1; }
  static void Set(uint64_t* w, uint32_t bit) { w[bit / 64] |= uint64_t{1} << (bit % 64); }

 private:
  uint32_t bits_;
  uint32_t words_;
  std::vector<uint64_t> data_;
};

// Runs the runtime's bitmap fold at window `bl` over the order; fills the removed pairs.
void RunWindow(const std::vector<int64_t>& order_node, const std::vector<int64_t>& seq,
               const std::vector<uint32_t>& pred_first, const std::vector<uint32_t>& pred_pairs,
               const DepGraph& graph, uint32_t bl, std::vector<uint32_t>* removed) {
  Bitmaps maps(bl, bl);
  std::vector<uint64_t> via(maps.words());
  std::vector<std::pair<uint32_t, uint32_t>> tracked;  // (pair, d)
  for (size_t pos = 0; pos < order_node.size(); ++pos) {
    uint64_t* r = maps.Slot(static_cast<uint32_t>(pos % bl));
    std::fill(r, r + maps.words(), 0);
    const int64_t t = order_node[pos];
    if (t < 0) continue;
    std::fill(via.begin(), via.end(), 0);
    tracked.clear();
    for (uint32_t i = pred_first[t]; i < pred_first[t + 1]; ++i) {
      const uint32_t pair = pred_pairs[i];
      const int64_t d = static_cast<int64_t>(pos) - seq[graph.pairs[pair].pred];
      if (d < 1 || d > static_cast<int64_t>(bl)) continue;  // window miss: kept
      tracked.emplace_back(pair, static_cast<uint32_t>(d));
      Bitmaps::Set(r, static_cast<uint32_t>(d - 1));
      if (d < static_cast<int64_t>(bl)) {
        const uint64_t* rp = maps.Slot(static_cast<uint32_t>((pos - d) % bl));
        maps.OrShifted(via.data(), rp, static_cast<uint32_t>(d));
      }
    }
    for (uint32_t w = 0; w < maps.words(); ++w) r[w] |= via[w];
    maps.Mask(r);
    maps.Mask(via.data());
    for (const auto& [pair, d] : tracked) {
      if (Bitmaps::Test(via.data(), d - 1)) removed->push_back(pair);
    }
  }
  std::sort(removed->begin(), removed->end());
}

int64_t Percentile(const std::vector<int64_t>& sorted, double q) {
  if (sorted.empty()) return 0;
  const size_t i = static_cast<size_t>(q * static_cast<double>(sorted.size()));
  return sorted[std::min(i, sorted.size() - 1)];
}

}  // namespace

const char* WaitScopeKeyName(WaitScopeKey key) {
  switch (key) {
    case WaitScopeKey::kRing:
      return "ring";
    case WaitScopeKey::kHbgScope:
      return "space+parent";
    case WaitScopeKey::kHighWord:
      break;
  }
  return "id>>32";
}

bool SimulateWaitReduction(const DepGraph& graph, const std::vector<uint32_t>& windows,
                           WaitReductionReport* report, std::string* err, unsigned threads) {
  *report = WaitReductionReport();
  WaitReductionReport& r = *report;
  if (graph.runtime.empty()) {
    r.scope_key = WaitScopeKey::kHighWord;
  } else if (graph.runtime == "tensormap_and_ringbuffer") {
    r.scope_key = WaitScopeKey::kRing;
  } else if (graph.runtime == "host_build_graph") {
    r.scope_key = WaitScopeKey::kHbgScope;
  } else {
    *err = "runtime: " + QuoteForMessage(graph.runtime) +
           " is not a runtime whose task ids wait-sim can decode (tensormap_and_ringbuffer, "
           "host_build_graph)";
    return false;
  }
  for (uint32_t bl : windows) {
    if (bl == 0) {
      *err = "window size 0: a bitmap needs at least one bit";
      return false;
    }
  }
  const size_t pair_count = graph.pairs.size();
  const size_t node_count = graph.nodes.size();

  // Flags per pair, OR-accumulated over the rows; which pairs' retain is only a guess; the
  // WAIT pairs in the order their first row appears.
  std::vector<uint8_t> flags(pair_count, 0), explicit_row(pair_count, 0),
      certain_retain(pair_count, 0), first_seen(pair_count, 0);
  std::vector<uint32_t> seen_order;
  for (const EdgeRow& row : graph.rows) {
    const uint8_t f = RowFlags(row);
    flags[row.pair] |= f;
    if (row.source == EdgeSource::kExplicit) {
      explicit_row[row.pair] = 1;
    } else if (f & kRowRetain) {
      certain_retain[row.pair] = 1;
    }
    if (!first_seen[row.pair]) {
      first_seen[row.pair] = 1;
      seen_order.push_back(row.pair);
    }
  }
  r.pair_class.assign(pair_count, 0);
  std::vector<uint32_t> wait;
  for (uint32_t p = 0; p < pair_count; ++p) {
    if (!(flags[p] & kRowWait)) continue;
    wait.push_back(p);
    uint8_t c = kWaitPair;
    if (flags[p] & kRowRetain) c |= kWaitRetain;
    if (explicit_row[p] && !certain_retain[p]) c |= kWaitRetainUncertain;
    const Pair& pr = graph.pairs[p];
    if (ScopeOf(graph.nodes[pr.pred], r.scope_key) != ScopeOf(graph.nodes[pr.succ], r.scope_key)) {
      c |= kWaitCrossScope;
    }
    r.pair_class[p] = c;
  }
  r.wait_pairs = wait.size();

  // Submission order.
  const uint64_t entries = graph.tasks.size();
  std::vector<OrderKey> key(node_count);
  std::vector<uint8_t> placed(node_count, 0);
  const std::vector<uint32_t> node_of_task = NodesOfTasks(graph);
  for (uint64_t t = 0; t < entries; ++t) {
    const uint32_t node = node_of_task[t];
    if (node == UINT32_MAX) continue;
    key[node] = OrderKey{t, 1, 0};  // a repeated id takes its last entry's place
    placed[node] = 1;
  }
  std::vector<OrderKey> inserted;
  for (uint32_t p : seen_order) {
    if (!(flags[p] & kRowWait)) continue;
    const uint32_t pred = graph.pairs[p].pred;
    if (placed[pred]) continue;
    bool found = false;
    OrderKey best;
    for (uint32_t q = graph.FirstPairOf(pred); q < pair_count && graph.pairs[q].pred == pred; ++q) {
      const uint32_t succ = graph.pairs[q].succ;
      if (!(flags[q] & kRowWait) || !placed[succ]) continue;
      if (!found || key[succ] < best) best = key[succ];
      found = true;
    }
    const OrderKey k{found ? best.anchor : entries, 0, inserted.size()};
    key[pred] = k;
    placed[pred] = 1;
    inserted.push_back(k);
  }
  for (uint32_t p : wait) {
    const uint32_t succ = graph.pairs[p].succ;
    if (!placed[succ]) {
      *err = "task " + FormatTaskId(graph.nodes[succ], graph.Display()) +
             " waits on a WAIT edge but has no place in the submission order (it is not in "
             "tasks[] and precedes nothing)";
      return false;
    }
  }
  // Inserted keys are created in insertion order; sort by place.
  std::vector<OrderKey> sorted_inserted = inserted;
  std::sort(sorted_inserted.begin(), sorted_inserted.end());
  r.inserted = inserted.size();
  r.tasks = entries + inserted.size();
  // seq of a key: entries before it plus inserted keys before it.
  auto seq_of = [&](const OrderKey& k) -> int64_t {
    const size_t before =
        static_cast<size_t>(std::lower_bound(sorted_inserted.begin(), sorted_inserted.end(), k) -
                            sorted_inserted.begin());
    return static_cast<int64_t>(std::min(k.anchor, entries) + before);
  };
  std::vector<int64_t> seq(node_count, -1);
  std::vector<int64_t> order_node(r.tasks, -1);
  for (uint32_t n = 0; n < node_count; ++n) {
    if (!placed[n]) continue;
    seq[n] = seq_of(key[n]);
    order_node[seq[n]] = n;
  }

  // The exact reduction of the WAIT graph.
  {
    const DepGraph sub = WaitGraph(graph, wait);
    const StructuralReduction red = ReduceStructurally(sub, threads);
    if (!red.is_dag) {
      const IdDisplay display = graph.Display();
      *err = CycleMessage("the WAIT graph has a cycle", red.cycle.size(), [&](size_t i) {
        return FormatTaskId(graph.nodes[red.cycle[i]], display);
      });
      return false;
    }
    for (size_t i = 0; i < wait.size(); ++i) {
      if (red.redundant[i]) r.pair_class[wait[i]] |= kWaitRedundant;
    }
  }

  // Distances and the counts that do not depend on the window.
  std::vector<int64_t> distance(pair_count, 0);
  std::vector<int64_t> distances;
  distances.reserve(wait.size());
  for (uint32_t p : wait) {
    const uint8_t c = r.pair_class[p];
    distance[p] = seq[graph.pairs[p].succ] - seq[graph.pairs[p].pred];
    if (distance[p] >= 0) distances.push_back(distance[p]);
    if (c & kWaitCrossScope) ++r.cross_scope_wait_pairs;
    if (!(c & kWaitRedundant)) continue;
    ++r.upper_bound;
    ++((c & kWaitRetain) ? r.full_demote_to_retain : r.full_pure_drop);
    if (c & kWaitRetainUncertain) ++r.full_retain_uncertain;
    if (c & kWaitCrossScope) ++r.cross_scope_redundant;
  }
  std::sort(distances.begin(), distances.end());
  r.distance_count = distances.size();
  r.distance_p50 = Percentile(distances, 0.50);
  r.distance_p90 = Percentile(distances, 0.90);
  r.distance_p99 = Percentile(distances, 0.99);
  r.distance_max = distances.empty() ? 0 : distances.back();

  // WAIT predecessors per node (CSR by successor).
  std::vector<uint32_t> pred_first(node_count + 1, 0), pred_pairs(wait.size());
  for (uint32_t p : wait) ++pred_first[graph.pairs[p].succ + 1];
  for (size_t n = 0; n < node_count; ++n) pred_first[n + 1] += pred_first[n];
  {
    std::vector<uint32_t> cursor(pred_first.begin(), pred_first.end() - 1);
    for (uint32_t p : wait) pred_pairs[cursor[graph.pairs[p].succ]++] = p;
  }

  for (uint32_t bl : windows) {
    WaitWindowStats w;
    w.window = bl;
    RunWindow(order_node, seq, pred_first, pred_pairs, graph, bl, &w.removed_pairs);
    std::vector<uint8_t> removed(pair_count, 0);
    for (uint32_t p : w.removed_pairs) {
      removed[p] = 1;
      const uint8_t c = r.pair_class[p];
      ++((c & kWaitRetain) ? w.demote_to_retain : w.pure_drop);
      if (c & kWaitRetainUncertain) ++w.retain_uncertain;
      if (c & kWaitCrossScope) ++w.cross_scope_removed;
    }
    for (uint32_t p : wait) {
      const uint8_t c = r.pair_class[p];
      const int64_t d = distance[p];
      const bool miss = d < 1 || d > static_cast<int64_t>(bl);
      if (d >= 0 && d <= static_cast<int64_t>(bl)) ++w.pairs_within_window;
      if (miss) ++w.window_miss_pairs;
      if (!(c & kWaitRedundant)) continue;
      if (miss) ++w.redundant_window_misses;
      if (!miss && !removed[p]) ++w.bitmap_misses;
      if ((c & kWaitCrossScope) && !removed[p]) ++w.cross_scope_misses;
    }
    r.windows.push_back(std::move(w));
  }
  return true;
}

}  // namespace depgraph
