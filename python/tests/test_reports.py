"""depgraph.audit and depgraph.diff: the content of `depgraph audit --json` and
`depgraph diff --json`, and the CI-style assertions they are for."""

import json

import depgraph
import pytest
from conftest import CAPTURES, CLI, REAL, capture_id, cli_json, run_tool


@pytest.mark.parametrize("capture", CAPTURES, ids=capture_id)
def test_audit_is_the_cli_report(capture):
    path = capture / "deps.json"
    report = depgraph.audit(depgraph.load(path))
    code, data = cli_json("audit", path)
    assert report.data == data
    assert report.exit_code == code and report.ok == (code == 0)
    _, text, _ = run_tool(CLI, "audit", path)
    assert report.text() == text


def test_audit_finds_the_races_of_dep_probe(dep_probe):
    report = depgraph.audit(depgraph.load(dep_probe))
    # docs/audit.md: 15 races (RAW 5, WAW 1, WAR 9) and 2 false serialization findings.
    assert not report.ok and report.exit_code == 3
    assert len(report.races) == 15 and len(report.false_serialization) == 2
    assert sorted(r["kind"] for r in report.races).count("WAR") == 9
    assert report.summary["depth"] == 3 and report.summary["width"] == 14
    assert "races" in repr(report) or "race(s)" in repr(report)


def test_strict_audit_fails_on_coverage_gaps_like_the_cli():
    # paged_attention_manual_scope: no race, but 15 OUTPUT slots no creator row names.
    path = REAL / "paged_attention_manual_scope" / "CaseSmall1" / "deps.json"
    g = depgraph.load(path)
    lenient, strict = depgraph.audit(g), depgraph.audit(g, strict=True)
    assert lenient.ok and lenient.exit_code == 0
    assert not strict.ok and strict.exit_code == 3
    assert strict.coverage_gaps == lenient.coverage_gaps
    assert lenient.coverage_gaps[0].startswith("15 of ")
    code, _, err = run_tool(CLI, "audit", path, "--strict")
    assert code == strict.exit_code
    for gap in strict.coverage_gaps:
        assert f"warning: {path}: {gap}\n" in err
    code, _, _ = run_tool(CLI, "audit", path)
    assert code == lenient.exit_code


def test_coverage_gaps_are_empty_on_a_fully_placed_capture(dep_probe):
    report = depgraph.audit(depgraph.load(dep_probe), strict=True)
    assert report.coverage_gaps == []
    assert not report.ok and report.exit_code == 3  # its races, strict or not


def test_audit_of_a_cycle_is_the_cli_error(tmp_path):
    cyclic = tmp_path / "deps.json"
    cyclic.write_text('{"tasks": [], "tensors": [], "edges": ['
                      '{"pred": 1, "succ": 2, "source": "explicit"},'
                      '{"pred": 2, "succ": 1, "source": "explicit"}]}')
    with pytest.raises(depgraph.Error) as e:
        depgraph.audit(depgraph.load(cyclic))
    code, _, err = run_tool(CLI, "audit", cyclic)
    assert code == 1 and err == f"error: {e.value}\n"


def test_capture_diffed_against_itself_passes(pa_small):
    g = depgraph.load(pa_small)
    report = depgraph.diff(g, g)
    assert report.ok, report
    assert report.orderings_lost == [] and report.orderings_added == []
    assert depgraph.diff(g, depgraph.load(pa_small), closure=True).ok


def without_one_edge(capture, tmp_path):
    """A copy of `capture` without every row of one edge that no longer path implies: the
    first edge `reduced` keeps. Returns (path, (pred, succ))."""
    g = depgraph.load(capture)
    pred, succ = g.reduce("reduced_dataflow").kept[0]
    doc = json.loads(capture.read_text())
    doc["edges"] = [e for e in doc["edges"] if (int(e["pred"]), int(e["succ"])) != (pred, succ)]
    out = tmp_path / "deps.json"
    out.write_text(json.dumps(doc))
    return out, (pred, succ)


def test_capture_with_one_edge_removed_fails_naming_the_ordering(pa_small, tmp_path):
    broken, (pred, succ) = without_one_edge(pa_small, tmp_path)
    a, b = depgraph.load(pa_small), depgraph.load(broken)
    report = depgraph.diff(a, b)
    # What a CI job asserts, and what it reads when the assertion fails.
    assert not report.ok and report.exit_code == 3
    assert [(o.pred, o.succ) for o in report.orderings_lost] == [(pred, succ)]
    assert f"{pred} -> {succ}" in repr(report)
    with pytest.raises(AssertionError, match=f"1 ordering\\(s\\) lost \\({pred} -> {succ}\\)"):
        assert report.ok, report
    code, data = cli_json("diff", pa_small, broken)
    assert code == 3 and report.data == data
    _, text, _ = run_tool(CLI, "diff", pa_small, broken)
    assert report.text() == text


@pytest.mark.parametrize("closure", [False, True])
def test_diff_is_the_cli_report_between_real_captures(closure):
    # The manual-scope capture has other task ids: the CLI falls back to submit order.
    a = CAPTURES[0].parent.parent / "paged_attention" / "CaseSmall1" / "deps.json"
    b = a.parents[2] / "paged_attention_manual_scope" / "CaseSmall1" / "deps.json"
    report = depgraph.diff(depgraph.load(a), depgraph.load(b), closure=closure)
    args = ["diff", a, b] + (["--closure"] if closure else [])
    code, data = cli_json(*args)
    assert report.data == data and report.exit_code == code
    _, _, err = run_tool(CLI, *args)
    assert report.notes == err.splitlines()


def test_diff_gate_flags_are_the_cli_flags(tmp_path):
    # B keeps every ordering of A and adds one A does not imply: a warning, failing only with
    # warnings_as_errors; a task only in A is a coverage gap, failing only with strict.
    tasks = ",".join(f'{{"task_id": "{i}", "kernel_ids": [0, -1, -1]}}' for i in range(3))
    a = tmp_path / "a.json"
    a.write_text('{"tasks": [' + tasks + '], "edges": [{"pred": "0", "succ": "1", "arg": -1, '
                 '"source": "explicit"}]}')
    b = tmp_path / "b.json"
    b.write_text('{"tasks": [' + tasks + '], "edges": [{"pred": "0", "succ": "1", "arg": -1, '
                 '"source": "explicit"}, {"pred": "1", "succ": "2", "arg": -1, '
                 '"source": "explicit"}]}')
    ga, gb = depgraph.load(str(a)), depgraph.load(str(b))
    assert depgraph.diff(ga, gb).ok
    strict = depgraph.diff(ga, gb, warnings_as_errors=True)
    assert not strict.ok and strict.exit_code == 3
    assert "warning: edge added: 1 f0 -> 2 f0" in depgraph.diff(ga, gb).text()
    code, _ = cli_json("diff", a, b, "--warnings-as-errors")
    assert code == 3
    c = tmp_path / "c.json"
    c.write_text('{"tasks": [' + tasks.rsplit(",{", 1)[0] + '], "edges": [{"pred": "0", '
                 '"succ": "1", "arg": -1, "source": "explicit"}]}')
    gc = depgraph.load(str(c))
    gap = depgraph.diff(ga, gc)
    assert gap.ok and len(gap.coverage_gaps) == 1 and "have no partner" in gap.coverage_gaps[0]
    assert not depgraph.diff(ga, gc, strict=True).ok


def test_graphs_loaded_without_views_diff_alike_and_refuse_what_reads_views(pa_small, tmp_path):
    broken, _ = without_one_edge(pa_small, tmp_path)
    full = depgraph.diff(depgraph.load(pa_small), depgraph.load(broken))
    lean_a, lean_b = depgraph.load(pa_small, views=False), depgraph.load(broken, views=False)
    # The diff (and its findings: arguments, tensors, sources) never reads a view.
    lean = depgraph.diff(lean_a, lean_b)
    assert lean.text() == full.text() and lean.data == full.data and not lean.ok
    g = depgraph.load(pa_small)
    assert list(lean_a.edges) == list(g.edges) and lean_a.rows == g.rows
    assert list(lean_a.reduce("reduced").kept) == list(g.reduce("reduced").kept)
    for refused in (lambda: lean_a.reduce("reduced_dataflow"),
                    lambda: lean_a.reduce("omitted_dataflow"), lambda: depgraph.audit(lean_a)):
        with pytest.raises(depgraph.Error, match=r"loaded with views=False: load it with views=True"):
            refused()
    assert depgraph.audit(g).ok == depgraph.audit(depgraph.load(pa_small, views=True)).ok
