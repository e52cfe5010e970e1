"""Issue 25 item 3: None where a Graph is expected raises TypeError (it crashed the
interpreter), and a path with an embedded NUL raises ValueError as open() does (it loaded the
file named by the part before the NUL)."""

import pytest

import depgraph
from conftest import SOURCE

SAMPLE = SOURCE / "data" / "samples" / "worked_example" / "deps.json"


def test_audit_and_diff_of_none_raise_type_error():
    g = depgraph.load(SAMPLE)
    with pytest.raises(TypeError):
        depgraph.audit(None)
    with pytest.raises(TypeError):
        depgraph.diff(None, g)
    with pytest.raises(TypeError):
        depgraph.diff(g, None)


def test_embedded_null_byte_is_refused(tmp_path):
    with pytest.raises(ValueError, match="embedded null byte"):
        depgraph.load(str(SAMPLE) + "\0junk")
    with pytest.raises(ValueError, match="embedded null byte"):
        depgraph.load(SAMPLE, name_map=str(SAMPLE) + "\0junk")
    program = tmp_path / "p.depir"
    program.write_text("")
    with pytest.raises(ValueError, match="embedded null byte"):
        depgraph.check(str(program) + "\0junk")


@pytest.mark.parametrize("views", ["no", "false", None, 0, 1, 1.0, []])
def test_views_must_be_a_bool(views):
    # views="no" is truthy: taking it as True would keep the views the caller meant to drop.
    with pytest.raises(TypeError, match="views: expected True or False"):
        depgraph.load(SAMPLE, views=views)
    assert depgraph.load(SAMPLE, views=False).stats() == depgraph.load(SAMPLE).stats()
