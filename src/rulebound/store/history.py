"""A sheet's history as changes, so each viewer can be shown the sheet as of what they may see.

Every log entry that changes a sheet keeps its *delta*: the leaves it changed, each with
its value before and after (``diff``). A viewer's sheet is the character's ``base`` with
the deltas of the entries they may see applied in log order (``fold``); the stored sheet
is the same fold over every entry. A play is computed from the sheet its author sees, and
its delta lands on the stored sheet by ``merge``: a whole number moves by the same amount
(damage +1 stays +1 whatever others cannot see), anything else takes its new value. So a
hidden push raises the stored damage, the players who may not see it keep seeing the
damage before it, and when the entry becomes visible (a reveal) its change appears at its
place in the log.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from copy import deepcopy
from typing import Any

Delta = list[dict[str, Any]]
"""Changed leaves: ``{"path": [...], "before": v, "after": v}``; a key absent on one side is
left out (``before`` missing: added; ``after`` missing: removed)."""


def diff(before: Mapping[str, Any], after: Mapping[str, Any], path: tuple[str, ...] = ()) -> Delta:
    """The leaves that differ between two sheets (objects are walked, lists are leaves)."""
    changes: Delta = []
    for key in sorted(set(before) | set(after), key=str):
        here = [*path, str(key)]
        old, new = before.get(key, _MISSING), after.get(key, _MISSING)
        if isinstance(old, Mapping) and isinstance(new, Mapping):
            changes += diff(old, new, tuple(here))
        elif old != new or type(old) is not type(new):
            change: dict[str, Any] = {"path": here}
            if old is not _MISSING:
                change["before"] = deepcopy(old)
            if new is not _MISSING:
                change["after"] = deepcopy(new)
            changes.append(change)
    return changes


def merge(sheet: Mapping[str, Any], delta: Delta) -> dict[str, Any]:
    """``delta`` applied onto ``sheet``: whole numbers move by their change, the rest is set."""
    merged = deepcopy(dict(sheet))
    for change in delta:
        *parents, leaf = change["path"]
        target = merged
        for key in parents:
            found = target.get(key)
            if not isinstance(found, dict):
                found = target[key] = {}
            target = found
        if "after" not in change:
            target.pop(leaf, None)
        elif _counts(change.get("before"), change["after"], target.get(leaf)):
            target[leaf] = target[leaf] + change["after"] - change["before"]
        else:
            target[leaf] = deepcopy(change["after"])
    return merged


def fold(base: Mapping[str, Any], deltas: Iterable[Delta]) -> dict[str, Any]:
    sheet = dict(base)
    for delta in deltas:
        sheet = merge(sheet, delta)
    return sheet


def _counts(*values: Any) -> bool:
    return all(isinstance(v, int) and not isinstance(v, bool) for v in values)


class _Missing:
    def __repr__(self) -> str:
        return "(missing)"


_MISSING: Any = _Missing()


def touched(deltas: Mapping[str, Sequence[Any]] | None) -> set[int]:
    """The characters an entry's deltas name (its JSON keys are their ids)."""
    return {int(key) for key in deltas or {}}
