"""Graph.reduce for every edge mode and Graph.stats, against the reference tool's outputs
(data/real/*/*/expected) and deps_viewer --stats."""

import depgraph
import pytest
from conftest import CAPTURES, VIEWER, capture_id, run_tool

REFERENCE_MODES = ("full", "reduced", "omitted", "reduced_dataflow", "omitted_dataflow")


def printed(g, reduction):
    """What deps_viewer prints for a mode, without its closing `Wrote ...` line."""
    if reduction.headline is None:
        return []
    return [reduction.headline] + [f"  - {g.format_id(p)} -> {g.format_id(s)}"
                                   for p, s in reduction.listed]


@pytest.mark.parametrize("capture", CAPTURES, ids=capture_id)
def test_every_mode_prints_what_the_reference_prints(capture):
    g = depgraph.load(capture / "deps.json")
    for mode in REFERENCE_MODES:
        expected = (capture / "expected" / f"{mode}.stdout").read_text().splitlines()[:-1]
        r = g.reduce(mode)
        assert r.mode == mode
        assert printed(g, r) == expected, mode
        assert len(r.kept) + len(r.removed) == r.total == len(g.edges)
        assert set(r.kept).isdisjoint(r.removed)
        if mode.startswith("reduced"):
            assert list(r.removed) == list(r.listed)
        elif mode.startswith("omitted"):
            assert list(r.kept) == list(r.listed)
        else:
            assert list(r.kept) == list(g.edges) and len(r.removed) == 0


def test_retained_mode_and_its_count(pa_small):
    g = depgraph.load(pa_small)
    reduced, retained = g.reduce("reduced"), g.reduce("retained")
    # CaseSmall1: 5 redundant pairs, all kept by creator protection.
    assert reduced.retained == retained.retained == 5 == len(retained.listed)
    assert len(reduced.removed) == 0
    assert retained.headline == ("Creator-retained redundant edges only: showing 5 redundant "
                                 "edge(s) of 17")
    assert all(e in reduced.kept for e in retained.listed)


def test_unknown_mode_names_the_accepted_ones(pa_small):
    with pytest.raises(depgraph.Error, match="expected full, reduced, omitted"):
        depgraph.load(pa_small).reduce("reduce")
    assert depgraph.EDGE_MODES[-1] == "retained"


@pytest.mark.parametrize("capture", CAPTURES, ids=capture_id)
def test_stats_are_deps_viewer_stats(capture, tmp_path):
    _, out, _ = run_tool(VIEWER, capture / "deps.json", "--stats", "-o", tmp_path / "x.txt",
                         check=0)
    line = [l for l in out.splitlines() if l.startswith("Stats: ")][0]
    cli = dict(kv.split("=") for kv in line[len("Stats: "):].split())
    stats = depgraph.load(capture / "deps.json").stats()
    expected = {k: (v == "yes") if k == "cycle" else int(v) for k, v in cli.items()}
    expected.setdefault("cycle", False)
    assert stats == expected


def test_cycle_falls_back_to_the_full_graph(tmp_path):
    cyclic = tmp_path / "deps.json"
    cyclic.write_text('{"tasks": [], "tensors": [], "edges": ['
                      '{"pred": 1, "succ": 2, "source": "explicit"},'
                      '{"pred": 2, "succ": 1, "source": "explicit"}]}')
    g = depgraph.load(cyclic)
    r = g.reduce("reduced")
    assert r.cycle_fallback and r.headline is None and len(r.kept) == 2
    assert r.cycle in ([1, 2, 1], [2, 1, 2])
    assert g.stats() == {"tasks": 2, "edges": 2, "rows": 2, "cycle": True}
