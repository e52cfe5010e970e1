#include "depgraph/render/layered_layout.h"

#include <algorithm>
#include <utility>

namespace depgraph {
namespace {

/// A compressed adjacency: the neighbours of v are adj[off[v] .. off[v + 1]).
struct Csr {
  std::vector<uint32_t> off;
  std::vector<uint32_t> adj;
  uint32_t Begin(uint32_t v) const { return off[v]; }
  uint32_t End(uint32_t v) const { return off[v + 1]; }
  uint32_t Degree(uint32_t v) const { return off[v + 1] - off[v]; }
};

bool Included(const LayeredLayoutOptions& options, size_t pair) {
  const std::vector<uint8_t>* inc = options.include;
  if (inc == nullptr || inc->empty()) return true;
  return pair < inc->size() && (*inc)[pair] != 0;
}

/// Whether a pair takes part in the layering: included and not a self loop.
bool Active(const DepGraph& graph, const LayeredLayoutOptions& options, size_t pair) {
  return Included(options, pair) && graph.pairs[pair].pred != graph.pairs[pair].succ;
}

/// Marks, in *reversed, the active pairs a depth-first search (roots and successors in index
/// order) finds as back edges, and every included self loop. What is left is acyclic.
/// O(V + E), iterative.
void BreakCycles(const DepGraph& graph, const LayeredLayoutOptions& options,
                 std::vector<uint8_t>* reversed) {
  const uint32_t n = static_cast<uint32_t>(graph.nodes.size());
  reversed->assign(graph.pairs.size(), 0);
  // Pairs are sorted by (pred, succ), so the pairs of node u start at first[u].
  std::vector<uint32_t> first(n + 1, 0);
  for (const Pair& p : graph.pairs) ++first[p.pred + 1];
  for (uint32_t v = 0; v < n; ++v) first[v + 1] += first[v];
  for (size_t p = 0; p < graph.pairs.size(); ++p) {
    if (Included(options, p) && graph.pairs[p].pred == graph.pairs[p].succ) (*reversed)[p] = 1;
  }
  std::vector<uint8_t> state(n, 0);  // 0 unseen, 1 on the stack, 2 finished
  std::vector<std::pair<uint32_t, uint32_t>> stack;  // (node, next pair to look at)
  for (uint32_t root = 0; root < n; ++root) {
    if (state[root] != 0) continue;
    state[root] = 1;
    stack.emplace_back(root, first[root]);
    while (!stack.empty()) {
      const uint32_t u = stack.back().first;
      const uint32_t p = stack.back().second;
      if (p == first[u + 1]) {
        state[u] = 2;
        stack.pop_back();
        continue;
      }
      ++stack.back().second;
      if (!Active(graph, options, p)) continue;
      const uint32_t v = graph.pairs[p].succ;
      if (state[v] == 1) {
        (*reversed)[p] = 1;
      } else if (state[v] == 0) {
        state[v] = 1;
        stack.emplace_back(v, first[v]);
      }
    }
  }
}

/// Successor and predecessor lists of the acyclic orientation (reversed pairs flipped),
/// each list in pair order. O(V + E).
void BuildDag(const DepGraph& graph, const LayeredLayoutOptions& options,
              const std::vector<uint8_t>& reversed, Csr* succ, Csr* pred) {
  const uint32_t n = static_cast<uint32_t>(graph.nodes.size());
  succ->off.assign(n + 1, 0);
  pred->off.assign(n + 1, 0);
  auto oriented = [&](size_t p) {
    const Pair& pr = graph.pairs[p];
    return reversed[p] ? std::make_pair(pr.succ, pr.pred) : std::make_pair(pr.pred, pr.succ);
  };
  for (size_t p = 0; p < graph.pairs.size(); ++p) {
    if (!Active(graph, options, p)) continue;
    const auto [a, b] = oriented(p);
    ++succ->off[a + 1];
    ++pred->off[b + 1];
  }
  for (uint32_t v = 0; v < n; ++v) {
    succ->off[v + 1] += succ->off[v];
    pred->off[v + 1] += pred->off[v];
  }
  succ->adj.resize(succ->off[n]);
  pred->adj.resize(pred->off[n]);
  std::vector<uint32_t> fill_s(succ->off.begin(), succ->off.end() - 1);
  std::vector<uint32_t> fill_p(pred->off.begin(), pred->off.end() - 1);
  for (size_t p = 0; p < graph.pairs.size(); ++p) {
    if (!Active(graph, options, p)) continue;
    const auto [a, b] = oriented(p);
    succ->adj[fill_s[a]++] = b;
    pred->adj[fill_p[b]++] = a;
  }
}

/// Longest path from the sources (Kahn), then, in reverse topological order, every node with
/// successors moved to the layer just before its earliest successor (as late as possible):
/// a source, an allocation or a side branch sits next to its first consumer instead of in
/// layer 0. Sinks keep their longest-path layer. Nodes without any pair stay on layer 0.
/// O(V + E).
void AssignLayers(const Csr& succ, const Csr& pred, std::vector<uint32_t>* layer) {
  const uint32_t n = static_cast<uint32_t>(pred.off.size() - 1);
  layer->assign(n, 0);
  std::vector<uint32_t> indeg(n);
  std::vector<uint32_t> queue;
  queue.reserve(n);
  for (uint32_t v = 0; v < n; ++v) {
    indeg[v] = pred.Degree(v);
    if (indeg[v] == 0) queue.push_back(v);
  }
  for (size_t head = 0; head < queue.size(); ++head) {
    const uint32_t u = queue[head];
    for (uint32_t e = succ.Begin(u); e < succ.End(u); ++e) {
      const uint32_t v = succ.adj[e];
      (*layer)[v] = std::max((*layer)[v], (*layer)[u] + 1);
      if (--indeg[v] == 0) queue.push_back(v);
    }
  }
  // Successors are final when a node's turn comes. A node only moves later (its successors
  // are at least one layer after its longest-path layer), so no pair is broken, and no layer
  // below a sink empties: the longest chain into a sink keeps its layers.
  for (size_t k = queue.size(); k-- > 0;) {
    const uint32_t v = queue[k];
    if (succ.Degree(v) == 0) continue;
    uint32_t earliest = UINT32_MAX;
    for (uint32_t e = succ.Begin(v); e < succ.End(v); ++e) {
      earliest = std::min(earliest, (*layer)[succ.adj[e]]);
    }
    (*layer)[v] = earliest - 1;
  }
}

/// The nodes of each layer in their current order: layer l is nodes[start[l] .. start[l+1]).
struct Layers {
  std::vector<uint32_t> start;
  std::vector<uint32_t> nodes;
  uint32_t Count() const { return static_cast<uint32_t>(start.size() - 1); }
};

/// Buckets nodes by layer; within a layer, nodes with a pair by index, then the isolated ones
/// by index (so they stay together at the end). O(V).
Layers InitialOrder(const std::vector<uint32_t>& layer, uint32_t num_layers, const Csr& succ,
                    const Csr& pred) {
  const uint32_t n = static_cast<uint32_t>(layer.size());
  Layers layers;
  layers.start.assign(num_layers + 1, 0);
  for (uint32_t v = 0; v < n; ++v) ++layers.start[layer[v] + 1];
  for (uint32_t l = 0; l < num_layers; ++l) layers.start[l + 1] += layers.start[l];
  layers.nodes.resize(n);
  std::vector<uint32_t> fill(layers.start.begin(), layers.start.end() - 1);
  for (int isolated = 0; isolated < 2; ++isolated) {
    for (uint32_t v = 0; v < n; ++v) {
      const bool lone = succ.Degree(v) == 0 && pred.Degree(v) == 0;
      if (lone == (isolated == 1)) layers.nodes[fill[layer[v]]++] = v;
    }
  }
  return layers;
}

/// Mean of pos[] over the neighbours of v in `csr`; false if v has none there.
bool MeanOver(const Csr& csr, uint32_t v, const std::vector<double>& pos, double* mean) {
  const uint32_t b = csr.Begin(v), e = csr.End(v);
  if (b == e) return false;
  double sum = 0;
  for (uint32_t i = b; i < e; ++i) sum += pos[csr.adj[i]];
  *mean = sum / static_cast<double>(e - b);
  return true;
}

/// Reorders one layer by the barycentre of each node's neighbours in `primary` (or, if it has
/// none there, in `secondary`) and updates `pos` for it. Nodes with no neighbour at all keep
/// their slot. Ties keep the previous order. O(degrees + k log k).
void SortLayer(uint32_t* nodes, uint32_t k, const Csr& primary, const Csr& secondary,
               std::vector<double>* pos, std::vector<std::pair<double, uint32_t>>* keyed,
               std::vector<uint32_t>* scratch) {
  if (k == 1) {
    (*pos)[nodes[0]] = 0.5;
    return;
  }
  keyed->clear();
  scratch->assign(nodes, nodes + k);
  std::vector<uint8_t> fixed_slot;  // only allocated if some node is fixed
  for (uint32_t i = 0; i < k; ++i) {
    const uint32_t v = nodes[i];
    double key = 0;
    if (MeanOver(primary, v, *pos, &key) || MeanOver(secondary, v, *pos, &key)) {
      keyed->emplace_back(key, i);
    } else {
      if (fixed_slot.empty()) fixed_slot.assign(k, 0);
      fixed_slot[i] = 1;
    }
  }
  std::sort(keyed->begin(), keyed->end());  // (barycentre, previous slot): a strict order
  size_t next = 0;
  for (uint32_t i = 0; i < k; ++i) {
    if (!fixed_slot.empty() && fixed_slot[i]) continue;  // keeps (*scratch)[i]
    nodes[i] = (*scratch)[(*keyed)[next++].second];
  }
  for (uint32_t i = 0; i < k; ++i) {
    if (!fixed_slot.empty() && fixed_slot[i]) nodes[i] = (*scratch)[i];
    (*pos)[nodes[i]] = (i + 0.5) / k;
  }
}

/// Barycentre sweeps: down (by predecessors) then up (by successors), `sweeps` times. A
/// node's position is its relative place in its layer, (slot + 0.5) / layer size, so that
/// neighbours on layers of different sizes (long pairs, pulled sources) weigh alike.
void SweepOrders(const Csr& succ, const Csr& pred, int sweeps, Layers* layers) {
  std::vector<double> pos(layers->nodes.size());
  for (uint32_t l = 0; l < layers->Count(); ++l) {
    const uint32_t b = layers->start[l], k = layers->start[l + 1] - b;
    for (uint32_t i = 0; i < k; ++i) pos[layers->nodes[b + i]] = (i + 0.5) / k;
  }
  std::vector<std::pair<double, uint32_t>> keyed;
  std::vector<uint32_t> scratch;
  const uint32_t count = layers->Count();
  auto sort_layer = [&](uint32_t l, const Csr& primary, const Csr& secondary) {
    const uint32_t b = layers->start[l];
    SortLayer(layers->nodes.data() + b, layers->start[l + 1] - b, primary, secondary, &pos,
              &keyed, &scratch);
  };
  for (int s = 0; s < sweeps; ++s) {
    for (uint32_t l = 1; l < count; ++l) sort_layer(l, pred, succ);
    for (uint32_t l = count - 1; l-- > 0;) sort_layer(l, succ, pred);
  }
}

/// Places k nodes of one layer, in order, as close as possible (least squares) to `want`
/// with consecutive ones at least `gap` apart: isotonic regression of want[i] - i*gap by
/// pooling adjacent violators. O(k).
void PlaceLayer(const double* want, uint32_t k, double gap, double* y,
                std::vector<std::pair<double, uint32_t>>* blocks) {
  if (k == 1) {
    y[0] = want[0];
    return;
  }
  blocks->clear();  // (sum, count) of pooled blocks
  for (uint32_t i = 0; i < k; ++i) {
    blocks->emplace_back(want[i] - i * gap, 1);
    while (blocks->size() > 1) {
      auto& top = blocks->back();
      auto& below = (*blocks)[blocks->size() - 2];
      if (below.first * top.second <= top.first * below.second) break;  // means in order
      below.first += top.first;
      below.second += top.second;
      blocks->pop_back();
    }
  }
  uint32_t i = 0;
  for (const auto& [sum, cnt] : *blocks) {
    const double mean = sum / cnt;
    for (uint32_t j = 0; j < cnt; ++j, ++i) y[i] = mean + i * gap;
  }
}

/// y per node: packed by order, then `passes` relaxation passes (down then up) moving every
/// node towards the mean y of all its neighbours, finally shifted so the smallest is gap/2.
std::vector<double> PlaceNodes(const Csr& succ, const Csr& pred, const Layers& layers,
                               double gap, int passes) {
  std::vector<double> y(layers.nodes.size());
  for (uint32_t l = 0; l < layers.Count(); ++l) {
    for (uint32_t i = layers.start[l]; i < layers.start[l + 1]; ++i) {
      y[layers.nodes[i]] = (i - layers.start[l]) * gap;
    }
  }
  std::vector<double> want, placed;
  std::vector<std::pair<double, uint32_t>> blocks;
  auto relax = [&](uint32_t l) {
    const uint32_t b = layers.start[l], k = layers.start[l + 1] - b;
    want.resize(k);
    placed.resize(k);
    for (uint32_t i = 0; i < k; ++i) {
      const uint32_t v = layers.nodes[b + i];
      const uint32_t deg = succ.Degree(v) + pred.Degree(v);
      if (deg == 0) {
        want[i] = y[v];
        continue;
      }
      double sum = 0;
      for (uint32_t e = succ.Begin(v); e < succ.End(v); ++e) sum += y[succ.adj[e]];
      for (uint32_t e = pred.Begin(v); e < pred.End(v); ++e) sum += y[pred.adj[e]];
      want[i] = sum / deg;
    }
    PlaceLayer(want.data(), k, gap, placed.data(), &blocks);
    for (uint32_t i = 0; i < k; ++i) y[layers.nodes[b + i]] = placed[i];
  };
  const uint32_t count = layers.Count();
  for (int s = 0; s < passes; ++s) {
    for (uint32_t l = 0; l < count; ++l) relax(l);
    for (uint32_t l = count; l-- > 0;) relax(l);
  }
  double lowest = y.empty() ? 0 : *std::min_element(y.begin(), y.end());
  for (double& v : y) v += gap / 2 - lowest;
  return y;
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

  std::vector<uint8_t> reversed;
  BreakCycles(graph, options, &reversed);
  for (size_t p = 0; p < reversed.size(); ++p) {
    if (reversed[p]) out.reversed_pairs.push_back(static_cast<uint32_t>(p));
  }
  Csr succ, pred;
  BuildDag(graph, options, reversed, &succ, &pred);
  reversed = {};
  AssignLayers(succ, pred, &out.layer);
  out.num_layers = *std::max_element(out.layer.begin(), out.layer.end()) + 1;
  Layers layers = InitialOrder(out.layer, out.num_layers, succ, pred);
  SweepOrders(succ, pred, std::max(options.sweeps, 0), &layers);
  const std::vector<double> y = PlaceNodes(succ, pred, layers, options.node_gap,
                                           std::max(options.coordinate_passes, 0));

  const double layer_gap = options.layer_gap;
  double max_y = 0;
  for (uint32_t l = 0; l < out.num_layers; ++l) {
    const uint32_t b = layers.start[l], k = layers.start[l + 1] - b;
    out.max_layer_size = std::max(out.max_layer_size, k);
    const float x = static_cast<float>(l * layer_gap + layer_gap / 2);
    for (uint32_t i = 0; i < k; ++i) {
      const uint32_t v = layers.nodes[b + i];
      out.order[v] = i;
      out.x[v] = x;
      out.y[v] = static_cast<float>(y[v]);
      max_y = std::max(max_y, y[v]);
    }
  }
  out.width = static_cast<float>(out.num_layers * layer_gap);
  out.height = static_cast<float>(max_y + options.node_gap / 2.0);
  return out;
}

}  // namespace depgraph
