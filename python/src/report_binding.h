// depgraph.audit and depgraph.diff: the reports of `depgraph audit` and `depgraph diff`,
// produced by the same library writers (audit_report.h, diff_report.h).
#pragma once

#include <pybind11/pybind11.h>

namespace depgraph::python {

/// Registers `_audit`, `_diff` and their result classes (wrapped in Python by
/// depgraph/_reports.py). O(1).
void BindReports(pybind11::module_& m);

}  // namespace depgraph::python
