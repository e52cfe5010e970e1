// The `depgraph._depgraph` extension module: libdepgraph's model, edge modes, queries,
// audit, diff and check for Python. The Python package (python/depgraph/) wraps it.
#include <pybind11/pybind11.h>

#include "check_binding.h"
#include "command_binding.h"
#include "graph_binding.h"
#include "graph_views.h"
#include "loaded_graph.h"
#include "reduce_binding.h"
#include "report_binding.h"

PYBIND11_MODULE(_depgraph, m) {
  m.doc() = "libdepgraph for Python (use the depgraph package, not this module)";
  pybind11::register_exception<depgraph::python::Error>(m, "Error", PyExc_Exception);
  depgraph::python::BindGraphViews(m);
  depgraph::python::BindReduction(m);
  depgraph::python::BindGraph(m);
  depgraph::python::BindReports(m);
  depgraph::python::BindCheck(m);
  depgraph::python::BindCommands(m);
#ifdef DEPGRAPH_VERSION
  m.attr("__version__") = DEPGRAPH_VERSION;
#endif
}
