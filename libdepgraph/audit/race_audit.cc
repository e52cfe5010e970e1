#include "depgraph/audit/race_audit.h"

#include <algorithm>
#include <unordered_set>

#include "depgraph/internal/side_by_side.h"
#include "depgraph/support/thread_count.h"
#include "reader_lists.h"
#include "segment_map.h"

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

using race_sweep::EntryTask;
using race_sweep::kApproxBit;
using race_sweep::kNone;
using race_sweep::ReaderLists;
using race_sweep::SegmentMap;

struct FineWriter {
  uint32_t task = kNone;
  bool approximate = false;
  bool operator==(const FineWriter&) const = default;
};

// The written intervals an access's bounds meet: written[first, first + count).
struct WrittenSpan {
  uint32_t first = 0;
  uint32_t count = 0;
};

// What every part of the sweep reads, computed once before the parts run.
struct SweepInputs {
  const RaceGraphFacts& facts;         // what the graph alone says
  std::vector<ByteInterval> written;   // every byte somebody writes: sorted, disjoint
  std::vector<WrittenSpan> met;        // per access: the written intervals its bounds meet
  std::vector<uint8_t> access_part;    // per access: the part of the sweep that owns it
};

// The sweep runs as two parts over disjoint address ranges (AssignParts), side by side when
// there are threads; fixed, so that nothing reported depends on the thread count.
constexpr uint8_t kSweepParts = 2;

// The written intervals meeting `bounds` (`written` is sorted and disjoint). O(log W).
std::span<const ByteInterval> WrittenMeeting(const std::vector<ByteInterval>& written,
                                             ByteInterval bounds) {
  auto first = std::upper_bound(written.begin(), written.end(), bounds.begin,
                                [](int64_t x, const ByteInterval& w) { return x < w.end; });
  auto last = std::lower_bound(first, written.end(), bounds.end,
                               [](const ByteInterval& w, int64_t x) { return w.begin < x; });
  return {first, last};
}

// A pair one part found unordered at task t, with the kinds it saw (bit per RaceKind).
struct Candidate {
  uint32_t t = 0;
  uint32_t partner = 0;
  uint32_t kinds = 0;
};

// One part of the frontier sweep: every task in submit order, the accesses of its part only.
// Its segments never meet another part's (AssignParts), so the parts together find exactly
// the candidates of one sweep over everything.
class SweepPart {
 public:
  SweepPart(const DepGraph& graph, const AccessModel& model, const ReachabilityIndex& reach,
            const RaceOptions& options, const SweepInputs& in, uint8_t part)
      : graph_(graph), model_(model), reach_(reach), options_(options), in_(in), part_(part) {}

  void Run() {
    const size_t tasks = graph_.tasks.size();
    ordered_stamp_.assign(tasks, 0);
    ordered_value_.assign(tasks, 0);
    candidate_stamp_.assign(tasks, 0);
    candidate_kinds_.assign(tasks, 0);
    const std::vector<AllocationReset>& resets = in_.facts.resets;
    size_t next_reset = 0;
    for (uint32_t t = 0; t < tasks; ++t) {
      for (; next_reset < resets.size() && resets[next_reset].at == t; ++next_reset) {
        Reset(resets[next_reset].bytes);
        if (part_ == 0) ++counters_.allocation_resets;
      }
      ProcessTask(t);
    }
  }

  // The unordered pairs found, by task then partner.
  const std::vector<Candidate>& candidates() const { return candidates_; }
  // The access counters of the part (reads_checked and the like; no races).
  const RaceReport& counters() const { return counters_; }
  const ReachabilityStats& reach_stats() const { return reach_scratch_.stats; }

 private:
  // Whether earlier task p and task t are ordered either way; cached per t.
  bool Ordered(uint32_t p, uint32_t t) {
    if (p == t) return true;
    if (ordered_stamp_[p] == t + 1) return ordered_value_[p] != 0;
    const uint32_t np = in_.facts.task_node[p], nt = in_.facts.task_node[t];
    const bool ordered = np != kNone && nt != kNone &&
                         (reach_.Reaches(np, nt, &reach_scratch_) ||
                          reach_.Reaches(nt, np, &reach_scratch_));
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
    if (!many_seen_lists_.empty()) many_seen_lists_.clear();
    readers_.Visit(b, e, [&](int64_t, int64_t, const uint32_t& list) {
      if (!FirstSight(list)) return;
      for (uint32_t cur = list; cur != 0; cur = lists_.Next(cur)) {
        const uint32_t reader = EntryTask(lists_.Head(cur));
        if (!Ordered(reader, t)) Flag(reader, RaceKind::kWar, t);
      }
    });
  }

  // Whether CheckReaders meets this reader list for the first time: a few lists are searched
  // in a short vector, more in a hash set (whose clear() would cost its bucket count).
  bool FirstSight(uint32_t list) {
    constexpr size_t kFew = 16;
    if (seen_lists_.size() < kFew) {
      if (std::find(seen_lists_.begin(), seen_lists_.end(), list) != seen_lists_.end()) {
        return false;
      }
      seen_lists_.push_back(list);
      return true;
    }
    if (many_seen_lists_.empty()) many_seen_lists_.insert(seen_lists_.begin(), seen_lists_.end());
    return many_seen_lists_.insert(list).second;
  }

  size_t IndexOf(const Access& access) const {
    return static_cast<size_t>(&access - model_.accesses.data());
  }
  bool Mine(const Access& access) const { return in_.access_part[IndexOf(access)] == part_; }

  void ProcessTask(uint32_t t) {
    partners_.clear();
    const auto accesses = model_.TaskAccesses(t);
    // 1. Checks against the state left by earlier tasks.
    for (const Access& access : accesses) {
      if (access.fresh_output || !Mine(access)) continue;
      const bool reads = access.reads && MayTouchWritten(access);
      if (access.reads && !reads) ++counters_.reads_skipped;
      if (!reads && !access.writes) continue;
      const auto bytes = model_.Bytes(access, &scratch_);
      if (reads) {
        clipped_.clear();
        AppendIntersection(bytes, WrittenWithin(access), &clipped_);
        if (clipped_.empty()) {
          ++counters_.reads_skipped;
        } else {
          ++counters_.reads_checked;
          for (const ByteInterval& piece : clipped_) {
            CheckWriters(piece.begin, piece.end, t, RaceKind::kRaw);
          }
        }
      }
      if (access.writes) {
        ++counters_.writes_checked;
        for (const ByteInterval& piece : bytes) {
          CheckWriters(piece.begin, piece.end, t, RaceKind::kWaw);
          CheckReaders(piece.begin, piece.end, t);
        }
      }
    }
    // 2. Reads join the reader lists, then writes replace writers and clear readers.
    for (const Access& access : accesses) {
      if (!access.reads || !Mine(access) || !MayTouchWritten(access)) continue;
      clipped_.clear();
      AppendIntersection(model_.Bytes(access, &scratch_), WrittenWithin(access),
                         &clipped_);
      const uint32_t entry = t | (access.approximate ? kApproxBit : 0);
      for (const ByteInterval& piece : clipped_) {
        readers_.Update(piece.begin, piece.end, [&](const uint32_t* old) {
          return lists_.Add(old ? *old : 0, entry, options_.prune_window,
                            [&](uint32_t older, uint32_t newer) {
                              // Superseded when reached from it, unless that would trade an
                              // exact read for an approximate one.
                              if ((newer & kApproxBit) && !(older & kApproxBit)) return false;
                              const uint32_t a = in_.facts.task_node[EntryTask(older)];
                              const uint32_t b = in_.facts.task_node[EntryTask(newer)];
                              return a != kNone && b != kNone &&
                                     reach_.Reaches(a, b, &reach_scratch_);
                            });
        });
        readers_.Coalesce(piece.begin, piece.end,
                          [](uint32_t x, uint32_t y) { return x == y; });
      }
    }
    for (const Access& access : accesses) {
      if (!access.writes || !Mine(access)) continue;
      counters_.fresh_outputs += access.fresh_output;
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
    for (uint32_t partner : partners_) {
      candidates_.push_back({t, partner, candidate_kinds_[partner]});
    }
  }

  // Coarse writer segments merge with a neighbour whose writer reaches the new one.
  void AssignCoarse(int64_t b, int64_t e, uint32_t t, bool fresh) {
    coarse_.AssignJoining(b, e, t, [&](uint32_t writer) {
      return !fresh && (writer == t || Reaches(writer, t));
    });
  }

  // The written intervals the access's bounds meet (looked up once, in PrepareSweep). O(1).
  std::span<const ByteInterval> WrittenWithin(const Access& access) const {
    const WrittenSpan span = in_.met[IndexOf(access)];
    return {in_.written.data() + span.first, span.count};
  }

  // Whether the access's bounds meet a byte somebody writes. O(1).
  bool MayTouchWritten(const Access& access) const { return in_.met[IndexOf(access)].count > 0; }

  // Forgets writers and readers of `bytes`: new memory from the runtime's allocator.
  void Reset(ByteInterval bytes) {
    readers_.Erase(bytes.begin, bytes.end);
    fine_.Erase(bytes.begin, bytes.end);
    coarse_.Erase(bytes.begin, bytes.end);
  }

  bool Reaches(uint32_t p, uint32_t t) {
    const uint32_t np = in_.facts.task_node[p], nt = in_.facts.task_node[t];
    return np != kNone && nt != kNone && reach_.Reaches(np, nt, &reach_scratch_);
  }

  void MaybeCompact() {
    if (lists_.cells() < compact_at_) return;
    std::vector<uint32_t*> live;
    readers_.ForEachValue([&](uint32_t* list) { live.push_back(list); });
    lists_.Compact(live);
    compact_at_ = std::max<size_t>(compact_at_, 4 * lists_.cells());
  }

  const DepGraph& graph_;
  const AccessModel& model_;
  const ReachabilityIndex& reach_;
  const RaceOptions& options_;
  const SweepInputs& in_;
  const uint8_t part_;
  ReachScratch reach_scratch_;
  RaceReport counters_;
  std::vector<Candidate> candidates_;
  std::vector<ByteInterval> clipped_;
  std::vector<ByteInterval> scratch_;
  SegmentMap<uint32_t> coarse_;   // writer every finer writer of the segment reaches
  SegmentMap<FineWriter> fine_;   // the last writer of every byte
  SegmentMap<uint32_t> readers_;  // reader list since the last write
  ReaderLists lists_;
  size_t compact_at_ = size_t{1} << 22;
  std::vector<uint32_t> seen_lists_;                // CheckReaders' lists, while few
  std::unordered_set<uint32_t> many_seen_lists_;    // and once there are more
  std::vector<uint32_t> ordered_stamp_;
  std::vector<uint8_t> ordered_value_;
  std::vector<uint32_t> candidate_stamp_;
  std::vector<uint32_t> candidate_kinds_;
  std::vector<uint32_t> partners_;
};

// Turns a candidate pair into a reported race: the kind, and the argument pair sharing the
// most bytes in it. Reads the model only.
class RaceReporter {
 public:
  RaceReporter(const DepGraph& graph, const AccessModel& model, const RaceOptions& options,
               const SweepInputs& in)
      : graph_(graph), model_(model), options_(options), in_(in) {}

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
    const uint32_t node = in_.facts.task_node[t];
    if (node == kNone || !in_.facts.inferred_in[node]) return RaceCause::kNoInferredEdges;
    const Task* task = graph_.TaskOfNode(node);
    if (task != nullptr && task->manual_scope) return RaceCause::kNoInferredEdges;
    if (!first.fresh_output && first.elem_size != second.elem_size) {
      return RaceCause::kElementUnits;
    }
    return RaceCause::kUnpublished;
  }

  void Report(uint32_t p, uint32_t t, uint32_t kinds, RaceReport* report) {
    const RaceKind kind = PickKind(kinds);
    ++report->total;
    ++report->by_kind[static_cast<int>(kind)];
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
    report->approximate += race.approximate;
    if (report->races.size() < options_.max_races) {
      report->races.push_back(race);
    } else {
      report->truncated = true;
    }
  }

 private:
  const DepGraph& graph_;
  const AccessModel& model_;
  const RaceOptions& options_;
  const SweepInputs& in_;
  std::vector<ByteInterval> shared_;
  std::vector<ByteInterval> scratch_;
  std::vector<ByteInterval> scratch2_;
  ByteInterval best_range_;
};

// A creator row whose predecessor is an allocation node (alloc_tensors; not in tasks[]).
struct AllocationRow {
  uint32_t node = 0;
  TaskId tensor_id = 0;
};

// One pass over the rows in file order: marks in `inferred_in` the nodes a creator or
// tensormap row enters, and returns the allocation rows. The pair and node each such row
// names are prefetched ahead (rows come by successor, pairs by predecessor). O(rows).
std::vector<AllocationRow> ScanInferredRows(const DepGraph& graph,
                                            std::vector<uint8_t>* inferred_in) {
  constexpr size_t kAhead = 8;  // prefetch distance; twice as far for the pair
  auto is_inferred = [](const EdgeRow& row) {
    return row.source == EdgeSource::kCreator || row.source == EdgeSource::kTensormap;
  };
  std::vector<AllocationRow> allocations;
  const std::vector<EdgeRow>& rows = graph.rows;
  inferred_in->assign(graph.nodes.size(), 0);
  for (size_t i = 0; i < rows.size(); ++i) {
    if (i + 2 * kAhead < rows.size() && is_inferred(rows[i + 2 * kAhead])) {
      __builtin_prefetch(&graph.pairs[rows[i + 2 * kAhead].pair]);
    }
    if (i + kAhead < rows.size() && is_inferred(rows[i + kAhead])) {
      const Pair& ahead = graph.pairs[rows[i + kAhead].pair];
      __builtin_prefetch(&(*inferred_in)[ahead.succ]);
      if (rows[i + kAhead].source == EdgeSource::kCreator) {
        __builtin_prefetch(&graph.node_task[ahead.pred]);
      }
    }
    const EdgeRow& row = rows[i];
    if (!is_inferred(row)) continue;
    const Pair& pair = graph.pairs[row.pair];
    (*inferred_in)[pair.succ] = 1;
    if (row.source == EdgeSource::kCreator && row.tensor_id_state == FieldState::kValid &&
        graph.node_task[pair.pred] < 0) {  // a task's OUTPUT slots reset already
      allocations.push_back({pair.pred, row.tensor_id});
    }
  }
  return allocations;
}

// Allocations take memory from the same allocator as OUTPUT slots. Their position in submit
// order is bounded by their ring-local id: the reset goes right after the last task of the
// same ring with a smaller local id, the earliest point the allocation can have happened (so
// no access to the new buffer is forgotten). The position of every allocation node comes
// from one merge of the nodes with the loader's task index (both by ascending id); the
// tensors, looked up at random, are prefetched ahead. O(V + T + R log R) for R allocation
// rows.
std::vector<AllocationReset> ScheduleAllocationResets(
    const DepGraph& graph, const std::vector<AllocationRow>& allocations) {
  constexpr size_t kAhead = 8;  // prefetch distance
  if (allocations.empty()) return {};
  // Per allocation node, the submit index after the last task of its ring with a smaller id
  // (0 when none).
  std::vector<uint32_t> at_of_node(graph.nodes.size(), 0);
  const auto& by_id = graph.task_index;  // (task id, submit index), ascending id
  size_t first = 0;                      // the first task with an id at or above the node's
  for (uint32_t node = 0; node < graph.nodes.size(); ++node) {
    if (graph.node_task[node] >= 0) continue;
    const TaskId id = graph.nodes[node];
    while (first < by_id.size() && by_id[first].first < id) ++first;
    const TaskId ring_start = id & ~TaskId{0xFFFFFFFFu};
    if (first > 0 && by_id[first - 1].first >= ring_start) {
      at_of_node[node] = by_id[first - 1].second + 1;
    }
  }

  std::vector<AllocationReset> resets;
  resets.reserve(allocations.size());
  for (size_t i = 0; i < allocations.size(); ++i) {
    graph.PrefetchTensorsAhead(allocations, i, kAhead);
    if (i + kAhead < allocations.size()) {
      __builtin_prefetch(&at_of_node[allocations[i + kAhead].node]);
    }
    const Tensor* tensor = graph.FindTensor(allocations[i].tensor_id);
    if (tensor == nullptr || tensor->addr_state != FieldState::kValid ||
        tensor->numel_state != FieldState::kValid || tensor->dtype_state != FieldState::kValid ||
        tensor->buffer_addr < 0 || tensor->buffer_numel <= 0) {
      continue;
    }
    const __int128 end = static_cast<__int128>(tensor->buffer_addr) +
                         static_cast<__int128>(tensor->buffer_numel) *
                             RuntimeElementSize(tensor->dtype);
    if (end > INT64_MAX || end <= tensor->buffer_addr) continue;
    resets.push_back(
        {at_of_node[allocations[i].node], {tensor->buffer_addr, static_cast<int64_t>(end)}});
  }
  auto before = [](const AllocationReset& a, const AllocationReset& b) {
    if (a.at != b.at) return a.at < b.at;
    if (a.bytes.begin != b.bytes.begin) return a.bytes.begin < b.bytes.begin;
    return a.bytes.end < b.bytes.end;
  };
  if (!std::is_sorted(resets.begin(), resets.end(), before)) {
    std::sort(resets.begin(), resets.end(), before);
  }
  resets.erase(std::unique(resets.begin(), resets.end(),
                            [](const AllocationReset& a, const AllocationReset& b) {
                              return a.at == b.at && a.bytes.begin == b.bytes.begin &&
                                     a.bytes.end == b.bytes.end;
                            }),
                resets.end());
  return resets;
}

// Pairs whose predecessor was submitted after its successor.
uint64_t CountBackwardEdges(const DepGraph& graph, const std::vector<uint32_t>& task_node) {
  uint64_t count = 0;
  std::vector<uint32_t> submit(graph.nodes.size(), kNone);
  for (uint32_t t = 0; t < task_node.size(); ++t) {
    if (task_node[t] != kNone) submit[task_node[t]] = t;
  }
  constexpr size_t kAhead = 16;  // successors are random: their entries are prefetched
  const std::vector<Pair>& pairs = graph.pairs;
  for (size_t p = 0; p < pairs.size(); ++p) {
    if (p + kAhead < pairs.size()) __builtin_prefetch(&submit[pairs[p + kAhead].succ]);
    const Pair& pair = pairs[p];
    if (submit[pair.pred] != kNone && submit[pair.succ] != kNone &&
        submit[pair.pred] > submit[pair.succ]) {
      ++count;
    }
  }
  return count;
}

// Splits the accesses between the parts by address. Written intervals that one access's
// bounds meet are swept by the same part, and every byte a segment of the sweep can hold is
// written (reads are clipped to written bytes), so no segment of one part ever meets or
// touches another's: the parts take consecutive runs of such groups of intervals, with about
// as many accesses each. Accesses that meet no written byte change no segment (part 0 counts
// them). `met` is each access's WrittenSpan. O(A + W) time and memory.
std::vector<uint8_t> AssignParts(const std::vector<WrittenSpan>& met, size_t w) {
  std::vector<uint8_t> access_part(met.size(), 0);
  if (w == 0) return access_part;
  std::vector<uint32_t> last_joined(w);  // the last interval one access joins to interval i
  std::vector<uint32_t> accesses_at(w, 0);
  for (uint32_t i = 0; i < w; ++i) last_joined[i] = i;
  for (const WrittenSpan& span : met) {
    if (span.count == 0) continue;
    last_joined[span.first] = std::max(last_joined[span.first], span.first + span.count - 1);
    ++accesses_at[span.first];
  }
  uint64_t total = 0;
  for (uint32_t n : accesses_at) total += n;
  std::vector<uint8_t> interval_part(w);
  uint64_t passed = 0;
  uint32_t joined_to = 0;
  uint8_t part = 0;
  for (uint32_t i = 0; i < w; ++i) {
    // A new group starts at i when no earlier interval is joined past it.
    if (i > joined_to && part + 1 < kSweepParts && passed * kSweepParts >= total * (part + 1)) {
      ++part;
    }
    joined_to = std::max(joined_to, last_joined[i]);
    interval_part[i] = part;
    passed += accesses_at[i];
  }
  for (size_t a = 0; a < met.size(); ++a) {
    if (met[a].count > 0) access_part[a] = interval_part[met[a].first];
  }
  return access_part;
}

// Splits the accesses between the parts at one address that no access's bounds cross, near
// the median of their first bytes: part 1 takes the accesses at or above it. Segments of the
// two parts then never overlap, though they may touch, so a coarse writer that one sweep
// would join across the cut stays two segments. That changes no race when no edge goes
// against submit order (a coarse writer ordered before a task then has every finer writer of
// its segment ordered before it too, however the segments are cut), only which reachability
// queries are asked. Empty when no such address leaves work on both sides. O(A) expected.
std::vector<uint8_t> CutByAddress(const AccessModel& model, const std::vector<WrittenSpan>& met) {
  std::vector<int64_t> begins;
  for (size_t a = 0; a < met.size(); ++a) {
    if (met[a].count > 0) begins.push_back(model.accesses[a].bounds.begin);
  }
  if (begins.size() < 2) return {};
  const auto middle = begins.begin() + static_cast<ptrdiff_t>(begins.size() / 2);
  std::nth_element(begins.begin(), middle, begins.end());
  int64_t cut = *middle;
  // Past the ends of the accesses that cross it, a few times; an access ending at the cut
  // does not cross it.
  for (int round = 0;; ++round) {
    int64_t crossing_end = cut;
    for (size_t a = 0; a < met.size(); ++a) {
      const ByteInterval bounds = model.accesses[a].bounds;
      if (met[a].count > 0 && bounds.begin < cut && cut < bounds.end) {
        crossing_end = std::max(crossing_end, bounds.end);
      }
    }
    if (crossing_end == cut) break;
    if (round == 4) return {};
    cut = crossing_end;
  }
  std::vector<uint8_t> access_part(met.size(), 0);
  bool second = false;
  for (size_t a = 0; a < met.size(); ++a) {
    if (met[a].count > 0 && model.accesses[a].bounds.begin >= cut) {
      access_part[a] = 1;
      second = true;
    }
  }
  if (!second) return {};
  return access_part;
}

SweepInputs PrepareSweep(const RaceGraphFacts& facts, const AccessModel& model,
                         const RaceOptions& options) {
  SweepInputs in{facts, {}, {}, {}};
  std::vector<ByteInterval> scratch;
  for (const Access& access : model.accesses) {
    if (!access.writes) continue;
    const auto bytes = model.Bytes(access, &scratch);
    in.written.insert(in.written.end(), bytes.begin(), bytes.end());
  }
  NormalizeIntervals(&in.written);
  in.met.resize(model.accesses.size());
  for (size_t a = 0; a < model.accesses.size(); ++a) {
    const auto met = WrittenMeeting(in.written, model.accesses[a].bounds);
    in.met[a] = {static_cast<uint32_t>(met.data() - in.written.data()),
                 static_cast<uint32_t>(met.size())};
  }
  if (options.split) {
    // Cut inside written intervals only where that cannot change a race.
    if (facts.edges_against_submit_order == 0) in.access_part = CutByAddress(model, in.met);
    if (in.access_part.empty()) in.access_part = AssignParts(in.met, in.written.size());
  } else {
    in.access_part.assign(model.accesses.size(), 0);
  }
  return in;
}

}  // namespace

RaceGraphFacts PrepareRaceGraphFacts(const DepGraph& graph) {
  RaceGraphFacts facts;
  facts.task_node = NodesOfTasks(graph);
  facts.edges_against_submit_order = CountBackwardEdges(graph, facts.task_node);
  facts.resets = ScheduleAllocationResets(graph, ScanInferredRows(graph, &facts.inferred_in));
  return facts;
}

RaceReport FindRaces(const DepGraph& graph, const AccessModel& model, ReachabilityIndex* reach,
                     const RaceOptions& options) {
  return FindRaces(graph, PrepareRaceGraphFacts(graph), model, reach, options);
}

RaceReport FindRaces(const DepGraph& graph, const RaceGraphFacts& facts, const AccessModel& model,
                     ReachabilityIndex* reach, const RaceOptions& options) {
  RaceReport report;
  report.edges_against_submit_order = facts.edges_against_submit_order;
  const SweepInputs in = PrepareSweep(facts, model, options);
  SweepPart first(graph, model, *reach, options, in, 0);
  SweepPart second(graph, model, *reach, options, in, 1);
  static_assert(kSweepParts == 2, "the parts below are two");
  // A second part without accesses has nothing to do.
  const bool split = std::find(in.access_part.begin(), in.access_part.end(), uint8_t{1}) !=
                     in.access_part.end();
  if (split) {
    RunSideBySide(ResolveThreadCount(options.threads), [&] { first.Run(); },
                  [&] { second.Run(); });
  } else {
    first.Run();
  }
  for (const SweepPart* part : {&first, &second}) {
    const RaceReport& c = part->counters();
    report.reads_checked += c.reads_checked;
    report.reads_skipped += c.reads_skipped;
    report.writes_checked += c.writes_checked;
    report.fresh_outputs += c.fresh_outputs;
    report.allocation_resets += c.allocation_resets;
    reach->AddStats(part->reach_stats());
  }
  // The candidates of both parts in (task, partner) order, one race per pair.
  RaceReporter reporter(graph, model, options, in);
  const std::vector<Candidate>& x = first.candidates();
  const std::vector<Candidate>& y = second.candidates();
  auto before = [](const Candidate& a, const Candidate& b) {
    return a.t != b.t ? a.t < b.t : a.partner < b.partner;
  };
  size_t i = 0, j = 0;
  while (i < x.size() || j < y.size()) {
    if (j == y.size() || (i < x.size() && before(x[i], y[j]))) {
      reporter.Report(x[i].partner, x[i].t, x[i].kinds, &report);
      ++i;
    } else if (i == x.size() || before(y[j], x[i])) {
      reporter.Report(y[j].partner, y[j].t, y[j].kinds, &report);
      ++j;
    } else {  // the same pair in both parts
      reporter.Report(x[i].partner, x[i].t, x[i].kinds | y[j].kinds, &report);
      ++i;
      ++j;
    }
  }
  return report;
}

}  // namespace depgraph
