// depgraph.load and the Graph class: lookups, stats(), query(), path(), grep().
#pragma once

#include <pybind11/pybind11.h>

namespace depgraph::python {

/// Registers `load` and `Graph` (after BindGraphViews). O(1).
void BindGraph(pybind11::module_& m);

}  // namespace depgraph::python
