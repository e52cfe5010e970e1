#include "graph_views.h"

#include <algorithm>

#include "depgraph/graph/graph_query.h"
#include "depgraph/graph/task_label.h"

namespace py = pybind11;

namespace depgraph::python {

namespace {

// The active kernel ids of a task record, in slot order.
py::list KernelIds(const Task* task) {
  py::list ids;
  if (task == nullptr) return ids;
  for (int64_t id : task->kernel_ids) {
    if (id >= 0) ids.append(id);
  }
  return ids;
}

const Task* TaskRecord(const TaskView& t) {
  const DepGraph& g = t.graph->graph();
  return t.node >= 0 ? g.TaskOfNode(static_cast<uint32_t>(t.node)) : g.FindTask(t.id);
}

std::string KindOf(const TaskView& t) {
  if (t.node < 0) return "dummy";  // an isolated dummy: a tasks[] entry without a kernel
  return TaskKindName(t.graph->Labels()[static_cast<uint32_t>(t.node)].kind);
}

py::list Neighbours(const TaskView& t, bool preds) {
  py::list out;
  if (t.node < 0) return out;
  const DepGraph& g = t.graph->graph();
  const uint32_t node = static_cast<uint32_t>(t.node);
  for (uint32_t n : preds ? Predecessors(g, node) : Successors(g, node)) {
    out.append(TaskView{t.graph, g.nodes[n], n});
  }
  return out;
}

size_t SequenceIndex(int64_t index, size_t size) {
  const int64_t n = static_cast<int64_t>(size);
  if (index < 0) index += n;
  if (index < 0 || index >= n) throw py::index_error("index out of range");
  return static_cast<size_t>(index);
}

bool EdgeListContains(const EdgeList& list, py::handle item) {
  if (!py::isinstance<py::tuple>(item) || py::len(item) != 2) return false;
  const py::tuple pair = py::reinterpret_borrow<py::tuple>(item);
  std::string text;
  const DepGraph& g = list.graph->graph();
  int64_t pred = -1, succ = -1;
  try {
    pred = g.FindNode(TaskRefToId(pair[0], &text));
    succ = g.FindNode(TaskRefToId(pair[1], &text));
  } catch (const Error&) {
    return false;  // not a task id: not an edge
  }
  if (pred < 0 || succ < 0) return false;
  const int64_t index = g.FindPair(static_cast<uint32_t>(pred), static_cast<uint32_t>(succ));
  if (index < 0) return false;
  if (!list.pairs) return true;
  return std::binary_search(list.pairs->begin(), list.pairs->end(), static_cast<uint32_t>(index));
}

}  // namespace

TaskId TaskRefToId(py::handle ref, std::string* text) {
  if (py::isinstance<TaskView>(ref)) {
    const TaskView& t = ref.cast<const TaskView&>();
    *text = t.graph->Format(t.id);
    return t.id;
  }
  if (py::isinstance<py::bool_>(ref)) throw py::type_error("a task reference cannot be a bool");
  if (py::isinstance<py::int_>(ref)) {
    *text = py::str(ref).cast<std::string>();
    const py::int_ value = py::reinterpret_borrow<py::int_>(ref);
    if (value < py::int_(0) || value > py::int_(UINT64_MAX)) {
      throw Error("'" + *text + "' is not a task id (ids are unsigned 64-bit)");
    }
    return value.cast<uint64_t>();
  }
  if (py::isinstance<py::tuple>(ref) && py::len(ref) == 2) {
    const py::tuple pair = py::reinterpret_borrow<py::tuple>(ref);
    if (!py::isinstance<py::int_>(pair[0]) || !py::isinstance<py::int_>(pair[1])) {
      throw py::type_error("a (ring, local) task reference holds two ints");
    }
    const py::int_ ring = pair[0], local = pair[1];
    *text = "(" + py::str(pair[0]).cast<std::string>() + ", " +
            py::str(pair[1]).cast<std::string>() + ")";
    if (ring < py::int_(0) || ring > py::int_(0xFF) || local < py::int_(0) ||
        local > py::int_(0xFFFFFFFFull)) {
      throw Error("'" + *text + "' is not a task id (ring 0..255, local 0..4294967295)");
    }
    return (ring.cast<uint64_t>() << 32) | local.cast<uint64_t>();
  }
  if (py::isinstance<py::str>(ref)) {
    *text = ref.cast<std::string>();
    TaskId id = 0;
    std::string error;
    if (!ParseTaskRef(*text, &id, &error)) throw Error(error);
    return id;
  }
  throw py::type_error("a task reference is a Task, an int id, a (ring, local) tuple or a str");
}

TaskView ResolveTask(const GraphPtr& graph, py::handle ref) {
  std::string text;
  const TaskId id = TaskRefToId(ref, &text);
  const QueryTask task = graph->Resolve(id, text);
  return TaskView{graph, task.id, task.node};
}

py::tuple PairTuple(const DepGraph& graph, uint32_t pair) {
  const Pair& p = graph.pairs[pair];
  return py::make_tuple(graph.nodes[p.pred], graph.nodes[p.succ]);
}

void BindGraphViews(py::module_& m) {
  py::class_<TaskView>(m, "Task", "One task of a loaded graph (a view: holds no copy).")
      .def_property_readonly(
          "id", [](const TaskView& t) { return t.id; }, "the runtime's 64-bit task id")
      .def_property_readonly("ring", [](const TaskView& t) { return RingOf(t.id); })
      .def_property_readonly("local", [](const TaskView& t) { return LocalOf(t.id); })
      .def_property_readonly(
          "label", [](const TaskView& t) { return t.graph->Format(t.id); },
          "the id as the tools print it: \"(1, 2)\", \"5\" or \"g3t5\"")
      .def_property_readonly("kind", &KindOf, "\"submit\", \"dummy\" or \"alloc\"")
      .def_property_readonly(
          "name",
          [](const TaskView& t) -> std::string {
            if (t.node < 0) return "";
            return t.graph->Labels()[static_cast<uint32_t>(t.node)].func_name;
          },
          "kernel name(s) from the name map, \"A + B\" for several slots; \"\" without one")
      .def_property_readonly(
          "kernel_ids", [](const TaskView& t) { return KernelIds(TaskRecord(t)); },
          "active kernel ids, slot order (aic, aiv0, aiv1)")
      .def_property_readonly(
          "in_graph", [](const TaskView& t) { return t.node >= 0; },
          "False for a dummy task no edge touches (not drawn)")
      .def_property_readonly("preds", [](const TaskView& t) { return Neighbours(t, true); })
      .def_property_readonly("succs", [](const TaskView& t) { return Neighbours(t, false); })
      .def("__eq__",
           [](const TaskView& a, py::handle b) {
             return py::isinstance<TaskView>(b) && a.graph == b.cast<const TaskView&>().graph &&
                    a.id == b.cast<const TaskView&>().id;
           })
      .def("__hash__", [](const TaskView& t) { return py::hash(py::int_(t.id)); })
      .def("__repr__", [](const TaskView& t) {
        std::string name =
            t.node >= 0 ? t.graph->NodeName(static_cast<uint32_t>(t.node)) : std::string("dummy");
        return "<Task " + t.graph->Format(t.id) + " " + name + ">";
      });

  py::class_<TaskList>(m, "TaskList", "The tasks of a graph in ascending id order (a view).")
      .def("__len__", [](const TaskList& l) { return l.graph->graph().nodes.size(); })
      .def("__getitem__",
           [](const TaskList& l, int64_t i) {
             const DepGraph& g = l.graph->graph();
             const size_t node = SequenceIndex(i, g.nodes.size());
             return TaskView{l.graph, g.nodes[node], static_cast<int64_t>(node)};
           })
      .def("__contains__", [](const TaskList& l, py::handle ref) {
        std::string text;
        QueryTask task;
        try {
          return FindQueryTask(l.graph->graph(), TaskRefToId(ref, &text), &task) && task.node >= 0;
        } catch (const Error&) {
          return false;
        }
      });

  py::class_<EdgeList>(m, "EdgeList",
                       "Edges as (pred_id, succ_id) tuples, ascending (a view: holds no copy).")
      .def("__len__", &EdgeList::size)
      .def("__getitem__",
           [](const EdgeList& l, int64_t i) {
             return PairTuple(l.graph->graph(), l.PairAt(SequenceIndex(i, l.size())));
           })
      .def("__contains__", &EdgeListContains)
      .def("__repr__", [](const EdgeList& l) {
        return "<EdgeList of " + std::to_string(l.size()) + " edge(s)>";
      });
}

}  // namespace depgraph::python
