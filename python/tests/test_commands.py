"""depgraph.simulate, critical_path, swimlane and sched_overhead: the same data as the commands' --json (or
trace), and their errors as depgraph.Error."""

import json
import shutil

import depgraph
import pytest
from depgraph._ids import with_int_ids
from conftest import CLI, SOURCE, run_tool

PROBE = SOURCE / "data" / "real" / "dep_probe" / "default" / "deps.json"
PROBE_MACHINE = SOURCE / "data" / "timing_sim" / "dep_probe_spmd" / "simulation.json"
PA_CASE = SOURCE / "data" / "timing" / "pa_small1_basic"


def test_simulate_is_the_commands_json():
    options = ["--machine", PROBE_MACHINE, "--aiv", "8", "--what-if", "no-false-edges",
               "--what-if", "reduced_dataflow", "--cores", "aiv=16"]
    _, out, _ = run_tool(CLI, "simulate", PROBE, "--json", *options, check=0)
    got = depgraph.simulate(PROBE, machine=PROBE_MACHINE, aiv=8,
                            what_if=["no-false-edges", "reduced_dataflow"], cores="aiv=16")
    assert got == with_int_ids(json.loads(out))  # ids as ints (docs/python.md, "Ids")
    assert got["what_if"][0]["dropped_dependencies"] == 2


def test_critical_path_is_the_commands_json(tmp_path):
    case = tmp_path / "case"
    shutil.copytree(PA_CASE, case)
    run_tool(CLI, "critical-path", case, "--top", "5", "--json", tmp_path / "cli.json", check=0)
    got = depgraph.critical_path(case, top=5)
    assert got == with_int_ids(json.loads((tmp_path / "cli.json").read_text()))
    assert got["ranks"] and got["ranks"][0]["label"] == "case"


def test_swimlane_is_the_commands_trace(tmp_path):
    case = tmp_path / "case"
    shutil.copytree(PA_CASE, case)
    records = case / "chip_swimlane_records.json"
    run_tool(CLI, "swimlane", records, "-o", tmp_path / "cli.json", check=0)
    got = depgraph.swimlane(records)
    assert got == json.loads((tmp_path / "cli.json").read_text())
    assert got["traceEvents"]


def test_sched_overhead_is_the_commands_json():
    case = SOURCE / "tests" / "data" / "swimlane" / "l4_host_calibrated" / "input"
    records, deps = case / "chip_swimlane_records.json", case / "deps.json"
    _, out, _ = run_tool(CLI, "sched-overhead", "--chip-swimlane-records-json", records,
                         "--deps-json", deps, "--json", check=0)
    got = depgraph.sched_overhead(records, deps_json=deps)
    assert got == json.loads(out)
    assert got["task_rows"] == 5 and got["critical_path"]["hops"] == 3
    with pytest.raises(depgraph.Error, match="tasks_processed"):
        l3 = SOURCE / "tests" / "data" / "swimlane" / "l3_sched_phases" / "input"
        depgraph.sched_overhead(l3 / "chip_swimlane_records.json")


def test_errors_are_depgraph_errors_and_nul_bytes_are_refused(tmp_path):
    with pytest.raises(depgraph.Error, match="missing.json"):
        depgraph.simulate(tmp_path / "missing.json", aic=1, aiv=1)
    with pytest.raises(ValueError, match="NUL"):
        depgraph.simulate(str(PROBE) + "\0junk", machine=PROBE_MACHINE)
