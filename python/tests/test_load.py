"""depgraph.load: the graph object, lookups, and errors with the tools' own messages."""

import json
import re
import shutil
import warnings

import depgraph
import pytest
from conftest import CAPTURES, CLI, capture_id, run_tool


def test_load_exposes_tasks_and_edges(pa_small):
    g = depgraph.load(pa_small)
    raw = json.loads(pa_small.read_text())
    # 12 tasks[] entries plus one allocation node; 17 unique pairs of 23 rows.
    assert len(g) == 13 and len(g.tasks) == 13
    assert len(g.edges) == 17 and g.rows == len(raw["edges"]) == 23
    ids = [t.id for t in g.tasks]
    assert ids == sorted(ids)
    pairs = sorted({(int(e["pred"]), int(e["succ"])) for e in raw["edges"]})
    assert list(g.edges) == pairs
    assert pairs[0] in g.edges and (pairs[0][1], pairs[0][0]) not in g.edges
    assert ("(2, 0)", "(2, 1)") in g.edges and ((2, 0), (2, 1)) in g.edges
    assert ("(2, x)", 1) not in g.edges and (-1, 2) not in g.edges and 5 not in g.edges
    assert g.edges[-1] == pairs[-1] and g.edges[0] == pairs[0]
    with pytest.raises(IndexError):
        g.edges[len(pairs)]
    assert g.name_map.endswith("name_map_TestPagedAttention_CaseSmall1.json")


def test_lookup_by_id_ring_local_and_text(pa_small):
    g = depgraph.load(pa_small)
    first = int(json.loads(pa_small.read_text())["tasks"][0]["task_id"])  # 8589934592 = (2, 0)
    t = g[first]
    assert (t.ring, t.local) == (2, 0)
    assert g[(2, 0)] == t == g["(2, 0)"] == g.task(t)
    assert t.label == "(2, 0)" and t.kind == "submit" and t.name == "QK"
    assert t.kernel_ids == [0]
    assert [s.id for s in t.succs] == [s for p, s in g.edges if p == first]
    assert (2, 0) in g and (9, 9) not in g
    with pytest.raises(depgraph.Error) as e:
        g[(9, 9)]
    # `depgraph query` says the same about an unknown task.
    code, _, err = run_tool(CLI, "query", pa_small, "--task", "(9, 9)")
    assert code == 1 and err == f"error: {e.value}\n"


def test_bad_task_reference_is_the_query_message(pa_small):
    g = depgraph.load(pa_small)
    with pytest.raises(depgraph.Error) as e:
        g["(2, x)"]
    _, _, err = run_tool(CLI, "query", pa_small, "--task", "(2, x)")
    assert err == f"error: {e.value}\n"
    with pytest.raises(TypeError):
        g[1.5]


@pytest.mark.parametrize("capture", CAPTURES, ids=capture_id)
def test_every_capture_loads_like_the_viewer(capture):
    g = depgraph.load(capture / "deps.json")
    # The reference tool's summary line: "Wrote ... (13 tasks, 17 unique edges, 23 annotated
    # edges, format=text)".
    wrote = (capture / "expected" / "full.stdout").read_text().splitlines()[-1]
    m = re.search(r"\((\d+) tasks, (\d+) unique edges, (\d+) annotated edges", wrote)
    assert (len(g), len(g.edges), g.rows) == tuple(int(x) for x in m.groups())
    assert all(t.id in g and g[t.id] == t for t in g.tasks)


def bad_inputs(tmp_path):
    syntax = tmp_path / "syntax.json"
    syntax.write_text('{"tasks": [}')
    bad_id = tmp_path / "bad_id.json"
    bad_id.write_text('{"tasks": [], "edges": [{"pred": "0x10", "succ": 1}]}')
    return [syntax, bad_id, tmp_path / "missing.json", tmp_path]


def test_load_errors_are_the_cli_line(tmp_path):
    for path in bad_inputs(tmp_path):
        with pytest.raises(depgraph.Error) as e:
            depgraph.load(path)
        code, out, err = run_tool(CLI, "query", path, "--task", "0")
        assert code == 1 and out == ""
        assert err == f"error: {e.value}\n", path
        assert "\n" not in str(e.value)


def test_name_map_invalid_is_an_error_unreadable_a_warning(tmp_path, pa_small):
    shutil.copy(pa_small, tmp_path / "deps.json")
    names = tmp_path / "names.json"
    names.write_text('{"callable_id_to_name": {"0": 5}}')
    with pytest.raises(depgraph.Error) as e:
        depgraph.load(tmp_path / "deps.json", name_map=names)
    _, _, err = run_tool(CLI, "query", tmp_path / "deps.json", "--func-names", names,
                         "--task", "0")
    assert err == f"error: {e.value}\n"
    names.write_text("not json")
    with pytest.warns(UserWarning, match="couldn't read"):
        g = depgraph.load(tmp_path / "deps.json", name_map=names)
    assert g.name_map is None and g[(2, 0)].name == ""
    names.write_text('{"0": "Q", "1": "S"}')
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        g = depgraph.load(tmp_path / "deps.json", name_map=str(names))
    assert g[(2, 0)].name == "Q" and g.name_map == str(names)


def test_graph_outlives_nothing_it_hands_out(pa_small):
    # Views keep the graph alive: no copy, no dangling reference.
    g = depgraph.load(pa_small)
    tasks, edges, t = g.tasks, g.reduce("reduced_dataflow").removed, g[(2, 0)]
    del g
    assert len(tasks) == 13 and tasks[-1].id > tasks[0].id
    assert list(edges) == [(4294967296, 8589934599)]  # (1, 0) -> (2, 7)
    assert t.label == "(2, 0)"


@pytest.mark.parametrize("name, text, says", [
    ("empty.json", "{}", "an empty JSON object"),
    ("chip_swimlane_records.json",
     '{"chip_swimlane_level": 2, "metadata": {}, "aicore_tasks": [], "aicpu_tasks": []}',
     "these are timing records"),
    ("name_map_x.json", '{"callable_id_to_name": {"0": "fill"}}', "a kernel name map"),
])
def test_a_document_that_is_not_a_capture_is_an_error_not_an_empty_graph(tmp_path, name, text,
                                                                          says):
    # An empty graph would pass `assert not depgraph.audit(g).races` while testing nothing.
    path = tmp_path / name
    path.write_text(text)
    with pytest.raises(depgraph.Error) as e:
        depgraph.load(str(path))
    assert str(e.value).startswith(f"{path}: not a deps.json capture: ")
    assert says in str(e.value)
