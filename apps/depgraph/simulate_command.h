// `depgraph simulate`: the runtime's schedule predicted by a list-scheduling model of the
// machine, driven by recorded or given kernel run times, with what-if questions and a trace.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace depgraph {

/// Arguments of `depgraph simulate`. Machine values of -1 were not given.
struct SimulateArgs {
  std::string input;        ///< deps.json
  std::string records;      ///< --records: timing records (default: the sibling file)
  bool no_records = false;  ///< --no-records: do not look for the sibling records file
  std::string durations;    ///< --durations: run times by task, kernel or default
  std::string machine;      ///< --machine: simulation.json or one rank object of it
  int64_t rank = -1;        ///< --rank: which rank of a simulation.json (-1: by DEPS's directory)
  int64_t aic = -1, aiv = -1, orch = -1, dispatch = -1, launch = -1, finish = -1;
  int64_t dummy_cost = -1, edge_cost = -1, ring_capacity = -1, freq = -1;
  std::string policy;                ///< --policy lowest|spread
  std::vector<std::string> what_if;  ///< --what-if reduced_dataflow|no-false-edges
  std::vector<std::string> cores;    ///< --cores aic=N,aiv=M (what-if machines)
  int64_t rank_limit = 20;           ///< --rank-limit: false-edge findings simulated (0 all)
  std::string trace;                 ///< --trace: Chrome trace JSON of the baseline
  bool json = false;                 ///< --json: the report as JSON
  std::string output;                ///< -o: the report here instead of stdout
  std::string func_names;            ///< --func-names: name map (default: sibling)
  unsigned threads = 0;              ///< --threads: threads that load and reduce (0 = all)
};

/// Registers the `simulate` subcommand on `app`, storing its arguments in *args (which must
/// outlive the parse). Returns the subcommand, whose parsed() says whether it was chosen.
CLI::App* AddSimulateCommand(CLI::App* app, SimulateArgs* args);

/// Parses a --cores value "aic=N,aiv=M" (either part may be left out: that count stays).
/// False with a one-line message. O(|text|).
bool ParseCoreCounts(const std::string& text, int64_t* aic, int64_t* aiv, std::string* err);

/// Runs `depgraph simulate`: the baseline schedule, its makespan against the records' when
/// there are records, each what-if, the false-serialization findings ranked by the makespan
/// they cost (with --what-if no-false-edges), as text or JSON (schema depgraph-simulate/1),
/// and the baseline's trace. Exit codes: 0 simulated; 1 bad input (unreadable or invalid
/// graph, records, durations or machine file, a task without run time, a machine without the
/// cores a task needs, a cycle, an unwritable output), one line on `err`, no file written.
/// Cost: the load, the records, one simulation per scenario (schedule_simulation.h), plus the
/// audit's false-serialization check and min(rank limit, findings) simulations with
/// no-false-edges.
int RunSimulateCommand(const SimulateArgs& args, std::ostream& out, std::ostream& err);

}  // namespace depgraph
