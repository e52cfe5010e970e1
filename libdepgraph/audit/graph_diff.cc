#include "depgraph/audit/graph_diff.h"
#include "depgraph/support/cycle_text.h"

#include <algorithm>
#include <bit>

#include "closure_compare.h"
#include "depgraph/graph/reachability.h"
#include "depgraph/internal/gallop_search.h"
#include "depgraph/internal/side_by_side.h"
#include "depgraph/support/thread_count.h"

namespace depgraph {

namespace {

constexpr uint32_t kNone = UINT32_MAX;

// A task or allocation node of one graph.
struct Item {
  TaskId id = 0;
  uint32_t node = kNone;  // kNone for a task that is not a node (an isolated dummy)
  bool alloc = false;     // an allocation node (not in tasks[])
};

// tasks[] in submit order, then allocation nodes by ascending id. O(T + V), plus O(log V) for
// each task that is not its node's (an isolated dummy, or an earlier task of a repeated id).
void CollectItems(const DepGraph& graph, std::vector<Item>* tasks, std::vector<Item>* allocs) {
  const std::vector<uint32_t> node_of_task = NodesOfTasks(graph);
  tasks->reserve(graph.tasks.size());
  for (size_t t = 0; t < graph.tasks.size(); ++t) {
    tasks->push_back({graph.tasks[t].id, node_of_task[t], false});
  }
  for (uint32_t n = 0; n < graph.nodes.size(); ++n) {
    if (graph.node_task[n] < 0) allocs->push_back({graph.nodes[n], n, true});
  }
}

// The partner of every item: index into the other graph's item list or kNone.
struct Matching {
  std::vector<Item> a, b;           // all items of each graph
  std::vector<uint32_t> a_to_b;     // per item of a
  std::vector<uint32_t> b_to_a;
  std::vector<uint32_t> node_a;     // per node of A: its item
  std::vector<uint32_t> node_b;
};

void Match(const DepGraph& ga, const DepGraph& gb, bool by_order, Matching* m) {
  std::vector<Item> tasks_a, allocs_a, tasks_b, allocs_b;
  CollectItems(ga, &tasks_a, &allocs_a);
  CollectItems(gb, &tasks_b, &allocs_b);
  m->a = tasks_a;
  m->a.insert(m->a.end(), allocs_a.begin(), allocs_a.end());
  m->b = tasks_b;
  m->b.insert(m->b.end(), allocs_b.begin(), allocs_b.end());
  m->a_to_b.assign(m->a.size(), kNone);
  m->b_to_a.assign(m->b.size(), kNone);
  if (by_order) {
    auto pair_up = [&](size_t a_first, size_t a_count, size_t b_first, size_t b_count) {
      for (size_t k = 0; k < std::min(a_count, b_count); ++k) {
        m->a_to_b[a_first + k] = static_cast<uint32_t>(b_first + k);
        m->b_to_a[b_first + k] = static_cast<uint32_t>(a_first + k);
      }
    };
    pair_up(0, tasks_a.size(), 0, tasks_b.size());
    pair_up(tasks_a.size(), allocs_a.size(), tasks_b.size(), allocs_b.size());
  } else {
    std::vector<std::pair<TaskId, uint32_t>> ids_b;
    for (uint32_t i = 0; i < m->b.size(); ++i) ids_b.push_back({m->b[i].id, i});
    std::sort(ids_b.begin(), ids_b.end());
    // A's items come in about ascending id (submit order): each search starts at the last.
    size_t hint = 0;
    for (uint32_t i = 0; i < m->a.size(); ++i) {
      const TaskId id = m->a[i].id;
      const size_t at =
          GallopLowerBound(ids_b.size(), &hint, [&](size_t k) { return ids_b[k].first < id; });
      if (at < ids_b.size() && ids_b[at].first == id && m->b_to_a[ids_b[at].second] == kNone) {
        m->a_to_b[i] = ids_b[at].second;
        m->b_to_a[ids_b[at].second] = i;
      }
    }
  }
  m->node_a.assign(ga.nodes.size(), kNone);
  for (uint32_t i = 0; i < m->a.size(); ++i) {
    if (m->a[i].node != kNone) m->node_a[m->a[i].node] = i;
  }
  m->node_b.assign(gb.nodes.size(), kNone);
  for (uint32_t i = 0; i < m->b.size(); ++i) {
    if (m->b[i].node != kNone) m->node_b[m->b[i].node] = i;
  }
}

bool BuildIndex(const DepGraph& graph, const std::string& name, ReachabilityIndex* index,
                std::string* err) {
  std::vector<uint32_t> cycle;
  if (index->Build(graph, &cycle)) return true;
  const IdDisplay rings = graph.Display();
  *err = CycleMessage(name + ": dependency graph has a cycle", cycle.size(),
                      [&](size_t i) { return FormatTaskId(graph.nodes[cycle[i]], rings); });
  return false;
}

// Edges of `from` against `to`: only-in lists and orderings `to` does not imply.
void CompareEdges(const DepGraph& from, const DepGraph& to, ReachabilityIndex& to_reach,
                  const std::vector<Item>& from_items, const std::vector<Item>& to_items,
                  const std::vector<uint32_t>& from_node_item,
                  const std::vector<uint32_t>& partner, bool from_is_a,
                  std::vector<DiffPair>* only, uint64_t* unmatched,
                  std::vector<DiffPair>* not_implied) {
  // `from`'s pairs come by predecessor, then successor; matched by id or submit order, their
  // partners in `to` mostly do too, so each search starts where the last one ended.
  size_t hint = 0;
  auto has_pair = [&](uint32_t pred, uint32_t succ) {
    const size_t at = GallopLowerBound(to.pairs.size(), &hint, [&](size_t k) {
      const Pair& p = to.pairs[k];
      return p.pred != pred ? p.pred < pred : p.succ < succ;
    });
    return at < to.pairs.size() && to.pairs[at].pred == pred && to.pairs[at].succ == succ;
  };
  for (const Pair& pair : from.pairs) {
    const uint32_t ip = from_node_item[pair.pred], is = from_node_item[pair.succ];
    // Allocation nodes and tasks are all items, so every node has one.
    const uint32_t jp = partner[ip], js = partner[is];
    if (jp == kNone || js == kNone) {
      ++*unmatched;
      continue;
    }
    DiffPair d;
    const TaskId fp = from_items[ip].id, fs = from_items[is].id;
    const TaskId tp = to_items[jp].id, ts = to_items[js].id;
    d = from_is_a ? DiffPair{fp, fs, tp, ts, from_items[ip].alloc}
                  : DiffPair{tp, ts, fp, fs, to_items[jp].alloc};
    const uint32_t np = to_items[jp].node, ns = to_items[js].node;
    const bool has_edge = np != kNone && ns != kNone && has_pair(np, ns);
    if (has_edge) continue;
    only->push_back(d);
    if (np == kNone || ns == kNone || !to_reach.Reaches(np, ns)) not_implied->push_back(d);
  }
}

}  // namespace

bool DiffGraphs(const DepGraph& a, const DepGraph& b, const DiffOptions& options,
                const std::string& name_a, const std::string& name_b, GraphDiff* diff,
                std::string* err) {
  *diff = GraphDiff{};
  // A's and B's indices, and then the edge comparisons each way (each querying the other
  // graph's index), are independent: with two threads or more they run side by side.
  const unsigned threads = ResolveThreadCount(options.threads);
  ReachabilityIndex reach_a, reach_b;
  bool ok_a = false, ok_b = false;
  std::string err_b;
  RunSideBySide(
      threads, [&] { ok_a = BuildIndex(a, name_a, &reach_a, err); },
      [&] { ok_b = BuildIndex(b, name_b, &reach_b, &err_b); });
  if (!ok_a) return false;
  if (!ok_b) {
    *err = std::move(err_b);
    return false;
  }
  Matching m;
  Match(a, b, options.by_order, &m);
  diff->tasks_a = m.a.size();
  diff->tasks_b = m.b.size();
  for (uint32_t i = 0; i < m.a.size(); ++i) {
    if (m.a_to_b[i] == kNone) {
      diff->only_in_a.push_back(m.a[i].id);
    } else {
      ++diff->matched;
    }
  }
  for (uint32_t i = 0; i < m.b.size(); ++i) {
    if (m.b_to_a[i] == kNone) diff->only_in_b.push_back(m.b[i].id);
  }
  std::sort(diff->only_in_a.begin(), diff->only_in_a.end());
  std::sort(diff->only_in_b.begin(), diff->only_in_b.end());
  diff->task_sets_differ = !diff->only_in_a.empty() || !diff->only_in_b.empty();
  diff->pairs_a = a.pairs.size();
  diff->pairs_b = b.pairs.size();
  RunSideBySide(
      threads,
      [&] {
        CompareEdges(a, b, reach_b, m.a, m.b, m.node_a, m.a_to_b, true, &diff->edges_only_in_a,
                     &diff->edges_unmatched_a, &diff->orderings_lost);
      },
      [&] {
        CompareEdges(b, a, reach_a, m.b, m.a, m.node_b, m.b_to_a, false,
                     &diff->edges_only_in_b, &diff->edges_unmatched_b, &diff->orderings_added);
      });
  if (options.closure) {
    // Matched items in ascending A id: the order the closure lists use.
    std::vector<ClosureItem> items;
    for (uint32_t i = 0; i < m.a.size(); ++i) {
      if (m.a_to_b[i] == kNone) continue;
      const Item& in_b = m.b[m.a_to_b[i]];
      items.push_back({m.a[i].node, in_b.node, m.a[i].id, in_b.id, m.a[i].alloc});
    }
    std::sort(items.begin(), items.end(),
              [](const ClosureItem& x, const ClosureItem& y) { return x.id_a < y.id_a; });
    CompareClosures(a, reach_a, b, reach_b, items, options.max_closure_pairs, options.threads,
                    diff);
  }
  return true;
}

}  // namespace depgraph
