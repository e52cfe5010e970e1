#include "overlap_command.h"

#include <CLI/CLI.hpp>
#include <cstdio>
#include <filesystem>

#include "cli_inputs.h"
#include "depgraph/graph/graph_query.h"
#include "depgraph/graph/task_label.h"
#include "depgraph/internal/message_quote.h"
#include "depgraph/support/json_writer.h"
#include "depgraph/timing/task_overlap.h"

namespace depgraph {

namespace {

// What the report needs to name tasks, cores and times.
struct Printer {
  const DepGraph& graph;
  const std::vector<TaskLabel>& labels;
  const TimingRecords& records;
  int64_t t0 = 0;
  int64_t freq = 0;

  std::string Task(TaskId id) const {
    std::string text = FormatTaskId(id, graph.Display());
    const int64_t node = graph.FindNode(id);
    if (node >= 0) {
      const std::string name = DisplayKernelName(graph, labels, static_cast<uint32_t>(node));
      if (!name.empty()) text += " " + EscapeForMessage(name);
    }
    return text;
  }
  std::string Time(int64_t ticks) const {
    if (freq <= 0) return std::to_string(ticks - t0) + " ticks";
    char buf[48];
    std::snprintf(buf, sizeof buf, "%.3f us", TicksToMicros(ticks - t0, freq));
    return buf;
  }
  std::string Core(int64_t core) const {
    std::string type(records.CoreType(core));
    for (char& c : type) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return type + "_" + std::to_string(core);
  }
};

void WriteText(const Printer& p, const OverlapAnswer& a, std::ostream& out) {
  const OverlapTask &x = a.first, &y = a.second;
  out << p.Task(x.id) << " and " << p.Task(y.id) << ": "
      << (a.verdict == OverlapVerdict::kOverlapped ? "overlapped" : "did not overlap") << " ("
      << OverlapVerdictName(a.verdict) << ")\n";
  for (const OverlapTask* t : {&x, &y}) {
    out << "  " << p.Task(t->id) << " ran " << p.Time(t->start) << " .. " << p.Time(t->end)
        << " on " << p.Core(t->core) << "\n";
  }
  switch (a.verdict) {
    case OverlapVerdict::kOverlapped:
      out << "  both ran for " << p.Time(p.t0 + a.overlap) << "\n";
      break;
    case OverlapVerdict::kOrdered:
      out << "  ordered by deps.json (" << a.path.size() - 1 << " edge(s)): they cannot overlap:";
      for (size_t i = 0; i < a.path.size(); ++i) out << (i ? " -> " : " ") << p.Task(a.path[i]);
      out << "\n";
      break;
    case OverlapVerdict::kWaitedForOther:
      out << "  unordered in deps.json, but " << p.Task(y.id) << " waited for its predecessor "
          << p.Task(a.gate) << ", done at " << p.Time(a.gate_end) << ", after " << p.Task(x.id)
          << " had ended\n";
      break;
    case OverlapVerdict::kCoreBusy:
      out << "  unordered in deps.json and ready at " << p.Time(std::max(a.ready, p.t0))
          << ", but " << p.Core(y.core) << " ran " << p.Task(a.gate) << " until "
          << p.Time(a.gate_end) << ": the cores, not the graph, serialized them\n";
      break;
    case OverlapVerdict::kLateDispatch:
      out << "  unordered in deps.json, ready at " << p.Time(std::max(a.ready, p.t0))
          << " with its core free, but dispatched at " << p.Time(a.dispatch)
          << ": the scheduler was late\n";
      break;
    default:
      out << "  unordered in deps.json, ready at " << p.Time(std::max(a.ready, p.t0))
          << " with its core free before " << p.Task(x.id)
          << " ended; the records do not say why it started later (no dispatch rows: level 1)\n";
      break;
  }
}

void WriteJson(const Printer& p, const OverlapAnswer& a, std::ostream& out) {
  auto task = [&](const OverlapTask& t) {
    return "{\"id\": " + JsonString(std::to_string(t.id)) + ", \"start\": " +
           std::to_string(t.start) + ", \"end\": " + std::to_string(t.end) + ", \"core\": " +
           std::to_string(t.core) + "}";
  };
  out << "{\"schema\": \"depgraph-overlap/1\", \"verdict\": "
      << JsonString(OverlapVerdictName(a.verdict)) << ", \"overlapped\": "
      << (a.verdict == OverlapVerdict::kOverlapped ? "true" : "false")
      << ", \"first\": " << task(a.first) << ", \"second\": " << task(a.second)
      << ", \"overlap_ticks\": " << a.overlap << ", \"path\": [";
  for (size_t i = 0; i < a.path.size(); ++i) out << (i ? ", " : "") << JsonString(std::to_string(a.path[i]));
  out << "], \"ready\": " << a.ready << ", \"gate\": "
      << (a.verdict == OverlapVerdict::kWaitedForOther || a.verdict == OverlapVerdict::kCoreBusy
              ? JsonString(std::to_string(a.gate))
              : "null")
      << ", \"gate_end\": " << a.gate_end << ", \"dispatch\": " << a.dispatch
      << ", \"clock_freq_hz\": " << p.freq << "}\n";
}

}  // namespace

CLI::App* AddOverlapCommand(CLI::App* app, OverlapArgs* args) {
  CLI::App* cmd = app->add_subcommand(
      "overlap",
      "Did tasks A and B run at the same time in a profiled run, and if not, why not: a "
      "dependency path, another predecessor, a busy core or a late dispatch. Exit 0 answered, "
      "1 bad input.");
  cmd->add_option("records", args->records, "chip_swimlane_records.json of the run")->required();
  cmd->add_option("a", args->a, "a task: raw id or (ring, local)")->required();
  cmd->add_option("b", args->b, "the other task")->required();
  cmd->add_option("--deps-json", args->deps_json, "deps.json (default: beside the records)");
  cmd->add_option("--func-names", args->func_names, "name map (default: the newest sibling)");
  cmd->add_flag("--json", args->json, "the answer as JSON (schema depgraph-overlap/1)");
  return cmd;
}

int RunOverlapCommand(const OverlapArgs& args, std::ostream& out, std::ostream& err) {
  TaskId a = 0, b = 0;
  std::string error;
  if (!ParseTaskRef(args.a, &a, &error) || !ParseTaskRef(args.b, &b, &error)) {
    err << "error: " << error << "\n";
    return 1;
  }
  const std::string deps = !args.deps_json.empty()
      ? args.deps_json
      : (std::filesystem::path(args.records).parent_path() / "deps.json").string();
  TimingRecords records;
  if (!LoadTimingRecords(args.records, &records, &error)) {
    err << "error: " << error << "\n";
    return 1;
  }
  DepGraph graph;
  if (!LoadGraphOrReport(deps, &graph, err)) return 1;
  NameMap names;
  if (!LoadNamesOrReport(deps, args.func_names, &names, err)) return 1;
  const std::vector<TaskLabel> labels = ResolveTaskLabels(graph, names);
  const TaskTimings timings = ReduceTaskTimings(records);
  OverlapAnswer answer;
  if (!AnswerOverlap(graph, records, timings, a, b, &answer, &error)) {
    err << "error: " << EscapeForMessage(args.records) << ": " << error << "\n";
    return 1;
  }
  Printer p{graph, labels, records, timings.t0,
            records.clock_freq_hz.state == FieldState::kValid ? records.clock_freq_hz.value : 0};
  if (args.json) {
    WriteJson(p, answer, out);
  } else {
    WriteText(p, answer, out);
  }
  return 0;
}

}  // namespace depgraph
