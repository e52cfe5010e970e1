#include "depgraph_orchestration/check_gate.h"

#include <set>
#include <sstream>

#include "depgraph/audit/diff_gate.h"
#include "depgraph/audit/race_audit.h"
#include "depgraph/graph/task_label.h"

namespace depgraph {

namespace {

enum CheckRule : size_t { kOrderingLost, kEdgeNotImplied, kEdgeImplied, kRetentionLost, kHazard };

// KernelName of the task with `id`, or "alloc" (not in tasks[]). O(log tasks).
std::string KernelOfId(const DepGraph& graph, const std::map<int32_t, std::string>& names,
                       TaskId id) {
  const Task* task = graph.FindTask(id);
  return task ? CheckKernelName(graph, names, static_cast<uint32_t>(task - graph.tasks.data()))
              : "alloc";
}

GateTask TaskOf(const DepGraph& graph, const std::map<int32_t, std::string>& names, TaskId id,
                bool rings) {
  return GateTask{id, FormatTaskId(id, rings), KernelOfId(graph, names, id), ""};
}

std::string Hex(int64_t value) {
  std::ostringstream text;
  text << "0x" << std::hex << value;
  return text.str();
}

std::string Plural(uint64_t n, const char* one, const char* many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

}  // namespace

std::string CheckKernelName(const DepGraph& graph, const std::map<int32_t, std::string>& names,
                            uint32_t task_index) {
  return FirstKernelName(graph.tasks[task_index], names);
}

GateReport CheckGateReport(const CompileCheck& check, const std::map<int32_t, std::string>& names,
                           const std::string& label, const GateOptions& options) {
  const DepGraph& runtime = check.runtime_graph;
  const DepGraph& compiled = check.compiled_graph;
  const bool rings = runtime.UsesRings() || compiled.UsesRings();
  GateReport report;
  report.command = "check";
  report.inputs = {label};
  report.rules = DiffGateRules();  // DG201, DG202, DG203: indices kOrderingLost..kEdgeImplied
  report.rules[kOrderingLost].summary =
      "An ordering the runtime enforces that the compiled program loses.";
  report.rules[kEdgeNotImplied].summary =
      "An edge of the compiled program that no path of the runtime's graph implies.";
  report.rules.push_back({"DG301", "RetentionLost",
                          "A created buffer the runtime keeps alive until a task ends, which "
                          "nothing keeps alive in the compiled program.",
                          "the buffer may be reclaimed while the task runs", GateLevel::kError});
  report.rules.push_back({"DG302", "HazardUnordered",
                          "Two tasks of the compiled program touch the same bytes, one writing, "
                          "with no path between them, where the runtime orders them.",
                          "an intermittent race", GateLevel::kError});

  for (const LostOrdering& lost : check.lost_orderings) {
    const DiffPair& pair = lost.pair;
    GateFinding f;
    f.rule = kOrderingLost;
    f.first = TaskOf(runtime, names, pair.a_pred, rings);
    f.second = TaskOf(runtime, names, pair.a_succ, rings);
    f.path = {f.first, f.second};
    f.message = "ordering lost: " + f.first.display + " " + f.first.kernel + " -> " +
                f.second.display + " " + f.second.kernel;
    if (lost.conflict) {
      f.region = "bytes [" + Hex(lost.conflict->begin) + ", " + Hex(lost.conflict->end) + ")";
      f.message += ", " + f.region;
    }
    f.message += " (runtime orders them; the compiled program does not)";
    report.findings.push_back(std::move(f));
  }
  for (const LostRetention& r : check.lost_retentions) {
    GateFinding f;
    f.rule = kRetentionLost;
    f.first = GateTask{r.ref_allocation, FormatTaskId(r.ref_allocation, rings), "alloc",
                       "create #" + std::to_string(r.create + 1)};
    f.second = GateTask{r.ref_user, FormatTaskId(r.ref_user, rings),
                        CheckKernelName(runtime, names, r.user_task), ""};
    f.region = "created buffer #" + std::to_string(r.create + 1);
    f.path = {f.first, f.second};
    f.message = "retention lost: alloc " + f.first.display + " (create #" +
                std::to_string(r.create + 1) + ") -> " + f.second.display + " " +
                f.second.kernel +
                " (the runtime keeps the buffer alive until this task ends; in the compiled "
                "program nothing does, so it may be reclaimed while the task runs)";
    report.findings.push_back(std::move(f));
  }
  for (size_t index : check.new_hazards) {
    const Race& race = check.compiled_audit.races.races[index];
    GateFinding f;
    f.rule = kHazard;
    const Task& first = compiled.tasks[race.first.task];
    const Task& second = compiled.tasks[race.second.task];
    f.first = GateTask{first.id, FormatTaskId(first.id, rings),
                       CheckKernelName(compiled, names, race.first.task),
                       "arg " + std::to_string(race.first.arg_idx) + " " +
                           ArgTypeName(race.first.type)};
    f.second = GateTask{second.id, FormatTaskId(second.id, rings),
                        CheckKernelName(compiled, names, race.second.task),
                        "arg " + std::to_string(race.second.arg_idx) + " " +
                            ArgTypeName(race.second.type)};
    f.region = "bytes [" + Hex(race.begin) + ", " + Hex(race.end) + ")";
    f.path = {f.first, f.second};
    f.message = std::string("hazard left unordered: ") + RaceKindName(race.kind) + " " +
                f.first.display + " " + f.first.kernel + " arg" +
                std::to_string(race.first.arg_idx) + " / " + f.second.display + " " +
                f.second.kernel + " arg" + std::to_string(race.second.arg_idx) + ", " + f.region +
                (race.approximate ? " (approximate)" : "");
    report.findings.push_back(std::move(f));
  }
  const GateLevel added_level =
      options.warnings_as_errors ? GateLevel::kError : GateLevel::kWarning;
  // An added edge between two tasks the runtime's graph races on is a fix, not lost
  // parallelism: the pair touches the same bytes and the runtime left it unordered.
  const std::set<std::pair<uint32_t, uint32_t>>& runtime_races = check.runtime_race_pairs;
  auto races_in_runtime = [&](TaskId pred, TaskId succ) {
    const Task* p = runtime.FindTask(pred);
    const Task* s = runtime.FindTask(succ);
    if (p == nullptr || s == nullptr) return false;
    const auto pi = static_cast<uint32_t>(p - runtime.tasks.data());
    const auto si = static_cast<uint32_t>(s - runtime.tasks.data());
    return runtime_races.count({pi, si}) + runtime_races.count({si, pi}) > 0;
  };
  std::vector<GateFinding> fix_findings;  // listed after the warnings
  uint64_t added = 0, fixes = 0;
  for (const DiffPair& pair : check.diff.orderings_added) {
    if (pair.pred_is_alloc) continue;  // a buffer's lifetime, not an ordering of work
    const bool fix = races_in_runtime(pair.a_pred, pair.a_succ);
    GateFinding f;
    f.rule = fix ? kEdgeImplied : kEdgeNotImplied;
    f.level = fix ? GateLevel::kNote : added_level;
    f.first = TaskOf(compiled, names, pair.b_pred, rings);
    f.second = TaskOf(compiled, names, pair.b_succ, rings);
    f.path = {f.first, f.second};
    f.message = "edge added: " + f.first.display + " " + f.first.kernel + " -> " +
                f.second.display + " " + f.second.kernel +
                (fix ? " (the compiled program orders a hazard the runtime leaves unordered: a "
                       "fix)"
                     : " (the compiled program orders them; no path of the runtime's graph "
                       "does: lost parallelism)");
    if (!fix) {
      ++added;
      report.findings.push_back(std::move(f));
    } else {
      ++fixes;
      fix_findings.push_back(std::move(f));
    }
  }
  for (GateFinding& f : fix_findings) report.findings.push_back(std::move(f));
  const GraphDiff& d = check.diff;
  const uint64_t implied = d.edges_only_in_a.size() - d.orderings_lost.size() +
                           d.edges_only_in_b.size() - d.orderings_added.size() + fixes;
  const uint64_t lost = check.lost_orderings.size(), retentions = check.lost_retentions.size(),
                 hazards = check.new_hazards.size();
  report.checks = {
      {"orderings of the runtime kept", "DG201", lost, lost > 0,
       Plural(lost, "ordering", "orderings") + " of the runtime's graph lost"},
      {"buffer retentions kept", "DG301", retentions, retentions > 0,
       Plural(retentions, "buffer retention", "buffer retentions") + " lost"},
      {"no new hazard", "DG302", hazards, hazards > 0,
       Plural(hazards, "hazard", "hazards") + " left unordered in the compiled program"},
      {"compiler edges implied by the runtime", "DG202", added,
       added > 0 && options.warnings_as_errors,
       Plural(added, "compiled edge", "compiled edges") + " that no runtime path implies"},
      {"edges implied through a path", "DG203", implied, false,
       Plural(implied, "edge", "edges") + " of one graph that the other implies through a path"},
  };
  if (runtime.tasks.size() != compiled.tasks.size() ||
      check.runtime_trace.creates.size() != check.compiled_trace.creates.size()) {
    report.coverage_gaps.push_back(
        "the two runs submitted different work (" + std::to_string(runtime.tasks.size()) +
        " tasks and " + std::to_string(check.runtime_trace.creates.size()) +
        " created tensors vs " + std::to_string(compiled.tasks.size()) + " and " +
        std::to_string(check.compiled_trace.creates.size()) + "): tasks past the shorter run "
        "were not compared");
  }
  SetGateExitCode(options, &report);
  const uint64_t errors = lost + retentions + hazards;
  report.summary =
      "check: " + std::to_string(errors) + " error(s) (" + Plural(lost, "ordering", "orderings") +
      " lost, " + Plural(retentions, "retention", "retentions") + " lost, " +
      Plural(hazards, "hazard", "hazards") + "), " + Plural(added, "warning", "warnings") +
      " (edges added), " + std::to_string(implied) + " info (implied edges); " +
      (errors > 0 ? "the compiled program can run tasks the runtime orders in either order: "
                    "intermittent races"
                  : added > 0 ? "the compiled program keeps every ordering and serializes more "
                                "than the runtime"
                              : "the compiled program keeps every ordering the runtime enforces");
  return report;
}

}  // namespace depgraph
