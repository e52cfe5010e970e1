"""depgraph for Python: load, reduce, query, audit and compare captured task dependency
graphs (deps.json), and check depir programs, with the same code and the same answers as the
command-line tools. See docs/python.md."""

import os as _os

from . import _depgraph
from ._depgraph import EdgeList, Error, Graph, Reduction, Task, TaskList, __version__
from ._commands import critical_path, sched_overhead, simulate, swimlane
from ._reports import AuditReport, CheckResult, DiffReport, Ordering, audit, check, diff

#: The edge modes Graph.reduce() takes, as deps_viewer --edge-mode spells them.
EDGE_MODES = ("full", "reduced", "omitted", "reduced_dataflow", "omitted_dataflow", "retained")



def load(path, name_map=None, threads: int = 0, views: bool = True) -> Graph:
    """Loads a deps.json as the tools do: the graph on `threads` threads (0 = every core), the
    kernel names from `name_map` or else the newest sibling name_map*.json. With views=False
    the tensor views (dtype, shape, strides, offset) are checked but not kept, as `depgraph
    query` and `diff` load: a third less memory; then audit() and the dataflow edge modes,
    which read them, raise Error. Raises Error with the line the tools print after `error: `;
    an unreadable name map is a UserWarning."""
    if not isinstance(views, bool):  # views="no" would be truthy: refuse what is not a bool
        raise TypeError(f"views: expected True or False, got {views!r}")
    return _depgraph.load(_os.fspath(path), None if name_map is None else _os.fspath(name_map),
                          threads, views)


__all__ = ["AuditReport", "CheckResult", "DiffReport", "EDGE_MODES", "EdgeList", "Error",
           "Graph", "Ordering", "Reduction", "Task", "TaskList", "audit", "check", "critical_path",
           "diff", "load", "sched_overhead", "simulate", "swimlane", "__version__"]
