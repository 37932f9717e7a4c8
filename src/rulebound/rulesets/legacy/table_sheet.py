"""The Legacy sheet at the table: a starting sheet, the edit form, its tracks, manual entry.

Form names are the sheet's own (dotted when nested): ``scores.STR``,
``critical.head``, ``armour.torso.physical``. Lists (affinities, proficiencies,
talents, resistances, vulnerabilities) take a JSON list or comma-separated text;
``unnatural`` takes ``STM +1, LDR +1``. A blank ``wounds`` or ``rest_points`` means
full. Every error names the dotted field.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rulebound.core.errors import InvalidInput
from rulebound.rulesets.legacy.character import LOCATIONS, Character
from rulebound.rulesets.legacy.content import CHARACTERISTICS, catalogue
from rulebound.rulesets.legacy.creation import create_character
from rulebound.rulesets.legacy.rules import DEATH_SAVE_LIMIT
from rulebound.rulesets.legacy.table_common import (
    character,
    dump,
    entered,
    fate_cap_text,
    flag,
    whole,
)
from rulebound.rulesets.table import Choice, Field, Sheet, SheetView

LISTS = ("proficiencies", "talents", "resistances", "vulnerabilities")
INTS = (
    "rank",
    "lck",
    "fate",
    "ren",
    "san",
    "cor",
    "fatigue_taken",
    "death_successes",
    "death_failures",
    "absorbed_days",
    "reactions_used",
    "xp",
)
BLANK_IS_FULL = ("wounds", "rest_points")
FLAGS = (
    "is_pc",
    "favour",
    "unconscious",
    "bleeding",
    "dead",
    "unplayable",
    "cursed",
    "daily_heal_used",
)
TEXTS = ("name", "race", "origin", "soul", "char_class")


class _Middle:
    """A fixed source for the starting sheet: every die shows its middle face."""

    def draw(self, sides: int) -> int:
        return (sides + 1) // 2

    def describe(self) -> dict[str, object]:
        return {"kind": "middle faces"}


def new_sheet(name: str) -> Sheet:
    """A Human of the Surface with a Human soul, every die at its middle face."""
    change, _ = create_character(
        _Middle(), name=name or "New character", race="human", origin="surface", soul="human"
    )
    return dump(change.character)


def _select(name: str, label: str, options: Mapping[str, Any], group: str) -> Field:
    choices = tuple(Choice(key, getattr(item, "name", key)) for key, item in options.items())
    return Field(name, label, "select", choices, group=group)


def _fields(char: Character) -> list[Field]:
    c = catalogue()
    fields = [
        Field("name", "Name", "text", group="Identity"),
        _select("race", "Race", c.races, "Identity"),
        _select("origin", "Origin", c.origins, "Identity"),
        _select("soul", "Soul", c.souls, "Identity"),
        Field(
            "char_class",
            "Class",
            "text",
            help="Free text; souls ban Engineers or Priests.",
            group="Identity",
        ),
        Field("is_pc", "Player character", "bool", group="Identity"),
        Field("rank", "Rank", "int", minimum=1, maximum=6, group="Identity"),
    ]
    fields += [
        Field(
            f"scores.{code}", f"{c.names[code]} ({code})", "int", minimum=0, group="Characteristics"
        )
        for code in CHARACTERISTICS
    ]
    fields.append(
        Field(
            "unnatural",
            "Unnatural bonuses",
            "text",
            help="e.g. STM +1, LDR +1",
            group="Characteristics",
        )
    )
    affinities = tuple(Choice(a.key, a.name) for a in c.affinities.values())
    fields.append(Field("affinities", "Affinities", "multiselect", affinities, group="Affinities"))
    fields += [
        Field(name, name.capitalize(), "text", help="Separated by commas.", group="Affinities")
        for name in LISTS
    ]
    stats = (
        ("lck", "LCK"),
        ("fate", "Fate points"),
        ("ren", "REN"),
        ("san", "SAN"),
        ("cor", "COR"),
        ("xp", "XP"),
    )
    fields += [Field(n, label, "int", minimum=0, group="Stats") for n, label in stats]
    fields.append(Field("favour", "Holds favour", "bool", group="Stats"))
    fields += [
        Field(
            "wounds",
            "Wounds",
            "int",
            minimum=0,
            maximum=char.max_wounds,
            help=f"Blank for full ({char.max_wounds}, the STM score).",
            group="Health",
        ),
        Field(
            "fatigue_taken",
            "Fatigue taken",
            "int",
            minimum=0,
            maximum=char.fatigue_capacity,
            group="Health",
        ),
        Field(
            "rest_points",
            "Rest points",
            "int",
            minimum=0,
            maximum=char.max_rest_points,
            help=f"Blank for full ({char.max_rest_points}, the CON bonus).",
            group="Health",
        ),
    ]
    fields += [
        Field(
            f"critical.{loc}", f"Critical damage: {loc}", "int", minimum=0, group="Critical damage"
        )
        for loc in LOCATIONS
    ]
    for loc in LOCATIONS:
        fields += [
            Field(
                f"armour.{loc}.physical", f"{loc} physical armour", "int", minimum=0, group="Armour"
            ),
            Field(
                f"armour.{loc}.magical", f"{loc} magical armour", "int", minimum=0, group="Armour"
            ),
            Field(f"armour.{loc}.metal", f"{loc} armour is metal", "bool", group="Armour"),
        ]
    fields += [
        Field(n, n.replace("_", " ").capitalize(), "bool", group="State")
        for n in FLAGS
        if n not in ("is_pc", "favour")
    ]
    fields += [
        Field("death_successes", "Death save successes", "int", minimum=0, group="State"),
        Field("death_failures", "Death save failures", "int", minimum=0, group="State"),
        Field("reactions_used", "Reactions used this round", "int", minimum=0, group="State"),
        Field(
            "absorbed_soul",
            "Absorbed soul (Dragon Soul)",
            "select",
            (
                Choice("", "none"),
                *(Choice(k, s.name) for k, s in c.souls.items() if s.kind == "racial"),
            ),
            group="State",
        ),
        Field("absorbed_days", "Days the absorbed soul stays", "int", minimum=0, group="State"),
    ]
    return fields


def _values(char: Character) -> dict[str, Any]:
    values: dict[str, Any] = {name: getattr(char, name) for name in (*TEXTS, *INTS, *FLAGS)}
    values |= {f"scores.{code}": char.scores[code] for code in CHARACTERISTICS}
    values["unnatural"] = ", ".join(f"{k} {v:+d}" for k, v in char.unnatural.items())
    values["affinities"] = tuple(char.affinities)
    values |= {name: ", ".join(getattr(char, name)) for name in LISTS}
    values |= {name: getattr(char, name) for name in BLANK_IS_FULL}
    values |= {f"critical.{loc}": char.critical.get(loc, 0) for loc in LOCATIONS}
    for loc in LOCATIONS:
        piece = char.armour.get(loc)
        values[f"armour.{loc}.physical"] = piece.physical if piece else 0
        values[f"armour.{loc}.magical"] = piece.magical if piece else 0
        values[f"armour.{loc}.metal"] = piece.metal if piece else False
    values["absorbed_soul"] = char.absorbed_soul or ""
    return values


def _tracks(char: Character) -> tuple[tuple[str, str], ...]:
    tracks = [
        ("Wounds", f"{char.current_wounds} / {char.max_wounds}"),
        (
            "Fatigue",
            f"{char.fatigue_taken} / {char.fatigue_capacity}"
            + (" (-1 to all checks)" if char.fatigued else ""),
        ),
        ("Rest points", f"{char.current_rest_points} / {char.max_rest_points}"),
        ("Fate", f"{char.fate} ({fate_cap_text(char)})"),
        ("LCK", f"{char.lck} (bonus {char.bonus('LCK')})"),
        ("SAN / COR", f"{char.san} / {char.cor}"),
        ("REN", str(char.ren)),
    ]
    hurt = ", ".join(f"{loc} {n}" for loc, n in char.critical.items() if n)
    tracks.append(("Critical damage", hurt or "none"))
    if char.bleeding or char.death_successes or char.death_failures:
        tracks.append(
            (
                "Death saves",
                f"{char.death_successes} successes, "
                f"{char.death_failures} failures (of {DEATH_SAVE_LIMIT})",
            )
        )
    states = [
        n for n in ("dead", "bleeding", "unconscious", "cursed", "unplayable") if getattr(char, n)
    ]
    if states:
        tracks.append(
            ("State", ", ".join("bleeding out" if s == "bleeding" else s for s in states))
        )
    if char.favour:
        tracks.append(("Favour", "held"))
    return tuple(tracks)


def sheet_view(sheet: Sheet) -> SheetView:
    char = character(sheet)
    return SheetView(tuple(_fields(char)), _values(char), _tracks(char))


def _unnatural(raw: Any) -> dict[str, int]:
    found: dict[str, int] = {}
    for part in str(raw or "").replace("\n", ",").split(","):
        if not part.strip():
            continue
        code, _, value = part.strip().partition(" ")
        code = code.strip().upper()
        value = value.replace(" ", "")
        if code not in CHARACTERISTICS or not value.lstrip("+-").isdigit():
            raise InvalidInput("unnatural", part.strip(), "CODE +N, e.g. STM +1")
        found[code] = int(value)
    return found


def apply_sheet_form(sheet: Sheet, form: Mapping[str, Any]) -> Sheet:
    updated: dict[str, Any] = dict(sheet)
    scores = dict(sheet.get("scores") or {})
    critical = dict(sheet.get("critical") or {})
    armour = {k: dict(v) for k, v in (sheet.get("armour") or {}).items()}
    for key in form:
        group, _, rest = key.partition(".")
        if key in TEXTS:
            updated[key] = str(form[key] or "").strip()
        elif key in INTS:
            number = whole(form, key)
            if number is None:
                raise InvalidInput(key, form[key], "a whole number")
            updated[key] = number
        elif key in BLANK_IS_FULL:
            updated[key] = whole(form, key)
        elif key in FLAGS:
            updated[key] = flag(form, key)
        elif key in (*LISTS, "affinities"):
            value = form[key]
            items = value if isinstance(value, list | tuple) else str(value or "").split(",")
            updated[key] = [str(i).strip() for i in items if str(i).strip()]
        elif key == "unnatural":
            updated[key] = _unnatural(form[key])
        elif key == "absorbed_soul":
            updated[key] = str(form[key] or "").strip() or None
        elif group == "scores" and rest:
            value = whole(form, key)
            if value is None:
                raise InvalidInput(key, form[key], "a score (every characteristic has one)")
            scores[rest] = value
        elif group == "critical" and rest:
            points = whole(form, key) or 0
            if points < 0:
                raise InvalidInput(key, points, "critical damage of 0 or more")
            critical[rest] = points
            if not points:
                del critical[rest]
        elif group == "armour" and rest.count(".") == 1:
            loc, _, part = rest.partition(".")
            if part not in ("physical", "magical", "metal"):
                raise InvalidInput(key, form[key], "armour.<location>.physical, .magical or .metal")
            piece = armour.setdefault(loc, {})
            piece[part] = flag(form, key) if part == "metal" else whole(form, key) or 0
        elif key != "variants":
            raise InvalidInput(key, form[key], "a field of the Legacy sheet")
    updated["scores"], updated["critical"] = scores, critical
    updated["armour"] = {k: v for k, v in armour.items() if any(v.values())}
    return dump(entered(character(updated)))
