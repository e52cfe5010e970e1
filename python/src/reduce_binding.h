// Graph.reduce(mode): an edge mode applied, as deps_viewer --edge-mode does.
#pragma once

#include <pybind11/pybind11.h>

#include <string>

#include "loaded_graph.h"

namespace depgraph::python {

/// Applies the edge mode named `mode` ("full", "reduced", ...; Error naming the accepted ones
/// otherwise) to the graph: a Reduction. The structural reduction is computed once per graph
/// and reused by every mode. Cost: see edge_mode.h.
pybind11::object Reduce(const GraphPtr& graph, const std::string& mode);

/// Registers Reduction. O(1).
void BindReduction(pybind11::module_& m);

}  // namespace depgraph::python
