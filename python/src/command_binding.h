// depgraph.simulate, critical_path and swimlane: the timing commands run in process, their
// --json (or trace) handed to Python as data.
#pragma once

#include <pybind11/pybind11.h>

namespace depgraph::python {

/// Registers `_run` (wrapped in Python by depgraph/_commands.py). O(1).
void BindCommands(pybind11::module_& m);

}  // namespace depgraph::python
