"""The depgraph gate as pytest tests: a captured run has no race, and the graph the compiler's
edges give keeps every ordering the runtime enforces. Copy this file into your test tree and
point it at your artifacts with environment variables (docs/ci.md):

    DEPGRAPH_CAPTURE=out/deps.json \\
    DEPGRAPH_RUNTIME_GRAPH=out/runtime/deps.json DEPGRAPH_COMPILED_GRAPH=out/compiled/deps.json \\
    DEPGRAPH_PROGRAM=orch/decode.depir DEPGRAPH_PROGRAM_SETS="n=4 cond=true" DEPGRAPH_STRICT=1 \\
        python3 -m pytest test_depgraph_gate.py --junitxml=depgraph-pytest.xml

A test whose variable is unset is skipped, saying which variable to set.
"""

import os
import warnings

import pytest

import depgraph


def _artifact(variable):
    path = os.environ.get(variable)
    if not path:
        pytest.skip(f"set {variable} to run this gate")
    return path


def test_capture_has_no_race():
    # Coverage gaps (output slots no creator row places, whose readers the audit cannot
    # check: a dropped row, or an output nobody reads) are warnings here; DEPGRAPH_STRICT=1
    # makes them fail, for captures that have none.
    strict = os.environ.get("DEPGRAPH_STRICT") == "1"
    report = depgraph.audit(depgraph.load(_artifact("DEPGRAPH_CAPTURE")), strict=strict)
    for gap in report.coverage_gaps:
        warnings.warn(f"depgraph coverage gap: {gap}")
    assert report.ok, report.text()


def test_compiler_keeps_every_runtime_ordering():
    runtime = depgraph.load(_artifact("DEPGRAPH_RUNTIME_GRAPH"))
    compiled = depgraph.load(_artifact("DEPGRAPH_COMPILED_GRAPH"))
    # Scopes change ring ids between the two runs: match tasks by submit order.
    report = depgraph.diff(runtime, compiled, by_order=True)
    assert report.ok, report.text()


def _binding(value):
    # --set values: true/false or an integer.
    return value == "true" if value in ("true", "false") else int(value)


def test_compiled_program_keeps_every_ordering():
    program = _artifact("DEPGRAPH_PROGRAM")
    sets = {}
    for binding in os.environ.get("DEPGRAPH_PROGRAM_SETS", "").split():
        name, _, value = binding.partition("=")
        sets[name] = _binding(value)
    result = depgraph.check(program, sets=sets, sound=True)
    assert result.ok, result.report
