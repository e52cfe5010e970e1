#include "closure_compare.h"

#include <algorithm>
#include <bit>
#include <thread>

#include "depgraph/support/thread_count.h"

namespace depgraph {

namespace {

constexpr uint32_t kNone = UINT32_MAX;
constexpr size_t kBlock = 64;

/// One graph as the sweeps see it: renumbered by topological position, so that a sweep
/// reads its words in order and writes mostly nearby ones.
struct Side {
  std::vector<uint32_t> position;          ///< per node
  std::vector<uint32_t> first_successor;   ///< per position, into `successors` (size V + 1)
  std::vector<uint32_t> successors;        ///< successor positions, grouped by position
  std::vector<uint32_t> item_at;           ///< per position: its item, or kNone

  /// O(V + E) time and memory.
  Side(const DepGraph& graph, const ReachabilityIndex& reach,
       const std::vector<ClosureItem>& items, bool in_a) {
    const std::vector<uint32_t>& order = reach.order();
    const uint32_t n = static_cast<uint32_t>(order.size());
    position.resize(n);
    for (uint32_t p = 0; p < n; ++p) position[order[p]] = p;
    first_successor.assign(n + 1, 0);
    successors.reserve(graph.pairs.size());
    for (uint32_t p = 0; p < n; ++p) {
      for (auto [it, end] = boost::out_edges(order[p], graph.graph); it != end; ++it) {
        successors.push_back(position[boost::target(*it, graph.graph)]);
      }
      first_successor[p + 1] = static_cast<uint32_t>(successors.size());
    }
    item_at.assign(n, kNone);
    for (uint32_t t = 0; t < items.size(); ++t) {
      const uint32_t node = in_a ? items[t].node_a : items[t].node_b;
      if (node != kNone) item_at[position[node]] = t;
    }
  }
};

/// What one block of 64 sources contributes.
struct BlockResult {
  uint64_t closure_a = 0, closure_b = 0, lost = 0, added = 0;
  std::vector<DiffPair> lost_pairs, added_pairs;
};

/// Per-thread scratch, all zero between blocks.
struct Scratch {
  std::vector<uint64_t> words_a, words_b;  ///< per node: which of the 64 sources reach it
  std::vector<uint64_t> rows_a, rows_b;    ///< per item: the same, read off the nodes
  std::vector<uint32_t> touched;           ///< items either sweep reached
  std::vector<uint32_t> listed_lost;       ///< items with a lost bit, in order
  std::vector<uint32_t> listed_added;      ///< items with an added bit, in order
};

/// Sets bit j on the node of source j and sweeps the topological order from the earliest
/// source (nothing before it can be reached) to the last position written (nothing after it
/// is reached); then moves each reached item's word into `rows`, appends the items it is the
/// first side to reach to `touched`, and clears `words` again.
/// O(V + E) at most, and only the positions between the first source and the last node reached.
void Sweep(const Side& side, const std::vector<uint32_t>& sources, std::vector<uint64_t>& words,
           std::vector<uint64_t>& rows, const std::vector<uint64_t>& other_rows,
           std::vector<uint32_t>* touched) {
  uint32_t first = kNone, last = 0;
  for (size_t j = 0; j < sources.size(); ++j) {
    if (sources[j] == kNone) continue;
    const uint32_t p = side.position[sources[j]];
    words[p] |= uint64_t{1} << j;
    first = std::min(first, p);
    last = std::max(last, p);
  }
  if (first == kNone) return;
  const uint32_t* next = side.successors.data();
  for (uint32_t p = first; p <= last; ++p) {
    const uint64_t w = words[p];
    if (w == 0) continue;
    for (uint32_t e = side.first_successor[p], end = side.first_successor[p + 1]; e < end; ++e) {
      words[next[e]] |= w;
      last = std::max(last, next[e]);
    }
  }
  for (uint32_t p = first; p <= last; ++p) {
    if (words[p] == 0) continue;
    const uint32_t t = side.item_at[p];
    if (t != kNone) {
      if (other_rows[t] == 0) touched->push_back(t);
      rows[t] = words[p];
    }
    words[p] = 0;
  }
}

/// The pairs of one block that are lost (or added), by source then item, at most `room`.
void ListPairs(const std::vector<ClosureItem>& items, size_t first, size_t block,
               const Scratch& s, const std::vector<uint32_t>& listed, bool lost, size_t room,
               std::vector<DiffPair>* out) {
  for (size_t j = 0; j < block && out->size() < room; ++j) {
    const ClosureItem& pred = items[first + j];
    for (uint32_t t : listed) {
      const uint64_t bits = lost ? s.rows_a[t] & ~s.rows_b[t] : s.rows_b[t] & ~s.rows_a[t];
      if (!((bits >> j) & 1u)) continue;
      out->push_back({pred.id_a, items[t].id_a, pred.id_b, items[t].id_b, pred.alloc});
      if (out->size() == room) break;
    }
  }
}

/// Compares the closures of the 64 (or fewer) sources starting at item `first`, leaving the
/// scratch zeroed. O(what the sweeps visit + items reached, and a sort of the listed ones).
void CompareBlock(const Side& a, const Side& b, const std::vector<ClosureItem>& items,
                  size_t first, size_t lost_room, size_t added_room, Scratch& s,
                  BlockResult* result) {
  const size_t block = std::min(kBlock, items.size() - first);
  std::vector<uint32_t> sources_a(block), sources_b(block);
  for (size_t j = 0; j < block; ++j) {
    sources_a[j] = items[first + j].node_a;
    sources_b[j] = items[first + j].node_b;
  }
  s.touched.clear();
  Sweep(a, sources_a, s.words_a, s.rows_a, s.rows_b, &s.touched);
  Sweep(b, sources_b, s.words_b, s.rows_b, s.rows_a, &s.touched);
  s.listed_lost.clear();
  s.listed_added.clear();
  for (uint32_t t : s.touched) {
    uint64_t ra = s.rows_a[t], rb = s.rows_b[t];
    if (t >= first && t < first + block) {  // u != v: a source's own bit does not count
      const uint64_t others = ~(uint64_t{1} << (t - first));
      ra &= others;
      rb &= others;
    }
    result->closure_a += std::popcount(ra);
    result->closure_b += std::popcount(rb);
    result->lost += std::popcount(ra & ~rb);
    result->added += std::popcount(rb & ~ra);
    const bool listed_lost = (ra & ~rb) != 0 && lost_room > 0;
    const bool listed_added = (rb & ~ra) != 0 && added_room > 0;
    if (listed_lost) s.listed_lost.push_back(t);
    if (listed_added) s.listed_added.push_back(t);
    s.rows_a[t] = listed_lost || listed_added ? ra : 0;
    s.rows_b[t] = listed_lost || listed_added ? rb : 0;
  }
  std::sort(s.listed_lost.begin(), s.listed_lost.end());
  std::sort(s.listed_added.begin(), s.listed_added.end());
  ListPairs(items, first, block, s, s.listed_lost, true, lost_room, &result->lost_pairs);
  ListPairs(items, first, block, s, s.listed_added, false, added_room, &result->added_pairs);
  for (uint32_t t : s.listed_lost) s.rows_a[t] = s.rows_b[t] = 0;
  for (uint32_t t : s.listed_added) s.rows_a[t] = s.rows_b[t] = 0;
}

}  // namespace

void CompareClosures(const DepGraph& a, const ReachabilityIndex& reach_a, const DepGraph& b,
                     const ReachabilityIndex& reach_b, const std::vector<ClosureItem>& items,
                     size_t max_pairs, unsigned threads, GraphDiff* diff) {
  const Side side_a(a, reach_a, items, true);
  const Side side_b(b, reach_b, items, false);
  const size_t blocks = (items.size() + kBlock - 1) / kBlock;
  threads = ThreadCount(threads, blocks, 1);
  std::vector<Scratch> scratch(threads);
  for (Scratch& s : scratch) {
    s.words_a.assign(a.nodes.size(), 0);
    s.words_b.assign(b.nodes.size(), 0);
    s.rows_a.assign(items.size(), 0);
    s.rows_b.assign(items.size(), 0);
  }
  // Waves of one block per thread, merged in block order: the lists hold the first pairs in
  // (pred, succ) order whatever the thread count, and at most threads * max_pairs are
  // buffered.
  std::vector<BlockResult> wave(threads);
  for (size_t wave_first = 0; wave_first < blocks; wave_first += threads) {
    const size_t count = std::min<size_t>(threads, blocks - wave_first);
    const size_t lost_room = max_pairs - std::min(max_pairs, diff->closure_lost.size());
    const size_t added_room = max_pairs - std::min(max_pairs, diff->closure_added.size());
    auto run = [&](size_t k) {
      wave[k] = BlockResult{};
      CompareBlock(side_a, side_b, items, (wave_first + k) * kBlock, lost_room, added_room,
                   scratch[k], &wave[k]);
    };
    std::vector<std::thread> workers;
    for (size_t k = 1; k < count; ++k) workers.emplace_back(run, k);
    run(0);
    for (std::thread& worker : workers) worker.join();
    for (size_t k = 0; k < count; ++k) {
      diff->closure_a += wave[k].closure_a;
      diff->closure_b += wave[k].closure_b;
      diff->closure_lost_count += wave[k].lost;
      diff->closure_added_count += wave[k].added;
      for (const DiffPair& p : wave[k].lost_pairs) {
        if (diff->closure_lost.size() < max_pairs) diff->closure_lost.push_back(p);
      }
      for (const DiffPair& p : wave[k].added_pairs) {
        if (diff->closure_added.size() < max_pairs) diff->closure_added.push_back(p);
      }
    }
  }
  diff->closure_computed = true;
}

}  // namespace depgraph
