#include "report_binding.h"

#include <pybind11/stl.h>

#include <memory>
#include <sstream>

#include "depgraph/audit/audit.h"
#include "depgraph/audit/audit_gate.h"
#include "depgraph/audit/audit_report.h"
#include "depgraph/audit/diff_gate.h"
#include "depgraph/audit/diff_report.h"
#include "depgraph/audit/graph_diff.h"
#include "loaded_graph.h"

namespace py = pybind11;

namespace depgraph::python {

namespace {

// One audit: the graph it was run on and everything `depgraph audit` reports.
struct AuditRun {
  GraphPtr graph;
  std::shared_ptr<const AuditResult> result;

  template <typename Write>
  std::string Render(Write&& write, size_t max_findings) const {
    const AuditReportInput input{graph->graph(), *result, graph->Labels(), graph->source(),
                                 max_findings};
    std::ostringstream out;
    write(input, out);
    return out.str();
  }

  // `depgraph audit [--strict]` as a gate (audit_gate.h): coverage gaps and the exit code.
  GateReport Gate(bool strict) const {
    GateOptions options;
    options.strict = strict;
    return AuditGateReport(graph->graph(), *result, graph->Labels(), graph->source(), options);
  }
};

// One comparison, and the stderr lines `depgraph diff` prints beside the report.
struct DiffRun {
  GraphPtr a, b;
  DiffOptions options;
  std::shared_ptr<const GraphDiff> diff;
  std::vector<std::string> notes;  ///< `note: ...` / `warning: ...` lines, without prefixes
  std::shared_ptr<const GateReport> gate;  ///< the verdict (diff_gate.h), as `depgraph diff`'s

  template <typename Write>
  std::string Render(Write&& write) const {
    DiffReportInput input{a->graph(), b->graph(), *diff, options, a->source(), b->source()};
    input.gate = gate.get();
    std::ostringstream out;
    write(input, out);
    return out.str();
  }
};

AuditRun Audit(const GraphPtr& graph) {
  if (!graph) throw py::type_error("audit() expects a depgraph.Graph, got None");
  graph->RequireViews("audit()");
  auto result = std::make_shared<AuditResult>();
  std::string error;
  bool ok = false;
  {
    py::gil_scoped_release release;
    AuditOptions options;
    options.threads = graph->threads();
    ok = RunAudit(graph->graph(), options, result.get(), &error);
    graph->Labels();
  }
  if (!ok) throw Error(graph->source() + ": " + error);
  return AuditRun{graph, std::move(result)};
}

// `depgraph diff` (apps/depgraph/depgraph_cli.cc, RunDiffCommand): the same comparison, the
// same fall-back to submit order when no edge of A can be compared by id, the same errors.
DiffRun Diff(const GraphPtr& a, const GraphPtr& b, bool closure, bool by_order, bool strict,
             bool warnings_as_errors) {
  if (!a || !b) throw py::type_error("diff() expects two depgraph.Graph objects, got None");
  DiffRun run{a, b, DiffOptions{}, nullptr, {}, nullptr};
  run.options.by_order = by_order;
  run.options.closure = closure;
  run.options.threads = a->threads();
  auto diff = std::make_shared<GraphDiff>();
  std::string error;
  py::gil_scoped_release release;
  auto compare = [&] {
    *diff = GraphDiff{};
    if (!DiffGraphs(a->graph(), b->graph(), run.options, a->source(), b->source(), diff.get(),
                    &error)) {
      throw Error(error);
    }
  };
  compare();
  if (!run.options.by_order && diff->pairs_a > 0 && diff->edges_unmatched_a == diff->pairs_a) {
    run.notes.push_back("note: no edge of A has both ends among B's task ids (" +
                        std::to_string(diff->matched) + " of " + std::to_string(diff->tasks_a) +
                        " tasks match by id: other rings or scopes?); matching tasks by submit "
                        "order instead (--by-order)");
    run.options.by_order = true;
    compare();
  }
  if (diff->pairs_a > 0 && diff->edges_unmatched_a == diff->pairs_a) {
    throw Error(a->source() + " and " + b->source() + " share no comparable edge: all " +
                std::to_string(diff->pairs_a) + " edges of A touch a task B lacks (" +
                std::to_string(diff->matched) + " of " + std::to_string(diff->tasks_a) +
                " tasks matched by " + (run.options.by_order ? "submit order" : "id") + ")");
  }
  run.diff = std::move(diff);
  const DiffReportInput input{a->graph(), b->graph(), *run.diff, run.options, a->source(),
                              b->source()};
  run.gate = std::make_shared<GateReport>(DiffGateReport(DiffGateInput{
      input, a->Labels(), b->Labels(), GateOptions{strict, warnings_as_errors}}));
  for (const std::string& gap : run.gate->coverage_gaps) run.notes.push_back("warning: " + gap);
  return run;
}

}  // namespace

void BindReports(py::module_& m) {
  py::class_<AuditRun>(m, "_AuditRun")
      .def_property_readonly("exit_code",
                             [](const AuditRun& r) { return AuditExitCode(*r.result); })
      .def_property_readonly(
          "coverage_gaps", [](const AuditRun& r) { return py::cast(r.Gate(false).coverage_gaps); })
      .def(
          "gate_exit_code", [](const AuditRun& r, bool strict) { return r.Gate(strict).exit_code; },
          py::arg("strict"))
      .def("json",
           [](const AuditRun& r) {
             return r.Render([](auto& in, auto& out) { WriteAuditJson(in, out); }, 0);
           })
      .def(
          "text",
          [](const AuditRun& r, size_t max_findings) {
            return r.Render([](auto& in, auto& out) { WriteAuditText(in, out); }, max_findings);
          },
          py::arg("max_findings") = 20);
  m.def("_audit", &Audit, py::arg("graph"));

  py::class_<DiffRun>(m, "_DiffRun")
      .def_property_readonly("exit_code", [](const DiffRun& r) { return r.gate->exit_code; })
      .def_property_readonly("notes", [](const DiffRun& r) { return py::cast(r.notes); })
      .def("json",
           [](const DiffRun& r) {
             return r.Render([](auto& in, auto& out) { WriteDiffJson(in, out); });
           })
      .def("text", [](const DiffRun& r) {
        return r.Render([](auto& in, auto& out) { WriteDiffText(in, out); });
      });
  m.def("_diff", &Diff, py::arg("a"), py::arg("b"), py::arg("closure") = false,
        py::arg("by_order") = false, py::arg("strict") = false,
        py::arg("warnings_as_errors") = false);
}

}  // namespace depgraph::python
