#include "depgraph/graph/reachability.h"

#include <algorithm>

#include "depgraph/graph/topo_order.h"

namespace depgraph {

namespace {

// Reverse post-order of an iterative depth-first search that starts at the sources in
// descending index order and takes successors last-first: a second topological order whose
// reach ranges differ from Kahn's (the trick GRAIL uses with random traversals).
std::vector<uint32_t> DepthFirstTopologicalOrder(const DepGraph& graph) {
  const PairGraph& g = graph.graph;
  const uint32_t n = static_cast<uint32_t>(graph.nodes.size());
  std::vector<uint32_t> post;
  post.reserve(n);
  std::vector<uint8_t> seen(n, 0);
  // (node, number of successors not yet tried)
  std::vector<std::pair<uint32_t, uint32_t>> stack;
  for (uint32_t root = n; root-- > 0;) {
    if (seen[root] || boost::in_degree(root, g) != 0) continue;
    seen[root] = 1;
    stack.push_back({root, static_cast<uint32_t>(boost::out_degree(root, g))});
    while (!stack.empty()) {
      auto& [u, left] = stack.back();
      if (left == 0) {
        post.push_back(u);
        stack.pop_back();
        continue;
      }
      --left;
      const uint32_t first = graph.FirstPairOf(u);
      const uint32_t w = graph.pairs[first + left].succ;
      if (!seen[w]) {
        seen[w] = 1;
        stack.push_back({w, static_cast<uint32_t>(boost::out_degree(w, g))});
      }
    }
  }
  std::reverse(post.begin(), post.end());
  return post;
}

}  // namespace

bool ReachabilityIndex::Build(const DepGraph& graph, std::vector<uint32_t>* cycle) {
  graph_ = &graph;
  own_ = ReachScratch();
  chains_ = 0;
  critical_path_.clear();
  std::vector<uint32_t> found_cycle;
  if (!TopologicalOrder(graph, &order_, &found_cycle)) {
    if (cycle != nullptr) *cycle = found_cycle;
    order_.clear();
    return false;
  }
  const uint32_t n = static_cast<uint32_t>(graph.nodes.size());
  const PairGraph& g = graph.graph;

  pos_[0].assign(n, 0);
  for (uint32_t i = 0; i < n; ++i) pos_[0][order_[i]] = i;
  const std::vector<uint32_t> dfs_order = DepthFirstTopologicalOrder(graph);
  pos_[1].assign(n, 0);
  for (uint32_t i = 0; i < n; ++i) pos_[1][dfs_order[i]] = i;
  BuildReachRanges(0);
  BuildReachRanges(1);

  level_.assign(n, 0);
  for (uint32_t u : order_) {
    for (auto [it, end] = boost::out_edges(u, g); it != end; ++it) {
      const uint32_t w = static_cast<uint32_t>(boost::target(*it, g));
      level_[w] = std::max(level_[w], level_[u] + 1);
    }
  }
  BuildChains();
  return true;
}

void ReachabilityIndex::BuildReachRanges(int which) {
  const PairGraph& g = graph_->graph;
  std::vector<uint32_t>& reach = max_reach_[which];
  const std::vector<uint32_t>& pos = pos_[which];
  reach.assign(pos.size(), 0);
  for (size_t i = order_.size(); i-- > 0;) {  // successors first
    const uint32_t u = order_[i];
    uint32_t best = pos[u];
    for (auto [it, end] = boost::out_edges(u, g); it != end; ++it) {
      best = std::max(best, reach[boost::target(*it, g)]);
    }
    reach[u] = best;
  }
}

void ReachabilityIndex::BuildChains() {
  const PairGraph& g = graph_->graph;
  const uint32_t n = static_cast<uint32_t>(order_.size());
  if (n == 0) return;
  // Chain 0: a longest path, ending at the smallest-index node of the highest level and
  // walking back through the smallest-index predecessor one level lower.
  uint32_t tail = 0;
  for (uint32_t v = 1; v < n; ++v) {
    if (level_[v] > level_[tail]) tail = v;
  }
  std::vector<uint32_t> path = {tail};
  while (level_[path.back()] > 0) {
    const uint32_t v = path.back();
    uint32_t best = kNone;
    for (auto [it, end] = boost::in_edges(v, g); it != end; ++it) {
      const uint32_t p = static_cast<uint32_t>(boost::source(*it, g));
      if (level_[p] + 1 == level_[v] && p < best) best = p;
    }
    path.push_back(best);
  }
  std::reverse(path.begin(), path.end());
  critical_path_ = path;
  AddChain(path);

  // Further chains: the path through the most nodes not on a chain yet.
  std::vector<uint8_t> covered(n, 0);
  for (uint32_t v : path) covered[v] = 1;
  std::vector<uint32_t> gain(n, 0);
  std::vector<uint32_t> parent(n, kNone);
  while (chains_ < kMaxChains) {
    uint32_t best_node = 0;
    for (uint32_t u : order_) {
      uint32_t best = 0;
      uint32_t from = kNone;
      for (auto [it, end] = boost::in_edges(u, g); it != end; ++it) {
        const uint32_t p = static_cast<uint32_t>(boost::source(*it, g));
        if (gain[p] > best || (from == kNone && gain[p] == best)) {
          best = gain[p];
          from = p;
        }
      }
      gain[u] = best + (covered[u] ? 0 : 1);
      parent[u] = from;
      if (gain[u] > gain[best_node]) best_node = u;
    }
    if (gain[best_node] < 2) break;  // nothing worth a chain is left
    path.clear();
    for (uint32_t v = best_node; v != kNone; v = parent[v]) path.push_back(v);
    std::reverse(path.begin(), path.end());
    for (uint32_t v : path) covered[v] = 1;
    AddChain(path);
  }
}

void ReachabilityIndex::AddChain(const std::vector<uint32_t>& path) {
  const PairGraph& g = graph_->graph;
  const int c = chains_++;
  const size_t n = order_.size();
  std::vector<uint32_t>& first = first_on_chain_[c];
  std::vector<uint32_t>& last = last_on_chain_[c];
  first.assign(n, kNone);
  last.assign(n, kNone);
  for (uint32_t i = 0; i < path.size(); ++i) first[path[i]] = last[path[i]] = i;
  for (size_t i = n; i-- > 0;) {  // first: the smallest chain index reachable
    const uint32_t u = order_[i];
    for (auto [it, end] = boost::out_edges(u, g); it != end; ++it) {
      first[u] = std::min(first[u], first[boost::target(*it, g)]);
    }
  }
  for (uint32_t u : order_) {  // last: the largest chain index reaching
    for (auto [it, end] = boost::out_edges(u, g); it != end; ++it) {
      const uint32_t w = static_cast<uint32_t>(boost::target(*it, g));
      if (last[u] != kNone && (last[w] == kNone || last[w] < last[u])) last[w] = last[u];
    }
  }
}

bool ReachabilityIndex::Excluded(uint32_t w, uint32_t v) const {
  if (level_[w] >= level_[v]) return true;
  for (int k = 0; k < 2; ++k) {
    if (pos_[k][w] >= pos_[k][v] || max_reach_[k][w] < pos_[k][v]) return true;
  }
  return false;
}

bool ReachabilityIndex::Certified(uint32_t w, uint32_t v) const {
  for (int c = 0; c < chains_; ++c) {
    const uint32_t f = first_on_chain_[c][w];
    const uint32_t l = last_on_chain_[c][v];
    if (f != kNone && l != kNone && f <= l) return true;
  }
  return false;
}

bool ReachabilityIndex::HasEdge(uint32_t u, uint32_t v) const {
  return graph_->FindPair(u, v) >= 0;
}

void ReachabilityIndex::AddStats(const ReachabilityStats& more) {
  ReachabilityStats& s = own_.stats;
  s.queries += more.queries;
  s.by_label += more.by_label;
  s.by_edge += more.by_edge;
  s.by_chain += more.by_chain;
  s.by_search += more.by_search;
  s.searched_nodes += more.searched_nodes;
}

bool ReachabilityIndex::Reaches(uint32_t u, uint32_t v, ReachScratch* scratch) const {
  ReachabilityStats& stats = scratch->stats;
  ++stats.queries;
  if (u == v) return true;
  if (Excluded(u, v)) {
    ++stats.by_label;
    return false;
  }
  if (HasEdge(u, v)) {
    ++stats.by_edge;
    return true;
  }
  if (Certified(u, v)) {
    ++stats.by_chain;
    return true;
  }
  ++stats.by_search;
  std::vector<uint32_t>& mark = scratch->mark;
  if (mark.size() != order_.size()) {
    mark.assign(order_.size(), 0);
    scratch->epoch = 0;
  }
  if (++scratch->epoch == 0) {  // wrapped: forget every old mark
    std::fill(mark.begin(), mark.end(), 0);
    scratch->epoch = 1;
  }
  const uint32_t epoch = scratch->epoch;
  const PairGraph& g = graph_->graph;
  std::vector<uint32_t>& stack = scratch->stack;
  stack.clear();
  stack.push_back(u);
  mark[u] = epoch;
  while (!stack.empty()) {
    const uint32_t x = stack.back();
    stack.pop_back();
    ++stats.searched_nodes;
    for (auto [it, end] = boost::out_edges(x, g); it != end; ++it) {
      const uint32_t w = static_cast<uint32_t>(boost::target(*it, g));
      if (w == v) return true;
      if (mark[w] == epoch) continue;
      mark[w] = epoch;
      if (Excluded(w, v)) continue;
      if (Certified(w, v)) return true;
      stack.push_back(w);
    }
  }
  return false;
}

}  // namespace depgraph
