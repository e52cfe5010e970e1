"""The results of audit(), diff() and check(): the content of the tools' --json reports (and
their text reports), with .ok for CI assertions."""

import json
import os
from typing import Mapping, NamedTuple, Optional, Union

from . import _depgraph
from ._ids import with_int_ids

_Path = Union[str, "os.PathLike[str]"]


class Ordering(NamedTuple):
    """One ordering a diff lists: the edge in A's ids and its partner in B's ids."""
    pred: int
    succ: int
    b_pred: int
    b_succ: int
    pred_is_alloc: bool


def _orderings(items):
    return [Ordering(int(o["a"][0]), int(o["a"][1]), int(o["b"][0]), int(o["b"][1]),
                     bool(o["pred_is_alloc"])) for o in items]


class AuditReport:
    """`depgraph audit --json` of one graph (schema depgraph-audit/1) as `data`."""

    def __init__(self, run, strict: bool = False):
        self._run = run
        self._strict = strict
        #: The JSON report, parsed (ids and addresses are decimal strings, as in the file).
        self.data = json.loads(run.json())
        # The same with ids and addresses as ints, for the accessors below.
        self._typed = with_int_ids(self.data)
        #: What weakens the verdict, one line each (OUTPUT slots no creator row names,
        #: arguments without a byte set): the lines `depgraph audit` prints as warnings.
        self.coverage_gaps = list(run.coverage_gaps)

    @property
    def exit_code(self) -> int:
        """3 when a race was found, or, with strict=True, a coverage gap; else 0 (the exit
        code of `depgraph audit [--strict]`)."""
        return self._run.gate_exit_code(self._strict)

    @property
    def ok(self) -> bool:
        """True when the audit found no race (and, with strict=True, no coverage gap)."""
        return self.exit_code == 0

    @property
    def summary(self) -> dict:
        """The report's summary (critical_path task ids as ints)."""
        return self._typed["summary"]

    @property
    def races(self) -> list:
        """Every race (races.list of the JSON report), task and tensor ids and byte addresses
        as ints."""
        return self._typed["races"]["list"]

    @property
    def false_serialization(self) -> list:
        """Every false serialization finding, task and tensor ids as ints."""
        return self._typed["false_serialization"]["findings"]

    def text(self, max_findings: int = 20) -> str:
        """The text report `depgraph audit` prints (0 = list every finding)."""
        return self._run.text(max_findings)

    def __repr__(self):
        r = self.data["races"]
        return (f"<AuditReport {self.data['source']}: {r['total']} race(s), "
                f"{len(self.false_serialization)} false serialization finding(s)>")


class DiffReport:
    """`depgraph diff --json` of A (reference) and B (schema depgraph-diff/1) as `data`."""

    def __init__(self, run):
        self._run = run
        #: The JSON report, parsed (ids are decimal strings, as in the file).
        self.data = json.loads(run.json())
        #: What the command prints on stderr beside the report (`note: ...`, `warning: ...`).
        self.notes = list(run.notes)

    @property
    def exit_code(self) -> int:
        """3 when B loses an ordering of A (with strict=True also on a coverage gap, with
        warnings_as_errors=True also when B adds an edge A does not imply), else 0: the
        command's exit code."""
        return self._run.exit_code

    @property
    def ok(self) -> bool:
        """True when the gate passes: B keeps every ordering of A (and, as asked, no gap or
        added edge)."""
        return self.exit_code == 0

    @property
    def coverage_gaps(self) -> list:
        """What the verdict cannot see (tasks without a partner), one line each."""
        return list(self.data.get("coverage_gaps", []))

    @property
    def orderings_lost(self) -> list:
        """A's edges whose order B does not imply, as Ordering tuples."""
        return _orderings(self.data["orderings_lost"])

    @property
    def orderings_added(self) -> list:
        """B's edges whose order A does not imply, as Ordering tuples."""
        return _orderings(self.data["orderings_added"])

    def text(self) -> str:
        """The text report `depgraph diff` prints."""
        return self._run.text()

    def __repr__(self):
        lost = self.orderings_lost
        shown = ", ".join(f"{o.pred} -> {o.succ}" for o in lost[:5])
        more = f", ... {len(lost) - 5} more" if len(lost) > 5 else ""
        return (f"<DiffReport {self.data['a']} vs {self.data['b']}: {len(lost)} ordering(s) lost"
                + (f" ({shown}{more})" if lost else "") + ">")


class CheckResult:
    """`depgraph check` of a depir program: the report and its findings, one line each."""

    def __init__(self, exit_code: int, report: str):
        #: 0 when the compiled program keeps every ordering, 3 when it does not.
        self.exit_code = exit_code
        #: The whole report `depgraph check` prints (every finding listed).
        self.report = report
        lines = report.splitlines()

        def starting(prefix):
            # Findings are verdict lines: "error: ordering lost: ...".
            return [line[len(prefix):] for line in lines if line.startswith(prefix)]

        #: `error: ordering lost: ...` lines, without the prefix.
        self.orderings_lost = starting("error: ordering lost: ")
        #: `error: retention lost: ...` lines, without the prefix.
        self.retentions_lost = starting("error: retention lost: ")
        #: `error: hazard left unordered: ...` lines, without the prefix.
        self.hazards = starting("error: hazard left unordered: ")
        #: `warning: edge added: ...` lines (a compiled edge no runtime path implies: lost
        #: parallelism), without the prefix.
        self.edges_added = starting("warning: edge added: ")
        #: `note: ...` and the other `warning: ...` lines.
        self.notes = [line for line in lines if line.startswith(("note: ", "warning: "))
                      and not line.startswith("warning: edge added: ")]
        #: The counted `summary: ...` line, without the prefix.
        self.summary = (starting("summary: ") or [""])[-1]
        #: The closing `result: ...` line, without the prefix.
        self.result = (starting("result: ") or [""])[-1]

    @property
    def ok(self) -> bool:
        return self.exit_code == 0

    def __repr__(self):
        return f"<CheckResult exit {self.exit_code}: {self.result}>"


def audit(graph: "_depgraph.Graph", strict: bool = False) -> AuditReport:
    """Races, false serialization, redundancy and a summary of a loaded graph: what
    `depgraph audit --json` reports. With strict=True coverage gaps fail it too
    (`depgraph audit --strict`). Raises Error on a cyclic graph."""
    return AuditReport(_depgraph._audit(graph), strict)


def diff(a: "_depgraph.Graph", b: "_depgraph.Graph", closure: bool = False,
         by_order: bool = False, strict: bool = False,
         warnings_as_errors: bool = False) -> DiffReport:
    """What B loses and adds of A's orderings: `depgraph diff [--closure] [--by-order]
    [--strict] [--warnings-as-errors] --json`, with its fall-back to submit order when no edge
    of A can be matched by id."""
    return DiffReport(_depgraph._diff(a, b, closure, by_order, strict, warnings_as_errors))


def check(program_path: _Path, sets: Optional[Mapping[str, Union[int, bool]]] = None,
          sound: bool = False, entry: Optional[str] = None, strict: bool = False,
          warnings_as_errors: bool = False, allow_empty: bool = False) -> CheckResult:
    """`depgraph check PROGRAM [--set name=value]... [--sound] [--strict]
    [--warnings-as-errors] [--allow-empty]`: derive, run the original and the compiled program
    on the runtime shim and compare. Raises Error on a bad program (and on one that submits no
    task, unless allow_empty)."""
    return CheckResult(*_depgraph._check(os.fspath(program_path), dict(sets or {}), sound,
                                         entry or "", strict, warnings_as_errors, allow_empty))
