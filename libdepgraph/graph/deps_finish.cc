// The deps.json loader's last step: nodes, the task and tensor indices, the unique pairs
// and the Boost CSR graph, built from what the parse collected.
//
// Nodes are the edge endpoints and the tasks with an active kernel. Instead of sorting the
// 2 x rows endpoint ids, each endpoint is looked up in the task index (sorted by a radix sort)
// with a galloping search from the previous hit, which is short because rows come in submit
// order; only endpoints that are not tasks (allocations) are sorted. Pairs come from a
// counting sort of the rows by predecessor node, each group sorted by successor. With
// several threads, the independent parts run side by side: the tensor sort with the task
// index, the endpoint searches over ranges of rows, the CSR build with the rows' pair ids.
// Everything is O(rows + tasks) but the searches (O(log distance) each) and the sorts of
// small groups. The pairs are counted, then written, over ranges of nodes.
#include <algorithm>
#include <array>
#include <boost/iterator/transform_iterator.hpp>
#include <functional>
#include <system_error>
#include <thread>

#include "deps_loader.h"
#include "depgraph/internal/huge_pages.h"
#include "depgraph/internal/side_by_side.h"

namespace depgraph {

namespace {

using IndexEntry = std::pair<TaskId, uint32_t>;
constexpr uint32_t kNotATask = UINT32_MAX;
// Rows plus tasks from which Finish shares its work between threads.
constexpr size_t kParallelFinishMin = size_t{1} << 16;

// Sorts by id, keeping equal ids in their order (LSD radix, one byte per pass; bytes that every
// id shares are skipped, and an already sorted index costs one pass). O(n) per byte used.
void SortById(std::vector<IndexEntry>* entries) {
  const size_t n = entries->size();
  auto less = [](const IndexEntry& a, const IndexEntry& b) { return a.first < b.first; };
  if (std::is_sorted(entries->begin(), entries->end(), less)) return;
  if (n < 1024) {
    std::stable_sort(entries->begin(), entries->end(), less);
    return;
  }
  std::vector<std::array<uint32_t, 256>> count(8);
  for (auto& digit : count) digit.fill(0);
  for (const IndexEntry& e : *entries) {
    for (int b = 0; b < 8; ++b) ++count[b][(e.first >> (8 * b)) & 0xFF];
  }
  std::vector<IndexEntry> scratch = LargeVector<IndexEntry>(n);
  for (int b = 0; b < 8; ++b) {
    std::array<uint32_t, 256>& digit = count[b];
    if (digit[((*entries)[0].first >> (8 * b)) & 0xFF] == n) continue;  // shared by all
    uint32_t sum = 0;
    for (uint32_t& c : digit) {
      const uint32_t here = c;
      c = sum;
      sum += here;
    }
    for (const IndexEntry& e : *entries) scratch[digit[(e.first >> (8 * b)) & 0xFF]++] = e;
    entries->swap(scratch);
  }
}

// Position of `id` in the graph's task index, or kNotATask. Searches outwards from *hint (the
// previous answer for the same kind of endpoint) and moves it. O(log distance).
uint32_t FindFrom(const DepGraph& graph, TaskId id, size_t* hint) {
  const size_t at = graph.TaskIndexLowerBound(id, hint);
  return at < graph.task_index.size() && graph.task_index[at].first == id
             ? static_cast<uint32_t>(at)
             : kNotATask;
}

// Calls body(begin, end, part) on `parts` consecutive ranges of [0, n), in parallel.
void RunSplit(unsigned parts, size_t n,
              const std::function<void(size_t, size_t, unsigned)>& body) {
  parts = std::max(1u, std::min<unsigned>(parts, static_cast<unsigned>(n / 4096 + 1)));
  std::vector<std::thread> helpers;
  unsigned started = 1;
  for (unsigned k = 1; k < parts; ++k, ++started) {
    try {
      helpers.emplace_back(body, n * k / parts, n * (k + 1) / parts, k);
    } catch (const std::system_error&) {
      break;
    }
  }
  // This thread takes range 0 and every range no thread could be started for.
  body(0, n / parts, 0);
  for (unsigned k = started; k < parts; ++k) body(n * k / parts, n * (k + 1) / parts, k);
  for (std::thread& helper : helpers) helper.join();
}

}  // namespace

bool DepsLoader::Finish(unsigned threads) {
  // Starting a thread costs more than these steps on small graphs.
  if (row_ends_.size() + graph_.tasks.size() < kParallelFinishMin) threads = 1;
  // Tasks: sorted by id, last entry wins on duplicate ids. Tensors: the same, alongside.
  std::vector<IndexEntry>& index = graph_.task_index;
  auto build_task_index = [&] {
    index.clear();
    ReserveLarge(&index, graph_.tasks.size());
    for (uint32_t t = 0; t < graph_.tasks.size(); ++t) index.emplace_back(graph_.tasks[t].id, t);
    SortById(&index);
    size_t kept = 0;
    for (size_t i = 0; i < index.size(); ++i) {
      if (kept > 0 && index[kept - 1].first == index[i].first) {
        index[kept - 1] = index[i];
      } else {
        index[kept++] = index[i];
      }
    }
    index.resize(kept);
  };
  auto build_tensors = [&] {
    // Sorted through (id, position) entries, which the radix sort moves instead of whole
    // tensors; equal ids keep their file order, so the last entry wins below.
    std::vector<IndexEntry> order;
    ReserveLarge(&order, raw_tensors_.size());
    for (uint32_t t = 0; t < raw_tensors_.size(); ++t) order.emplace_back(raw_tensors_[t].id, t);
    SortById(&order);
    graph_.tensors.clear();
    ReserveLarge(&graph_.tensors, order.size());
    for (const IndexEntry& entry : order) {
      const Tensor& t = raw_tensors_[entry.second];
      if (!graph_.tensors.empty() && graph_.tensors.back().id == t.id) {
        graph_.tensors.back() = t;
      } else {
        graph_.tensors.push_back(t);
      }
    }
    raw_tensors_ = std::vector<Tensor>();
    graph_.BuildTensorIndex();
  };
  RunSideBySide(threads, build_task_index, build_tensors);

  // Endpoints: tasks become nodes by being named; other ids are collected apart.
  const size_t rows = row_ends_.size();
  std::vector<Pair> ends = LargeVector<Pair>(rows);  // per row: positions in `index`, or kNotATask
  std::vector<std::vector<TaskId>> others_of(std::max(threads, 1u));
  RunSplit(threads, rows, [&](size_t begin, size_t end, unsigned part) {
    size_t pred_hint = 0, succ_hint = 0;
    std::vector<TaskId>& others = others_of[part];
    for (size_t r = begin; r < end; ++r) {
      const auto [pred, succ] = row_ends_[r];
      ends[r].pred = FindFrom(graph_, pred, &pred_hint);
      ends[r].succ = FindFrom(graph_, succ, &succ_hint);
      if (ends[r].pred == kNotATask) others.push_back(pred);
      if (ends[r].succ == kNotATask) others.push_back(succ);
    }
  });
  std::vector<uint8_t> is_node = LargeVector<uint8_t>(index.size(), 0);
  for (const Pair& e : ends) {
    if (e.pred != kNotATask) is_node[e.pred] = 1;
    if (e.succ != kNotATask) is_node[e.succ] = 1;
  }
  for (size_t p = 0; p < index.size(); ++p) {
    if (graph_.tasks[index[p].second].HasActiveKernel()) is_node[p] = 1;
  }
  std::vector<TaskId> others = std::move(others_of[0]);
  for (size_t k = 1; k < others_of.size(); ++k) {
    others.insert(others.end(), others_of[k].begin(), others_of[k].end());
  }
  others_of.clear();
  std::sort(others.begin(), others.end());
  others.erase(std::unique(others.begin(), others.end()), others.end());

  // Nodes: the two sorted sets merged; each remembers its task or -1.
  std::vector<TaskId>& nodes = graph_.nodes;
  nodes.clear();
  ReserveLarge(&nodes, index.size() + others.size());
  graph_.node_task.clear();
  ReserveLarge(&graph_.node_task, index.size() + others.size());
  std::vector<uint32_t> node_of_task = LargeVector<uint32_t>(index.size(), kNotATask);
  std::vector<uint32_t> node_of_other = LargeVector<uint32_t>(others.size());
  {
    size_t p = 0, k = 0;
    while (p < index.size() || k < others.size()) {
      while (p < index.size() && !is_node[p]) ++p;
      const bool task_next =
          p < index.size() && (k == others.size() || index[p].first < others[k]);
      if (task_next) {
        node_of_task[p] = static_cast<uint32_t>(nodes.size());
        nodes.push_back(index[p].first);
        graph_.node_task.push_back(static_cast<int32_t>(index[p].second));
        ++p;
      } else if (k < others.size()) {
        node_of_other[k] = static_cast<uint32_t>(nodes.size());
        nodes.push_back(others[k]);
        graph_.node_task.push_back(-1);
        ++k;
      }
      if (nodes.size() >= UINT32_MAX) return SemanticError(nullptr, "too many tasks");
    }
  }
  is_node = std::vector<uint8_t>();
  auto node_of = [&](uint32_t position, TaskId id) {
    if (position != kNotATask) return node_of_task[position];
    return node_of_other[std::lower_bound(others.begin(), others.end(), id) - others.begin()];
  };
  RunSplit(threads, rows, [&](size_t begin, size_t end, unsigned) {
    for (size_t r = begin; r < end; ++r) {
      ends[r].pred = node_of(ends[r].pred, row_ends_[r].first);
      ends[r].succ = node_of(ends[r].succ, row_ends_[r].second);
    }
  });
  row_ends_ = std::vector<std::pair<TaskId, TaskId>>();
  node_of_task = std::vector<uint32_t>();

  // Pairs, sorted by (pred, succ) index = numeric id order: rows bucketed by pred (counting
  // sort, stable) as (succ, row) keys, each bucket sorted; equal successors make one pair.
  std::vector<uint32_t> first_row = LargeVector<uint32_t>(nodes.size() + 1, 0);
  for (const Pair& e : ends) ++first_row[e.pred + 1];
  for (size_t u = 0; u < nodes.size(); ++u) first_row[u + 1] += first_row[u];
  std::vector<uint64_t> keys = LargeVector<uint64_t>(rows);
  {
    std::vector<uint32_t> cursor = LargeVector<uint32_t>(nodes.size());
    std::copy(first_row.begin(), first_row.end() - 1, cursor.begin());
    for (uint32_t r = 0; r < rows; ++r) {
      keys[cursor[ends[r].pred]++] = (static_cast<uint64_t>(ends[r].succ) << 32) | r;
    }
  }
  ends = std::vector<Pair>();
  // Over ranges of nodes: sort each bucket and count its distinct successors; then, with
  // every node's first pair known, write the pairs and the rows' pair ids.
  // Whether the sorted key at `it` starts a new successor of its bucket `from`.
  auto opens_pair = [](auto it, auto from) {
    return it == from || (*it >> 32) != (*(it - 1) >> 32);
  };
  std::vector<uint32_t> first_pair = LargeVector<uint32_t>(nodes.size() + 1, 0);
  RunSplit(threads, nodes.size(), [&](size_t begin, size_t end, unsigned) {
    for (size_t u = begin; u < end; ++u) {
      const auto from = keys.begin() + first_row[u], to = keys.begin() + first_row[u + 1];
      std::sort(from, to);
      uint32_t distinct = 0;
      for (auto it = from; it != to; ++it) distinct += opens_pair(it, from) ? 1 : 0;
      first_pair[u + 1] = distinct;
    }
  });
  for (size_t u = 0; u < nodes.size(); ++u) first_pair[u + 1] += first_pair[u];
  ReserveLarge(&graph_.pairs, first_pair[nodes.size()]);
  graph_.pairs.resize(first_pair[nodes.size()]);
  std::vector<uint32_t> pair_of_row = LargeVector<uint32_t>(rows);
  RunSplit(threads, nodes.size(), [&](size_t begin, size_t end, unsigned) {
    for (size_t u = begin; u < end; ++u) {
      const auto from = keys.begin() + first_row[u], to = keys.begin() + first_row[u + 1];
      uint32_t next = first_pair[u];
      for (auto it = from; it != to; ++it) {
        if (opens_pair(it, from)) {
          graph_.pairs[next++] = Pair{static_cast<uint32_t>(u), static_cast<uint32_t>(*it >> 32)};
        }
        pair_of_row[static_cast<uint32_t>(*it)] = next - 1;
      }
    }
  });
  keys = std::vector<uint64_t>();

  // The CSR and the rows' pair ids are independent.
  auto build_csr = [&] {
    auto as_std_pair = [](const Pair& p) { return std::make_pair(p.pred, p.succ); };
    graph_.graph = PairGraph(boost::edges_are_unsorted_multi_pass,
                             boost::make_transform_iterator(graph_.pairs.begin(), as_std_pair),
                             boost::make_transform_iterator(graph_.pairs.end(), as_std_pair),
                             nodes.size());
  };
  auto set_row_pairs = [&] {
    for (size_t r = 0; r < rows; ++r) graph_.rows[r].pair = pair_of_row[r];
  };
  RunSideBySide(threads, build_csr, set_row_pairs);
  return true;
}

}  // namespace depgraph
