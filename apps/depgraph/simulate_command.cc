#include "simulate_command.h"

#include <CLI/CLI.hpp>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <sstream>

#include "cli_inputs.h"
#include "cli_output.h"
#include "depgraph/graph/task_label.h"
#include "depgraph/internal/message_quote.h"
#include "depgraph/support/atomic_file.h"
#include "depgraph/support/input_file.h"
#include "depgraph/support/json_writer.h"
#include "depgraph/timing/schedule_simulation.h"
#include "depgraph/timing/schedule_trace.h"
#include "depgraph/timing/schedule_what_if.h"
#include "depgraph/timing/simulation_inputs.h"
#include "depgraph/timing/timing_records.h"

namespace depgraph {

namespace {

// One answered question: the baseline, a what-if on the graph, or a what-if machine.
struct Scenario {
  std::string name;      // "baseline", "reduced_dataflow", "no-false-edges", "cores"
  uint64_t dropped = 0;  // honoured dependencies of the baseline the what-if no longer has
  uint64_t ready_earlier = 0;  // tasks ready earlier than in the baseline
  uint32_t aic = 0, aiv = 0;
  SimulationResult result{};
};

// Everything the report needs.
struct Report {
  const SimulateArgs& args;
  const DepGraph& graph;
  const std::vector<TaskLabel>& labels;
  std::string records_path{};
  MachineModel machine{};
  int64_t rank = -1;     // the rank of a multi-rank machine file taken (-1: none)
  std::string rank_sub;  // its `sub`
  int64_t freq_hz = 0;
  WorkSources sources{};
  std::vector<Scenario> scenarios{};  // [0] = baseline
  bool has_recorded = false;
  RecordedSpan recorded{};
  bool audited = false;
  SerializationReport serialization{};
  std::vector<FalseEdgeCost> ranked{};
};

std::string Fixed(double value, int decimals) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, value);
  return buf;
}

std::string Signed(double value, int decimals) {
  return (value >= 0 ? "+" : "") + Fixed(value, decimals);
}

double Percent(double part, double whole) { return whole != 0 ? 100.0 * part / whole : 0.0; }

std::string Micros(int64_t ticks, int64_t freq) {
  return Fixed(static_cast<double>(ticks) / static_cast<double>(freq) * 1e6, 3);
}

// Busy share of a core type over the baseline's span (kernel runs / (cores x makespan)).
double Utilisation(const SimulationResult& r, uint32_t from, uint32_t count) {
  if (count == 0 || r.makespan <= 0) return 0.0;
  int64_t busy = 0;
  for (uint32_t c = from; c < from + count; ++c) busy += r.core_busy[c];
  return Percent(static_cast<double>(busy), static_cast<double>(r.makespan) * count);
}

std::string TaskText(const Report& rep, uint32_t node) {
  std::string text = FormatTaskId(rep.graph.nodes[node], rep.graph.Display());
  const std::string& name = rep.labels[node].func_name;
  if (!name.empty()) text += " " + name;
  return text;
}

// Why a what-if on the graph left the makespan as it was.
std::string NoChangeReason(const Report& rep, const Scenario& sc) {
  if (sc.dropped == 0) return "no change: it drops no dependency between tasks";
  if (sc.ready_earlier == 0) {
    std::string why = "no change: no task became ready earlier";
    if (sc.name == "reduced_dataflow" && rep.machine.edge_cost == 0) {
      why += " (a dropped redundant dependency is implied by a path that stays, so it never "
             "was the last predecessor a task waited for, and a list schedule moves only when a "
             "ready time does)";
    } else {
      why += " (no dropped dependency was the last predecessor a task waited for)";
    }
    return why;
  }
  return "no change: " + std::to_string(sc.ready_earlier) +
         " task(s) became ready earlier, but the cores and the scheduler, not these "
         "dependencies, set the makespan";
}

// Tasks of `result` ready earlier than in `base`.
uint64_t ReadyEarlier(const SimulationResult& base, const SimulationResult& result) {
  uint64_t count = 0;
  for (size_t t = 0; t < base.tasks.size() && t < result.tasks.size(); ++t) {
    if (base.tasks[t].ready >= 0 && result.tasks[t].ready >= 0 &&
        result.tasks[t].ready < base.tasks[t].ready) {
      ++count;
    }
  }
  return count;
}

void WriteText(const Report& rep, std::ostream& out) {
  const MachineModel& m = rep.machine;
  const SimulationResult& base = rep.scenarios[0].result;
  out << "depgraph simulate of " << rep.args.input << "\n";
  out << "machine: " << m.aic << " AIC + " << m.aiv << " AIV cores, " << std::min(m.aic, m.aiv / 2)
      << " cluster(s), policy " << CorePolicyName(m.policy) << "; ticks: orch " << m.orch
      << ", edge " << m.edge_cost << ", dispatch " << m.dispatch << ", launch " << m.launch
      << ", finish " << m.finish << ", dummy " << m.dummy_cost;
  if (m.ring_capacity) out << "; ring capacity " << m.ring_capacity;
  if (!m.reserved.empty()) out << "; " << m.reserved.size() << " reserved core slot(s)";
  if (rep.rank >= 0) {
    out << "; rank " << rep.rank;
    if (!rep.rank_sub.empty()) out << " (" << EscapeForMessage(rep.rank_sub) << ")";
    out << " of " << EscapeForMessage(rep.args.machine);
  }
  out << "\n";
  const WorkSources& s = rep.sources;
  out << "run times: " << s.from_records << " task(s) from records";
  if (!rep.records_path.empty()) out << " (" << rep.records_path << ")";
  out << ", " << s.from_task_overrides << " from task times, " << s.from_kernels
      << " from kernel times, " << s.from_default << " from the default, " << s.without_kernel
      << " without kernel\n";
  out << "simulated: makespan " << base.makespan << " ticks";
  if (rep.freq_hz > 0) out << " (" << Micros(base.makespan, rep.freq_hz) << " us)";
  out << "; " << base.simulated_tasks << " tasks, " << base.blocks << " blocks, " << base.core_runs
      << " kernel runs, " << base.edges << " dependencies\n";
  out << "busy: AIC " << Fixed(Utilisation(base, 0, m.aic), 1) << "%, AIV "
      << Fixed(Utilisation(base, m.aic, m.aiv), 1) << "%, scheduler "
      << Fixed(Percent(static_cast<double>(base.scheduler_busy),
                       static_cast<double>(base.last_done - m.base)),
               1)
      << "%\n";
  if (rep.has_recorded) {
    const int64_t recorded = rep.recorded.makespan();
    out << "recorded: makespan " << recorded << " ticks over " << rep.recorded.tasks
        << " task(s); simulated " << Signed(Percent(base.makespan - recorded, recorded), 2)
        << "%\n";
  }
  for (size_t i = 1; i < rep.scenarios.size(); ++i) {
    const Scenario& sc = rep.scenarios[i];
    out << "what-if " << sc.name;
    if (sc.name == "cores") {
      out << " aic=" << sc.aic << ",aiv=" << sc.aiv;
    } else {
      out << " (" << sc.dropped << " of " << base.edges << " dependencies dropped)";
    }
    const int64_t delta = sc.result.makespan - base.makespan;
    out << ": makespan " << sc.result.makespan << " ticks (" << (delta >= 0 ? "+" : "") << delta
        << ", " << Signed(Percent(delta, base.makespan), 2) << "%)";
    if (delta == 0 && sc.name != "cores") out << "; " << NoChangeReason(rep, sc);
    out << "\n";
  }
  if (rep.audited) {
    const auto& findings = rep.serialization.findings;
    out << "false serialization: " << findings.size() << " finding(s), "
        << rep.serialization.false_pairs << " pair(s)";
    if (!findings.empty()) {
      out << "; by makespan saved when dropped alone (" << rep.ranked.size() << " simulated):";
    }
    out << "\n";
    for (size_t i = 0; i < rep.ranked.size(); ++i) {
      const FalseEdgeCost& c = rep.ranked[i];
      const FalseSerialization& f = findings[c.finding];
      const Pair& first = rep.graph.pairs[f.pairs.front()];
      out << "  " << (i + 1) << ". " << TaskText(rep, first.pred) << " -> "
          << TaskText(rep, first.succ);
      if (f.pairs.size() > 1) out << " (+" << (f.pairs.size() - 1) << " pair(s))";
      out << ": " << c.saving << " ticks (" << Fixed(Percent(c.saving, base.makespan), 2) << "%)\n";
    }
  }
  if (!rep.args.trace.empty()) out << "trace: " << rep.args.trace << "\n";
}

void Member(std::string* out, const char* name, const std::string& value, bool last = false) {
  AppendJsonString(out, name);
  *out += ": " + value + (last ? "" : ", ");
}

std::string OrNull(const std::string& text) { return text.empty() ? "null" : JsonString(text); }

void WriteJson(const Report& rep, std::ostream& stream) {
  const MachineModel& m = rep.machine;
  const SimulationResult& base = rep.scenarios[0].result;
  std::string out = "{\n  \"schema\": \"depgraph-simulate/1\",\n";
  out += "  \"input\": " + JsonString(rep.args.input) + ",\n";
  out += "  \"records\": " + OrNull(rep.records_path) + ",\n";
  out += "  \"durations\": " + OrNull(rep.args.durations) + ",\n";
  out += "  \"machine_file\": " + OrNull(rep.args.machine) + ",\n";
  out += "  \"machine\": {";
  Member(&out, "aic", std::to_string(m.aic));
  Member(&out, "aiv", std::to_string(m.aiv));
  Member(&out, "clusters", std::to_string(std::min(m.aic, m.aiv / 2)));
  Member(&out, "policy", JsonString(CorePolicyName(m.policy)));
  Member(&out, "base", std::to_string(m.base));
  Member(&out, "orch", std::to_string(m.orch));
  Member(&out, "edge_cost", std::to_string(m.edge_cost));
  Member(&out, "dispatch", std::to_string(m.dispatch));
  Member(&out, "launch", std::to_string(m.launch));
  Member(&out, "finish", std::to_string(m.finish));
  Member(&out, "dummy_cost", std::to_string(m.dummy_cost));
  Member(&out, "ring_capacity", std::to_string(m.ring_capacity));
  Member(&out, "reserved", std::to_string(m.reserved.size()));
  Member(&out, "freq_hz", rep.freq_hz > 0 ? std::to_string(rep.freq_hz) : "null", true);
  out += "},\n  \"run_times\": {";
  Member(&out, "records", std::to_string(rep.sources.from_records));
  Member(&out, "task_times", std::to_string(rep.sources.from_task_overrides));
  Member(&out, "kernel_times", std::to_string(rep.sources.from_kernels));
  Member(&out, "default", std::to_string(rep.sources.from_default));
  Member(&out, "without_kernel", std::to_string(rep.sources.without_kernel), true);
  out += "},\n  \"baseline\": {";
  Member(&out, "makespan", std::to_string(base.makespan));
  Member(&out, "makespan_us",
         rep.freq_hz > 0 ? Micros(base.makespan, rep.freq_hz) : std::string("null"));
  Member(&out, "first_start", std::to_string(base.first_start));
  Member(&out, "last_end", std::to_string(base.last_end));
  Member(&out, "last_done", std::to_string(base.last_done));
  Member(&out, "tasks", std::to_string(base.simulated_tasks));
  Member(&out, "blocks", std::to_string(base.blocks));
  Member(&out, "kernel_runs", std::to_string(base.core_runs));
  Member(&out, "dependencies", std::to_string(base.edges));
  Member(&out, "aic_busy_pct", Fixed(Utilisation(base, 0, m.aic), 2));
  Member(&out, "aiv_busy_pct", Fixed(Utilisation(base, m.aic, m.aiv), 2));
  Member(&out, "scheduler_busy", std::to_string(base.scheduler_busy), true);
  out += "},\n  \"recorded\": ";
  if (rep.has_recorded) {
    const int64_t recorded = rep.recorded.makespan();
    out += "{";
    Member(&out, "makespan", std::to_string(recorded));
    Member(&out, "tasks", std::to_string(rep.recorded.tasks));
    Member(&out, "simulated_error_pct", Fixed(Percent(base.makespan - recorded, recorded), 3),
           true);
    out += "}";
  } else {
    out += "null";
  }
  out += ",\n  \"what_if\": [";
  for (size_t i = 1; i < rep.scenarios.size(); ++i) {
    const Scenario& sc = rep.scenarios[i];
    out += i > 1 ? ",\n    {" : "\n    {";
    Member(&out, "name", JsonString(sc.name));
    if (sc.name == "cores") {
      Member(&out, "aic", std::to_string(sc.aic));
      Member(&out, "aiv", std::to_string(sc.aiv));
    } else {
      Member(&out, "dropped_dependencies", std::to_string(sc.dropped));
      Member(&out, "ready_earlier", std::to_string(sc.ready_earlier));
    }
    Member(&out, "makespan", std::to_string(sc.result.makespan));
    Member(&out, "saving", std::to_string(base.makespan - sc.result.makespan));
    Member(&out, "saving_pct", Fixed(Percent(base.makespan - sc.result.makespan, base.makespan), 3),
           true);
    out += "}";
  }
  out += rep.scenarios.size() > 1 ? "\n  ],\n" : "],\n";
  out += "  \"false_edges\": ";
  if (rep.audited) {
    const auto& findings = rep.serialization.findings;
    out += "{";
    Member(&out, "findings", std::to_string(findings.size()));
    Member(&out, "pairs", std::to_string(rep.serialization.false_pairs));
    Member(&out, "simulated", std::to_string(rep.ranked.size()));
    out += "\"ranked\": [";
    for (size_t i = 0; i < rep.ranked.size(); ++i) {
      const FalseEdgeCost& c = rep.ranked[i];
      out += i ? ",\n      {" : "\n      {";
      Member(&out, "finding", std::to_string(c.finding));
      std::string pairs = "[";
      for (size_t k = 0; k < findings[c.finding].pairs.size(); ++k) {
        const Pair& p = rep.graph.pairs[findings[c.finding].pairs[k]];
        pairs += (k ? ", [" : "[") + JsonId(rep.graph.nodes[p.pred]) + ", " +
                 JsonId(rep.graph.nodes[p.succ]) + "]";
      }
      Member(&out, "pairs", pairs + "]");
      Member(&out, "makespan", std::to_string(c.makespan));
      Member(&out, "saving", std::to_string(c.saving), true);
      out += "}";
    }
    out += rep.ranked.empty() ? "]}" : "\n    ]}";
  } else {
    out += "null";
  }
  out += ",\n  \"trace\": " + OrNull(rep.args.trace) + "\n}\n";
  stream << out;
}

// The records file to read: --records, else the sibling chip_swimlane_records.json or
// l2_perf_records.json (unless --no-records).
std::string RecordsPath(const SimulateArgs& args) {
  if (!args.records.empty() || args.no_records) return args.records;
  const std::filesystem::path dir = std::filesystem::path(args.input).parent_path();
  for (const char* name : {"chip_swimlane_records.json", "l2_perf_records.json"}) {
    const std::filesystem::path candidate = dir / name;
    std::error_code ec;
    if (std::filesystem::is_regular_file(candidate, ec)) return candidate.string();
  }
  return "";
}

bool Fail(std::ostream& err, const std::string& message) {
  err << "error: " << message << "\n";
  return false;
}

int Error(std::ostream& err, const std::string& message) {
  Fail(err, message);
  return 1;
}

// A usage error (a bad option value): one line, exit 2 as for an unknown option.
int Usage(std::ostream& err, const std::string& message) {
  Fail(err, message);
  return 2;
}

// The machine: the description, the records' core counts, then the command line.
bool BuildMachine(const SimulateArgs& args, const MachineDescription& desc, bool has_records,
                  const TimingRecords& records, MachineModel* m, int64_t* freq, std::ostream& err) {
  *m = desc.machine;
  if (!desc.has_cores && has_records) RecordedCores(records, &m->aic, &m->aiv);
  *freq = desc.freq_hz;
  if (*freq == 0 && has_records && records.clock_freq_hz.state == FieldState::kValid &&
      records.clock_freq_hz.value > 0) {
    *freq = records.clock_freq_hz.value;
  }
  if (args.aic >= 0) m->aic = static_cast<uint32_t>(args.aic);
  if (args.aiv >= 0) m->aiv = static_cast<uint32_t>(args.aiv);
  if (args.orch >= 0) m->orch = args.orch;
  if (args.dispatch >= 0) m->dispatch = args.dispatch;
  if (args.launch >= 0) m->launch = args.launch;
  if (args.finish >= 0) m->finish = args.finish;
  if (args.dummy_cost >= 0) m->dummy_cost = args.dummy_cost;
  if (args.edge_cost >= 0) m->edge_cost = args.edge_cost;
  if (args.ring_capacity >= 0) m->ring_capacity = static_cast<uint32_t>(args.ring_capacity);
  if (args.freq >= 0) *freq = args.freq;
  if (!args.policy.empty()) {
    if (args.policy == "lowest") {
      m->policy = CorePolicy::kLowest;
    } else if (args.policy == "spread") {
      m->policy = CorePolicy::kSpread;
    } else {
      return Fail(err, "--policy: expected lowest or spread, got " + QuoteForMessage(args.policy));
    }
  }
  if (m->aic + m->aiv == 0) {
    return Fail(err, args.input +
                         ": no cores: give --aic and --aiv, a --machine file with "
                         "aic and aiv, or timing records");
  }
  return true;
}

bool Simulate(const DepGraph& graph, const MachineModel& machine, const TaskWork& work,
              const std::vector<uint8_t>* keep, CoreRunSink* runs, SimulationResult* result,
              const std::string& input, std::ostream& err) {
  SimulationOptions options;
  options.keep = keep;
  options.run_sink = runs;
  std::string error;
  if (!SimulateSchedule(graph, machine, work, options, result, &error)) {
    return Fail(err, input + ": " + error);
  }
  return true;
}

}  // namespace

bool ParseCoreCounts(const std::string& text, int64_t* aic, int64_t* aiv, std::string* err) {
  std::istringstream in(text);
  std::string item;
  bool any = false;
  while (std::getline(in, item, ',')) {
    const size_t eq = item.find('=');
    const std::string key = item.substr(0, eq),
                      value = eq == std::string::npos ? "" : item.substr(eq + 1);
    bool ok = (key == "aic" || key == "aiv") && !value.empty() && value.size() <= 7;
    for (char ch : value) ok = ok && ch >= '0' && ch <= '9';
    if (!ok) {
      *err = "--cores: expected aic=N,aiv=M (counts up to 9999999), got " + QuoteForMessage(text);
      return false;
    }
    (key == "aic" ? *aic : *aiv) = std::stoll(value);
    any = true;
  }
  if (!any || (!text.empty() && text.back() == ',')) {
    *err = "--cores: expected aic=N,aiv=M (counts up to 9999999), got " + QuoteForMessage(text);
    return false;
  }
  return true;
}

CLI::App* AddSimulateCommand(CLI::App* app, SimulateArgs* args) {
  CLI::App* cmd = app->add_subcommand(
      "simulate",
      "Predict the runtime's schedule with a list-scheduling model of the machine, "
      "driven by recorded or given kernel run times; answer what-if questions. "
      "Exit 0: simulated, 1: bad input.");
  cmd->add_option("deps_json", args->input, "deps.json to simulate")->required();
  cmd->add_option("--records", args->records,
                  "timing records with the run times (default: chip_swimlane_records.json or "
                  "l2_perf_records.json beside the input)");
  cmd->add_flag("--no-records", args->no_records, "do not read the records beside the input");
  cmd->add_option("--durations", args->durations,
                  "run times by task, kernel or default: {\"default\": T, \"kernels\": {...}, "
                  "\"tasks\": {...}} (they override the records)");
  cmd->add_option("--machine", args->machine,
                  "machine description: a timing case's simulation.json or one rank of it");
  cmd->add_option("--rank", args->rank,
                  "rank of a simulation.json to take (default: the rank whose sub names the "
                  "directory of DEPS, or the only rank)")
      ->check(CLI::Range(int64_t{0}, int64_t{1} << 20));
  const auto ticks = CLI::Range(int64_t{0}, int64_t{1} << 48);
  cmd->add_option("--aic", args->aic, "AIC cores")->check(CLI::Range(0, 1 << 20));
  cmd->add_option("--aiv", args->aiv, "AIV cores")->check(CLI::Range(0, 1 << 20));
  cmd->add_option("--orch", args->orch, "orchestrator ticks per submission")->check(ticks);
  cmd->add_option("--edge-cost", args->edge_cost,
                  "orchestrator ticks per dependency of a submission")
      ->check(ticks);
  cmd->add_option("--dispatch", args->dispatch, "scheduler ticks per block")->check(ticks);
  cmd->add_option("--launch", args->launch, "ticks from dispatch to kernel start")->check(ticks);
  cmd->add_option("--finish", args->finish, "ticks from a task's end to its successors")
      ->check(ticks);
  cmd->add_option("--dummy-cost", args->dummy_cost, "scheduler ticks of a task without kernel")
      ->check(ticks);
  cmd->add_option("--ring-capacity", args->ring_capacity,
                  "tasks of one ring in flight at once (0: unbounded)")
      ->check(CLI::Range(int64_t{0}, int64_t{UINT32_MAX}));
  cmd->add_option("--policy", args->policy, "core choice: lowest (default) or spread");
  cmd->add_option("--freq", args->freq, "ticks per second, for microseconds (default: records)")
      ->check(CLI::Range(int64_t{1}, int64_t{1} << 40));
  cmd->add_option("--what-if", args->what_if,
                  "reduced_dataflow (drop what that edge mode drops) or no-false-edges (drop "
                  "the audit's false serialization, and rank it); repeatable")
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  cmd->add_option("--cores", args->cores, "a what-if machine: aic=N,aiv=M; repeatable")
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  cmd->add_option("--rank-limit", args->rank_limit,
                  "false-serialization findings simulated one by one (default 20; 0 = all)")
      ->check(CLI::Range(int64_t{0}, int64_t{1} << 30));
  cmd->add_option("--trace", args->trace,
                  "write the baseline schedule as a Chrome trace JSON (Perfetto) here");
  cmd->add_flag("--json", args->json, "write JSON (schema depgraph-simulate/1)");
  cmd->add_option("-o,--output", args->output, "write the report here (atomically)");
  cmd->add_option("--func-names", args->func_names,
                  "name_map*.json with kernel names (default: newest sibling name_map*.json)");
  cmd->add_option("--threads", args->threads,
                  "threads that load the input and run the reduction (default 0: every core); "
                  "results are the same for any N")
      ->check(CLI::Range(0u, 1024u));
  return cmd;
}

int RunSimulateCommand(const SimulateArgs& args, std::ostream& out, std::ostream& err) {
  std::string error;
  // Questions first: a typo should not cost a load.
  std::vector<std::string> graph_questions;
  for (const std::string& q : args.what_if) {
    if (q != "reduced_dataflow" && q != "no-false-edges") {
      return Usage(
          err, "--what-if: expected reduced_dataflow or no-false-edges, got " + QuoteForMessage(q));
    }
    if (std::find(graph_questions.begin(), graph_questions.end(), q) == graph_questions.end()) {
      graph_questions.push_back(q);
    }
  }
  std::vector<std::pair<int64_t, int64_t>> core_questions;
  for (const std::string& c : args.cores) {
    int64_t aic = -1, aiv = -1;
    if (!ParseCoreCounts(c, &aic, &aiv, &error)) return Usage(err, error);
    core_questions.emplace_back(aic, aiv);
  }
  if (!args.policy.empty() && args.policy != "lowest" && args.policy != "spread") {
    return Usage(err, "--policy: expected lowest or spread, got " + QuoteForMessage(args.policy));
  }
  const std::string records_path = RecordsPath(args);
  const std::string names_path = NamesPathFor(args.input, args.func_names);
  const std::vector<std::string> inputs = {args.input, records_path, args.durations, args.machine,
                                           names_path};
  for (const std::string* output : {&args.output, &args.trace}) {
    if (!output->empty() && !CheckOutputIsNotAnInput(*output, inputs, &error)) {
      return Error(err, error);
    }
  }
  if (!args.output.empty() && !args.trace.empty() &&
      !CheckOutputsDiffer(args.output, args.trace, &error)) {
    return Error(err, error);
  }

  DepGraph graph;
  // Only the what-ifs (an edge mode's dataflow proof, the false-serialization audit) read views.
  const ViewUse views = args.what_if.empty() ? ViewUse::kSkip : ViewUse::kRead;
  if (!LoadGraphOrReport(args.input, &graph, err, args.threads, views)) return 1;
  NameMap names;
  if (!LoadNamesOrReport(args.input, args.func_names, &names, err)) return 1;
  MachineDescription desc;
  if (!args.machine.empty() &&
      !LoadMachineDescription(
          args.machine,
          RankChoice{args.rank, std::filesystem::absolute(args.input).parent_path().string()},
          &desc, &error)) {
    return Error(err, error);
  }
  if (!desc.rank_matches_capture) {
    err << "warning: --rank " << args.rank << " of " << EscapeForMessage(args.machine) << " is "
        << QuoteForMessage(desc.rank_sub) << ", not the directory of "
        << EscapeForMessage(args.input) << "\n";
  }
  TimingRecords records;
  std::vector<RecordedRun> runs;
  if (!records_path.empty()) {
    if (!LoadTimingRecords(records_path, &records, &error)) return Error(err, error);
    runs = RecordedRuns(records);
  }
  DurationTable overrides;
  if (!args.durations.empty() && !LoadDurationTable(args.durations, &overrides, &error)) {
    return Error(err, error);
  }
  const std::vector<TaskLabel> labels = ResolveTaskLabels(graph, names);
  Report rep{.args = args, .graph = graph, .labels = labels};
  rep.rank = desc.rank;
  rep.rank_sub = desc.rank_sub;
  rep.records_path = records_path;
  if (!BuildMachine(args, desc, !records_path.empty(), records, &rep.machine, &rep.freq_hz, err)) {
    return 1;
  }
  TaskWork work;
  if (!BuildTaskWork(graph, names, overrides, runs, desc, &work, &rep.sources, &error)) {
    return Error(err, args.input + ": " + error);
  }

  // The trace is written while the baseline runs (no list of every run is kept) and committed
  // only once every scenario has succeeded.
  AtomicFile trace_file;
  std::unique_ptr<ScheduleTraceStream> trace;
  if (!args.trace.empty()) {
    if (!trace_file.Open(args.trace, &error)) return Error(err, error);
    trace = std::make_unique<ScheduleTraceStream>(graph, labels, rep.machine, rep.freq_hz,
                                                  trace_file.stream());
  }
  rep.scenarios.push_back(Scenario{.name = "baseline"});
  if (!Simulate(graph, rep.machine, work, nullptr, trace.get(), &rep.scenarios[0].result,
                args.input, err)) {
    return 1;
  }
  if (!runs.empty()) {
    rep.recorded = MeasureRecordedSpan(graph, runs);
    rep.has_recorded = rep.recorded.runs > 0;
  }
  for (const std::string& q : graph_questions) {
    std::vector<uint8_t> keep;
    if (q == "reduced_dataflow") {
      if (!KeepReducedDataflow(graph, &keep, &error, args.threads)) {
        return Error(err, args.input + ": " + error);
      }
    } else {
      if (!FindFalseEdges(graph, &rep.serialization, &error)) {
        return Error(err, args.input + ": " + error);
      }
      rep.audited = true;
      keep = KeepWithoutFalseEdges(graph, rep.serialization.findings);
    }
    Scenario sc{.name = q};
    if (!Simulate(graph, rep.machine, work, &keep, nullptr, &sc.result, args.input, err)) {
      return 1;
    }
    // Counted as the baseline counts: honoured dependencies between simulated tasks.
    sc.dropped = rep.scenarios[0].result.edges - sc.result.edges;
    sc.ready_earlier = ReadyEarlier(rep.scenarios[0].result, sc.result);
    rep.scenarios.push_back(std::move(sc));
  }
  for (const auto& [aic, aiv] : core_questions) {
    MachineModel m = rep.machine;
    if (aic >= 0) m.aic = static_cast<uint32_t>(aic);
    if (aiv >= 0) m.aiv = static_cast<uint32_t>(aiv);
    Scenario sc{.name = "cores", .dropped = 0, .aic = m.aic, .aiv = m.aiv};
    if (!Simulate(graph, m, work, nullptr, nullptr, &sc.result, args.input, err)) return 1;
    rep.scenarios.push_back(std::move(sc));
  }
  if (rep.audited && !RankFalseEdges(graph, rep.machine, work, rep.serialization.findings,
                                     rep.scenarios[0].result.makespan,
                                     static_cast<size_t>(args.rank_limit), &rep.ranked, &error)) {
    return Error(err, args.input + ": " + error);
  }

  if (trace != nullptr) {
    trace->Finish(rep.scenarios[0].result);
    if (!trace_file.Commit(&error)) return Error(err, error);
  }
  auto render = [&](std::ostream& s) { args.json ? WriteJson(rep, s) : WriteText(rep, s); };
  if (args.output.empty()) {
    render(out);
    return 0;
  }
  if (!WriteReportFile(args.output, err, render)) return 1;
  out << "Wrote " << args.output << " (makespan " << rep.scenarios[0].result.makespan
      << " ticks)\n";
  return 0;
}

}  // namespace depgraph
