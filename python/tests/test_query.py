"""Graph.query and Graph.path: the answers of `depgraph query --json`, ids as ints."""

import depgraph
import pytest
from conftest import CAPTURES, capture_id, cli_json


def as_ints(answer):
    """A query --json answer with its decimal-string ids as ints."""
    out = {}
    for key, value in answer.items():
        if key in ("task", "from", "to"):
            out[key] = int(value)
        elif key in ("preds", "succs", "path") and value is not None:
            out[key] = [int(v) for v in value]
        elif key in ("ancestors", "descendants"):
            out[key] = [{"id": int(v["id"]), "depth": v["depth"]} for v in value]
        else:
            out[key] = value
    return out


@pytest.mark.parametrize("capture", CAPTURES, ids=capture_id)
def test_query_answers_as_the_cli(capture):
    path = capture / "deps.json"
    g = depgraph.load(path)
    probes = [g.tasks[0], g.tasks[len(g) // 2], g.tasks[-1]]
    for t in probes:
        for depth in (0, 2):
            args = ["query", path, "--task", str(t.id)] + (["--depth", "2"] if depth else [])
            _, answer = cli_json(*args)
            assert g.query(t.id, depth=depth) == as_ints(answer)
    a, b = g.tasks[0], g.tasks[-1]
    for x, y in ((a, b), (b, a), (a, a)):
        _, answer = cli_json("query", path, "--path", str(x.id), str(y.id))
        assert g.path(x, y) == as_ints(answer)["path"]


def test_query_and_path_take_every_reference_form(pa_small):
    g = depgraph.load(pa_small)
    assert g.query((2, 0)) == g.query("(2, 0)") == g.query(g[(2, 0)]) == g.query(8589934592)
    assert g.path((1, 0), (2, 7)) == [4294967296, 8589934599]  # the redundant creator edge
    assert g.path((2, 7), (1, 0)) is None
    with pytest.raises(depgraph.Error, match="no task"):
        g.path((1, 0), (7, 7))


def ids_as_ints(series):
    """query --groups --json series with their decimal-string ids as ints."""
    return [dict(s, first=int(s["first"]), last=int(s["last"]), children=ids_as_ints(s["children"]))
            for s in series]


@pytest.mark.parametrize("capture", CAPTURES, ids=capture_id)
def test_groups_as_the_cli(capture):
    path = capture / "deps.json"
    _, answer = cli_json("query", path, "--groups")
    expected = dict(answer["groups"], series=ids_as_ints(answer["groups"]["series"]))
    assert depgraph.load(path).groups() == expected


def test_groups_find_the_blocks_of_a_request(pa_small):
    groups = depgraph.load(pa_small).groups()
    assert groups["nodes"] == len(depgraph.load(pa_small))
    assert groups["series"], "paged attention repeats its block body"
    kind = groups["kinds"][groups["series"][0]["kind"]]
    assert kind["label"] and kind["size"] >= 4
