#include "depgraph/graph/task_groups.h"

#include <algorithm>
#include <array>
#include <map>
#include <numeric>
#include <unordered_map>
#include <utility>

namespace depgraph {

namespace {

constexpr uint32_t kNone = UINT32_MAX;

// splitmix64's finaliser: spreads a 64-bit value over all bits.
uint64_t Mix(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}
// Hash of a (relative position, signature) or a (relative pred, relative succ); the two are
// salted apart. Summed, so the order in which they are met does not matter.
uint64_t SigTerm(uint32_t rel, uint32_t sig) {
  return Mix((uint64_t{rel} << 32 | sig) ^ 0x51d3a8f2c0e4b697ull);
}
uint64_t PairTerm(uint32_t pred, uint32_t succ) { return Mix(uint64_t{pred} << 32 | succ); }

template <typename Visit>
void ForEachSucc(const DepGraph& g, uint32_t node, Visit&& visit) {
  for (auto [it, end] = boost::out_edges(node, g.graph); it != end; ++it) {
    visit(static_cast<uint32_t>(boost::target(*it, g.graph)));
  }
}
template <typename Visit>
void ForEachPred(const DepGraph& g, uint32_t node, Visit&& visit) {
  for (auto [it, end] = boost::in_edges(node, g.graph); it != end; ++it) {
    visit(static_cast<uint32_t>(boost::source(*it, g.graph)));
  }
}

// Union-find over node indices, for the weakly connected components.
uint32_t FindRoot(std::vector<uint32_t>& parent, uint32_t x) {
  while (parent[x] != x) {
    parent[x] = parent[parent[x]];
    x = parent[x];
  }
  return x;
}

// A run of `count` instances of `period` tasks from task index `begin` of a range.
struct PeriodicRun {
  uint32_t begin = 0;
  uint32_t period = 0;
  uint32_t count = 0;
  uint64_t hash = 0;              // internal hash of its instances
  bool first_connected = false;  // its first instance has a pair from the instance before it
};

// The layout of one range: its nodes in their new order and the series among them, `begin`
// relative to the range's first position.
struct Layout {
  std::vector<uint32_t> order;
  std::vector<GroupSeries> series;
};

// The whole search; one per ComputeTaskGroups call.
class Grouper {
 public:
  Grouper(const DepGraph& graph, const std::vector<TaskLabel>& labels,
          const TaskGroupOptions& options)
      : g_(graph), labels_(labels), options_(options) {
    const size_t v = graph.nodes.size();
    sig_.resize(v);
    alloc_.resize(v);
    stamp_.assign(v, 0);
    tix_.assign(v, 0);
    kstamp_.assign(v, 0);
    kpos_.assign(v, 0);
    std::map<std::array<int64_t, 4>, uint32_t> interned;
    for (uint32_t n = 0; n < v; ++n) {
      const Task* task = graph.TaskOfNode(n);
      std::array<int64_t, 4> key = {2, -1, -1, -1};  // alloc
      if (task) {
        key = {task->HasActiveKernel() ? 0 : 1, task->kernel_ids[0], task->kernel_ids[1],
               task->kernel_ids[2]};
      }
      alloc_[n] = task == nullptr;
      sig_[n] = interned.emplace(key, static_cast<uint32_t>(interned.size())).first->second;
    }
    last_.assign(interned.size(), kNone);
    occurrences_.assign(interned.size(), 0);
  }

  TaskGrouping Run(const std::vector<uint32_t>& submit);

 private:
  void LayoutRange(const std::vector<uint32_t>& nodes, uint32_t depth, uint32_t round,
                   Layout* out);
  std::vector<PeriodicRun> FindRuns(const std::vector<uint32_t>& tasks);
  void SplitRegion(const std::vector<uint32_t>& tasks, uint32_t begin, uint32_t period,
                   uint32_t count, std::vector<PeriodicRun>* runs);
  void MergeIndependentRuns(const std::vector<uint32_t>& tasks, std::vector<PeriodicRun>* runs);
  void InstanceHash(const std::vector<uint32_t>& tasks, uint32_t begin, uint32_t period,
                    uint64_t* hash, bool* connected) const;
  uint64_t InstanceKey(const std::vector<uint32_t>& nodes);
  void Stamp(const std::vector<uint32_t>& nodes);
  uint32_t KindOf(const std::vector<uint32_t>& instance, uint64_t key, uint32_t depth);
  void AppendInstance(const std::vector<uint32_t>& instance, uint32_t kind,
                      std::vector<uint32_t>* order) const;
  std::string NodeName(uint32_t node) const;
  void LabelKind(const std::vector<uint32_t>& instance, GroupKind* kind) const;

  const DepGraph& g_;
  const std::vector<TaskLabel>& labels_;
  const TaskGroupOptions& options_;
  std::vector<uint32_t> sig_;
  std::vector<uint8_t> alloc_;
  std::vector<uint32_t> last_, occurrences_;  // FindRuns' per-signature scratch, kept clear
  // Per node: the LayoutRange call that numbered it last, and its task index there.
  std::vector<uint32_t> stamp_, tix_;
  uint32_t next_stamp_ = 0;
  // Per node: the InstanceKey/Stamp call that numbered it last, and its position there.
  std::vector<uint32_t> kstamp_, kpos_;
  uint32_t next_kstamp_ = 0;
  std::vector<GroupKind> kinds_;
  std::vector<std::vector<uint32_t>> kind_order_;  // per kind: instance positions in layout order
  std::unordered_map<uint64_t, uint32_t> kind_by_key_;
};

void Grouper::Stamp(const std::vector<uint32_t>& nodes) {
  const uint32_t st = ++next_kstamp_;
  for (uint32_t i = 0; i < nodes.size(); ++i) {
    kstamp_[nodes[i]] = st;
    kpos_[nodes[i]] = i;
  }
}

uint64_t Grouper::InstanceKey(const std::vector<uint32_t>& nodes) {
  Stamp(nodes);
  const uint32_t st = next_kstamp_;
  uint64_t h = Mix(nodes.size());
  for (uint32_t i = 0; i < nodes.size(); ++i) {
    h += SigTerm(i, sig_[nodes[i]]);
    ForEachSucc(g_, nodes[i], [&](uint32_t u) {
      if (kstamp_[u] == st) h += PairTerm(i, kpos_[u]);
    });
  }
  return h;
}

void Grouper::InstanceHash(const std::vector<uint32_t>& tasks, uint32_t begin, uint32_t period,
                           uint64_t* hash, bool* connected) const {
  const uint32_t st = next_stamp_;
  uint64_t h = 0;
  bool conn = false;
  for (uint32_t i = begin; i < begin + period; ++i) {
    const uint32_t n = tasks[i];
    ForEachSucc(g_, n, [&](uint32_t u) {
      if (stamp_[u] == st && !alloc_[u] && tix_[u] >= begin && tix_[u] < begin + period) {
        h += PairTerm(i - begin, tix_[u] - begin);
      }
    });
    if (begin >= period) {
      ForEachPred(g_, n, [&](uint32_t u) {
        if (stamp_[u] == st && !alloc_[u] && tix_[u] >= begin - period && tix_[u] < begin) {
          conn = true;
        }
      });
    }
  }
  *hash = h;
  *connected = conn;
}

// Cuts the periodic region of `count` instances from `begin` into runs of instances with the
// same internal pairs and the same "connected to the previous instance".
void Grouper::SplitRegion(const std::vector<uint32_t>& tasks, uint32_t begin, uint32_t period,
                          uint32_t count, std::vector<PeriodicRun>* runs) {
  PeriodicRun run;
  uint64_t prev_hash = 0;
  bool prev_conn = false;
  for (uint32_t k = 0; k < count; ++k) {
    const uint32_t start = begin + k * period;
    uint64_t h = 0;
    bool conn = false;
    InstanceHash(tasks, start, period, &h, &conn);
    const bool extend = k > 0 && h == prev_hash && (run.count == 1 || conn == prev_conn);
    if (extend) {
      ++run.count;
    } else {
      if (run.count >= 2) runs->push_back(run);
      run = PeriodicRun{start, period, 1, h, conn};
    }
    prev_hash = h;
    prev_conn = conn;
  }
  if (run.count >= 2) runs->push_back(run);
}

std::vector<PeriodicRun> Grouper::FindRuns(const std::vector<uint32_t>& tasks) {
  const uint32_t m = static_cast<uint32_t>(tasks.size());
  std::vector<uint32_t> s(m);
  for (uint32_t i = 0; i < m; ++i) s[i] = sig_[tasks[i]];
  // Proposals: per signature, its most common gap between successive occurrences.
  std::vector<uint32_t>& last = last_;  // per signature, kNone or its last index
  std::vector<uint32_t>& occurrences = occurrences_;
  std::vector<uint64_t> gaps;  // (sig << 32) | gap
  gaps.reserve(m);
  for (uint32_t i = 0; i < m; ++i) {
    ++occurrences[s[i]];
    if (last[s[i]] != kNone) gaps.push_back(uint64_t{s[i]} << 32 | (i - last[s[i]]));
    last[s[i]] = i;
  }
  for (uint32_t i = 0; i < m; ++i) last[s[i]] = kNone;  // ready for the next range
  std::sort(gaps.begin(), gaps.end());
  std::vector<std::pair<uint32_t, uint32_t>> best_gap;  // (occurrences, gap) per signature
  for (size_t i = 0; i < gaps.size();) {
    const uint32_t sig = static_cast<uint32_t>(gaps[i] >> 32);
    uint32_t best = 0, best_count = 0;
    while (i < gaps.size() && (gaps[i] >> 32) == sig) {
      size_t j = i;
      while (j < gaps.size() && gaps[j] == gaps[i]) ++j;
      const uint32_t count = static_cast<uint32_t>(j - i);
      if (count >= best_count) {  // ties: the larger gap (gaps ascend)
        best_count = count;
        best = static_cast<uint32_t>(gaps[i]);
      }
      i = j;
    }
    if (uint64_t{best} * 2 <= m) best_gap.emplace_back(occurrences[sig], best);
  }
  for (uint32_t i = 0; i < m; ++i) occurrences[s[i]] = 0;
  std::sort(best_gap.begin(), best_gap.end());  // rarest signatures first
  std::vector<uint32_t> periods;
  for (const auto& [occ, gap] : best_gap) {
    if (periods.size() >= options_.max_periods) break;
    if (std::find(periods.begin(), periods.end(), gap) == periods.end()) periods.push_back(gap);
  }
  // Per proposal, the maximal regions where s[i] == s[i + p], and the tasks they could cover.
  struct Candidate {
    uint32_t period;
    uint64_t bound;
    std::vector<std::pair<uint32_t, uint32_t>> regions;  // (begin, instances)
  };
  std::vector<Candidate> candidates;
  for (uint32_t p : periods) {
    Candidate c{p, 0, {}};
    uint32_t prev_end = 0;
    for (uint32_t i = 0; i + p < m;) {
      if (s[i] != s[i + p]) {
        ++i;
        continue;
      }
      uint32_t j = i;
      while (j + p < m && s[j] == s[j + p]) ++j;
      const uint32_t begin = std::max(i, prev_end);
      const uint32_t end = j + p;  // s[begin..end) has period p
      if (end > begin && (end - begin) / p >= 2) {
        const uint32_t count = (end - begin) / p;
        c.regions.emplace_back(begin, count);
        c.bound += uint64_t{count} * p;
        prev_end = begin + count * p;
      }
      i = j + 1;
    }
    if (c.bound > 0) candidates.push_back(std::move(c));
  }
  std::sort(candidates.begin(), candidates.end(), [](const Candidate& a, const Candidate& b) {
    return a.bound != b.bound ? a.bound > b.bound : a.period > b.period;
  });
  // Split by pairs, most promising first. The longest period covering at least
  // outer_preference of the best coverage wins (outer structure first: layers rather than the
  // runs of single tasks inside them, which the nesting finds anyway); a candidate whose bound
  // cannot reach that share of the best seen is not split.
  struct Scored {
    uint32_t period;
    uint64_t score;
    std::vector<PeriodicRun> runs;
  };
  std::vector<Scored> scored;
  uint64_t best_score = 0;
  const double share = std::clamp(options_.outer_preference, 0.0, 1.0);
  for (const Candidate& c : candidates) {
    if (static_cast<double>(c.bound) < share * static_cast<double>(best_score)) break;
    std::vector<PeriodicRun> runs;
    for (const auto& [begin, count] : c.regions) SplitRegion(tasks, begin, c.period, count, &runs);
    uint64_t score = 0;
    for (const PeriodicRun& r : runs) score += uint64_t{r.count} * r.period;
    best_score = std::max(best_score, score);
    if (score > 0) scored.push_back(Scored{c.period, score, std::move(runs)});
  }
  std::vector<PeriodicRun> best;
  uint32_t best_period = 0;
  for (Scored& s : scored) {
    if (static_cast<double>(s.score) >= share * static_cast<double>(best_score) &&
        s.period > best_period) {
      best_period = s.period;
      best = std::move(s.runs);
    }
  }
  MergeIndependentRuns(tasks, &best);
  return best;
}

// Adjacent runs of the same instances and length, each not connected to the one before it,
// become instances of one outer run (requests of blocks), when those instances are identical.
void Grouper::MergeIndependentRuns(const std::vector<uint32_t>& tasks,
                                   std::vector<PeriodicRun>* runs) {
  std::vector<PeriodicRun> merged;
  std::vector<uint32_t> piece;
  for (size_t i = 0; i < runs->size();) {
    const PeriodicRun& first = (*runs)[i];
    const uint32_t length = first.count * first.period;
    auto key_of = [&](uint32_t begin) {
      piece.assign(tasks.begin() + begin, tasks.begin() + begin + length);
      return InstanceKey(piece);
    };
    size_t j = i + 1;
    uint64_t key = 0;
    while (j < runs->size()) {
      const PeriodicRun& r = (*runs)[j];
      const PeriodicRun& prev = (*runs)[j - 1];
      if (r.begin != prev.begin + prev.count * prev.period || r.hash != first.hash ||
          r.count != first.count || r.first_connected) {
        break;
      }
      if (j == i + 1) key = key_of(first.begin);
      if (key_of(r.begin) != key) break;
      ++j;
    }
    if (j - i >= 2) {
      merged.push_back(PeriodicRun{first.begin, length, static_cast<uint32_t>(j - i), key, false});
    } else {
      merged.push_back(first);
    }
    i = j;
  }
  *runs = std::move(merged);
}

void Grouper::AppendInstance(const std::vector<uint32_t>& instance, uint32_t kind,
                             std::vector<uint32_t>* order) const {
  const std::vector<uint32_t>& local = kind_order_[kind];
  if (local.empty()) {
    order->insert(order->end(), instance.begin(), instance.end());
  } else {
    for (uint32_t i : local) order->push_back(instance[i]);
  }
}

void Grouper::LayoutRange(const std::vector<uint32_t>& nodes, uint32_t depth, uint32_t round,
                          Layout* out) {
  // Tasks in order, and each allocation with the task index it stands before.
  const uint32_t st = ++next_stamp_;
  std::vector<uint32_t> tasks;
  std::vector<std::pair<uint32_t, uint32_t>> allocs;  // (anchor task index, node)
  for (uint32_t n : nodes) {
    stamp_[n] = st;
    if (alloc_[n]) {
      allocs.emplace_back(static_cast<uint32_t>(tasks.size()), n);
    } else {
      tix_[n] = static_cast<uint32_t>(tasks.size());
      tasks.push_back(n);
    }
  }
  std::vector<PeriodicRun> runs;
  if (depth <= options_.max_depth && round < options_.max_rounds && tasks.size() >= 2) {
    runs = FindRuns(tasks);
  }
  if (runs.empty()) {
    out->order.insert(out->order.end(), nodes.begin(), nodes.end());
    return;
  }
  // Everything below uses only `tasks` and `allocs`: the recursion may renumber the nodes.
  size_t next_alloc = 0;
  auto take = [&](uint32_t from, uint32_t to, bool with_end, std::vector<uint32_t>* piece) {
    for (uint32_t i = from; i < to; ++i) {
      while (next_alloc < allocs.size() && allocs[next_alloc].first == i) {
        piece->push_back(allocs[next_alloc++].second);
      }
      piece->push_back(tasks[i]);
    }
    while (with_end && next_alloc < allocs.size()) piece->push_back(allocs[next_alloc++].second);
  };
  auto lay_gap = [&](uint32_t from, uint32_t to, bool with_end) {
    std::vector<uint32_t> gap;
    take(from, to, with_end, &gap);
    if (gap.empty()) return;
    Layout sub;
    LayoutRange(gap, depth, round + 1, &sub);
    const uint32_t base = static_cast<uint32_t>(out->order.size());
    for (GroupSeries s : sub.series) {
      s.begin += base;
      out->series.push_back(s);
    }
    out->order.insert(out->order.end(), sub.order.begin(), sub.order.end());
  };
  uint32_t cursor = 0;
  for (const PeriodicRun& run : runs) {
    lay_gap(cursor, run.begin, false);
    std::vector<std::vector<uint32_t>> instances(run.count);
    bool same = true;
    uint64_t key = 0;
    for (uint32_t k = 0; k < run.count; ++k) {
      take(run.begin + k * run.period, run.begin + (k + 1) * run.period, false, &instances[k]);
      const uint64_t h = InstanceKey(instances[k]);
      if (k == 0) key = h;
      same = same && h == key;
    }
    if (!same) {  // the allocations differ between instances: they go before the series
      for (std::vector<uint32_t>& inst : instances) {
        std::vector<uint32_t> kept;
        for (uint32_t n : inst) {
          if (alloc_[n]) {
            out->order.push_back(n);
          } else {
            kept.push_back(n);
          }
        }
        inst.swap(kept);
      }
      key = InstanceKey(instances[0]);
    }
    const uint32_t kind = KindOf(instances[0], key, depth);
    out->series.push_back(
        GroupSeries{kind, run.count, static_cast<uint32_t>(out->order.size())});
    for (const std::vector<uint32_t>& inst : instances) AppendInstance(inst, kind, &out->order);
    cursor = run.begin + run.count * run.period;
  }
  lay_gap(cursor, static_cast<uint32_t>(tasks.size()), true);
}

std::string Grouper::NodeName(uint32_t node) const {
  if (labels_.size() == g_.nodes.size() && !labels_[node].func_name.empty()) {
    return labels_[node].func_name;
  }
  const Task* task = g_.TaskOfNode(node);
  if (task == nullptr) return "alloc";
  if (!task->HasActiveKernel()) return "dummy";
  std::string name;
  std::vector<int64_t> seen;
  for (int64_t id : task->kernel_ids) {
    if (id < 0 || std::find(seen.begin(), seen.end(), id) != seen.end()) continue;
    seen.push_back(id);
    if (!name.empty()) name += " + ";
    name += "f" + std::to_string(id);
  }
  return name;
}

void Grouper::LabelKind(const std::vector<uint32_t>& instance, GroupKind* kind) const {
  std::vector<std::string> names;
  std::string first, last;
  for (uint32_t n : instance) {
    if (alloc_[n]) continue;
    ++kind->tasks;
    std::string name = NodeName(n);
    if (first.empty()) first = name;
    last = name;
    if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
  }
  kind->kernels = static_cast<uint32_t>(names.size());
  if (names.empty()) {
    kind->label = "alloc";
  } else if (names.size() <= 4) {
    for (size_t i = 0; i < names.size(); ++i) kind->label += (i ? ", " : "") + names[i];
  } else {
    kind->label = first + " \u2026 " + last + ", " + std::to_string(names.size()) + " kernels";
  }
}

uint32_t Grouper::KindOf(const std::vector<uint32_t>& instance, uint64_t key, uint32_t depth) {
  auto found = kind_by_key_.find(key);
  if (found != kind_by_key_.end()) return found->second;
  const uint32_t id = static_cast<uint32_t>(kinds_.size());
  kind_by_key_.emplace(key, id);
  GroupKind kind;
  kind.size = static_cast<uint32_t>(instance.size());
  kind.depth = depth;
  LabelKind(instance, &kind);
  kinds_.push_back(std::move(kind));
  kind_order_.emplace_back();
  if (instance.size() >= options_.min_nested_size && depth + 1 <= options_.max_depth) {
    Layout sub;
    LayoutRange(instance, depth + 1, 0, &sub);
    if (!sub.series.empty()) {
      Stamp(instance);
      std::vector<uint32_t> local;
      local.reserve(instance.size());
      for (uint32_t n : sub.order) local.push_back(kpos_[n]);
      kind_order_[id] = std::move(local);
      kinds_[id].children = std::move(sub.series);
    }
  }
  return id;
}

TaskGrouping Grouper::Run(const std::vector<uint32_t>& submit) {
  const uint32_t v = static_cast<uint32_t>(g_.nodes.size());
  // Weakly connected components, numbered in order of their first node in submit order.
  std::vector<uint32_t> parent(v);
  std::iota(parent.begin(), parent.end(), 0u);
  for (const Pair& p : g_.pairs) {
    const uint32_t a = FindRoot(parent, p.pred), b = FindRoot(parent, p.succ);
    if (a != b) parent[std::max(a, b)] = std::min(a, b);
  }
  std::vector<uint32_t> comp_of_root(v, kNone), comp(v);
  uint32_t comps = 0;
  for (uint32_t n : submit) {
    uint32_t& c = comp_of_root[FindRoot(parent, n)];
    if (c == kNone) c = comps++;
    comp[n] = c;
  }
  std::vector<uint32_t> start(comps + 1, 0), members(v);
  for (uint32_t n = 0; n < v; ++n) ++start[comp[n] + 1];
  std::partial_sum(start.begin(), start.end(), start.begin());
  {
    std::vector<uint32_t> fill(start.begin(), start.end() - 1);
    for (uint32_t n : submit) members[fill[comp[n]]++] = n;
  }
  // Components of the same shape form one class, in order of their first member.
  std::vector<std::vector<uint32_t>> classes;
  std::vector<uint64_t> class_key;
  std::unordered_map<uint64_t, uint32_t> class_by_key;
  std::vector<uint32_t> piece;
  for (uint32_t c = 0; c < comps; ++c) {
    piece.assign(members.begin() + start[c], members.begin() + start[c + 1]);
    const uint64_t key = InstanceKey(piece);
    auto [it, fresh] = class_by_key.try_emplace(key, static_cast<uint32_t>(classes.size()));
    if (fresh) {
      classes.emplace_back();
      class_key.push_back(key);
    }
    classes[it->second].push_back(c);
  }
  TaskGrouping result;
  result.order.reserve(v);
  for (size_t k = 0; k < classes.size(); ++k) {
    const std::vector<uint32_t>& cs = classes[k];
    auto members_of = [&](uint32_t c) {
      return std::vector<uint32_t>(members.begin() + start[c], members.begin() + start[c + 1]);
    };
    if (cs.size() >= 2 && options_.max_depth >= 1) {
      const uint32_t kind = KindOf(members_of(cs[0]), class_key[k], 1);
      result.series.push_back(GroupSeries{kind, static_cast<uint32_t>(cs.size()),
                                          static_cast<uint32_t>(result.order.size())});
      for (uint32_t c : cs) AppendInstance(members_of(c), kind, &result.order);
      continue;
    }
    for (uint32_t c : cs) {
      Layout sub;
      LayoutRange(members_of(c), 1, 0, &sub);
      const uint32_t base = static_cast<uint32_t>(result.order.size());
      for (GroupSeries s : sub.series) {
        s.begin += base;
        result.series.push_back(s);
      }
      result.order.insert(result.order.end(), sub.order.begin(), sub.order.end());
    }
  }
  result.kinds = std::move(kinds_);
  result.position.resize(v);
  for (uint32_t i = 0; i < v; ++i) result.position[result.order[i]] = i;
  // Instances per kind over the whole graph, and the nodes covered.
  std::vector<std::pair<uint32_t, uint64_t>> stack;  // (kind, instances of it)
  for (const GroupSeries& s : result.series) {
    result.covered += uint64_t{s.count} * result.kinds[s.kind].size;
    stack.emplace_back(s.kind, s.count);
  }
  while (!stack.empty()) {
    const auto [kind, count] = stack.back();
    stack.pop_back();
    result.kinds[kind].instances += count;
    for (const GroupSeries& c : result.kinds[kind].children) {
      stack.emplace_back(c.kind, count * c.count);
    }
  }
  return result;
}

}  // namespace

std::vector<uint32_t> SubmitOrder(const DepGraph& graph) {
  const uint32_t v = static_cast<uint32_t>(graph.nodes.size());
  // Task nodes by their tasks[] index (file order).
  std::vector<uint32_t> by_task(graph.tasks.size(), kNone);
  for (uint32_t n = 0; n < v; ++n) {
    if (graph.node_task[n] >= 0) by_task[static_cast<size_t>(graph.node_task[n])] = n;
  }
  std::vector<uint32_t> rank(v, kNone);
  uint32_t tasks = 0;
  for (uint32_t n : by_task) {
    if (n != kNone) rank[n] = tasks++;
  }
  // Allocation nodes by the rank of their earliest task successor (tasks = none: at the end).
  std::vector<uint32_t> before(tasks + 1, 0);
  std::vector<uint32_t> alloc_rank(v, kNone);
  for (uint32_t n = 0; n < v; ++n) {
    if (graph.node_task[n] >= 0) continue;
    uint32_t earliest = tasks;
    ForEachSucc(graph, n, [&](uint32_t u) {
      if (rank[u] != kNone) earliest = std::min(earliest, rank[u]);
    });
    alloc_rank[n] = earliest;
    ++before[earliest];
  }
  // Counting sort: the allocations before each task, in id order, then the task.
  std::vector<uint32_t> offset(tasks + 2, 0);
  for (uint32_t t = 0; t <= tasks; ++t) offset[t + 1] = offset[t] + before[t] + (t < tasks);
  std::vector<uint32_t> order(v);
  std::vector<uint32_t> fill(offset.begin(), offset.end() - 1);
  for (uint32_t n = 0; n < v; ++n) {
    if (alloc_rank[n] != kNone) order[fill[alloc_rank[n]]++] = n;
  }
  for (uint32_t n : by_task) {
    if (n != kNone) order[fill[rank[n]]++] = n;
  }
  return order;
}

TaskGrouping ComputeTaskGroups(const DepGraph& graph, const std::vector<TaskLabel>& labels,
                               const TaskGroupOptions& options) {
  Grouper grouper(graph, labels, options);
  return grouper.Run(SubmitOrder(graph));
}

std::vector<GroupPlace> LocateNode(const TaskGrouping& grouping, uint32_t node) {
  std::vector<GroupPlace> chain;
  if (node >= grouping.position.size()) return chain;
  const uint32_t pos = grouping.position[node];
  const std::vector<GroupSeries>* list = &grouping.series;
  uint32_t base = 0;
  while (!list->empty()) {
    const uint32_t rel = pos - base;
    auto it = std::upper_bound(list->begin(), list->end(), rel,
                               [](uint32_t r, const GroupSeries& s) { return r < s.begin; });
    if (it == list->begin()) break;
    --it;
    const uint32_t size = grouping.kinds[it->kind].size;
    if (rel >= it->begin + it->count * size) break;
    const uint32_t instance = (rel - it->begin) / size;
    chain.push_back(GroupPlace{static_cast<uint32_t>(it - list->begin()), it->kind,
                               base + it->begin, it->count, instance});
    base += it->begin + instance * size;
    list = &grouping.kinds[it->kind].children;
  }
  return chain;
}

std::vector<SeriesSection> SeriesSections(uint32_t count, uint32_t max_per_section) {
  std::vector<SeriesSection> sections;
  if (count == 0) return sections;
  max_per_section = std::max<uint32_t>(max_per_section, 1);
  const uint32_t n = (count + max_per_section - 1) / max_per_section;
  const uint32_t base = count / n, extra = count % n;
  uint32_t first = 0;
  for (uint32_t i = 0; i < n; ++i) {
    const uint32_t size = base + (i < extra);
    sections.push_back(SeriesSection{first, size});
    first += size;
  }
  return sections;
}

uint64_t SeriesNodes(const TaskGrouping& grouping, const std::vector<GroupSeries>& series) {
  uint64_t total = 0;
  for (const GroupSeries& s : series) total += uint64_t{s.count} * grouping.kinds[s.kind].size;
  return total;
}

}  // namespace depgraph
