// A list-scheduling model of the runtime: an orchestrator submitting tasks, one scheduler
// dispatching their blocks to pools of AIC and AIV cores (clusters for MIX blocks), driven by
// per-task kernel run times. Predicts the schedule and its makespan (`depgraph simulate`).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "depgraph/graph/graph.h"

namespace depgraph {

/// How a block picks its core (or, for a MIX block, its cluster).
enum class CorePolicy : uint8_t {
  kLowest,  ///< the lowest-numbered one idle at dispatch time, else the one that frees first
  kSpread,  ///< always the one that frees first (ties: the lowest-numbered)
};
/// "lowest" / "spread".
const char* CorePolicyName(CorePolicy policy);

/// A core that is busy before the run starts (a warm-up row): [base + from, base + to).
struct CoreReservation {
  uint32_t core = 0;
  int64_t from = 0;
  int64_t to = 0;
};

/// The machine and the runtime's fixed costs, all in device ticks.
///
/// Cores are numbered like the runtime's records: AIC 0..aic-1, then AIV aic..aic+aiv-1.
/// Cluster c (0 <= c < min(aic, aiv / 2)) is AIC c with AIV aic+2c and aic+2c+1.
struct MachineModel {
  uint32_t aic = 0;
  uint32_t aiv = 0;
  int64_t base = 0;        ///< tick at which the orchestrator starts
  int64_t orch = 0;        ///< orchestrator ticks per submission
  int64_t edge_cost = 0;   ///< orchestrator ticks per dependency it wires into a submission
  int64_t dispatch = 0;    ///< scheduler ticks per block it dispatches
  int64_t launch = 0;      ///< ticks from a block's dispatch to its kernels' start
  int64_t finish = 0;      ///< ticks from a task's last kernel end to its successors seeing it
  int64_t dummy_cost = 0;  ///< scheduler ticks spent on a task with no kernel
  /// Tasks of one ring in flight at once (0: unbounded): a ring's i-th submission waits
  /// until its (i - ring_capacity)-th task is done.
  uint32_t ring_capacity = 0;
  CorePolicy policy = CorePolicy::kLowest;
  std::vector<CoreReservation> reserved;
};

/// Kernel run times per task, indexed like DepGraph::tasks.
///
/// A task's runs are the core occupations of its blocks in order: block 0's active slots
/// (aic, aiv0, aiv1, those present), then block 1's, and so on. Its list
/// ticks[first[t] .. first[t + 1]) is used cyclically: one entry per active slot gives every
/// block the same times; one per slot and block gives each block its own.
struct TaskWork {
  std::vector<int64_t> ticks;
  std::vector<uint64_t> first;  ///< tasks + 1 offsets into ticks
  /// Extra ticks a task waits after it is ready (empty: none), indexed like DepGraph::tasks.
  std::vector<int64_t> delay;
};

/// The most blocks (block_num) one task may have in a simulation: simulation time is linear
/// in the blocks, so a task beyond this is an error rather than an unbounded run.
inline constexpr int64_t kMaxSimulatedBlocksPerTask = int64_t{1} << 20;

struct CoreRun;

/// Receives each core run as SimulateSchedule decides it, in dispatch order (the order of
/// SimulationResult::runs), with its task's ready time: a consumer such as the trace writer
/// then needs no list of every run (bounded memory on million-task graphs).
class CoreRunSink {
 public:
  virtual ~CoreRunSink() = default;
  /// One run; `ready` is SimulatedTask::ready of run.task. Called O(1) times per run.
  virtual void OnRun(const CoreRun& run, int64_t ready) = 0;
};

/// What SimulateSchedule does besides the makespan.
struct SimulationOptions {
  /// Per pair of the graph: 0 drops it from the simulated graph (empty: keep every pair).
  const std::vector<uint8_t>* keep = nullptr;
  /// Keep every core run (for a trace): 48 bytes per run.
  bool record_runs = false;
  /// Also hand each core run to this sink as it is decided (nullptr: none).
  CoreRunSink* run_sink = nullptr;
};

/// One kernel run on one core.
struct CoreRun {
  uint32_t task = 0;  ///< index into DepGraph::tasks
  uint32_t block = 0;
  uint32_t core = 0;
  int64_t decided = 0;   ///< when the scheduler took the block (its dispatch work follows)
  int64_t dispatch = 0;  ///< when the block was handed to the core (once the core is free)
  int64_t start = 0;
  int64_t end = 0;
};

/// When one task happened, in ticks. -1 for entries not simulated (a repeated task id's
/// earlier entries).
struct SimulatedTask {
  int64_t release = -1;  ///< submitted by the orchestrator
  int64_t ready = -1;    ///< released, every predecessor done, plus its delay
  int64_t start = -1;    ///< first kernel start (a task with no kernel: its scheduler slot)
  int64_t end = -1;      ///< last kernel end
  int64_t done = -1;     ///< seen done by its successors
};

/// The simulated schedule.
struct SimulationResult {
  int64_t first_start = 0;  ///< earliest kernel start
  int64_t last_end = 0;     ///< latest kernel end
  /// last_end - first_start: the span the timing records measure (0 with no kernel run).
  int64_t makespan = 0;
  int64_t last_done = 0;             ///< latest `done`, from the machine's base tick
  std::vector<SimulatedTask> tasks;  ///< indexed like DepGraph::tasks
  std::vector<CoreRun> runs;         ///< with record_runs: in dispatch order
  std::vector<int64_t> core_busy;    ///< per core: ticks running kernels
  int64_t scheduler_busy = 0;        ///< ticks the scheduler spent dispatching
  uint64_t simulated_tasks = 0;
  uint64_t blocks = 0;
  uint64_t core_runs = 0;
  uint64_t edges = 0;  ///< dependencies between simulated tasks that were honoured
};

/// Simulates the machine on `graph` (a task with several tasks[] entries is simulated once,
/// as its last entry, at that entry's place).
///
/// Model: the orchestrator submits the tasks in tasks[] order, task i at release(i) =
/// max(release(i-1), done of the ring's task i - ring_capacity) + orch + edge_cost x (its kept
/// predecessors that are tasks), release(-1) = base. A task is ready at max(release, latest
/// done of its kept task predecessors) + delay; allocations are done at base. The scheduler
/// takes ready tasks by (ready, submission index) and handles each block in turn: D =
/// max(ready, scheduler free), the scheduler is busy until D + dispatch; the block takes a
/// core of its single active type, or a whole cluster for a MIX block (several active slots),
/// chosen by `policy` at time D, is dispatched at max(D, when those cores are free), starts
/// `launch` later, and each core runs its slot's time. The task is done `finish` after its
/// last kernel ends. A task with no kernel takes dummy_cost of scheduler time and is done then.
/// Returns false with a one-line message when a task has more than kMaxSimulatedBlocksPerTask
/// blocks, when a task needs a core type or a cluster the
/// machine lacks, when the kept graph has a cycle among tasks, or when the ring capacity
/// deadlocks (a submission waits for a task that needs a later one).
/// Cost: O((V + E) log V + B log C + M * K) for V tasks, E kept pairs, B blocks, C cores, M
/// MIX blocks and K clusters; memory O(V + E + C), plus the runs when recorded.
bool SimulateSchedule(const DepGraph& graph, const MachineModel& machine, const TaskWork& work,
                      const SimulationOptions& options, SimulationResult* result, std::string* err);

/// The one-line message for a task over kMaxSimulatedBlocksPerTask ("task (2, 1): block_num
/// ... exceeds the simulation limit of 1048576 blocks per task"). O(1).
std::string BlockLimitMessage(const Task& task, IdDisplay display);

/// The cores a task's block occupies, in slot order (aic, aiv0, aiv1): bit 0 aic, bit 1 aiv0,
/// bit 2 aiv1 (0 for a task with no kernel). O(1).
uint8_t ActiveSlots(const Task& task);

}  // namespace depgraph
