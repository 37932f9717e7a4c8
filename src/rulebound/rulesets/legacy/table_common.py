"""Shared pieces of the Legacy table adapter: form values, variants, sheets and draws.

A sheet is ``Character.model_dump(mode="json")`` (the CLI's character file). Records
keep the sheet as it stood before each step, so every card is rebuilt by replaying
the package's own functions on the same draws, never trusted from storage.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from pydantic import ValidationError

from rulebound.core.errors import InvalidInput, RuleViolation
from rulebound.core.random_source import RandomSource, ReplaySource
from rulebound.core.trace import DieRecord
from rulebound.rulesets.content import input_error
from rulebound.rulesets.legacy.character import LOCATIONS, Character, Event
from rulebound.rulesets.legacy.content import CHARACTERISTICS, catalogue
from rulebound.rulesets.legacy.restrictions import check_soul
from rulebound.rulesets.legacy.rules import (
    AFFINITY_BONUSES,
    DEFAULT_AFFINITY_BONUS,
    DEFAULT_SCALE,
    SCALES,
    characteristic_bonus,
)
from rulebound.rulesets.table import DieView, Record, Sheet
from rulebound.rulesets.table_support import form_flag, form_int, replay_draws

whole = form_int
"""A whole number from a form value; None when blank or missing (the shared reader)."""
flag = form_flag
replay = replay_draws


# --- form values ----------------------------------------------------------------------


def bounded(
    form: Mapping[str, Any], name: str, default: int, low: int, high: int | None = None
) -> int:
    """A whole number in ``low..high`` (no upper bound when ``high`` is None)."""
    value = whole(form, name)
    value = default if value is None else value
    if value < low or (high is not None and value > high):
        shown = f"from {low} to {high}" if high is not None else f"of {low} or more"
        raise InvalidInput(name, value, f"a whole number {shown}")
    return value


def text(form: Mapping[str, Any], name: str) -> str:
    value = form.get(name)
    if value is None:
        return ""
    if isinstance(value, bool) or not isinstance(value, str | int):
        raise InvalidInput(name, value, "text")
    return str(value).strip()


def choice(form: Mapping[str, Any], name: str, allowed: Sequence[str], default: str) -> str:
    value = text(form, name) or default
    if value not in allowed:
        raise InvalidInput(name, value, "one of " + ", ".join(v or '""' for v in allowed))
    return value


def words(form: Mapping[str, Any], name: str) -> tuple[str, ...]:
    """A list field: a JSON list, or text split on commas and new lines."""
    value = form.get(name)
    if value is None or value == "":
        return ()
    if isinstance(value, str):
        parts = value.replace("\n", ",").split(",")
    elif isinstance(value, list | tuple):
        parts = [str(v) for v in value]
    else:
        raise InvalidInput(name, value, "a list, or text separated by commas")
    return tuple(dict.fromkeys(p.strip() for p in parts if p.strip()))


def pct(p: Fraction) -> str:
    """An exact chance as 'n/d (xx.x%)'."""
    return f"{p.numerator}/{p.denominator} ({float(p):.1%})"


# --- variants -------------------------------------------------------------------------


def variants(form: Mapping[str, Any]) -> tuple[str, str]:
    """(scale, affinity_bonus) from ``form["variants"]``; each error names its variant."""
    given = form.get("variants") or {}
    if not isinstance(given, Mapping):
        raise InvalidInput("variants", given, "an object of variant key to choice")
    for key in given:
        if key not in ("scale", "affinity_bonus"):
            raise InvalidInput(f"variants.{key}", key, "scale or affinity_bonus")
    scale = str(given.get("scale") or DEFAULT_SCALE)
    if scale not in SCALES:
        raise InvalidInput("variants.scale", scale, "one of " + ", ".join(SCALES))
    bonus = str(given.get("affinity_bonus") or DEFAULT_AFFINITY_BONUS)
    if bonus not in AFFINITY_BONUSES:
        expected = "one of " + ", ".join(AFFINITY_BONUSES)
        raise InvalidInput("variants.affinity_bonus", bonus, expected)
    return scale, bonus


def variant_details(scale: str, bonus: str = DEFAULT_AFFINITY_BONUS) -> list[str]:
    lines = [f"Variant scale: {SCALES[scale].summary}"] if scale != DEFAULT_SCALE else []
    if bonus != DEFAULT_AFFINITY_BONUS:
        lines.append(f"Variant affinity_bonus: {bonus}")
    return lines


# --- sheets ---------------------------------------------------------------------------


def _shape(sheet: Mapping[str, Any]) -> None:
    """Name the field for the problems the model's whole-object validator reports."""
    scores = sheet.get("scores")
    if isinstance(scores, Mapping):
        for code in CHARACTERISTICS:
            if code not in scores:
                raise InvalidInput(f"scores.{code}", None, "a score for every characteristic")
        for code, value in scores.items():
            if code not in CHARACTERISTICS:
                raise InvalidInput(f"scores.{code}", code, "one of " + ", ".join(CHARACTERISTICS))
            if isinstance(value, int) and value < 0:
                raise InvalidInput(f"scores.{code}", value, "a score of 0 or more")
    for track in ("critical", "armour"):
        held = sheet.get(track)
        if isinstance(held, Mapping):
            for loc in held:
                if loc not in LOCATIONS:
                    raise InvalidInput(f"{track}.{loc}", loc, "one of " + ", ".join(LOCATIONS))


def character(sheet: Mapping[str, Any]) -> Character:
    """Validate a sheet: its shape, its content keys, the soul restriction and its tracks."""
    if not isinstance(sheet, Mapping):
        raise InvalidInput("sheet", sheet, "a JSON object (a Legacy character file)")
    _shape(sheet)
    try:
        char = Character.model_validate(dict(sheet))
    except ValidationError as exc:
        raise input_error(exc, root="sheet") from None
    c = catalogue()
    c.race(char.race)
    c.origin(char.origin)
    c.soul(char.soul)
    for key in char.affinities:
        if key not in c.affinities:
            raise InvalidInput("affinities", key, "one of " + ", ".join(sorted(c.affinities)))
    if char.absorbed_soul is not None and char.absorbed_soul not in c.souls:
        raise InvalidInput("absorbed_soul", char.absorbed_soul, "one of " + ", ".join(c.souls))
    try:
        check_soul(char.soul, char.race, char.char_class, c)
    except RuleViolation as exc:
        raise InvalidInput(
            "soul", char.soul, f"a soul the {exc.rule} allows: {exc.detail}"
        ) from None
    _tracks(char)
    return char


def _tracks(char: Character) -> None:
    """The tracks the package keeps in bounds (rests and fatigue are checked on manual entry)."""
    limits = (
        ("wounds", char.wounds, char.max_wounds, "max wounds (the STM score)"),
        ("rest_points", char.rest_points, None, ""),
        ("fate", char.fate, char.fate_cap(), "the LCK bonus (plus an origin's bonus point)"),
    )
    for name, value, cap, what in limits:
        if value is not None and (value < 0 or (cap is not None and value > cap)):
            expected = f"0 to {cap}, {what}" if cap is not None else "0 or more"
            raise InvalidInput(name, value, expected)
    for loc, points in char.critical.items():
        if points < 0:
            raise InvalidInput(f"critical.{loc}", points, "critical damage of 0 or more")


def entered(char: Character) -> Character:
    """Manual entry also keeps rest points and fatigue within their maxima."""
    limits = (
        ("rest_points", char.rest_points, char.max_rest_points, "rest points (the CON bonus)"),
        ("fatigue_taken", char.fatigue_taken, char.fatigue_capacity, "capacity (the STM bonus)"),
    )
    for name, value, cap, what in limits:
        if value is not None and value > cap:
            raise InvalidInput(name, value, f"0 to {cap}, the {what}")
    return char


def dump(char: Character) -> Sheet:
    return char.model_dump(mode="json")


def changed(before: Character, after: Character) -> Sheet | None:
    """The new sheet, or None when nothing on it changed."""
    return None if after == before else dump(after)


def fate_cap_text(char: Character) -> str:
    bonus = characteristic_bonus(char.lck)
    extra = catalogue().origin(char.origin).bonus_fate
    return f"cap {bonus + extra}" + (f" with the {extra} origin point" if extra else "")


# --- draws ----------------------------------------------------------------------------


def finished(source: RandomSource, record: Record) -> None:
    """A replay must use every recorded draw."""
    if isinstance(source, ReplaySource) and not source.exhausted:
        raise InvalidInput("record.draws", record.get("draws"), "exactly the draws the step used")


def record_sheet(record: Record, name: str = "sheet") -> Character:
    raw = record.get(name)
    if not isinstance(raw, Mapping):
        raise InvalidInput(f"record.{name}", raw, "the sheet as it stood, as a JSON object")
    return character(raw)


def die_view(die: DieRecord, who: str = "") -> DieView:
    label = f"{who} {die.label}" if who else die.label
    return DieView(label, die.sides, die.face, die.marks, die.state.value, die.history, die.role)


def event_lines(events: Sequence[Event]) -> list[str]:
    return [f"{e.kind}: {e.detail}" for e in events]
