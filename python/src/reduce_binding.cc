#include "reduce_binding.h"

#include <pybind11/stl.h>

#include <memory>
#include <vector>

#include "depgraph/reduce/edge_mode.h"
#include "graph_views.h"

namespace py = pybind11;

namespace depgraph::python {

namespace {

// An applied edge mode. `listed` is what deps_viewer prints under its headline; `kept` the
// pairs the mode shows and `removed` the others.
struct Reduction {
  GraphPtr graph;
  EdgeMode mode = EdgeMode::kFull;
  bool cycle_fallback = false;
  std::vector<TaskId> cycle;
  size_t retained = 0;
  std::shared_ptr<const std::vector<uint32_t>> kept, removed, listed;
};

}  // namespace

py::object Reduce(const GraphPtr& graph, const std::string& mode_name) {
  EdgeMode mode;
  if (!ParseEdgeMode(mode_name, &mode)) {
    throw Error("edge mode '" + mode_name +
                "': expected full, reduced, omitted, reduced_dataflow, omitted_dataflow or "
                "retained");
  }
  if (EdgeModeReadsViews(mode)) {
    graph->RequireViews(("edge mode '" + mode_name + "'").c_str());
  }
  Reduction r;
  r.graph = graph;
  r.mode = mode;
  {
    py::gil_scoped_release release;
    const DepGraph& g = graph->graph();
    EdgeSelection selection = SelectEdges(g, graph->Reduction(), mode, graph->threads());
    auto kept = std::make_shared<std::vector<uint32_t>>();
    auto removed = std::make_shared<std::vector<uint32_t>>();
    kept->reserve(selection.shown_count);
    removed->reserve(g.pairs.size() - selection.shown_count);
    for (uint32_t p = 0; p < g.pairs.size(); ++p)
      (selection.shown[p] ? kept : removed)->push_back(p);
    r.kept = std::move(kept);
    r.removed = std::move(removed);
    r.listed = std::make_shared<const std::vector<uint32_t>>(std::move(selection.listed));
    r.cycle_fallback = selection.cycle_fallback;
    r.retained = selection.retained_count;
    for (uint32_t node : graph->Reduction().cycle) r.cycle.push_back(g.nodes[node]);
  }
  return py::cast(std::move(r));
}

void BindReduction(py::module_& m) {
  py::class_<Reduction>(m, "Reduction", "An edge mode applied to a graph (Graph.reduce).")
      .def_property_readonly("mode", [](const Reduction& r) { return EdgeModeName(r.mode); })
      .def_property_readonly(
          "kept",
          [](const Reduction& r) {
            return EdgeList{r.graph, r.kept};
          },
          "the edges this mode shows")
      .def_property_readonly(
          "removed",
          [](const Reduction& r) {
            return EdgeList{r.graph, r.removed};
          },
          "the edges this mode leaves out")
      .def_property_readonly(
          "listed",
          [](const Reduction& r) {
            return EdgeList{r.graph, r.listed};
          },
          "the edges deps_viewer lists under its headline")
      .def_property_readonly("total",
                             [](const Reduction& r) { return r.graph->graph().pairs.size(); })
      .def_property_readonly(
          "retained", [](const Reduction& r) { return r.retained; },
          "redundant edges kept only for a creator row (reduced, retained)")
      .def_property_readonly(
          "cycle_fallback", [](const Reduction& r) { return r.cycle_fallback; },
          "the graph has a cycle: nothing is reduced")
      .def_property_readonly(
          "cycle",
          [](const Reduction& r) -> py::object {
            if (r.cycle.empty()) return py::none();
            return py::cast(r.cycle);
          },
          "ids of one cycle (first repeated), or None")
      .def_property_readonly(
          "headline",
          [](const Reduction& r) -> py::object {
            if (r.mode == EdgeMode::kFull || r.cycle_fallback) return py::none();
            return py::str(
                EdgeModeHeadline(r.mode, r.listed->size(), r.graph->graph().pairs.size()));
          },
          "deps_viewer's stdout line for this mode, or None (full mode, a cycle)")
      .def("__repr__", [](const Reduction& r) {
        return "<Reduction " + std::string(EdgeModeName(r.mode)) + ": " +
               std::to_string(r.kept->size()) + " kept, " + std::to_string(r.removed->size()) +
               " removed>";
      });
}

}  // namespace depgraph::python
