"""Task ids as Python ints: the JSON reports write ids (and addresses) as decimal strings, the
runtime's convention for u64; everything the module returns outside `.data` gives them as ints,
the type of Task.id, Ordering and the query results (docs/python.md, "Ids")."""

from typing import Any, FrozenSet

#: Keys whose values are ids (or addresses) in the audit, simulate and critical-path reports;
#: "pairs" holds [pred, succ] lists in simulate's false_edges.ranked[].
ID_KEYS: FrozenSet[str] = frozenset({"task", "task_id", "tensor", "pred", "succ", "begin", "end",
                                     "pairs"})


def _int(value: Any) -> Any:
    """A decimal string as an int; anything else unchanged."""
    if isinstance(value, str) and value.isascii() and value.isdigit():
        return int(value)
    return value


def with_int_ids(value: Any, key: str = "") -> Any:
    """A copy of a parsed JSON value in which every decimal string under an id key (ID_KEYS),
    directly or in lists, is an int; every other value is kept."""
    if isinstance(value, dict):
        return {k: with_int_ids(v, k) for k, v in value.items()}
    if isinstance(value, list):
        return [with_int_ids(v, key if key in ID_KEYS else "") for v in value]
    return _int(value) if key in ID_KEYS else value
