#include "depgraph/audit/audit_gate.h"
#include "depgraph/support/printable_text.h"

#include <cinttypes>
#include <cstdio>
#include <map>

namespace depgraph {

namespace {

std::string Count(uint64_t n, const char* one, const char* many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

std::string Hex(int64_t value) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "0x%" PRIx64, static_cast<uint64_t>(value));
  return buf;
}

// Task display for the gate: id as the reports print it, kernel named even without a map.
class GateNames {
 public:
  GateNames(const DepGraph& graph, const std::vector<TaskLabel>& labels)
      : graph_(graph), labels_(labels), display_(graph.Display()) {}

  GateTask Node(uint32_t node, std::string access = "") const {
    GateTask task;
    task.id = graph_.nodes[node];
    task.display = FormatTaskId(task.id, display_);
    task.kernel = Kernel(node);
    task.access = std::move(access);
    return task;
  }
  GateTask Task(uint32_t task_index, std::string access) const {
    const int64_t node = graph_.FindNode(graph_.tasks[task_index].id);
    if (node >= 0) return Node(static_cast<uint32_t>(node), std::move(access));
    GateTask task;  // a dummy task without edges is no node
    task.id = graph_.tasks[task_index].id;
    task.display = FormatTaskId(task.id, display_);
    task.kernel = "dummy";
    task.access = std::move(access);
    return task;
  }
  int64_t BufferAddr(TaskId tensor_id) const {
    const Tensor* tensor = graph_.FindTensor(tensor_id);
    return tensor != nullptr && tensor->addr_state == FieldState::kValid ? tensor->buffer_addr : 0;
  }

 private:
  std::string Kernel(uint32_t node) const {
    if (node < labels_.size()) {
      if (labels_[node].kind == TaskKind::kAlloc) return "alloc";
      if (labels_[node].kind == TaskKind::kDummy) return "dummy";
    }
    return DisplayKernelName(graph_, labels_, node);
  }

  const DepGraph& graph_;
  const std::vector<TaskLabel>& labels_;
  IdDisplay display_;
};

std::string Mention(const GateTask& task) {
  std::string text = task.display;
  if (!task.kernel.empty()) text += " " + PrintableText(task.kernel);
  if (!task.access.empty()) text += " " + task.access;
  return text;
}

std::vector<GateRule> AuditRules() {
  const std::string race = "an intermittent race: the two tasks may run in either order";
  const std::string order =
      "Order the two tasks: deps=[first] on the second task (for a WAR, on the writer); "
      "`depgraph audit` prints the fix for each race's cause.";
  std::vector<GateRule> rules(4);
  rules[0] = {kRuleRaceRaw, "RaceReadAfterWrite",
              "A task reads bytes an earlier task writes, and no path in the graph orders them.",
              race, GateLevel::kError, order};
  rules[1] = {kRuleRaceWaw, "RaceWriteAfterWrite",
              "Two tasks write the same bytes, and no path in the graph orders them.", race,
              GateLevel::kError, order};
  rules[2] = {kRuleRaceWar, "RaceWriteAfterRead",
              "A task overwrites bytes an earlier task reads, and no path in the graph orders "
              "them (the runtime never tracks a WAR).",
              race, GateLevel::kError, order};
  rules[3] = {kRuleFalseSerialization, "FalseSerialization",
              "The runtime ordered two tasks through the TensorMap whose bytes never meet.",
              "lost parallelism: the later task waits for nothing it needs", GateLevel::kWarning,
              "Opt the later task out of the lookup (no_dep_args, a manual_dep tensor or a "
              "manual scope) or slice the output; re-run the audit and depgraph diff afterwards."};
  return rules;
}

std::vector<std::string> CoverageGaps(const AuditResult& result) {
  std::vector<std::string> gaps;
  const AccessModel& model = result.model;
  if (model.outputs_unobserved > 0) {
    gaps.push_back(std::to_string(model.outputs_unobserved) + " of " +
                   Count(model.output_slots, "output slot", "output slots") +
                   " cannot be placed (no creator row names them): races on their bytes "
                   "cannot be seen");
  }
  if (!model.unknown.empty()) {
    std::map<std::string, uint64_t> reasons;
    for (const UnknownAccess& u : model.unknown) ++reasons[UnknownReasonName(u.reason)];
    std::string why;
    for (const auto& [reason, n] : reasons) {
      why += (why.empty() ? "" : ", ") + std::to_string(n) + " " + reason;
    }
    gaps.push_back(Count(model.unknown.size(), "task argument has", "task arguments have") +
                   " no byte set (" + why + "): races on their bytes cannot be seen");
  }
  if (result.races.edges_against_submit_order > 0) {
    gaps.push_back(Count(result.races.edges_against_submit_order, "edge runs", "edges run") +
                   " against submit order: the race sweep assumes submit order is topological "
                   "and may miss races");
  }
  return gaps;
}

std::string Summary(const AuditResult& result, size_t gaps) {
  const RaceReport& races = result.races;
  std::string text = "audit: ";
  if (races.total == 0) {
    text += "no race";
  } else {
    text += Count(races.total, "race", "races") + " (";
    static const char* const kKinds[] = {"RAW", "WAW", "WAR"};
    bool first = true;
    for (int k = 0; k < 3; ++k) {
      if (races.by_kind[k] == 0) continue;
      text += (first ? "" : ", ") + std::to_string(races.by_kind[k]) + " " + kKinds[k];
      first = false;
    }
    text += ")";
  }
  const size_t fs = result.serialization.findings.size();
  text += fs == 0 ? ", no false serialization" : ", " + Count(fs, "false serialization",
                                                              "false serializations");
  if (gaps > 0) text += ", " + Count(gaps, "coverage gap", "coverage gaps");
  if (races.total > 0) {
    text += "; the capture can run racing tasks in either order";
  } else if (fs > 0) {
    text += "; lost parallelism: the runtime orders tasks whose bytes never meet";
  } else if (gaps > 0) {
    text += "; no race among the bytes the audit can see";
  } else {
    text += "; every conflicting access is ordered";
  }
  return text;
}

}  // namespace

GateReport AuditGateReport(const DepGraph& graph, const AuditResult& result,
                           const std::vector<TaskLabel>& labels, const std::string& input_name,
                           const GateOptions& options) {
  GateReport report;
  report.command = "audit";
  report.inputs = {input_name};
  report.rules = AuditRules();
  const GateNames names(graph, labels);

  for (const Race& race : result.races.races) {
    GateFinding f;
    f.rule = static_cast<size_t>(race.kind);  // rules[0..2] follow RaceKind
    f.level = GateLevel::kError;
    f.first = names.Task(race.first.task, "arg " + std::to_string(race.first.arg_idx) + " " +
                                              ArgTypeName(race.first.type));
    f.second = names.Task(race.second.task, "arg " + std::to_string(race.second.arg_idx) + " " +
                                                ArgTypeName(race.second.type));
    const int64_t base = names.BufferAddr(race.first.tensor_id);
    f.region = "tensor " + std::to_string(race.first.tensor_id) + " bytes [" +
               Hex(race.begin - base) + ", " + Hex(race.end - base) + ")";
    f.path = {f.first, f.second};
    f.message = std::string("race ") + RaceKindName(race.kind) +
                (race.approximate ? " (approximate)" : "") + ": " + Mention(f.first) + " -> " +
                Mention(f.second) + " on " + f.region + ": no path orders them (cause: " +
                RaceCauseName(race.cause) + ")";
    report.findings.push_back(std::move(f));
  }
  const GateLevel fs_level =
      options.warnings_as_errors ? GateLevel::kError : GateLevel::kWarning;
  for (const FalseSerialization& fs : result.serialization.findings) {
    if (fs.tasks.empty()) continue;
    GateFinding f;
    f.rule = 3;
    f.level = fs_level;
    for (uint32_t node : fs.tasks) f.path.push_back(names.Node(node));
    f.first = f.path.front();
    f.second = f.path.back();
    f.second.access = "arg " + std::to_string(fs.consumer_arg);
    f.path.back().access = f.second.access;
    f.region = "tensor " + std::to_string(fs.tensor_id);
    f.edge_source = "tensormap";
    f.message = "false serialization: " + Mention(f.first) + " -> " + Mention(f.second) +
                " on " + f.region + " (" + Count(fs.pairs.size(), "edge", "edges") +
                ", cause " + SerializationCauseName(fs.cause) +
                "): their bytes never meet; depth gain " +
                (fs.depth_gain < 0 ? std::string("not computed") : std::to_string(fs.depth_gain));
    report.findings.push_back(std::move(f));
  }

  static const char* const kKinds[] = {"RAW", "WAW", "WAR"};
  for (int k = 0; k < 3; ++k) {
    GateCheck check;
    check.name = std::string("races (") + kKinds[k] + ")";
    check.rule_id = report.rules[static_cast<size_t>(k)].id;
    check.findings = result.races.by_kind[k];
    check.failed = check.findings > 0;
    const std::string kind = kKinds[k];
    check.detail = check.failed ? Count(check.findings, (kind + " race").c_str(),
                                        (kind + " races").c_str()) +
                                      ": " + report.rules[static_cast<size_t>(k)].consequence
                                : "no " + kind + " race";
    report.checks.push_back(std::move(check));
  }
  {
    const SerializationReport& fs = result.serialization;
    GateCheck check;
    check.name = "false serialization";
    check.rule_id = kRuleFalseSerialization;
    check.findings = fs.findings.size();
    check.failed = options.warnings_as_errors && check.findings > 0;
    check.detail = Count(check.findings, "finding", "findings") + " over " +
                   Count(fs.false_pairs, "pair", "pairs") + " (" +
                   std::to_string(fs.candidates) + " tensormap-only checked, " +
                   std::to_string(fs.undecided) + " undecided)" +
                   (check.findings > 0 ? ": " + report.rules[3].consequence : "");
    report.checks.push_back(std::move(check));
  }
  report.coverage_gaps = CoverageGaps(result);
  {
    GateCheck check;
    check.name = "coverage";
    check.findings = report.coverage_gaps.size();
    check.failed = options.strict && check.findings > 0;
    check.detail = check.findings == 0
                       ? "every OUTPUT slot placed and every argument has a byte set"
                       : Count(check.findings, "coverage gap", "coverage gaps") +
                             (options.strict ? " (--strict: coverage gaps fail the gate)" : "");
    report.checks.push_back(std::move(check));
  }
  report.summary = Summary(result, report.coverage_gaps.size());
  report.exit_code = 0;
  for (const GateCheck& check : report.checks) {
    if (check.failed) report.exit_code = 3;
  }
  return report;
}

}  // namespace depgraph
