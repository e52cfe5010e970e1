"""depgraph.check: `depgraph check` of a depir program from Python."""

import depgraph
import pytest
from conftest import CLI, SOURCE, run_tool

T34 = SOURCE / "data" / "passes" / (
    "t34_fixed_trip_loop_fan_in_producer_exports_task_id_collection.depir")


def test_reference_pass_fails_and_sound_passes():
    result = depgraph.check(T34)
    code, out, _ = run_tool(CLI, "check", T34, "--max-findings", "0")
    assert not result.ok and result.exit_code == code == 3
    assert result.report == out
    # README: 3 orderings lost and 3 hazards left unordered, (0, 0) fill -> (0, 1) fill first.
    assert len(result.orderings_lost) == 3 and len(result.hazards) == 3
    assert result.orderings_lost[0].startswith("(0, 0) fill -> (0, 1) fill")
    assert result.result.endswith("-- FAIL")
    sound = depgraph.check(T34, sound=True)
    assert sound.ok, sound
    assert sound.report == run_tool(CLI, "check", T34, "--sound", "--max-findings", "0")[1]


PROGRAM = """kernel fill(out t: f32[4, 8]) -> t
kernel add(in a: f32[4, 8], inout b: f32[4, 8], in n: index) -> b
kernel consume(in x: f32[4, 8]) -> x
orch main(src: f32[4, 16], idx: i32[4, 8], rows: index, cond: bool) hand {
  buf = create(f32[rows, 8])
  a = fill(buf) [out]
  b = create(f32[4, 8]) manual_dep
  b2 = fill(b) [oe]
  g: f32[4, 8] = dynamic gather(src, idx)
  sel = if cond {
    yield a
  } else {
    yield g
  }
  _r, t1 = submit consume(sel) [in]
  b3 = add(a, b2, rows) [in, inout, scalar]
  j = task_dummy(deps=[t1])
  out, _ = submit consume(g) [nodep] deps=[j]
  return out
}
"""


def test_sets_are_the_cli_bindings(tmp_path):
    program = tmp_path / "p.depir"
    program.write_text(PROGRAM)
    for cond in (False, True):
        result = depgraph.check(program, sets={"rows": 4, "cond": cond})
        _, out, _ = run_tool(CLI, "check", program, "--set", "rows=4", "--set",
                             f"cond={str(cond).lower()}", "--max-findings", "0")
        assert result.report == out and out.startswith("depgraph check of")
    # Unbound: the interpreter's message, as the CLI prints it.
    with pytest.raises(depgraph.Error) as e:
        depgraph.check(program, sets={"rows": 4})
    code, _, err = run_tool(CLI, "check", program, "--set", "rows=4")
    assert code == 1 and err == f"error: {e.value}\n" and "cond" in str(e.value)


def test_bad_program_and_binding_raise_the_cli_line(tmp_path):
    bad = tmp_path / "bad.depir"
    bad.write_text("this is not depir\n")
    with pytest.raises(depgraph.Error) as e:
        depgraph.check(bad)
    code, _, err = run_tool(CLI, "check", bad)
    assert code == 1 and err == f"error: {e.value}\n"
    with pytest.raises(TypeError):
        depgraph.check(T34, sets={"n": "three"})


def test_check_gate_flags(tmp_path):
    # An added edge that orders a hazard the runtime leaves unordered is a fix (info), so even
    # warnings_as_errors passes; a program that submits nothing is an error unless allowed.
    t04 = SOURCE / "data" / "passes" / "t04_auto_scope_waw_hazard_adds_compiler_edge_when_enabled.depir"
    result = depgraph.check(t04, warnings_as_errors=True)
    assert result.ok and result.edges_added == []
    assert "1 info (implied edges)" in result.summary
    empty = tmp_path / "none.depir"
    empty.write_text("kernel fill(out t: f32[64] memref(shared_ddr, 0, 256)) -> t\n\n"
                     "orch main(a: f32[64] memref(shared_ddr, 0, 256)) hand {\n  return a\n}\n")
    with pytest.raises(depgraph.Error, match="submits no task"):
        depgraph.check(empty)
    assert depgraph.check(empty, allow_empty=True).ok
