#include "depgraph/audit/diff_gate.h"

#include <string>

#include "depgraph/audit/audit_summary.h"
#include "depgraph/graph/graph_query.h"
#include "depgraph/graph/task_label.h"
#include "depgraph/support/printable_text.h"

namespace depgraph {

namespace {

enum DiffRule : size_t { kOrderingLost, kEdgeNotImplied, kEdgeImplied };

// One graph with what the findings need of it: rows per pair and kernel names per node.
class GraphSide {
 public:
  GraphSide(const DepGraph& graph, const std::vector<TaskLabel>& labels, const char* name)
      : graph_(graph), labels_(labels), name_(name), display_(graph.Display()) {
    graph.RowsByPair(&row_offsets_, &row_ids_);
  }

  const DepGraph& graph() const { return graph_; }
  const char* name() const { return name_; }

  // A task by id (its node's kernel, "alloc" for an allocation node), without access.
  GateTask Task(TaskId id) const {
    GateTask task;
    task.id = id;
    task.display = FormatTaskId(id, display_);
    const int64_t node = graph_.FindNode(id);
    if (node < 0) return task;
    const auto n = static_cast<uint32_t>(node);
    if (n < labels_.size() && !labels_[n].func_name.empty()) {
      task.kernel = labels_[n].func_name;
    } else if (const depgraph::Task* record = graph_.TaskOfNode(n)) {
      // Without a name map: the first active kernel slot, as `depgraph check` names it.
      task.kernel = FirstKernelName(*record, {});
    } else {
      task.kernel = "alloc";
    }
    return task;
  }

  // The edge pred -> succ of this graph as evidence: both ends with their access to the first
  // row's tensor, the tensor, the union of the rows' sources. Ids only when it has no rows.
  void DescribeEdge(TaskId pred, TaskId succ, GateFinding* finding) const {
    finding->first = Task(pred);
    finding->second = Task(succ);
    const int64_t p = graph_.FindNode(pred), s = graph_.FindNode(succ);
    if (p < 0 || s < 0) return;
    const int64_t pair = graph_.FindPair(static_cast<uint32_t>(p), static_cast<uint32_t>(s));
    if (pair < 0) return;
    unsigned sources = 0;
    const EdgeRow* first_tensor_row = nullptr;
    size_t other_tensors = 0;
    for (uint32_t i = row_offsets_[pair]; i < row_offsets_[pair + 1]; ++i) {
      const EdgeRow& row = graph_.rows[row_ids_[i]];
      sources |= 1u << static_cast<unsigned>(row.source);
      if (row.tensor_id_state != FieldState::kValid) continue;
      if (first_tensor_row == nullptr) {
        first_tensor_row = &row;
      } else if (row.tensor_id != first_tensor_row->tensor_id) {
        ++other_tensors;
      }
    }
    for (unsigned k = 0; k < 4; ++k) {
      if (!(sources & (1u << k))) continue;
      if (!finding->edge_source.empty()) finding->edge_source += "+";
      finding->edge_source += EdgeSourceName(static_cast<EdgeSource>(k));
    }
    if (first_tensor_row == nullptr) return;
    const EdgeRow& row = *first_tensor_row;
    const Tensor* tensor = graph_.FindTensor(row.tensor_id);
    finding->region = tensor ? "T" + std::to_string(tensor->index)
                             : "tensor " + std::to_string(row.tensor_id);
    if (other_tensors > 0) finding->region += " (+" + std::to_string(other_tensors) + " more)";
    if (const depgraph::Task* consumer = graph_.TaskOfNode(static_cast<uint32_t>(s))) {
      if (const TaskArg* arg = graph_.FindArg(*consumer, row.arg)) {
        finding->second.access = "arg " + std::to_string(arg->idx) + " " + ArgTypeName(arg->type);
      }
    }
    const depgraph::Task* producer = graph_.TaskOfNode(static_cast<uint32_t>(p));
    if (producer == nullptr) {
      finding->first.access = "allocates it";
      return;
    }
    for (uint32_t a = producer->first_arg; a < producer->first_arg + producer->num_args; ++a) {
      const TaskArg& arg = graph_.args[a];
      if (arg.tensor_id_state == FieldState::kValid && arg.tensor_id == row.tensor_id) {
        finding->first.access = "arg " + std::to_string(arg.idx) + " " + ArgTypeName(arg.type);
        break;
      }
    }
  }

  // The shortest path of this graph from pred to succ (node ids as tasks), or just the ends.
  std::vector<GateTask> Path(TaskId pred, TaskId succ) const {
    std::vector<GateTask> steps;
    const int64_t p = graph_.FindNode(pred), s = graph_.FindNode(succ);
    std::vector<uint32_t> nodes;
    if (p >= 0 && s >= 0 &&
        ShortestPath(graph_, static_cast<uint32_t>(p), static_cast<uint32_t>(s), &nodes)) {
      for (uint32_t n : nodes) steps.push_back(Task(graph_.nodes[n]));
    } else {
      steps = {Task(pred), Task(succ)};
    }
    return steps;
  }

 private:
  const DepGraph& graph_;
  const std::vector<TaskLabel>& labels_;
  const char* name_;
  IdDisplay display_;
  std::vector<uint32_t> row_offsets_;
  std::vector<uint32_t> row_ids_;
};

// "12 qk_matmul (arg 2 OUTPUT)".
std::string Mention(const GateTask& task) {
  std::string text = task.display;
  if (!task.kernel.empty()) text += " " + PrintableText(task.kernel);
  if (!task.access.empty()) text += " (" + task.access + ")";
  return text;
}

// "on T3, tensormap edge of A" / "explicit edge of B".
std::string EdgeClause(const GateFinding& f, const char* graph) {
  std::string text = f.region.empty() ? "," : " on " + f.region + ",";
  text += " " + (f.edge_source.empty() ? std::string("an") : f.edge_source) + " edge of " + graph;
  return text;
}

std::string PathText(const std::vector<GateTask>& path) {
  std::string text;
  for (const GateTask& step : path) text += (text.empty() ? "" : " -> ") + step.display;
  return text;
}

std::string Plural(uint64_t n, const char* one, const char* many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

}  // namespace

std::vector<GateRule> DiffGateRules() {
  return {
      {"DG201", "OrderingLost", "An edge of A whose order B does not imply (no path in B).",
       "B may run the two tasks in either order: an intermittent race", GateLevel::kError},
      {"DG202", "EdgeNotImplied",
       "An edge of B whose order A does not imply (no path in A).",
       "B serializes tasks A lets run together: lost parallelism", GateLevel::kWarning},
      {"DG203", "EdgeImplied",
       "An edge of one graph missing from the other, which still implies it through a path.",
       "none: the ordering holds transitively", GateLevel::kNote},
  };
}

GateReport DiffGateReport(const DiffGateInput& input) {
  const DiffReportInput& in = input.report;
  const GraphDiff& d = in.diff;
  GraphSide a(in.a, input.labels_a, "A"), b(in.b, input.labels_b, "B");
  GateReport report;
  report.command = "diff";
  report.inputs = {in.name_a, in.name_b};
  report.rules = DiffGateRules();
  const GateLevel added_level =
      input.options.warnings_as_errors ? GateLevel::kError : GateLevel::kWarning;

  for (const DiffPair& p : d.orderings_lost) {
    GateFinding f;
    f.rule = kOrderingLost;
    f.level = GateLevel::kError;
    a.DescribeEdge(p.a_pred, p.a_succ, &f);
    f.path = {f.first, f.second};
    const std::string b_ids = p.a_pred == p.b_pred && p.a_succ == p.b_succ
                                  ? std::string("B")
                                  : "B (" + b.Task(p.b_pred).display + " -> " +
                                        b.Task(p.b_succ).display + ")";
    f.message = "ordering lost: " + Mention(f.first) + " -> " + Mention(f.second) +
                EdgeClause(f, "A") + "; " + b_ids + " has no path between them" +
                (p.pred_is_alloc ? " [from an allocation: lifetime only]" : "");
    report.findings.push_back(std::move(f));
  }
  for (const DiffPair& p : d.orderings_added) {
    GateFinding f;
    f.rule = kEdgeNotImplied;
    f.level = added_level;
    b.DescribeEdge(p.b_pred, p.b_succ, &f);
    f.path = {f.first, f.second};
    f.message = "edge added: " + Mention(f.first) + " -> " + Mention(f.second) +
                EdgeClause(f, "B") + "; no path of A orders them (lost parallelism)";
    report.findings.push_back(std::move(f));
  }
  // Only-in edges the other graph implies: all counted, the first max_implied described.
  uint64_t implied_total = 0;
  auto implied = [&](const std::vector<DiffPair>& only, const std::vector<DiffPair>& not_implied,
                     const GraphSide& own, const GraphSide& other, bool own_is_a) {
    size_t kept = 0;
    ForEachImpliedEdge(only, not_implied, [&](const DiffPair& p) {
      ++implied_total;
      if (kept == input.max_implied) return true;
      ++kept;
      GateFinding f;
      f.rule = kEdgeImplied;
      f.level = GateLevel::kNote;
      const TaskId own_pred = own_is_a ? p.a_pred : p.b_pred;
      const TaskId own_succ = own_is_a ? p.a_succ : p.b_succ;
      own.DescribeEdge(own_pred, own_succ, &f);
      f.path = other.Path(own_is_a ? p.b_pred : p.a_pred, own_is_a ? p.b_succ : p.a_succ);
      f.message = std::string("edge implied: ") + Mention(f.first) + " -> " + Mention(f.second) +
                  EdgeClause(f, own.name()) + " is not an edge of " + other.name() +
                  ", whose path " + PathText(f.path) + " keeps the order";
      report.findings.push_back(std::move(f));
      return true;
    });
  };
  implied(d.edges_only_in_a, d.orderings_lost, a, b, true);
  implied(d.edges_only_in_b, d.orderings_added, b, a, false);

  const uint64_t compared = d.pairs_a - d.edges_unmatched_a;
  report.checks.push_back(
      {"orderings of A kept by B", "DG201", d.orderings_lost.size(), !d.orderings_lost.empty(),
       d.orderings_lost.empty()
           ? "B keeps every ordering of the " + std::to_string(compared) + " A edges compared"
           : "B loses " + Plural(d.orderings_lost.size(), "ordering", "orderings") + " of A"});
  report.checks.push_back(
      {"edges of B implied by A", "DG202", d.orderings_added.size(),
       !d.orderings_added.empty() && input.options.warnings_as_errors,
       d.orderings_added.empty()
           ? std::string("every edge of B is implied by A")
           : Plural(d.orderings_added.size(), "edge", "edges") +
                 " of B that no path of A implies (lost parallelism)"});
  report.checks.push_back({"edges implied through a path", "DG203", implied_total, false,
                           Plural(implied_total, "edge", "edges") +
                               " of one graph that the other implies through a path"});
  if (d.task_sets_differ) {
    report.coverage_gaps.push_back(
        "the task sets differ: " + Plural(d.only_in_a.size(), "task", "tasks") +
        " of A and " + std::to_string(d.only_in_b.size()) + " of B have no partner, so " +
        Plural(d.edges_unmatched_a, "edge", "edges") + " of A and " +
        std::to_string(d.edges_unmatched_b) + " of B were not compared" +
        (in.options.by_order ? "" : " (--by-order matches tasks by submit order)"));
  }
  SetGateExitCode(input.options, &report);
  const uint64_t errors = d.orderings_lost.size(), warnings = d.orderings_added.size();
  report.summary =
      "diff: " + Plural(errors, "ordering", "orderings") + " lost (error), " +
      Plural(warnings, "edge", "edges") + " added that A does not imply (warning), " +
      Plural(implied_total, "edge", "edges") + " implied through a path (info)" +
      (report.coverage_gaps.empty() ? "" : ", 1 coverage gap") + "; " +
      (errors > 0 ? "B may run tasks A orders in either order: intermittent races"
                  : warnings > 0 ? "B keeps every ordering of A and serializes more than it"
                                 : "B keeps every ordering of A");
  return report;
}

}  // namespace depgraph
