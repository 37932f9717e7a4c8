"""Legacy characters at the table: the sheet file, its edit form and tracks, rolling from it.

A sheet is ``Character.model_dump(mode="json")`` (the CLI's character file). Form names
are the sheet's own, dotted when nested (``scores.STR``, ``critical.head``,
``armour.torso.physical``); lists (proficiencies, talents...) take comma-separated text,
``unnatural`` takes ``STM +1, LDR +1``; a blank ``wounds`` or ``rest_points`` is full.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rulebound.core.errors import InvalidInput, raise_all
from rulebound.core.random_source import MiddleSource
from rulebound.core.wording import failures, successes
from rulebound.rulesets import forms
from rulebound.rulesets.contract import Field, Params, Sheet, Sheets, SheetView, Variants
from rulebound.rulesets.fields import at, choices
from rulebound.rulesets.legacy.chain import FATE_ACTIONS, LegacyState, settle
from rulebound.rulesets.legacy.character import LOCATIONS, Character, parse_unnatural
from rulebound.rulesets.legacy.checks import MAX_SCORE
from rulebound.rulesets.legacy.content import CHARACTERISTICS, Catalogue, catalogue, scoped
from rulebound.rulesets.legacy.creation import create_character
from rulebound.rulesets.legacy.dialog import sheet_fields
from rulebound.rulesets.legacy.request import LegacyRoll, sheet_request
from rulebound.rulesets.legacy.restrictions import validated
from rulebound.rulesets.legacy.rules import DEATH_SAVE_LIMIT

LISTS = ("proficiencies", "talents", "resistances", "vulnerabilities")
STARTER_AFFINITIES = ("athletics", "inspection")
"""A blank sheet's Human soul takes two more affinities (ruling 88): two broad ones to start."""
STATES = ("unconscious", "bleeding", "dead", "unplayable", "cursed", "daily_heal_used")
PARTS = {"physical": 0, "magical": 0, "metal": False}
LAYOUT = {
    "Identity": ("name", "race", "origin", "soul", "char_class", "is_pc", "rank"),
    "Characteristics": (*(f"scores.{code}" for code in CHARACTERISTICS), "unnatural"),
    "Affinities": ("affinities", *LISTS),
    "Stats": ("lck", "fate", "ren", "san", "cor", "xp", "favour"),
    "Health": ("wounds", "fatigue_taken", "rest_points"),
    "Critical damage": tuple(f"critical.{loc}" for loc in LOCATIONS),
    "Armour": tuple(f"armour.{loc}.{part}" for loc in LOCATIONS for part in PARTS),
    "State": (*STATES, "death_successes", "death_failures", "reactions_used", "absorbed_soul"),
}
LAYOUT["State"] += ("absorbed_days",)
"""The edit form, group by group: every name is the sheet's own (dotted when nested)."""
LABELS = {"char_class": "Class", "is_pc": "Player character", "fate": "Fate points", "xp": "XP"}
LABELS |= {"favour": "Holds favour", "unnatural": "Unnatural bonuses"}
LABELS |= {"absorbed_soul": "Absorbed soul (Dragon Soul)", "absorbed_days": "Days it stays"}
TEXTS = ("name", "char_class", "unnatural", *LISTS)
SWITCHES = ("is_pc", "favour", *STATES)
OPTIONAL = ("wounds", "rest_points", "critical", "armour")
"""Numbers that may be blank: full wounds or rest points, no critical damage or armour."""
SHOWN_STATES = {"dead": "dead", "bleeding": "bleeding out", "unconscious": "unconscious"}
SHOWN_STATES |= {"cursed": "cursed", "unplayable": "unplayable"}
"""The states a sheet's tracks name, in words."""


def dump(char: Character) -> Sheet:
    return char.model_dump(mode="json")


def _label(name: str, c: Catalogue) -> str:
    head, _, rest = name.partition(".")
    if head == "scores":
        return f"{c.names[rest]} ({rest})"
    if rest:
        return f"{head.capitalize()}: {rest.replace('.', ' ')}"
    return LABELS.get(name) or (name.upper() if len(name) == 3 else name.capitalize())


def edit_fields(char: Character) -> list[Field]:
    """The sheet as a form (``LAYOUT``), bounded by the character's own maxima."""
    c = catalogue()
    none = c.souls["human"].model_copy(update={"name": "none"})
    picks: dict[str, Mapping[str, Any]] = {"race": c.races, "origin": c.origins, "soul": c.souls}
    picks["affinities"] = c.affinities
    picks["absorbed_soul"] = {"": none, **{k: s for k, s in c.souls.items() if s.kind == "racial"}}
    caps = {"rank": 6, "wounds": char.max_wounds, "rest_points": char.max_rest_points}
    caps |= {f"scores.{code}": MAX_SCORE for code in CHARACTERISTICS}
    caps["fatigue_taken"] = char.fatigue_capacity
    full = f"Blank for full: {char.max_wounds} wounds (STM), {char.max_rest_points} rest points."
    notes = {"wounds": full, "rest_points": full, "unnatural": "e.g. STM +1, LDR +1"}
    notes |= dict.fromkeys(LISTS, "Separated by commas.")
    fields = []
    for group, names in LAYOUT.items():
        for name in names:
            label = _label(name, c)
            more: dict[str, Any] = {"group": group, "help": notes.get(name, "")}
            if name in picks:
                shown = choices({key: item.name for key, item in picks[name].items()})
                kind: Any = "multiselect" if name == "affinities" else "select"
                need = kind == "select" and name != "absorbed_soul"
                fields.append(Field(name, label, kind, shown, required=need, **more))
            elif name in TEXTS or name in SWITCHES or name.endswith(".metal"):
                kind = "text" if name in TEXTS else "bool"
                fields.append(Field(name, label, kind, required=name == "name", **more))
            else:
                more |= {"minimum": int(name == "rank"), "maximum": caps.get(name)}
                need = name.partition(".")[0] not in OPTIONAL
                fields.append(Field(name, label, "int", required=need, **more))
    return fields


def _values(char: Character) -> dict[str, Any]:
    """The sheet's value at each field's name; 0 or a blank part where it holds none."""
    data, values = dump(char), {}
    for field in edit_fields(char):
        value = at(data, field.name)
        if value is None and field.name.startswith(("scores.", "critical.", "armour.")):
            value = PARTS.get(field.name.rpartition(".")[2], 0)
        values[field.name] = ", ".join(value) if field.name in LISTS else value
    values["unnatural"] = ", ".join(f"{k} {v:+d}" for k, v in char.unnatural.items())
    values["affinities"] = tuple(char.affinities)
    return values | {"absorbed_soul": char.absorbed_soul or ""}


def _tracks(char: Character) -> tuple[tuple[str, str], ...]:
    extra = catalogue().origin(char.origin).bonus_fate
    cap = f"cap {char.fate_cap()}" + (f" with the {extra} origin point" if extra else "")
    tired = " (-1 to all checks)" if char.fatigued else ""
    hurt = ", ".join(f"{loc} {n}" for loc, n in char.critical.items() if n)
    tracks = [
        ("Wounds", f"{char.current_wounds} / {char.max_wounds}"),
        ("Fatigue", f"{char.fatigue_taken} / {char.fatigue_capacity}{tired}"),
        ("Rest points", f"{char.current_rest_points} / {char.max_rest_points}"),
        ("Fate", f"{char.fate} ({cap})"),
        ("LCK", f"{char.lck} (bonus {char.bonus('LCK')})"),
        ("SAN / COR", f"{char.san} / {char.cor}"),
        ("REN", str(char.ren)),
        ("Critical damage", hurt or "none"),
    ]
    if char.bleeding or char.death_successes or char.death_failures:
        tally = f"{successes(char.death_successes)}, {failures(char.death_failures)}"
        tracks.append(("Death saves", f"{tally} (of {DEATH_SAVE_LIMIT})"))
    states = [word for state, word in SHOWN_STATES.items() if getattr(char, state)]
    tracks += [("State", ", ".join(states))] if states else []
    return (*tracks, *([("Favour", "held")] if char.favour else []))


def edit(sheet: Sheet, form: Mapping[str, Any]) -> Sheet:
    """Apply an edit form: only the fields it holds; every bad field is named at once."""
    fields = {f.name: f for f in edit_fields(validated(sheet))}
    unknown = [k for k in form if k not in fields and k != "variants"]
    raise_all([InvalidInput(k, form[k], "a field of the Legacy sheet") for k in unknown])
    present = [fields[k] for k in form if k in fields]
    values = forms.read(present, form, defaults=False)
    updated: dict[str, Any] = {**sheet, "scores": dict(sheet.get("scores") or {})}
    updated["critical"] = dict(sheet.get("critical") or {})
    armour = {k: dict(v) for k, v in (sheet.get("armour") or {}).items()}
    for field in present:
        value = values.get(field.name)
        group, _, rest = field.name.partition(".")
        if group in ("scores", "critical"):
            updated[group][rest] = value if group == "scores" else value or 0
        elif group == "armour":
            loc, _, part = rest.partition(".")
            armour.setdefault(loc, dict(PARTS))[part] = value or PARTS[part]
        elif field.name in LISTS:
            updated[field.name] = [p.strip() for p in str(value or "").split(",") if p.strip()]
        elif field.name == "unnatural":
            updated["unnatural"] = parse_unnatural(value)
        else:
            blank = None if field.name == "absorbed_soul" else [] if field.repeated else ""
            updated[field.name] = blank if value in (None, "") and field.kind != "int" else value
    updated["critical"] = {k: v for k, v in updated["critical"].items() if v}
    updated["armour"] = {k: v for k, v in armour.items() if any(v.values())}
    return dump(validated(updated))


@scoped
class LegacySheets(Sheets[LegacyRoll, LegacyState]):
    def __init__(self, catalogue: Catalogue) -> None:
        self.catalogue = catalogue
        self.choice_fields = sheet_fields(catalogue)

    def validate(self, sheet: Mapping[str, Any]) -> Sheet:
        return dump(validated(sheet))

    def new(self, name: str) -> Sheet:
        """A Human of the Surface with a Human soul, every die at its middle face, and the
        soul's two more affinities (``STARTER_AFFINITIES``, for the player to change)."""
        middle, name = MiddleSource(), name or "New character"
        made, _ = create_character(
            middle,
            name=name,
            race="human",
            origin="surface",
            soul="human",
            affinities=STARTER_AFFINITIES,
        )
        return dump(made.character)

    def view(self, sheet: Sheet) -> SheetView:
        char = validated(sheet)
        return SheetView(tuple(edit_fields(char)), _values(char), _tracks(char))

    def edit(self, sheet: Sheet, form: Mapping[str, Any]) -> Sheet:
        return edit(sheet, form)

    def dialog(self, sheet: Sheet) -> tuple[Field, ...]:
        return sheet_fields(self.catalogue, validated(sheet))

    def request(self, sheet: Sheet, values: Mapping[str, Any], variants: Variants) -> LegacyRoll:
        return sheet_request(validated(sheet), values, variants)

    def follow_params(
        self, sheet: Sheet, result: LegacyState, action: str, params: Params
    ) -> Params:
        """Fate is paid from the sheet: the record keeps it as it stood."""
        return {**params, "sheet": dump(validated(sheet))} if action in FATE_ACTIONS else params

    def settle(self, sheet: Sheet, result: LegacyState) -> Sheet | None:
        after = settle(result)  # compared with the play's own copy of ``sheet``, as checked
        return None if after is None else dump(after)
