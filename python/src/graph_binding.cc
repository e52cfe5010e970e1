#include "graph_binding.h"

#include <pybind11/stl.h>

#include "depgraph/graph/graph_metrics.h"
#include "depgraph/graph/graph_query.h"
#include "depgraph/graph/task_groups.h"
#include "depgraph/reduce/edge_mode.h"
#include "graph_views.h"
#include "reduce_binding.h"

namespace py = pybind11;

namespace depgraph::python {

namespace {

// `deps_viewer --stats`: tasks, edges, rows, then depth, width, redundant and retained, or
// cycle. The same computations as the viewer's (reduction, metrics, reduced selection).
py::dict Stats(const GraphPtr& g) {
  const DepGraph& graph = g->graph();
  py::dict stats;
  stats["tasks"] = graph.nodes.size();
  stats["edges"] = graph.pairs.size();
  stats["rows"] = graph.rows.size();
  GraphMetrics metrics;
  size_t redundant = 0, retained = 0;
  bool dag = true;
  {
    py::gil_scoped_release release;
    const StructuralReduction& reduction = g->Reduction();
    dag = reduction.is_dag;
    if (dag) {
      metrics = ComputeGraphMetrics(graph);
      redundant = reduction.redundant_count;
      retained = SelectEdges(graph, reduction, EdgeMode::kReduced, g->threads()).retained_count;
    }
  }
  stats["cycle"] = !dag;
  if (dag) {
    stats["depth"] = metrics.depth;
    stats["width"] = metrics.width;
    stats["redundant"] = redundant;
    stats["retained"] = retained;
  }
  return stats;
}

py::list IdList(const DepGraph& graph, const std::vector<uint32_t>& nodes) {
  py::list ids;
  for (uint32_t n : nodes) ids.append(graph.nodes[n]);
  return ids;
}

py::list ReachList(const DepGraph& graph, const std::vector<ReachedNode>& reached) {
  py::list out;
  for (const ReachedNode& r : reached) {
    py::dict item;
    item["id"] = graph.nodes[r.node];
    item["depth"] = r.depth;
    out.append(item);
  }
  return out;
}

// `depgraph query --task T [--depth N] --json`, ids as ints.
py::dict Query(const GraphPtr& g, py::handle ref, uint32_t depth) {
  const TaskView task = ResolveTask(g, ref);
  const DepGraph& graph = g->graph();
  std::vector<uint32_t> preds, succs;
  std::vector<ReachedNode> ancestors, descendants;
  if (task.node >= 0) {
    const uint32_t node = static_cast<uint32_t>(task.node);
    preds = Predecessors(graph, node);
    succs = Successors(graph, node);
    if (depth > 0) {
      py::gil_scoped_release release;
      ancestors = Reach(graph, node, Direction::kAncestors, depth);
      descendants = Reach(graph, node, Direction::kDescendants, depth);
    }
  }
  py::dict answer;
  answer["task"] = task.id;
  answer["preds"] = IdList(graph, preds);
  answer["succs"] = IdList(graph, succs);
  if (depth > 0) {
    answer["depth"] = depth;
    answer["ancestors"] = ReachList(graph, ancestors);
    answer["descendants"] = ReachList(graph, descendants);
  }
  return answer;
}

// `depgraph query --path A B --json`: the ids of a shortest path, or None.
py::object Path(const GraphPtr& g, py::handle a, py::handle b) {
  const TaskView from = ResolveTask(g, a), to = ResolveTask(g, b);
  std::vector<uint32_t> path;
  bool found = false;
  if (from.node >= 0 && to.node >= 0) {
    py::gil_scoped_release release;
    found = ShortestPath(g->graph(), static_cast<uint32_t>(from.node),
                         static_cast<uint32_t>(to.node), &path);
  }
  if (found) return IdList(g->graph(), path);
  if (from.id == to.id) return py::list(py::make_tuple(from.id));  // an isolated dummy
  return py::none();
}

// The series of `list` (first and last ids, children for the first instance of each), as in
// `depgraph query --groups --json`.
py::list SeriesList(const DepGraph& graph, const TaskGrouping& g,
                    const std::vector<GroupSeries>& list, uint32_t base) {
  py::list out;
  for (const GroupSeries& s : list) {
    const GroupKind& kind = g.kinds[s.kind];
    const uint32_t begin = base + s.begin;
    py::dict item;
    item["kind"] = s.kind;
    item["count"] = s.count;
    item["size"] = kind.size;
    item["first"] = graph.nodes[g.order[begin]];
    item["last"] = graph.nodes[g.order[begin + s.count * kind.size - 1]];
    item["children"] = SeriesList(graph, g, kind.children, begin);
    out.append(item);
  }
  return out;
}

// `depgraph query --groups --json`: the repeated structure (graph/task_groups.h), ids as ints.
py::dict Groups(const GraphPtr& g) {
  const DepGraph& graph = g->graph();
  const std::vector<TaskLabel>& labels = g->Labels();
  TaskGrouping grouping;
  {
    py::gil_scoped_release release;
    grouping = ComputeTaskGroups(graph, labels);
  }
  py::list kinds;
  for (size_t k = 0; k < grouping.kinds.size(); ++k) {
    const GroupKind& kind = grouping.kinds[k];
    py::dict item;
    item["id"] = k;
    item["label"] = kind.label;
    item["size"] = kind.size;
    item["tasks"] = kind.tasks;
    item["kernels"] = kind.kernels;
    item["depth"] = kind.depth;
    item["instances"] = kind.instances;
    py::list children;
    for (const GroupSeries& c : kind.children) {
      py::dict child;
      child["kind"] = c.kind;
      child["count"] = c.count;
      child["offset"] = c.begin;
      children.append(child);
    }
    item["children"] = children;
    kinds.append(item);
  }
  py::dict out;
  out["nodes"] = graph.nodes.size();
  out["covered"] = grouping.covered;
  out["kinds"] = kinds;
  out["series"] = SeriesList(graph, grouping, grouping.series, 0);
  return out;
}

}  // namespace

void BindGraph(py::module_& m) {
  py::class_<LoadedGraph, GraphPtr>(m, "Graph",
                                    "A loaded deps.json. Made by depgraph.load(); read-only.")
      .def("__len__", [](const GraphPtr& g) { return g->graph().nodes.size(); })
      .def_property_readonly(
          "tasks", [](const GraphPtr& g) { return TaskList{g}; },
          "every task (node) in ascending id order, a sequence of Task")
      .def_property_readonly(
          "edges",
          [](const GraphPtr& g) {
            return EdgeList{g, nullptr};
          },
          "every unique (pred_id, succ_id) pair, ascending")
      .def_property_readonly(
          "rows", [](const GraphPtr& g) { return g->graph().rows.size(); },
          "edge rows in the file (several may make one edge)")
      .def_property_readonly("source", &LoadedGraph::source, "the path it was loaded from")
      .def_property_readonly(
          "name_map",
          [](const GraphPtr& g) -> py::object {
            if (g->names_path().empty()) return py::none();
            return py::str(g->names_path());
          },
          "the name map whose kernel names it uses, or None")
      .def_property_readonly(
          "runtime", [](const GraphPtr& g) { return g->graph().runtime; },
          "top-level \"runtime\" of the capture (\"\" when absent)")
      .def("__getitem__", &ResolveTask, py::arg("task"),
           "the Task with this id, (ring, local) tuple or \"(ring, local)\" text")
      .def("__contains__",
           [](const GraphPtr& g, py::handle ref) {
             std::string text;
             QueryTask task;
             try {
               return FindQueryTask(g->graph(), TaskRefToId(ref, &text), &task);
             } catch (const Error&) {
               return false;
             }
           })
      .def("task", &ResolveTask, py::arg("task"), "same as g[task]")
      .def("stats", &Stats, "the counts of deps_viewer --stats, as a dict")
      .def("query", &Query, py::arg("task"), py::arg("depth") = 0,
           "neighbours (and reach to `depth`) of a task: depgraph query --task --json")
      .def("groups", &Groups,
           "the repeated structure (series of identical instances, nested), as a dict: "
           "depgraph query --groups --json")
      .def("path", &Path, py::arg("a"), py::arg("b"),
           "ids of a shortest path from a to b, or None: depgraph query --path --json")
      .def(
          "grep",
          [](const GraphPtr& g, const std::string& pattern) {
            py::list found;
            for (uint32_t n : GrepTasks(g->Labels(), pattern)) {
              found.append(TaskView{g, g->graph().nodes[n], n});
            }
            return found;
          },
          py::arg("pattern"), "tasks whose kernel name contains pattern (case-insensitive)")
      .def("reduce", &Reduce, py::arg("mode") = "reduced",
           "apply an edge mode (deps_viewer --edge-mode): a Reduction")
      .def(
          "format_id", [](const GraphPtr& g, TaskId id) { return g->Format(id); }, py::arg("id"),
          "a task id as the tools print it")
      .def("__repr__", [](const GraphPtr& g) {
        return "<depgraph.Graph " + g->source() + ": " + std::to_string(g->graph().nodes.size()) +
               " tasks, " + std::to_string(g->graph().pairs.size()) + " edges>";
      });

  m.def(
      "load",
      [](const std::string& path, py::object name_map, unsigned threads, bool views) {
        std::string names =
            name_map.is_none() ? std::string() : py::str(name_map).cast<std::string>();
        // A path with a NUL would name a shorter, different file: refuse it as open() does.
        if (path.find('\0') != std::string::npos || names.find('\0') != std::string::npos) {
          throw py::value_error("embedded null byte");
        }
        GraphPtr graph;
        {
          py::gil_scoped_release release;
          graph = LoadedGraph::Load(path, names, threads, views);
        }
        if (!graph->warning().empty()) {
          // Level 2: the caller of depgraph.load (the Python wrapper is level 1).
          if (PyErr_WarnEx(PyExc_UserWarning, graph->warning().c_str(), 2) != 0) {
            throw py::error_already_set();
          }
        }
        return graph;
      },
      py::arg("path"), py::arg("name_map") = py::none(), py::arg("threads") = 0,
      py::arg("views") = true, "load a deps.json (and its kernel names) as the tools do; use depgraph.load");
}

}  // namespace depgraph::python
