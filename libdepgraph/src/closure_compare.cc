#include "closure_compare.h"

#include <algorithm>
#include <bit>
#include <thread>

namespace depgraph {

namespace {

constexpr uint32_t kNone = UINT32_MAX;
constexpr size_t kBlock = 64;

/// One graph as the sweeps see it.
struct Side {
  const DepGraph* graph;
  const ReachabilityIndex* reach;
  std::vector<uint32_t> item_of_node;  ///< per node: its item, or kNone
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
  std::vector<uint32_t> listed_lost;       ///< items with a lost bit, in order
  std::vector<uint32_t> listed_added;      ///< items with an added bit, in order
};

/// Sets bit j on the node of source j, sweeps the topological order from the earliest source
/// (nothing before it can be reached), then moves each reached item's word into `rows` and
/// clears `words` again. O(V + E) from the earliest source on.
void Sweep(const Side& side, const std::vector<uint32_t>& sources, std::vector<uint64_t>& words,
           std::vector<uint64_t>& rows) {
  const ReachabilityIndex& reach = *side.reach;
  const PairGraph& g = side.graph->graph;
  uint32_t first = kNone;
  for (size_t j = 0; j < sources.size(); ++j) {
    if (sources[j] == kNone) continue;
    words[sources[j]] |= uint64_t{1} << j;
    first = std::min(first, reach.Position(sources[j]));
  }
  if (first == kNone) return;
  const std::vector<uint32_t>& order = reach.order();
  for (size_t p = first; p < order.size(); ++p) {
    const uint64_t w = words[order[p]];
    if (w == 0) continue;
    for (auto [it, end] = boost::out_edges(order[p], g); it != end; ++it) {
      words[boost::target(*it, g)] |= w;
    }
  }
  for (size_t p = first; p < order.size(); ++p) {
    const uint32_t u = order[p];
    if (words[u] == 0) continue;
    if (side.item_of_node[u] != kNone) rows[side.item_of_node[u]] = words[u];
    words[u] = 0;
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
/// scratch zeroed. O(V + E + M) time.
void CompareBlock(const Side& a, const Side& b, const std::vector<ClosureItem>& items,
                  size_t first, size_t lost_room, size_t added_room, Scratch& s,
                  BlockResult* result) {
  const size_t block = std::min(kBlock, items.size() - first);
  std::vector<uint32_t> sources_a(block), sources_b(block);
  for (size_t j = 0; j < block; ++j) {
    sources_a[j] = items[first + j].node_a;
    sources_b[j] = items[first + j].node_b;
  }
  Sweep(a, sources_a, s.words_a, s.rows_a);
  Sweep(b, sources_b, s.words_b, s.rows_b);
  s.listed_lost.clear();
  s.listed_added.clear();
  for (uint32_t t = 0; t < items.size(); ++t) {
    uint64_t ra = s.rows_a[t], rb = s.rows_b[t];
    if ((ra | rb) == 0) continue;
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
  ListPairs(items, first, block, s, s.listed_lost, true, lost_room, &result->lost_pairs);
  ListPairs(items, first, block, s, s.listed_added, false, added_room, &result->added_pairs);
  for (uint32_t t : s.listed_lost) s.rows_a[t] = s.rows_b[t] = 0;
  for (uint32_t t : s.listed_added) s.rows_a[t] = s.rows_b[t] = 0;
}

std::vector<uint32_t> ItemOfNode(const DepGraph& graph, const std::vector<ClosureItem>& items,
                                 bool in_a) {
  std::vector<uint32_t> item_of_node(graph.nodes.size(), kNone);
  for (uint32_t t = 0; t < items.size(); ++t) {
    const uint32_t node = in_a ? items[t].node_a : items[t].node_b;
    if (node != kNone) item_of_node[node] = t;
  }
  return item_of_node;
}

}  // namespace

void CompareClosures(const DepGraph& a, const ReachabilityIndex& reach_a, const DepGraph& b,
                     const ReachabilityIndex& reach_b, const std::vector<ClosureItem>& items,
                     size_t max_pairs, unsigned threads, GraphDiff* diff) {
  const Side side_a{&a, &reach_a, ItemOfNode(a, items, true)};
  const Side side_b{&b, &reach_b, ItemOfNode(b, items, false)};
  const size_t blocks = (items.size() + kBlock - 1) / kBlock;
  if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
  threads = static_cast<unsigned>(std::min<size_t>(threads, std::max<size_t>(blocks, 1)));
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
