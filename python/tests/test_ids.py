"""Task ids are ints everywhere the module returns them (docs/python.md, "Ids"): Task.id, the
queries, the reductions, the orderings of diff, the races and findings of audit, and the
simulate and critical-path results. Only AuditReport.data and DiffReport.data keep the JSON
files' decimal strings."""

import shutil

import depgraph
from conftest import SOURCE

PROBE_MACHINE = SOURCE / "data" / "timing_sim" / "dep_probe_spmd" / "simulation.json"
PA_CASE = SOURCE / "data" / "timing" / "pa_small1_basic"


def all_ints(values):
    values = list(values)
    return bool(values) and all(type(v) is int for v in values)


def test_graph_results_give_int_ids(pa_small):
    g = depgraph.load(pa_small)
    first, last = g.tasks[0], g.tasks[len(g) - 1]
    assert type(first.id) is int
    assert all_ints(i for edge in g.edges for i in edge)
    q = g.query(first, depth=2)
    assert type(q["task"]) is int
    assert all_ints([q["task"]] + [i for i in q["succs"]] + [d["id"] for d in q["descendants"]])
    path = g.path(first, g.tasks[3]) or [first.id]
    assert all_ints(path)
    series = g.groups()["series"]
    assert all(type(s["first"]) is int and type(s["last"]) is int for s in series)
    assert all_ints(i for edge in g.reduce("reduced").kept for i in edge)
    assert type(last.id) is int


def test_audit_results_give_int_ids_and_data_keeps_the_files_strings(dep_probe):
    report = depgraph.audit(depgraph.load(dep_probe))
    race = report.races[0]
    assert type(race["first"]["task"]) is int and type(race["second"]["task"]) is int
    assert type(race["first"]["tensor"]) is int
    assert type(race["bytes"]["begin"]) is int and type(race["bytes"]["end"]) is int
    finding = report.false_serialization[0]
    assert all_ints(t["task"] for t in finding["tasks"])
    assert all_ints(i for e in finding["edges"] for i in (e["pred"], e["succ"]))
    assert all_ints(step["task"] for step in report.summary["critical_path"])
    # The parsed file as written: the runtime's u64 convention.
    raw = report.data["races"]["list"][0]
    assert raw["first"]["task"] == str(race["first"]["task"])
    # An id from a race finds its Task.
    g = depgraph.load(dep_probe)
    assert g[race["first"]["task"]].id == race["first"]["task"]


def test_diff_orderings_give_int_ids(pa_small):
    g = depgraph.load(pa_small)
    manual = SOURCE / "data" / "real" / "paged_attention_manual_scope" / "CaseSmall1" / "deps.json"
    report = depgraph.diff(g, depgraph.load(manual), by_order=True)
    assert report.orderings_lost
    assert all_ints(i for o in report.orderings_lost for i in o[:4])


def test_simulate_and_critical_path_give_int_ids(dep_probe, tmp_path):
    sim = depgraph.simulate(dep_probe, machine=PROBE_MACHINE, aiv=8, what_if=["no-false-edges"])
    ranked = sim["false_edges"]["ranked"]
    assert all_ints(i for r in ranked for pair in r["pairs"] for i in pair)
    case = tmp_path / "case"
    shutil.copytree(PA_CASE, case)
    cp = depgraph.critical_path(case)
    assert all_ints(t["task_id"] for t in cp["ranks"][0]["static_path"]["tasks"])
