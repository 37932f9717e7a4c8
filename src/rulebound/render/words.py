"""Errors as a player reads them, on the web table and in the terminal alike: the field by its
label (and, in the terminal, its option), what was given, what would do, in plain words and
the game's own terms, every problem of a form at once, and nothing from Python or pydantic."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from rulebound.core.errors import (
    ContentError,
    InvalidInput,
    RuleboundError,
    RuleViolation,
    SheetFileError,
    problems_of,
)
from rulebound.rulesets.content import PLAIN
from rulebound.rulesets.contract import Field
from rulebound.rulesets.forms import field_for_error

REQUIRED = re.compile(r"\s*\(required: .*? must be given\)|\s*\(this field is required\)")
MISSING, EXTRA = PLAIN["missing"], PLAIN["extra_forbidden"]


def given(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return f"{value:g}"
    if isinstance(value, str):  # control characters shown, never sent to a terminal
        return "“" + "".join(c if c.isprintable() else "?" for c in value[:60]) + "”"
    if isinstance(value, list | tuple):
        return "no choice" if not value else ", ".join(_item(v) for v in value[:8])
    if isinstance(value, dict):
        return _item(value)
    return "that"


def _item(value: Any) -> str:
    """One of a list's values: a list or an object in it as written (``[0]`` is not ``0``)."""
    if isinstance(value, list | tuple | dict):
        return json.dumps(value, ensure_ascii=False, default=str)[:60]
    return given(value)


def sentence(problem: InvalidInput, label: str) -> str:
    """One problem as one sentence, named by ``label``."""
    expected = REQUIRED.sub("", problem.expected).strip() or "a value"
    empty = problem.value is None or problem.value == "" or problem.value == []
    if problem.expected == EXTRA:
        text = f"{label} is not a field here: check its spelling, or the game the file is for."
    elif empty:
        text = f"{label} is needed: {expected}."
    else:
        text = f"{label}: {given(problem.value)} will not do; it takes {expected}."
    return text + (f" Tip: {problem.tip}." if problem.tip else "")


def _label(fields: Sequence[Field], name: str) -> tuple[str, str]:
    """(the form field the problem belongs to, or "_form"; the words that name it)."""
    target = field_for_error(fields, name)
    field = next((f for f in fields if f.name == target), None)
    if field is None:
        return "_form", _named(name)
    label = _whose(field.name, field.label or field.name)
    part = name.removeprefix(field.name + ".")
    if part == name:
        return field.name, label
    head = part.split(".", 1)[0]
    if head.isdigit():  # an entry of the field's list, by its place: "Gear 2 bonus", "Gear 1"
        rest = part.partition(".")[2].rsplit(".", 1)[-1].replace("_", " ")
        return field.name, f"{label} {int(head) + 1}" + (f" {rest}" if rest else "")
    # a part of the field's value (a picked sheet's race): "Race of Helper (a character)"
    return field.name, f"{_named(part)} of {label}"


def _named(name: str) -> str:
    """A dotted name in words, by its last part and its entry: "Race", "Gear 1 bonus"."""
    words = name.rsplit(".", 1)[-1].replace("_", " ")
    return _whose(name, words[:1].upper() + words[1:])


def _whose(name: str, label: str) -> str:
    """A label of one entry among several of a kind ("skills.Climbing.score": every skill
    has a Score) named with its entry: "Climbing score", "Gear 2 bonus"."""
    parts = name.split(".")
    if len(parts) < 3:
        return label
    entry = parts[-2]
    if entry.isdigit():
        entry = f"{parts[-3].replace('_', ' ').capitalize()} {int(entry) + 1}"
    return f"{entry} {label[:1].lower()}{label[1:]}"


def by_field(fields: Sequence[Field], exc: InvalidInput) -> dict[str, str]:
    """Every problem beside its field (several on one field, or off the form, joined)."""
    found: dict[str, list[str]] = {}
    for problem in problems_of(exc):
        target, label = _label(fields, problem.field)
        found.setdefault(target, []).append(sentence(problem, label))
    return {target: " ".join(lines) for target, lines in found.items()}


def other_game(exc: InvalidInput, title: str) -> str | None:
    """A file of another game fails on nearly every field: say that, once."""
    listed = problems_of(exc)
    missing = [p.field for p in listed if p.expected == MISSING]
    # a key unknown inside a known entry (augs.0.kind) is that entry's problem, not a sign
    extra = [p.field for p in listed if p.expected == EXTRA and "." not in p.field]
    if len(missing) + len(extra) < max(2, len(listed) * 2 // 3) or not extra:
        return None
    return (
        f"This file is not a character of {title} (is it from another game?): it has "
        f"{_names(extra)}, which a character of {title} has not"
        + (f", and lacks {_names(missing)}." if missing else ".")
    )


def _names(paths: Iterable[str]) -> str:
    shown = list(dict.fromkeys(p.split(".")[0] for p in paths))
    return ", ".join(shown[:5]) + (" and more" if len(shown) > 5 else "")


def _sentence_start(text: str) -> str:
    """``text`` with a capital, unless it starts with a name ("gm-char holds..."): a first
    word of lowercase letters alone is a word of ours, anything else is left as written."""
    first = text.split(" ", 1)[0]
    return text[:1].upper() + text[1:] if first.isascii() and first.isalpha() else text


def plain(exc: RuleboundError, fields: Sequence[Field] = (), title: str = "") -> str:
    """Any error in one paragraph of plain words."""
    if isinstance(exc, SheetFileError):
        title = title or exc.title
    if isinstance(exc, InvalidInput):
        whole = other_game(exc, title) if title else None
        return whole or " ".join(by_field(fields, exc).values())
    if isinstance(exc, RuleViolation):
        return f"{_sentence_start(exc.detail)} ({exc.rule})."
    return str(exc)


def terminal(exc: RuleboundError, labels: Mapping[str, str] | None = None) -> str:
    """Any error for the terminal: one problem on one line; several, one per line under a
    heading. ``labels`` names a field (or the option that set it, ``--dr``) in the game's
    words ("Difficulty Rating"), shown beside it."""
    if isinstance(exc, ContentError) and exc.problems:  # a homebrew file: its own keys
        lines = [sentence(problem, problem.field) for problem in exc.problems]
        return f"{exc.source}: " + (
            lines[0] if len(lines) == 1 else f"{len(lines)} problems:\n  " + "\n  ".join(lines)
        )
    if not isinstance(exc, InvalidInput):
        return str(exc)  # a refusal of the rules reads "rule: why" ("luck: no token left")
    named = labels or {}
    lines = []
    for problem in problems_of(exc):
        label = named.get(problem.field, "")
        shown = f"{problem.field} [{label}]" if label and label != problem.field else problem.field
        lines.append(sentence(problem, shown))
    if len(lines) == 1:
        return lines[0]
    return f"{len(lines)} problems:\n" + "\n".join("  " + line for line in lines)
