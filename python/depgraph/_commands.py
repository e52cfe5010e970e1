"""depgraph.simulate, depgraph.critical_path, depgraph.swimlane and depgraph.sched_overhead:
the timing commands run in process (the commands' own code), returning what their --json (or trace) holds."""

import json
import os
import tempfile
import warnings
from typing import Any, Dict

from . import _depgraph
from ._depgraph import Error
from ._ids import with_int_ids


def _flags(options: Dict[str, Any]):
    """Keyword options as the command's long options: what_if="x" -> --what-if x; True -> the
    bare flag; a list or tuple -> the option repeated; None and False -> left out."""
    args = []
    for key, value in options.items():
        flag = "--" + key.replace("_", "-")
        if value is None or value is False:
            continue
        if value is True:
            args.append(flag)
        elif isinstance(value, (list, tuple)):
            for item in value:
                args += [flag, os.fspath(item) if isinstance(item, os.PathLike) else str(item)]
        else:
            args += [flag, os.fspath(value) if isinstance(value, os.PathLike) else str(value)]
    return args


def _run(args):
    """Runs `depgraph ARGS`: its stdout. Exit 1 or 2 raises Error with the command's error
    line; its warning lines become UserWarnings."""
    code, out, err = _depgraph._run([os.fspath(a) if isinstance(a, os.PathLike) else str(a)
                                     for a in args])
    err_text = err.decode("utf-8", "replace")
    if code not in (0, 3):
        lines = [line for line in err_text.splitlines() if line.strip()]
        line = next((l for l in lines if l.startswith("error: ")), lines[-1] if lines else
                    f"depgraph {args[0]} exited with {code}")
        raise Error(line[len("error: "):] if line.startswith("error: ") else line)
    for line in err_text.splitlines():
        if line.lower().startswith("warning"):
            warnings.warn(line, UserWarning, stacklevel=3)
    return out.decode("utf-8")


def simulate(deps, **options) -> dict:
    """`depgraph simulate DEPS --json` with the keyword options as its long options
    (machine=, records=, what_if=["reduced_dataflow", ...], cores=["aic=4,aiv=8"], aic=, ...):
    the report as a dict (docs/simulate.md, schema depgraph-simulate/1), task ids as ints."""
    options.pop("json", None)
    return with_int_ids(json.loads(_run(["simulate", deps, "--json"] + _flags(options))))


def _json_written(command, target, flag, options):
    """Runs `depgraph COMMAND TARGET FLAG <temporary file> OPTIONS...` and returns the JSON it
    wrote there (the file is removed)."""
    with tempfile.TemporaryDirectory(prefix="depgraph-") as tmp:
        path = os.path.join(tmp, "out.json")
        _run([command, target, flag, path] + _flags(options))
        with open(path, encoding="utf-8") as f:
            return json.load(f)


def critical_path(root, **options) -> dict:
    """`depgraph critical-path ROOT --json FILE` (docs/timing.md): the JSON as a dict. Like the
    command it also writes each rank's report and CPM traces beside the records. A decimal
    task_id is an int."""
    options.pop("json", None)
    return with_int_ids(_json_written("critical-path", root, "--json", options))


def swimlane(records, **options) -> dict:
    """`depgraph swimlane RECORDS` (docs/swimlane.md) with the keyword options as its long
    options (deps_json=, func_names=, overhead=True): the Perfetto trace as a dict, written to
    a temporary file, not beside the records; the function table is left out."""
    options.pop("o", None)
    options.pop("output", None)
    return _json_written("swimlane", records, "-o", options)


def sched_overhead(records=None, **options) -> dict:
    """`depgraph sched-overhead --json` (docs/sched_overhead.md) on RECORDS (default: the
    newest outputs/*/chip_swimlane_records.json) with the keyword options as its long options
    (deps_json=): the report's numbers as a dict."""
    options.pop("json", None)
    args = ["sched-overhead", "--json"]
    if records is not None:
        args += ["--chip-swimlane-records-json", records]
    return json.loads(_run(args + _flags(options)))
