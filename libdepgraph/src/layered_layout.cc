#include "depgraph/layered_layout.h"

#include <algorithm>
#include <utility>

namespace depgraph {
namespace {

/// Adjacency of the pairs that take part, as two CSR arrays (out and in). `pair` holds the
/// pair index of each out entry, in the same slot as `out`.
struct Adjacency {
  std::vector<uint32_t> out_off, out, out_pair;
  std::vector<uint32_t> in_off, in;
};

bool Included(const LayeredLayoutOptions& options, size_t pair) {
  const std::vector<uint8_t>* inc = options.include;
  if (inc == nullptr || inc->empty()) return true;
  return pair < inc->size() && (*inc)[pair] != 0;
}

}  // namespace

LayeredLayout ComputeLayeredLayout(const DepGraph& graph, const LayeredLayoutOptions& options) {
  LayeredLayout out;
  const uint32_t n = static_cast<uint32_t>(graph.nodes.size());
  out.layer.assign(n, 0);
  out.order.assign(n, 0);
  out.x.assign(n, 0);
  out.y.assign(n, 0);
  if (n == 0) return out;

  // Active pairs: included and not self loops (self loops are listed as reversed).
  std::vector<uint8_t> reversed(graph.pairs.size(), 0);
  std::vector<uint32_t> out_off(n + 1, 0);
  for (size_t p = 0; p < graph.pairs.size(); ++p) {
    if (!Included(options, p)) continue;
    const Pair& pr = graph.pairs[p];
    if (pr.pred == pr.succ) {
      reversed[p] = 1;
      continue;
    }
    ++out_off[pr.pred + 1];
  }
  for (uint32_t v = 0; v < n; ++v) out_off[v + 1] += out_off[v];
  std::vector<uint32_t> out_adj(out_off[n]), out_pair(out_off[n]);
  {
    std::vector<uint32_t> fill(out_off.begin(), out_off.end() - 1);
    for (size_t p = 0; p < graph.pairs.size(); ++p) {
      const Pair& pr = graph.pairs[p];
      if (!Included(options, p) || pr.pred == pr.succ) continue;
      out_adj[fill[pr.pred]] = pr.succ;
      out_pair[fill[pr.pred]++] = static_cast<uint32_t>(p);
    }
  }
  // Break cycles: DFS from nodes in index order; an edge to a node on the stack is reversed.
  {
    std::vector<uint8_t> state(n, 0);  // 0 new, 1 on stack, 2 done
    std::vector<std::pair<uint32_t, uint32_t>> stack;
    for (uint32_t root = 0; root < n; ++root) {
      if (state[root]) continue;
      state[root] = 1;
      stack.emplace_back(root, out_off[root]);
      while (!stack.empty()) {
        auto& [u, next] = stack.back();
        if (next == out_off[u + 1]) {
          state[u] = 2;
          stack.pop_back();
          continue;
        }
        const uint32_t e = next++;
        const uint32_t v = out_adj[e];
        if (state[v] == 1) {
          reversed[out_pair[e]] = 1;
        } else if (state[v] == 0) {
          state[v] = 1;
          stack.emplace_back(v, out_off[v]);
        }
      }
    }
  }
  // Longest-path layering (Kahn) on the acyclic orientation.
  std::vector<uint32_t> indeg(n, 0);
  std::vector<uint32_t> dag_off(n + 1, 0);
  for (uint32_t u = 0; u < n; ++u) {
    for (uint32_t e = out_off[u]; e < out_off[u + 1]; ++e) {
      const uint32_t v = out_adj[e];
      const bool rev = reversed[out_pair[e]];
      ++dag_off[(rev ? v : u) + 1];
      ++indeg[rev ? u : v];
    }
  }
  for (uint32_t v = 0; v < n; ++v) dag_off[v + 1] += dag_off[v];
  std::vector<uint32_t> dag(dag_off[n]);
  {
    std::vector<uint32_t> fill(dag_off.begin(), dag_off.end() - 1);
    for (uint32_t u = 0; u < n; ++u) {
      for (uint32_t e = out_off[u]; e < out_off[u + 1]; ++e) {
        const uint32_t v = out_adj[e];
        if (reversed[out_pair[e]]) {
          dag[fill[v]++] = u;
        } else {
          dag[fill[u]++] = v;
        }
      }
    }
  }
  std::vector<uint32_t> queue;
  queue.reserve(n);
  for (uint32_t v = 0; v < n; ++v) {
    if (indeg[v] == 0) queue.push_back(v);
  }
  for (size_t head = 0; head < queue.size(); ++head) {
    const uint32_t u = queue[head];
    for (uint32_t e = dag_off[u]; e < dag_off[u + 1]; ++e) {
      const uint32_t v = dag[e];
      out.layer[v] = std::max(out.layer[v], out.layer[u] + 1);
      if (--indeg[v] == 0) queue.push_back(v);
    }
  }
  uint32_t max_layer = 0;
  for (uint32_t v = 0; v < n; ++v) max_layer = std::max(max_layer, out.layer[v]);
  out.num_layers = max_layer + 1;
  std::vector<uint32_t> size(out.num_layers, 0);
  for (uint32_t v = 0; v < n; ++v) out.order[v] = size[out.layer[v]]++;
  for (uint32_t s : size) out.max_layer_size = std::max(out.max_layer_size, s);
  for (uint32_t v = 0; v < n; ++v) {
    out.x[v] = static_cast<float>(out.layer[v] * double{options.layer_gap} +
                                  options.layer_gap / 2.0);
    out.y[v] = static_cast<float>(out.order[v] * double{options.node_gap} +
                                  options.node_gap / 2.0);
    out.width = std::max(out.width, out.x[v] + options.layer_gap / 2);
    out.height = std::max(out.height, out.y[v] + options.node_gap / 2);
  }
  for (size_t p = 0; p < reversed.size(); ++p) {
    if (reversed[p]) out.reversed_pairs.push_back(static_cast<uint32_t>(p));
  }
  return out;
}

}  // namespace depgraph
