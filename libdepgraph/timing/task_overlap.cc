#include "depgraph/timing/task_overlap.h"

#include <algorithm>

#include "depgraph/graph/graph_query.h"

namespace depgraph {

const char* OverlapVerdictName(OverlapVerdict verdict) {
  switch (verdict) {
    case OverlapVerdict::kOverlapped: return "overlapped";
    case OverlapVerdict::kOrdered: return "ordered";
    case OverlapVerdict::kWaitedForOther: return "waited-for-other";
    case OverlapVerdict::kCoreBusy: return "core-busy";
    case OverlapVerdict::kLateDispatch: return "late-dispatch";
    default: return "unexplained";
  }
}

namespace {

const TaskTiming* TimingOf(const TaskTimings& timings, TaskId id) {
  return timings.Find(std::to_string(id));
}

bool PathBetween(const DepGraph& graph, TaskId from, TaskId to, std::vector<TaskId>* path) {
  const int64_t a = graph.FindNode(from), b = graph.FindNode(to);
  std::vector<uint32_t> nodes;
  if (a < 0 || b < 0 || !ShortestPath(graph, static_cast<uint32_t>(a), static_cast<uint32_t>(b), &nodes)) {
    return false;
  }
  path->clear();
  for (uint32_t n : nodes) path->push_back(graph.nodes[n]);
  return true;
}

}  // namespace

bool AnswerOverlap(const DepGraph& graph, const TimingRecords& records,
                   const TaskTimings& timings, TaskId a, TaskId b, OverlapAnswer* answer,
                   std::string* err) {
  *answer = OverlapAnswer();
  const TaskTiming* ta = TimingOf(timings, a);
  const TaskTiming* tb = TimingOf(timings, b);
  for (auto [id, t] : {std::pair{a, ta}, std::pair{b, tb}}) {
    if (graph.FindNode(id) < 0) {
      *err = "task " + FormatTaskId(id, graph.Display()) + " is not in the graph";
      return false;
    }
    if (t == nullptr) {
      *err = "task " + FormatTaskId(id, graph.Display()) + " has no timing records";
      return false;
    }
  }
  if (a == b) {
    *err = "task " + FormatTaskId(a, graph.Display()) +
           " was given twice: name two different tasks";
    return false;
  }
  auto view = [&](TaskId id, const TaskTiming* t) {
    return OverlapTask{id, t->start, t->end, records.rows[t->first_row].core};
  };
  OverlapTask x = view(a, ta), y = view(b, tb);
  const bool overlapped = std::max(x.start, y.start) < std::min(x.end, y.end);
  // First: the one that started first when they overlap, else the one that ended first.
  const bool swap = overlapped ? (y.start < x.start || (y.start == x.start && y.end < x.end))
                               : (y.end < x.end || (y.end == x.end && y.start < x.start));
  if (swap) std::swap(x, y);
  answer->first = x;
  answer->second = y;
  if (overlapped) {
    answer->verdict = OverlapVerdict::kOverlapped;
    answer->overlap = std::min(x.end, y.end) - y.start;
    return true;
  }
  if (PathBetween(graph, x.id, y.id, &answer->path) ||
      PathBetween(graph, y.id, x.id, &answer->path)) {
    answer->verdict = OverlapVerdict::kOrdered;
    return true;
  }
  // The second's readiness: its latest-ending timed predecessor.
  const uint32_t node = static_cast<uint32_t>(graph.FindNode(y.id));
  for (uint32_t p : Predecessors(graph, node)) {
    const TaskTiming* tp = TimingOf(timings, graph.nodes[p]);
    if (tp != nullptr && tp->end > answer->ready) {
      answer->ready = tp->end;
      answer->gate = graph.nodes[p];
      answer->gate_end = tp->end;
    }
  }
  if (answer->ready >= x.end) {
    answer->verdict = OverlapVerdict::kWaitedForOther;
    return true;
  }
  // Its first core: the task that ran there last before it started.
  const TimingRow& own = records.rows[TimingOf(timings, y.id)->first_row];
  int64_t busy_end = -1;
  TaskId busy_task = 0;
  for (const TimingRow& row : records.rows) {
    if (row.core != y.core || row.start >= y.start || &row == &own) continue;
    if (row.has_task_id && row.task_id == y.id) continue;
    if (row.end > busy_end) {
      busy_end = row.end;
      busy_task = row.task_id;
    }
  }
  if (busy_end >= x.end) {
    answer->verdict = OverlapVerdict::kCoreBusy;
    answer->gate = busy_task;
    answer->gate_end = busy_end;
    return true;
  }
  // Its dispatch, joined by (core, reg_task_id) as the converters join it.
  if (own.has_reg_task_id) {
    for (const AicpuRow& row : records.aicpu_rows) {
      if (row.core == own.core && row.reg_task_id == own.reg_task_id) answer->dispatch = row.dispatch;
    }
  }
  answer->verdict = answer->dispatch >= x.end ? OverlapVerdict::kLateDispatch
                                              : OverlapVerdict::kUnexplained;
  return true;
}

}  // namespace depgraph
