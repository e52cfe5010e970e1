// Fuzz harness of the timing inputs: a rank's timing records read two ways (LoadTimingRecordsText
// for critical-path and simulate, LoadSwimlaneRecordsText for the swimlane converter), the
// merged trace (LoadMergedTraceText, RewriteMergedTrace), and what `depgraph simulate` reads
// besides the graph (ParseMachineDescription, ParseDurationTable), each then used on a small
// fixed graph (BuildTaskWork, SimulateSchedule).
//
// The first byte picks the reader, the rest is the document: byte b means reader (b - '0') mod 5,
// so the seeds start with '0' records, '1' swimlane records, '2' merged trace, '3' machine
// description, '4' durations.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <sstream>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "depgraph/graph/graph.h"
#include "depgraph/graph/load_deps.h"
#include "depgraph/graph/name_map.h"
#include "depgraph/timing/critical_path.h"
#include "depgraph/timing/merged_trace.h"
#include "depgraph/timing/schedule_simulation.h"
#include "depgraph/timing/simulation_inputs.h"
#include "depgraph/timing/swimlane_records.h"
#include "depgraph/timing/timing_records.h"
#include "fuzz_check.h"

namespace depgraph::fuzz {
namespace {

/// The most cores a machine description may have for the harness to simulate it (simulation
/// memory is linear in the cores; larger machines are only parsed).
constexpr uint32_t kMaxSimulatedCores = 64;

/// Run times are at most 2^40 ticks (simulation_inputs.h, kMaxTicks there).
constexpr int64_t kMaxRunTicks = int64_t{1} << 40;

/// A graph of five tasks: AIC, AIV, MIX (2 blocks), a dummy and an SPMD AIV task on ring 2,
/// with a diamond of edges, loaded once.
const DepGraph& BaseGraph() {
  static const DepGraph graph = [] {
    DepGraph g;
    std::string err;
    const bool ok = LoadDepsJsonText(
        R"({"tasks":[{"task_id":1,"kernel_ids":[0,-1,-1]},{"task_id":2,"kernel_ids":[-1,1,-1]},)"
        R"({"task_id":3,"kernel_ids":[2,3,3],"block_num":2},{"task_id":4,"kernel_ids":[-1,-1,-1]},)"
        R"({"task_id":8589934592,"kernel_ids":[-1,1,-1],"block_num":3}],)"
        R"("edges":[{"pred":1,"succ":2},{"pred":1,"succ":3},{"pred":2,"succ":4},)"
        R"({"pred":3,"succ":4},{"pred":4,"succ":8589934592}]})",
        "base.json", &g, &err);
    Require(ok, "the base graph loads");
    return g;
  }();
  return graph;
}

/// Kernel names of the base graph's callables 0..3, loaded once.
const NameMap& BaseNames() {
  static const NameMap names = [] {
    NameMap map;
    std::string err;
    const NameMapStatus status = LoadNameMapText(
        R"({"callable_id_to_name":{"0":"QK","1":"SF","2":"PV","3":"UP"}})", "names.json", &map,
        &err);
    Require(status == NameMapStatus::kOk, "the base name map loads");
    return map;
  }();
  return names;
}

/// A machine with every core type, for the durations reader's simulations.
MachineDescription BaseMachine() {
  MachineDescription m;
  m.machine.aic = 2;
  m.machine.aiv = 4;
  m.machine.orch = 3;
  m.machine.dispatch = 2;
  m.machine.launch = 1;
  m.machine.finish = 1;
  m.machine.dummy_cost = 1;
  return m;
}

/// Times the base graph with these inputs and, when that works and the machine is small,
/// simulates it; checks the run times and the schedule's order of events.
/// Cost: O(tasks + runs + cores) on the fixed graph.
void TimeAndSimulate(const DurationTable& overrides, const std::vector<RecordedRun>& recorded,
                     const MachineDescription& machine) {
  const DepGraph& graph = BaseGraph();
  TaskWork work;
  WorkSources sources;
  std::string err;
  if (!BuildTaskWork(graph, BaseNames(), overrides, recorded, machine, &work, &sources, &err)) {
    RequireOneLineMessage(err);
    return;
  }
  Require(work.first.size() == graph.tasks.size() + 1 && work.first.front() == 0 &&
              work.first.back() == work.ticks.size(),
          "one run list per task");
  for (size_t t = 0; t + 1 < work.first.size(); ++t) {
    Require(work.first[t] <= work.first[t + 1], "run offsets ascending");
  }
  for (int64_t ticks : work.ticks) {
    Require(ticks >= 0 && ticks <= kMaxRunTicks, "run times are 0..2^40 ticks");
  }
  Require(work.delay.empty() || work.delay.size() == graph.tasks.size(), "one delay per task");
  for (int64_t d : work.delay) Require(d >= 0 && d <= kMaxRunTicks, "delays are 0..2^40 ticks");
  if (uint64_t{machine.machine.aic} + machine.machine.aiv > kMaxSimulatedCores) return;
  for (const CoreReservation& r : machine.machine.reserved) {
    if (r.core >= kMaxSimulatedCores) return;
  }
  SimulationResult result;
  if (!SimulateSchedule(graph, machine.machine, work, SimulationOptions(), &result, &err)) {
    RequireOneLineMessage(err);
    return;
  }
  Require(result.tasks.size() == graph.tasks.size(), "one simulated entry per task");
  Require(result.makespan >= 0 && result.makespan == result.last_end - result.first_start,
          "the makespan is the span of the kernel runs");
  for (const SimulatedTask& t : result.tasks) {
    if (t.release < 0) continue;
    Require(t.release >= machine.machine.base && t.ready >= t.release && t.start >= t.ready &&
                t.end >= t.start && t.done >= t.end,
            "release <= ready <= start <= end <= done");
    Require(t.done <= result.last_done, "last_done is the latest done");
  }
  for (int64_t busy : result.core_busy) Require(busy >= 0, "core busy time is non-negative");
}

/// The critical path of the records with every task depending on the next two in row order,
/// checked against its accounting. O(tasks + rows log rows).
void CheckCriticalPath(const TimingRecords& records, const TaskTimings& timings) {
  std::vector<TimedEdge> edges;
  const int32_t n = static_cast<int32_t>(timings.tasks.size());
  for (int32_t t = 0; t + 1 < n; ++t) {
    edges.push_back(TimedEdge{t, t + 1});
    if (t + 2 < n) edges.push_back(TimedEdge{t, t + 2});
  }
  // The accounting adds up for rows that end at or after they start (a reversed row is
  // accepted, as the reference accepts it, and counted as the reference counts it).
  const bool ordered = std::all_of(records.rows.begin(), records.rows.end(),
                                   [](const TimingRow& row) { return row.start <= row.end; });
  for (CpmWeight weight : {CpmWeight::kSpan, CpmWeight::kLongestBlock}) {
    CriticalPathOptions options;
    options.cpm_weight = weight;
    const HappensBefore hb = BuildHappensBefore(records, timings, edges, options);
    const CriticalPathResult result = AnalyzeCriticalPath(timings, hb, options);
    Require(result.task_count == timings.tasks.size(), "every task counted");
    Require(!result.static_path.empty() && !result.observed_path.empty(), "paths not empty");
    Require(result.makespan == timings.makespan() && result.t0 == timings.t0, "the rank's span");
    Require(!ordered || result.compute_total + result.stall_total == result.makespan,
            "compute + stall = makespan");
    for (uint32_t t : result.static_path) Require(t < timings.tasks.size(), "path tasks exist");
    for (const ObservedStep& step : result.observed_path) {
      Require(step.task < timings.tasks.size(), "observed tasks exist");
    }
  }
}

/// '0': the records as critical-path and simulate read them, reduced per task and timed.
void FuzzTimingRecords(std::string_view text) {
  TimingRecords records;
  std::string err;
  if (!LoadTimingRecordsText(text, "chip_swimlane_records.json", &records, &err)) {
    RequireOneLineMessage(err);
    return;
  }
  Require(records.aicore_state != FieldState::kInvalid, "aicore_tasks is an array or absent");
  Require(records.aicore_state == FieldState::kValid || records.rows.empty(),
          "no rows without aicore_tasks");
  if (records.aicpu_state == FieldState::kInvalid) RequireOneLineMessage(records.aicpu_error);
  for (const TimingRow& row : records.rows) {
    Require(row.key < records.keys.size(), "row keys index the key list");
    Require(row.columns >= 5, "rows have at least 5 values");
    Require(std::abs(row.start) < kMaxRecordedTicks && std::abs(row.end) < kMaxRecordedTicks,
            "ticks below 2^62");
  }
  const TaskTimings timings = ReduceTaskTimings(records);
  Require(timings.tasks.size() == records.keys.size(), "one task per key");
  Require(timings.row_task.size() == records.rows.size(), "one task index per row");
  uint64_t blocks = 0;
  for (uint32_t t = 0; t < timings.tasks.size(); ++t) {
    const TaskTiming& task = timings.tasks[t];
    Require(task.key == records.keys[t] && timings.Find(task.key) == &task, "Find each task");
    Require(task.blocks >= 1 && task.core_count >= 1, "every task has a row and a core");
    Require(timings.t0 <= task.start && task.end <= timings.t1, "t0..t1 spans every task");
    const auto cores = timings.CoresOf(t);
    for (size_t i = 0; i < cores.size(); ++i) {
      Require(std::count(cores.begin(), cores.end(), cores[i]) == 1, "a task's cores distinct");
    }
    blocks += task.blocks;
  }
  Require(blocks == records.rows.size(), "the tasks' blocks are the rows");
  for (size_t r = 0; r < records.rows.size(); ++r) {
    const TaskTiming& task = timings.tasks[timings.row_task[r]];
    Require(task.start <= records.rows[r].start && records.rows[r].end <= task.end,
            "a task's interval covers its rows");
  }
  if (!timings.tasks.empty()) CheckCriticalPath(records, timings);
  uint32_t aic = 0, aiv = 0;
  RecordedCores(records, &aic, &aiv);
  Require(aic + aiv == records.core_types.size(), "every typed core counted once");
  const std::vector<RecordedRun> runs = RecordedRuns(records);
  const RecordedSpan span = MeasureRecordedSpan(BaseGraph(), runs);
  Require(span.runs <= runs.size() && span.tasks <= span.runs, "span counts its runs");
  DurationTable fallback;
  fallback.fallback = 7;
  TimeAndSimulate(fallback, runs, BaseMachine());
}

/// '1': the records as the swimlane converter reads them.
void FuzzSwimlaneRecords(std::string_view text) {
  SwimlaneRecords records;
  std::string err;
  if (!LoadSwimlaneRecordsText(text, "chip_swimlane_records.json", &records, &err)) {
    RequireOneLineMessage(err);
    return;
  }
  Require(records.level >= 1 && records.level <= 4, "the level is 1..4");
  Require(records.orchestrator_source.empty() || records.orchestrator_source == "aicpu" ||
              records.orchestrator_source == "host",
          "orchestrator source is aicpu, host or none");
  for (size_t i = 0; i < records.tasks.size(); ++i) {
    const SwimlaneTask& task = records.tasks[i];
    Require(task.core_type < records.core_type_names.size(), "core types index the names");
    Require(i == 0 || records.tasks[i - 1].task_id <= task.task_id, "rows sorted by task id");
    Require(std::isfinite(task.start_us) && std::isfinite(task.end_us), "finite times");
  }
  for (const std::string& warning : records.warnings) RequireOneLineMessage(warning);
}

/// '2': the merged trace, rewritten with every bar critical (the output must read back with the
/// same bars and rewrite to the same text), and with a task it lacks.
void FuzzMergedTrace(std::string_view text) {
  MergedTrace trace;
  std::string err;
  const MergedTraceStatus status = LoadMergedTraceText(text, &trace, &err);
  // The one-pass rewrite (critical-path's route) decides as the two-pass one does.
  const std::unordered_set<std::string> none;
  std::ostringstream streamed;
  std::string stream_err;
  const std::unordered_set<std::string>* critical =
      status == MergedTraceStatus::kOk ? &trace.bar_keys : &none;
  // With the second half's events located ahead on a second thread, whatever the size.
  const size_t threshold = SetMergedTraceLookAheadThreshold(0);
  const MergedTraceStatus stream_status =
      StreamMergedTraceRewritesText(text, {critical}, {&streamed}, &stream_err);
  SetMergedTraceLookAheadThreshold(threshold);
  if (status != MergedTraceStatus::kOk) {
    RequireOneLineMessage(err);
    Require(trace.bar_keys.empty() && trace.events.empty() && trace.members.empty(),
            "a failed load leaves nothing");
    Require(stream_status == status && stream_err == err, "one pass fails as two passes do");
    return;
  }
  std::string out;
  Require(RewriteMergedTrace(trace, trace.bar_keys, &out, &err) == MergedTraceStatus::kOk,
          "rewriting with known critical tasks works");
  Require(stream_status == MergedTraceStatus::kNeedsTwoPasses ||
              (stream_status == MergedTraceStatus::kOk && streamed.str() == out),
          "one pass writes what two passes write");
  Require(!out.empty() && out.back() == '\n', "the rewrite ends with a newline");
  MergedTrace again;
  Require(LoadMergedTraceText(out, &again, &err) == MergedTraceStatus::kOk,
          "the rewrite reads back");
  Require(again.bar_keys == trace.bar_keys, "the rewrite keeps the bars");
  std::string out2;
  Require(RewriteMergedTrace(again, again.bar_keys, &out2, &err) == MergedTraceStatus::kOk &&
              out2 == out,
          "rewriting the rewrite changes nothing");
  // Half the bars off the path: renamed, still bars with the same keys.
  std::unordered_set<std::string> half;
  size_t i = 0;
  for (const std::string& key : trace.bar_keys) {
    if (i++ % 2 == 0) half.insert(key);
  }
  Require(RewriteMergedTrace(trace, half, &out, &err) == MergedTraceStatus::kOk,
          "rewriting with some bars critical works");
  Require(LoadMergedTraceText(out, &again, &err) == MergedTraceStatus::kOk &&
              again.bar_keys == trace.bar_keys,
          "renaming keeps the bars");
  // A critical task without a bar: its key is an existing one with a suffix, so the bars'
  // texts (any characters) reach the message.
  std::unordered_set<std::string> missing = trace.bar_keys;
  const std::string absent = (trace.bar_keys.empty() ? std::string() : *trace.bar_keys.begin()) +
                             "?";
  if (trace.bar_keys.count(absent) == 0) {
    missing.insert(absent);
    err.clear();
    Require(RewriteMergedTrace(trace, missing, &out, &err) == MergedTraceStatus::kInvalid,
            "a missing critical task is reported");
    RequireOneLineMessage(err);
  }
}

/// '3': a machine description (a rank object or a simulation.json), then the base graph timed
/// by its nominal times and simulated on it.
void FuzzMachineDescription(std::string_view text) {
  MachineDescription machine;
  std::string err;
  RankChoice rank;
  rank.capture_dir = "runs/build_output/dev.1/dfx_outputs";
  if (!ParseMachineDescription(text, "simulation.json", rank, &machine, &err)) {
    RequireOneLineMessage(err);
    return;
  }
  const MachineModel& m = machine.machine;
  Require(m.aic <= (1u << 20) && m.aiv <= (1u << 20), "core counts within 2^20");
  Require(m.base >= 0 && m.orch >= 0 && m.edge_cost >= 0 && m.dispatch >= 0 && m.launch >= 0 &&
              m.finish >= 0 && m.dummy_cost >= 0,
          "costs are non-negative");
  for (const CoreReservation& r : m.reserved) Require(0 <= r.from && r.from <= r.to, "from <= to");
  Require(machine.freq_hz >= 0, "the frequency is non-negative");
  for (const auto& [id, d] : machine.delay) Require(d >= 0, "delays are non-negative");
  for (const auto& [id, d] : machine.local_delay) Require(d >= 0, "delays are non-negative");
  for (const auto& [id, runs] : machine.nominal.tasks) {
    Require(!runs.empty(), "a task's nominal times are not empty");
  }
  DurationTable none;
  TimeAndSimulate(none, {}, machine);
}

/// '4': a durations file, then the base graph timed by it and simulated on a fixed machine.
void FuzzDurations(std::string_view text) {
  DurationTable table;
  std::string err;
  if (!ParseDurationTable(text, "durations.json", &table, &err)) {
    RequireOneLineMessage(err);
    Require(table.empty(), "a failed parse leaves nothing");
    return;
  }
  for (const auto& [id, runs] : table.tasks) {
    Require(!runs.empty(), "a task's times are not empty");
    for (int64_t t : runs) Require(t >= 0 && t <= kMaxRunTicks, "task times 0..2^40");
  }
  for (const auto& [id, t] : table.kernel_ids) Require(t >= 0 && t <= kMaxRunTicks, "0..2^40");
  for (const auto& [n, t] : table.kernel_names) Require(t >= 0 && t <= kMaxRunTicks, "0..2^40");
  if (table.fallback) Require(*table.fallback >= 0 && *table.fallback <= kMaxRunTicks, "0..2^40");
  TimeAndSimulate(table, {}, BaseMachine());
}

}  // namespace
}  // namespace depgraph::fuzz

/// libFuzzer entry point: the first byte picks the reader (see the top of the file), the rest
/// is its document. Inputs above kMaxInputBytes are skipped.
/// Cost: O(bytes) plus the fixed graph's timing and simulation.
extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace depgraph::fuzz;
  if (size == 0 || size > kMaxInputBytes) return 0;
  const std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);
  switch (static_cast<uint8_t>(data[0] - '0') % 5) {
    case 0:
      FuzzTimingRecords(text);
      break;
    case 1:
      FuzzSwimlaneRecords(text);
      break;
    case 2:
      FuzzMergedTrace(text);
      break;
    case 3:
      FuzzMachineDescription(text);
      break;
    default:
      FuzzDurations(text);
      break;
  }
  return 0;
}
