// depgraph.check: `depgraph check` of a depir program (the compiler flow) from Python.
#pragma once

#include <pybind11/pybind11.h>

namespace depgraph::python {

/// Registers `_check` (wrapped in Python by depgraph/_reports.py). O(1).
void BindCheck(pybind11::module_& m);

}  // namespace depgraph::python
