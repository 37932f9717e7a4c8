"""Who may take which soul (each refusal a RuleViolation naming it), and whole-sheet validation."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from pydantic import ValidationError

from rulebound.core.errors import InvalidInput, RuleViolation, problems_of, raise_all
from rulebound.core.keys import find_key, key_of
from rulebound.rulesets.content import input_error
from rulebound.rulesets.legacy.character import LOCATIONS, Character, find_characteristic
from rulebound.rulesets.legacy.checks import MAX_SCORE
from rulebound.rulesets.legacy.content import CHARACTERISTICS, Catalogue, catalogue, find


def check_soul(
    soul_key: str, race_key: str, char_class: str = "", cat: Catalogue | None = None
) -> None:
    c = cat or catalogue()
    soul = c.soul(soul_key)
    race = c.race(race_key)
    rule = f"soul restriction ({soul.name})"
    if soul.races and race.key not in soul.races:
        allowed = ", ".join(c.races[r].name for r in soul.races)
        raise RuleViolation(rule, f"a {race.name} cannot take it; only {allowed}")
    if race.key in soul.forbidden_races:
        raise RuleViolation(rule, f"a {race.name} cannot take it")
    if char_class and key_of(char_class) in soul.forbidden_classes:
        raise RuleViolation(rule, f"a character of class {char_class!r} cannot take it")


def check_character(char: Character, cat: Catalogue | None = None) -> Character:
    """A hand-entered or loaded sheet: its race, origin and soul exist and the soul is allowed."""
    c = cat or catalogue()
    c.origin(char.origin)
    check_soul(char.soul, char.race, char.char_class, c)
    for key in char.affinities:
        c.affinity(key)
    if char.absorbed_soul is not None:
        c.soul(char.absorbed_soul)
    return char


def validated(sheet: object, cat: Catalogue | None = None) -> Character:
    """A sheet (JSON) as a character: its shape, content keys, soul restriction and tracks.

    Every problem of the shape is reported at once, each naming its dotted field.
    """
    if not isinstance(sheet, Mapping):
        raise InvalidInput("sheet", sheet, "a JSON object (a Legacy character file)")
    sheet = canonical(sheet, cat or catalogue())
    shape = _shape(sheet)
    try:
        char = Character.model_validate(sheet)
    except ValidationError as exc:
        found = problems_of(input_error(exc, root="sheet"))
        # the whole-object check repeats what the shape names field by field
        raise_all([*shape, *(p for p in found if not (shape and p.field == "sheet"))])
    raise_all(shape)
    return checked(char, cat)


KEYED = {"race": "races", "origin": "origins", "soul": "souls", "absorbed_soul": "souls"}


def canonical(sheet: Mapping[str, Any], c: Catalogue) -> dict[str, Any]:
    """The sheet with its content keys as the catalogue spells them ("Feral" is feral);
    a key that names nothing is left for the checks to refuse by name."""
    out = dict(sheet)
    for name, table in KEYED.items():
        if isinstance(out.get(name), str):
            out[name] = find(getattr(c, table), out[name]) or out[name]
    if isinstance(out.get("affinities"), list | tuple):
        out["affinities"] = [
            find(c.affinities, k) or k if isinstance(k, str) else k for k in out["affinities"]
        ]
    for name in ("scores", "unnatural", "max_bonus"):  # "str", "Strength": STR
        if name in out:
            out[name] = _keyed(out[name], lambda k: find_characteristic(k, extra=False))
    for name in ("critical", "armour"):  # "Left Arm": left-arm
        if name in out:
            out[name] = _keyed(out[name], lambda k: find_key(LOCATIONS, k))
    return out


def _keyed(held: object, key: Callable[[str], str | None]) -> object:
    """A mapping with each key as the catalogue spells it; a key that names nothing, or one
    whose spelling is already taken, is kept for the checks to refuse by name."""
    if not isinstance(held, Mapping):
        return held
    out: dict[Any, Any] = {}
    for given, value in held.items():
        hit = key(given) if isinstance(given, str) else None
        taken = hit is None or hit in out or (hit != given and hit in held)
        out[given if taken else hit] = value
    return out


def checked(char: Character, cat: Catalogue | None = None) -> Character:
    """A character whose race, origin, soul and affinities exist, allowed and within its tracks."""
    c = cat or catalogue()
    problems: list[InvalidInput] = []
    for kind, key, table in (
        ("race", char.race, c.races),
        ("origin", char.origin, c.origins),
        ("soul", char.soul, c.souls),
    ):
        if key not in table:
            problems.append(InvalidInput(kind, key, "one of " + ", ".join(sorted(table))))
    for key in char.affinities:
        if key not in c.affinities:
            expected = "one of " + ", ".join(sorted(c.affinities))
            problems.append(InvalidInput("affinities", key, expected))
    if char.absorbed_soul is not None and char.absorbed_soul not in c.souls:
        problems.append(
            InvalidInput("absorbed_soul", char.absorbed_soul, "one of " + ", ".join(c.souls))
        )
    raise_all(problems)
    try:
        check_soul(char.soul, char.race, char.char_class, c)
    except RuleViolation as exc:
        raise InvalidInput(
            "soul", char.soul, f"a soul the {exc.rule} allows: {exc.detail}"
        ) from None
    limits = (
        ("wounds", char.wounds, char.max_wounds, "max wounds (the STM score)"),
        ("fate", char.fate, char.fate_cap(c), "the LCK bonus (plus an origin's bonus point)"),
        ("rest_points", char.rest_points, char.max_rest_points, "the rest points (CON bonus)"),
        ("fatigue_taken", char.fatigue_taken, char.fatigue_capacity, "the capacity (STM bonus)"),
    )
    for name, value, cap, what in limits:
        if value is not None and not 0 <= value <= cap:
            problems.append(InvalidInput(name, value, f"0 to {cap}, {what}"))
    for loc, points in char.critical.items():
        if points < 0:
            problems.append(InvalidInput(f"critical.{loc}", points, "critical damage of 0 or more"))
    raise_all(problems)
    return char


def _shape(sheet: Mapping[str, Any]) -> list[InvalidInput]:
    """Name the field for the problems the model's whole-object validator would report."""
    problems: list[InvalidInput] = []
    scores = sheet.get("scores")
    if isinstance(scores, Mapping):
        problems += [
            InvalidInput(f"scores.{code}", None, "a score for every characteristic")
            for code in CHARACTERISTICS
            if code not in scores
        ]
        for code, value in scores.items():
            if code not in CHARACTERISTICS:
                expected = "one of " + ", ".join(CHARACTERISTICS)
                problems.append(InvalidInput(f"scores.{code}", code, expected))
            elif isinstance(value, int) and not 0 <= value <= MAX_SCORE:
                expected = f"a score from 0 to {MAX_SCORE}"
                problems.append(InvalidInput(f"scores.{code}", value, expected))
    for track in ("critical", "armour"):
        held = sheet.get(track)
        if isinstance(held, Mapping):
            problems += [
                InvalidInput(f"{track}.{loc}", loc, "one of " + ", ".join(LOCATIONS))
                for loc in held
                if loc not in LOCATIONS
            ]
    return problems
