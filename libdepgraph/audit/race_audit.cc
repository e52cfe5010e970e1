#include "depgraph/audit/race_audit.h"

#include <algorithm>
#include <iterator>
#include <map>
#include <unordered_set>

#include "depgraph/internal/flat_id_map.h"

namespace depgraph {

const char* RaceKindName(RaceKind kind) {
  switch (kind) {
    case RaceKind::kRaw: return "RAW";
    case RaceKind::kWaw: return "WAW";
    case RaceKind::kWar: return "WAR";
  }
  return "?";
}

const char* RaceCauseName(RaceCause cause) {
  switch (cause) {
    case RaceCause::kWarUntracked: return "war_untracked";
    case RaceCause::kNoDepRead: return "no_dep_read";
    case RaceCause::kNoLookupWrite: return "no_lookup_write";
    case RaceCause::kNoInferredEdges: return "no_inferred_edges";
    case RaceCause::kElementUnits: return "element_units";
    case RaceCause::kUnpublished: return "unpublished_write";
  }
  return "?";
}

namespace {

constexpr uint32_t kNone = UINT32_MAX;

// Disjoint half-open segments over int64 addresses, each with a value; gaps have none.
template <typename V>
class SegmentMap {
 public:
  struct Seg {
    int64_t end;
    V value;
  };
  using Map = std::map<int64_t, Seg>;

  // Calls f(begin, end, value) for every segment meeting [b, e), in address order.
  template <typename F>
  void Visit(int64_t b, int64_t e, F&& f) const {
    auto it = map_.upper_bound(b);
    if (it != map_.begin() && std::prev(it)->second.end > b) --it;
    for (; it != map_.end() && it->first < e; ++it) f(it->first, it->second.end, it->second.value);
  }

  // Removes every byte of [b, e); returns the first segment at or after e. One descent.
  typename Map::iterator Erase(int64_t b, int64_t e) {
    const auto first = SplitAt(b);
    return map_.erase(first, SplitForward(first, e));
  }

  // Replaces [b, e) by one segment; returns it.
  typename Map::iterator Assign(int64_t b, int64_t e, const V& value) {
    return map_.emplace_hint(Erase(b, e), b, Seg{e, value});
  }

  // Sets every piece of [b, e), segments and gaps alike, to f(old value or nullptr).
  template <typename F>
  void Update(int64_t b, int64_t e, F&& f) {
    auto it = SplitAt(b);
    SplitForward(it, e);
    int64_t cur = b;
    while (cur < e) {
      const int64_t next = (it == map_.end() || it->first >= e) ? e : it->first;
      if (next > cur) {  // a gap
        map_.emplace_hint(it, cur, Seg{next, f(nullptr)});
        cur = next;
        continue;
      }
      it->second.value = f(&it->second.value);
      cur = it->second.end;
      ++it;
    }
  }

  // Merges adjacent segments with equal values from the one before b to the one at e.
  template <typename Eq>
  void Coalesce(int64_t b, int64_t e, Eq&& eq) {
    auto it = map_.lower_bound(b);
    if (it != map_.begin()) --it;
    while (it != map_.end() && it->first <= e) {
      auto next = std::next(it);
      if (next != map_.end() && it->second.end == next->first &&
          eq(it->second.value, next->second.value)) {
        it->second.end = next->second.end;
        map_.erase(next);
      } else {
        it = next;
      }
    }
  }

  Map& raw() { return map_; }

 private:
  // Cuts the segment holding x (if any) at x; returns the first segment starting at or after
  // x. O(log S).
  typename Map::iterator SplitAt(int64_t x) {
    auto it = map_.upper_bound(x);
    if (it == map_.begin()) return it;
    const auto before = std::prev(it);
    if (before->first == x) return before;
    if (x < before->second.end) return Cut(before, x);
    return it;
  }

  // SplitAt(x) for an x at or after where `from` starts, with every segment before `from`
  // ending at or before x: walks forward instead of descending. O(segments passed).
  typename Map::iterator SplitForward(typename Map::iterator from, int64_t x) {
    while (from != map_.end() && from->second.end <= x) ++from;
    if (from != map_.end() && from->first < x) return Cut(from, x);
    return from;
  }

  // Splits segment `it` (which holds x, past its start) at x; returns the right part.
  typename Map::iterator Cut(typename Map::iterator it, int64_t x) {
    Seg right{it->second.end, it->second.value};
    it->second.end = x;
    return map_.emplace_hint(std::next(it), x, right);
  }

  Map map_;
};

using FlatMap = FlatIdMap;  // its kNone is this file's kNone (UINT32_MAX)

// Reader entries: task index, bit 31 set when the read's bytes are a bounding range.
constexpr uint32_t kApproxBit = 1u << 31;
uint32_t EntryTask(uint32_t entry) { return entry & ~kApproxBit; }

// ReaderLists::Add's results for the entry being added: list -> new list. Every key of one
// entry (one task's read) is new to the next entry, so the table is emptied per entry in O(1)
// by a generation stamp and stays as small as one read's segments, cache-resident.
class AddMemo {
 public:
  AddMemo() { slots_.resize(64); }
  // Forgets every result unless they were for `entry`.
  void Use(uint32_t entry) {
    if (entry == entry_) return;
    entry_ = entry;
    size_ = 0;
    if (++stamp_ == 0) {  // wrapped: no old stamp may match
      for (Slot& slot : slots_) slot.stamp = 0;
      stamp_ = 1;
    }
  }
  // The memoized result for `list`, or kNone.
  uint32_t Find(uint32_t list) const {
    for (size_t i = SlotOf(list);; i = (i + 1) & (slots_.size() - 1)) {
      const Slot& slot = slots_[i];
      if (slot.stamp != stamp_) return kNone;
      if (slot.list == list) return slot.result;
    }
  }
  void Insert(uint32_t list, uint32_t result) {
    if (2 * (size_ + 1) > slots_.size()) Grow();
    size_t i = SlotOf(list);
    while (slots_[i].stamp == stamp_ && slots_[i].list != list) i = (i + 1) & (slots_.size() - 1);
    if (slots_[i].stamp != stamp_) ++size_;
    slots_[i] = Slot{stamp_, list, result};
  }

 private:
  struct Slot {
    uint32_t stamp = 0;
    uint32_t list = 0;
    uint32_t result = 0;
  };
  size_t SlotOf(uint32_t list) const {
    return static_cast<size_t>((uint64_t{list} * 0x9E3779B97F4A7C15ull) >> 32) & (slots_.size() - 1);
  }
  void Grow() {
    std::vector<Slot> old(slots_.size() * 2);
    old.swap(slots_);
    size_ = 0;
    for (const Slot& slot : old) {
      if (slot.stamp == stamp_) Insert(slot.list, slot.result);
    }
  }
  std::vector<Slot> slots_;
  uint32_t stamp_ = 1;
  uint32_t entry_ = 0;
  size_t size_ = 0;
};

// Immutable reader lists as hash-consed cons cells: equal lists built the same way get the
// same id, so adjacent byte segments with equal reader sets merge. List 0 is empty.
class ReaderLists {
 public:
  ReaderLists() { cells_.push_back({0, 0}); }
  uint32_t Head(uint32_t list) const { return cells_[list].entry; }
  uint32_t Next(uint32_t list) const { return cells_[list].next; }
  size_t cells() const { return cells_.size(); }

  uint32_t Cons(uint32_t entry, uint32_t next) {
    const uint64_t key = (uint64_t{entry} << 32) | next;
    uint32_t id = intern_.Find(key);
    if (id != kNone) return id;
    id = static_cast<uint32_t>(cells_.size());
    cells_.push_back({entry, next});
    intern_.Insert(key, id);
    return id;
  }

  // `list` plus `entry`, minus the entries among the first `window` that `supersedes`
  // (entry task reached from theirs) or that belong to the same task.
  template <typename Supersedes>
  uint32_t Add(uint32_t list, uint32_t entry, int window, Supersedes&& supersedes) {
    memo_.Use(entry);
    const uint32_t memo = memo_.Find(list);
    if (memo != kNone) return memo;
    std::vector<uint32_t>& kept = scratch_;
    kept.clear();
    uint32_t merged = entry;
    uint32_t cur = list;
    for (int i = 0; i < window && cur != 0; ++i, cur = Next(cur)) {
      const uint32_t old = Head(cur);
      if (EntryTask(old) == EntryTask(entry)) {
        merged &= old | ~kApproxBit;  // exact if either read was exact
      } else if (!supersedes(old, entry)) {
        kept.push_back(old);
      }
    }
    uint32_t result = cur;  // the shared tail beyond the window
    for (size_t i = kept.size(); i-- > 0;) result = Cons(kept[i], result);
    result = Cons(merged, result);
    memo_.Insert(list, result);
    return result;
  }

  // Drops every cell no live list uses; `live` holds list ids and is rewritten in place.
  void Compact(std::vector<uint32_t*>& live) {
    std::vector<Cell> cells = {{0, 0}};
    std::vector<uint32_t> remap(cells_.size(), kNone);
    remap[0] = 0;
    std::vector<uint32_t> chain;
    for (uint32_t* id : live) {
      chain.clear();
      uint32_t cur = *id;
      while (remap[cur] == kNone) {
        chain.push_back(cur);
        cur = cells_[cur].next;
      }
      for (size_t i = chain.size(); i-- > 0;) {
        const uint32_t old = chain[i];
        remap[old] = static_cast<uint32_t>(cells.size());
        cells.push_back({cells_[old].entry, remap[cells_[old].next]});
      }
      *id = remap[*id];
    }
    cells_.swap(cells);
    intern_.Reset();
    for (uint32_t i = 1; i < cells_.size(); ++i) {
      intern_.Insert((uint64_t{cells_[i].entry} << 32) | cells_[i].next, i);
    }
    memo_ = AddMemo();
  }

 private:
  struct Cell {
    uint32_t entry;
    uint32_t next;
  };
  std::vector<Cell> cells_;
  FlatMap intern_;
  AddMemo memo_;
  std::vector<uint32_t> scratch_;
};

struct FineWriter {
  uint32_t task = kNone;
  bool approximate = false;
  bool operator==(const FineWriter&) const = default;
};

class Sweep {
 public:
  Sweep(const DepGraph& graph, const AccessModel& model, ReachabilityIndex& reach,
        const RaceOptions& options, RaceReport* report)
      : graph_(graph), model_(model), reach_(reach), options_(options), report_(*report) {}

  void Run() {
    const size_t tasks = graph_.tasks.size();
    task_node_.assign(tasks, kNone);
    for (uint32_t t = 0; t < tasks; ++t) {
      const int64_t node = graph_.FindNode(graph_.tasks[t].id);
      if (node >= 0) task_node_[t] = static_cast<uint32_t>(node);
    }
    CountBackwardEdges();
    inferred_in_.assign(graph_.nodes.size(), 0);
    for (const EdgeRow& row : graph_.rows) {
      if (row.source == EdgeSource::kCreator || row.source == EdgeSource::kTensormap) {
        inferred_in_[graph_.pairs[row.pair].succ] = 1;
      }
    }
    for (const Access& access : model_.accesses) {
      if (!access.writes) continue;
      const auto bytes = model_.Bytes(access, &scratch_);
      written_.insert(written_.end(), bytes.begin(), bytes.end());
    }
    NormalizeIntervals(&written_);
    ordered_stamp_.assign(tasks, 0);
    ordered_value_.assign(tasks, 0);
    candidate_stamp_.assign(tasks, 0);
    candidate_kinds_.assign(tasks, 0);
    ScheduleAllocationResets();
    size_t next_reset = 0;
    for (uint32_t t = 0; t < tasks; ++t) {
      for (; next_reset < resets_.size() && resets_[next_reset].at == t; ++next_reset) {
        Reset(resets_[next_reset].bytes);
        ++report_.allocation_resets;
      }
      ProcessTask(t);
    }
  }

 private:
  // Whether earlier task p and task t are ordered either way; cached per t.
  bool Ordered(uint32_t p, uint32_t t) {
    if (p == t) return true;
    if (ordered_stamp_[p] == t + 1) return ordered_value_[p] != 0;
    const uint32_t np = task_node_[p], nt = task_node_[t];
    const bool ordered =
        np != kNone && nt != kNone && (reach_.Reaches(np, nt) || reach_.Reaches(nt, np));
    ordered_stamp_[p] = t + 1;
    ordered_value_[p] = ordered;
    return ordered;
  }

  void Flag(uint32_t partner, RaceKind kind, uint32_t t) {
    if (candidate_stamp_[partner] != t + 1) {
      candidate_stamp_[partner] = t + 1;
      candidate_kinds_[partner] = 0;
      partners_.push_back(partner);
    }
    candidate_kinds_[partner] |= 1u << static_cast<int>(kind);
  }

  // Checks the writers of [b, e) against task t: coarse writers first, the per-byte ones
  // only under a coarse writer that is not ordered before t.
  void CheckWriters(int64_t b, int64_t e, uint32_t t, RaceKind kind) {
    coarse_.Visit(b, e, [&](int64_t sb, int64_t se, const uint32_t& writer) {
      if (Ordered(writer, t)) return;
      fine_.Visit(std::max(b, sb), std::min(e, se), [&](int64_t, int64_t, const FineWriter& w) {
        if (!Ordered(w.task, t)) Flag(w.task, kind, t);
      });
    });
  }

  void CheckReaders(int64_t b, int64_t e, uint32_t t) {
    seen_lists_.clear();
    readers_.Visit(b, e, [&](int64_t, int64_t, const uint32_t& list) {
      if (!seen_lists_.insert(list).second) return;
      for (uint32_t cur = list; cur != 0; cur = lists_.Next(cur)) {
        const uint32_t reader = EntryTask(lists_.Head(cur));
        if (!Ordered(reader, t)) Flag(reader, RaceKind::kWar, t);
      }
    });
  }

  void ProcessTask(uint32_t t) {
    partners_.clear();
    const auto accesses = model_.TaskAccesses(t);
    // 1. Checks against the state left by earlier tasks.
    for (const Access& access : accesses) {
      if (access.fresh_output) continue;
      const bool reads = access.reads && MayTouchWritten(access.bounds);
      if (access.reads && !reads) ++report_.reads_skipped;
      if (!reads && !access.writes) continue;
      const auto bytes = model_.Bytes(access, &scratch_);
      if (reads) {
        clipped_.clear();
        AppendIntersection(bytes, WrittenWithin(access.bounds), &clipped_);
        if (clipped_.empty()) {
          ++report_.reads_skipped;
        } else {
          ++report_.reads_checked;
          for (const ByteInterval& piece : clipped_) {
            CheckWriters(piece.begin, piece.end, t, RaceKind::kRaw);
          }
        }
      }
      if (access.writes) {
        ++report_.writes_checked;
        for (const ByteInterval& piece : bytes) {
          CheckWriters(piece.begin, piece.end, t, RaceKind::kWaw);
          CheckReaders(piece.begin, piece.end, t);
        }
      }
    }
    // 2. Reads join the reader lists, then writes replace writers and clear readers.
    for (const Access& access : accesses) {
      if (!access.reads || !MayTouchWritten(access.bounds)) continue;
      clipped_.clear();
      AppendIntersection(model_.Bytes(access, &scratch_), WrittenWithin(access.bounds),
                         &clipped_);
      const uint32_t entry = t | (access.approximate ? kApproxBit : 0);
      for (const ByteInterval& piece : clipped_) {
        readers_.Update(piece.begin, piece.end, [&](const uint32_t* old) {
          return lists_.Add(old ? *old : 0, entry, options_.prune_window,
                            [&](uint32_t older, uint32_t newer) {
                              // Superseded when reached from it, unless that would trade an
                              // exact read for an approximate one.
                              if ((newer & kApproxBit) && !(older & kApproxBit)) return false;
                              const uint32_t a = task_node_[EntryTask(older)];
                              const uint32_t b = task_node_[EntryTask(newer)];
                              return a != kNone && b != kNone && reach_.Reaches(a, b);
                            });
        });
        readers_.Coalesce(piece.begin, piece.end,
                          [](uint32_t x, uint32_t y) { return x == y; });
      }
    }
    for (const Access& access : accesses) {
      if (!access.writes) continue;
      report_.fresh_outputs += access.fresh_output;
      for (const ByteInterval& piece : model_.Bytes(access, &scratch_)) {
        readers_.Erase(piece.begin, piece.end);
        fine_.Assign(piece.begin, piece.end, FineWriter{t, access.approximate});
        fine_.Coalesce(piece.begin, piece.end,
                       [](const FineWriter& x, const FineWriter& y) { return x == y; });
        AssignCoarse(piece.begin, piece.end, t, access.fresh_output);
      }
    }
    MaybeCompact();
    std::sort(partners_.begin(), partners_.end());
    for (uint32_t partner : partners_) Report(partner, t, candidate_kinds_[partner]);
  }

  // Coarse writer segments merge with a neighbour whose writer reaches the new one.
  void AssignCoarse(int64_t b, int64_t e, uint32_t t, bool fresh) {
    auto it = coarse_.Assign(b, e, t);
    auto& map = coarse_.raw();
    if (it != map.begin()) {
      auto left = std::prev(it);
      if (left->second.end == b && !fresh &&
          (left->second.value == t || Reaches(left->second.value, t))) {
        left->second.end = it->second.end;
        left->second.value = t;  // the merged segment's writer is the newest one
        map.erase(it);
        it = left;
      }
    }
    auto right = std::next(it);
    if (right != map.end() && right->first == it->second.end && !fresh &&
        (right->second.value == t || Reaches(right->second.value, t))) {
      it->second.end = right->second.end;
      map.erase(right);
    }
  }

  // The written intervals meeting `bounds` (written_ is sorted and disjoint). O(log W).
  std::span<const ByteInterval> WrittenWithin(ByteInterval bounds) const {
    auto first = std::upper_bound(written_.begin(), written_.end(), bounds.begin,
                                  [](int64_t x, const ByteInterval& w) { return x < w.end; });
    auto last = std::lower_bound(first, written_.end(), bounds.end,
                                 [](const ByteInterval& w, int64_t x) { return w.begin < x; });
    return {first, last};
  }

  // Whether `bounds` meets a byte somebody writes. O(log W).
  bool MayTouchWritten(ByteInterval bounds) const { return !WrittenWithin(bounds).empty(); }

  // Forgets writers and readers of `bytes`: new memory from the runtime's allocator.
  void Reset(ByteInterval bytes) {
    readers_.Erase(bytes.begin, bytes.end);
    fine_.Erase(bytes.begin, bytes.end);
    coarse_.Erase(bytes.begin, bytes.end);
  }

  // Allocation nodes (alloc_tensors; not in tasks[]) take memory from the same allocator as
  // OUTPUT slots. Their position in submit order is bounded by their ring-local id: the reset
  // goes right after the last task of the same ring with a smaller local id, the earliest
  // point the allocation can have happened (so no access to the new buffer is forgotten).
  void ScheduleAllocationResets() {
    std::vector<std::pair<TaskId, uint32_t>> by_id;  // (task id, submit index), ascending id
    for (uint32_t t = 0; t < graph_.tasks.size(); ++t) by_id.push_back({graph_.tasks[t].id, t});
    std::sort(by_id.begin(), by_id.end());
    for (const EdgeRow& row : graph_.rows) {
      if (row.source != EdgeSource::kCreator || row.tensor_id_state != FieldState::kValid) {
        continue;
      }
      const uint32_t node = graph_.pairs[row.pair].pred;
      if (graph_.node_task[node] >= 0) continue;  // a task: its OUTPUT slots reset already
      const Tensor* tensor = graph_.FindTensor(row.tensor_id);
      if (tensor == nullptr || tensor->addr_state != FieldState::kValid ||
          tensor->numel_state != FieldState::kValid || tensor->dtype_state != FieldState::kValid ||
          tensor->buffer_addr < 0 || tensor->buffer_numel <= 0) {
        continue;
      }
      const __int128 end = static_cast<__int128>(tensor->buffer_addr) +
                           static_cast<__int128>(tensor->buffer_numel) *
                               RuntimeElementSize(tensor->dtype);
      if (end > INT64_MAX || end <= tensor->buffer_addr) continue;
      // The last task of the same ring before this allocation (ring-local ids grow).
      const TaskId id = graph_.nodes[node];
      const TaskId ring_start = id & ~TaskId{0xFFFFFFFFu};
      auto it = std::lower_bound(by_id.begin(), by_id.end(), std::make_pair(id, 0u));
      uint32_t at = 0;
      if (it != by_id.begin() && std::prev(it)->first >= ring_start) {
        at = std::prev(it)->second + 1;
      }
      resets_.push_back({at, {tensor->buffer_addr, static_cast<int64_t>(end)}});
    }
    std::sort(resets_.begin(), resets_.end(), [](const ScheduledReset& a,
                                                  const ScheduledReset& b) {
      if (a.at != b.at) return a.at < b.at;
      if (a.bytes.begin != b.bytes.begin) return a.bytes.begin < b.bytes.begin;
      return a.bytes.end < b.bytes.end;
    });
    resets_.erase(std::unique(resets_.begin(), resets_.end(),
                              [](const ScheduledReset& a, const ScheduledReset& b) {
                                return a.at == b.at && a.bytes.begin == b.bytes.begin &&
                                       a.bytes.end == b.bytes.end;
                              }),
                  resets_.end());
  }

  bool Reaches(uint32_t p, uint32_t t) const {
    const uint32_t np = task_node_[p], nt = task_node_[t];
    return np != kNone && nt != kNone && reach_.Reaches(np, nt);
  }

  void MaybeCompact() {
    if (lists_.cells() < compact_at_) return;
    std::vector<uint32_t*> live;
    for (auto& [begin, seg] : readers_.raw()) live.push_back(&seg.value);
    lists_.Compact(live);
    compact_at_ = std::max<size_t>(compact_at_, 4 * lists_.cells());
  }

  void CountBackwardEdges() {
    std::vector<uint32_t> submit(graph_.nodes.size(), kNone);
    for (uint32_t t = 0; t < task_node_.size(); ++t) {
      if (task_node_[t] != kNone) submit[task_node_[t]] = t;
    }
    for (const Pair& pair : graph_.pairs) {
      if (submit[pair.pred] != kNone && submit[pair.succ] != kNone &&
          submit[pair.pred] > submit[pair.succ]) {
        ++report_.edges_against_submit_order;
      }
    }
  }

  static RaceKind PickKind(uint32_t kinds) {
    if (kinds & (1u << static_cast<int>(RaceKind::kRaw))) return RaceKind::kRaw;
    if (kinds & (1u << static_cast<int>(RaceKind::kWaw))) return RaceKind::kWaw;
    return RaceKind::kWar;
  }

  static bool KindApplies(RaceKind kind, const Access& first, const Access& second) {
    switch (kind) {
      case RaceKind::kRaw: return first.writes && second.reads;
      case RaceKind::kWaw: return first.writes && second.writes;
      case RaceKind::kWar: return first.reads && second.writes;
    }
    return false;
  }

  RaceCause CauseOf(RaceKind kind, const Access& first, const Access& second, uint32_t t) const {
    if (kind == RaceKind::kWar) return RaceCause::kWarUntracked;
    if (kind == RaceKind::kRaw && second.type == ArgType::kNoDep) return RaceCause::kNoDepRead;
    if (kind == RaceKind::kWaw && second.type == ArgType::kOutputExisting) {
      return RaceCause::kNoLookupWrite;
    }
    const uint32_t node = task_node_[t];
    if (node == kNone || !inferred_in_[node]) return RaceCause::kNoInferredEdges;
    const Task* task = graph_.TaskOfNode(node);
    if (task != nullptr && task->manual_scope) return RaceCause::kNoInferredEdges;
    if (!first.fresh_output && first.elem_size != second.elem_size) {
      return RaceCause::kElementUnits;
    }
    return RaceCause::kUnpublished;
  }

  void Report(uint32_t p, uint32_t t, uint32_t kinds) {
    const RaceKind kind = PickKind(kinds);
    ++report_.total;
    ++report_.by_kind[static_cast<int>(kind)];
    // The argument pair that shares the most bytes in this kind.
    const Access* best_first = nullptr;
    const Access* best_second = nullptr;
    int64_t best_bytes = -1;
    for (const Access& a : model_.TaskAccesses(p)) {
      for (const Access& b : model_.TaskAccesses(t)) {
        if (!KindApplies(kind, a, b)) continue;
        if (std::max(a.bounds.begin, b.bounds.begin) >= std::min(a.bounds.end, b.bounds.end)) {
          continue;
        }
        shared_.clear();
        AppendIntersection(model_.Bytes(a, &scratch_), model_.Bytes(b, &scratch2_), &shared_);
        const int64_t bytes = IntervalBytes(shared_);
        if (bytes > best_bytes) {
          best_bytes = bytes;
          best_first = &a;
          best_second = &b;
          best_range_ = shared_.empty() ? ByteInterval{0, 0}
                                        : ByteInterval{shared_.front().begin, shared_.back().end};
        }
      }
    }
    Race race;
    race.kind = kind;
    race.first.task = p;
    race.second.task = t;
    if (best_first != nullptr) {
      auto side = [](const Access& a, RaceSide* s) {
        s->arg_idx = a.arg_idx;
        s->type = a.type;
        s->tensor_id = a.tensor_id;
        s->approximate = a.approximate;
      };
      side(*best_first, &race.first);
      side(*best_second, &race.second);
      race.cause = CauseOf(kind, *best_first, *best_second, t);
      race.begin = best_range_.begin;
      race.end = best_range_.end;
      race.bytes = best_bytes;
      race.approximate = best_first->approximate || best_second->approximate;
    }
    report_.approximate += race.approximate;
    if (report_.races.size() < options_.max_races) {
      report_.races.push_back(race);
    } else {
      report_.truncated = true;
    }
  }

  const DepGraph& graph_;
  const AccessModel& model_;
  ReachabilityIndex& reach_;
  const RaceOptions& options_;
  RaceReport& report_;

  struct ScheduledReset {
    uint32_t at = 0;  // before processing this task
    ByteInterval bytes;
  };
  std::vector<ScheduledReset> resets_;
  std::vector<uint32_t> task_node_;
  std::vector<uint8_t> inferred_in_;
  std::vector<ByteInterval> written_;
  std::vector<ByteInterval> clipped_;
  std::vector<ByteInterval> shared_;
  std::vector<ByteInterval> scratch_;
  std::vector<ByteInterval> scratch2_;
  ByteInterval best_range_;
  SegmentMap<uint32_t> coarse_;   // writer every finer writer of the segment reaches
  SegmentMap<FineWriter> fine_;   // the last writer of every byte
  SegmentMap<uint32_t> readers_;  // reader list since the last write
  ReaderLists lists_;
  size_t compact_at_ = size_t{1} << 22;
  std::unordered_set<uint32_t> seen_lists_;
  std::vector<uint32_t> ordered_stamp_;
  std::vector<uint8_t> ordered_value_;
  std::vector<uint32_t> candidate_stamp_;
  std::vector<uint32_t> candidate_kinds_;
  std::vector<uint32_t> partners_;
};

}  // namespace

RaceReport FindRaces(const DepGraph& graph, const AccessModel& model, ReachabilityIndex* reach,
                     const RaceOptions& options) {
  RaceReport report;
  Sweep(graph, model, *reach, options, &report).Run();
  return report;
}

}  // namespace depgraph
