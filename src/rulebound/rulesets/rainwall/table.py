"""Rainwall at the virtual table: forms, cards, and plays built from records.

A stored roll is its request (the ruleset's own JSON request: dice, skill, DR,
bonus, names, variants) plus its draws; a reallocation is the player's points
per die. ``rebuild`` replays the chain, so a card shown after a restart is
recomputed from the same faces, never trusted from storage.

Forms:

- The roll dialog posts ``skill`` (one of the character's skills), ``dr`` and
  ``without_bonus`` (a bool: leave the skill's + bonus out of this check; when
  it is used, the points are spent for the most successes and can be moved
  afterwards). A table's rule variants travel as an optional ``variants``
  mapping (``{"success-face": "strictly-under"}``); the dialog does not list
  them, since the game master picks them for the whole table.
- The ``reallocate`` follow-up takes one int field per die, named
  ``allocation.d1`` ... ``allocation.dN`` (points spent on that die; a missing
  die gets 0). An API client may instead send ``allocation`` as a list of ints
  in die order or as ``{"d5": 2}``. Reallocation never changes the sheet.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from fractions import Fraction
from typing import Any

from pydantic import ValidationError

from rulebound.core.errors import InvalidInput
from rulebound.core.random_source import RandomSource
from rulebound.rulesets.rainwall import rules
from rulebound.rulesets.rainwall.bonus import alternatives
from rulebound.rulesets.rainwall.character import Character, request_for
from rulebound.rulesets.rainwall.content import builtin_catalogue
from rulebound.rulesets.rainwall.odds import check_odds
from rulebound.rulesets.rainwall.request import RainwallRequest, parse_request
from rulebound.rulesets.rainwall.roll import (
    RainwallResult,
    allocation_from_labels,
    reallocate,
    roll_check,
)
from rulebound.rulesets.rainwall.rules import Degree, Options
from rulebound.rulesets.table import (
    ActionView,
    Card,
    Choice,
    DieView,
    Field,
    Play,
    Record,
    Sheet,
    SheetView,
    TableRules,
)
from rulebound.rulesets.table_support import (
    TableDefaults,
    draws_json,
    form_flag,
    form_int,
    form_int_map,
    replay_draws,
)

SUCCESS_KEY = "success (any degree)"
"""The first key of ``chances``; every other key is a degree label, and those sum to 1."""
ADVICE_LIMIT = 8


# --- records and replay -------------------------------------------------------------


def _request_json(request: RainwallRequest) -> dict[str, Any]:
    return {
        "dice": request.dice,
        "skill": request.skill,
        "dr": request.dr,
        "bonus": request.bonus,
        "trait_name": request.trait_name,
        "skill_name": request.skill_name,
        "variants": request.options.as_mapping(),
    }


def rebuild(chain: Sequence[Record]) -> RainwallResult:
    """Replay a stored chain: the roll first, then each reallocation in order."""
    if not chain or chain[0].get("kind") != "roll":
        raise InvalidInput("chain", [r.get("kind") for r in chain], "a roll record first")
    root = chain[0]
    request = root.get("request")
    if not isinstance(request, Mapping):
        raise InvalidInput("record.request", request, "the roll's request as a JSON object")
    source = replay_draws(root)
    result = roll_check(parse_request(request), source)
    if not source.exhausted:
        raise InvalidInput("record.draws", root["draws"], f"exactly {request['dice']} d10 draws")
    for record in chain[1:]:
        if record.get("kind") != "reallocate":
            raise InvalidInput("chain.kind", record.get("kind"), "reallocate")
        result = reallocate(result, _allocation(result, record))
    return result


# --- cards ----------------------------------------------------------------------------


def _title(request: RainwallRequest) -> str:
    skill = request.skill_name or "Skill"
    trait = f"{request.trait_name} " if request.trait_name else ""
    return f"{skill}: {trait}{request.dice}d10 vs {request.skill}, DR {request.dr}"


def _die_view(result: RainwallResult, index: int) -> DieView:
    die = result.dice[index]
    spent = result.allocation[index]
    marks = (*die.marks[:-1], f"now {die.face - spent}", die.marks[-1]) if spent else die.marks
    return DieView(die.label, die.sides, die.face, marks, die.state.value, die.history, die.role)


def _allocation_text(allocation: Sequence[int], faces: Sequence[int]) -> str:
    moves = [
        f"d{n}: {face} -> {face - spent}"
        for n, (face, spent) in enumerate(zip(faces, allocation, strict=True), start=1)
        if spent
    ]
    return ", ".join(moves) or "no points spent"


def _reallocate_action(result: RainwallResult) -> ActionView | None:
    bonus = result.request.bonus
    if bonus <= 0:
        return None
    fields = tuple(
        Field(
            f"allocation.{die.label}",
            f"{die.label} (shows {die.face})",
            "int",
            default=result.allocation[i],
            minimum=0,
            maximum=min(bonus, die.face - 1),
            group="allocation",
        )
        for i, die in enumerate(result.dice)
    )
    options = alternatives(result.request, result.faces)
    advice = [
        f"{alt.successes} successes, IoS {alt.ios}, {alt.degree.label}, {alt.spent} of "
        f"{bonus} points: {_allocation_text(alt.allocation, result.faces)}"
        + (" (current)" if alt.allocation == result.allocation else "")
        for alt in options[:ADVICE_LIMIT]
    ]
    if len(options) > ADVICE_LIMIT:
        advice.append(f"... and {len(options) - ADVICE_LIMIT} more")
    return ActionView("reallocate", f"Reallocate the +{bonus} bonus points", fields, tuple(advice))


def card_for(result: RainwallResult) -> Card:
    request = result.request
    spent = request.bonus - result.unspent
    details = [
        f"Successes: {result.raw_successes} rolled, {result.successes} after {spent} bonus "
        f"point(s) ({result.allocation_kind.value}"
        + (f", {result.unspent} unspent)" if result.unspent else ")"),
        f"IoS: {result.ios}",
    ]
    if result.parent is not None:
        details.append(f"Reallocated by hand; before: {result.parent.headline}")
    defaults = Options().as_mapping()
    details += [
        f"Variant {key}: {value}"
        for key, value in request.options.as_mapping().items()
        if defaults[key] != value
    ]
    action = _reallocate_action(result)
    return Card(
        title=_title(request),
        outcome=result.headline,
        succeeded=result.succeeded,
        dice=tuple(_die_view(result, i) for i in range(len(result.dice))),
        modifiers=tuple(m.describe() for m in result.modifiers),
        steps=tuple(s.description for s in result.steps),
        details=tuple(details),
        actions=(action,) if action else (),
    )


# --- forms ----------------------------------------------------------------------------


def _variants(form: Mapping[str, Any]) -> Options:
    variants = form.get("variants") or {}
    if not isinstance(variants, Mapping):
        raise InvalidInput("variants", variants, "an object of variant key to choice")
    return Options.from_mapping(variants)


def _allocation(result: RainwallResult, params: Mapping[str, Any]) -> tuple[int, ...]:
    """Points per die from ``allocation`` (a list or ``{"d5": 2}``) or ``allocation.dN`` keys."""
    raw = params.get("allocation")
    if isinstance(raw, Mapping):
        points = {str(label): _point(f"allocation.{label}", v) for label, v in raw.items()}
        return allocation_from_labels(result, points)
    if isinstance(raw, list | tuple):
        return tuple(_point(f"allocation.d{n}", v) for n, v in enumerate(raw, start=1))
    if raw not in (None, ""):
        raise InvalidInput("allocation", raw, "one whole number of points per die")
    labels = [die.label for die in result.dice]
    dotted = {
        key.removeprefix("allocation."): value
        for key, value in params.items()
        if key.startswith("allocation.")
    }
    for label in dotted:
        if label not in labels:
            raise InvalidInput("allocation", label, "a die label from " + ", ".join(labels))
    return tuple(_point(f"allocation.{label}", dotted.get(label)) for label in labels)


def _point(field: str, value: Any) -> int:
    number = form_int({field: value}, field)
    return 0 if number is None else number


def _sheet_error(exc: ValidationError) -> InvalidInput:
    problem = exc.errors()[0]
    field = ".".join(str(part) for part in problem["loc"]) or "sheet"
    return InvalidInput(field, problem.get("input"), problem["msg"].lower())


def _character(sheet: Mapping[str, Any]) -> Character:
    """Validate a sheet's shape, then its traits and skills against the catalogue."""
    if not isinstance(sheet, Mapping):
        raise InvalidInput("sheet", sheet, "a JSON object with name, traits and skills")
    try:
        character = Character.model_validate(dict(sheet))
    except ValidationError as exc:
        raise _sheet_error(exc) from None
    catalogue = builtin_catalogue()
    for trait in character.traits:
        if trait not in catalogue.traits:
            known = ", ".join(sorted(catalogue.traits))
            raise InvalidInput(f"traits.{trait}", trait, f"a known trait: {known}")
    for skill in character.skills:
        entry = catalogue.skills.get(skill)
        if entry is None:
            known = ", ".join(sorted(catalogue.skills))
            raise InvalidInput(f"skills.{skill}", skill, f"a known skill: {known}")
        if entry.trait not in character.traits:
            raise InvalidInput(
                f"skills.{skill}", skill, f"a skill whose trait ({entry.trait}) has a score"
            )
    return character


class RainwallTable(TableDefaults):
    title = "Rainwall"

    key = "rainwall"

    def validate_sheet(self, sheet: Mapping[str, Any]) -> Sheet:
        return _character(sheet).model_dump(mode="json")

    def new_sheet(self, name: str) -> Sheet:
        catalogue = builtin_catalogue()
        return self.validate_sheet(
            {
                "name": name,
                "traits": dict.fromkeys(catalogue.traits, rules.MIN_SCORE),
                "skills": {},
            }
        )

    def sheet_view(self, sheet: Sheet) -> SheetView:
        character = _character(sheet)
        catalogue = builtin_catalogue()
        fields: list[Field] = [Field("name", "Name", "text")]
        fields += [
            Field(
                f"traits.{t.name}",
                t.name,
                "int",
                help="Dice to roll, 1 to 10; blank if the character lacks it. " + t.summary,
                group="Traits",
                minimum=rules.MIN_SCORE,
                maximum=rules.MAX_SCORE,
            )
            for t in catalogue.traits.values()
        ]
        for s in catalogue.skills.values():
            fields += [
                Field(
                    f"skills.{s.name}.score",
                    f"{s.name} ({s.trait})",
                    "int",
                    help="The target, 1 to 10; blank if the character lacks the skill. "
                    + s.summary,
                    group="Skills",
                    minimum=rules.MIN_SCORE,
                    maximum=rules.MAX_SCORE,
                ),
                Field(
                    f"skills.{s.name}.bonus",
                    f"{s.name} bonus",
                    "int",
                    minimum=0,
                    help="The skill's + bonus: points that lower dice after the roll.",
                    group="Skills",
                ),
            ]
        values: dict[str, Any] = {"name": character.name}
        values |= {f"traits.{t}": character.traits.get(t) for t in catalogue.traits}
        for skill in catalogue.skills:
            held = character.skills.get(skill)
            values[f"skills.{skill}.score"] = held.score if held else None
            values[f"skills.{skill}.bonus"] = held.bonus if held else 0
        tracks = tuple(
            (
                name,
                f"{character.traits[catalogue.skills[name].trait]}d10 vs {held.score}"
                + (f", +{held.bonus}" if held.bonus else ""),
            )
            for name, held in character.skills.items()
        )
        return SheetView(tuple(fields), values, tracks)

    def apply_sheet_form(self, sheet: Sheet, form: Mapping[str, Any]) -> Sheet:
        updated: dict[str, Any] = dict(sheet)
        if "name" in form:
            updated["name"] = str(form["name"] or "").strip()
        traits = form_int_map(form, "traits", sheet.get("traits") or {})
        skills = {k: dict(v) for k, v in (sheet.get("skills") or {}).items()}
        for key in form:
            group, _, rest = key.partition(".")
            if group == "skills" and rest:
                skill, _, part = rest.rpartition(".")
                if part not in ("score", "bonus") or not skill:
                    raise InvalidInput(key, form[key], "skills.<skill>.score or .bonus")
                value = form_int(form, key)
                if part == "score" and value is None:
                    skills.pop(skill, None)
                    continue
                entry = skills.setdefault(skill, {})
                entry[part] = 0 if value is None else value
        for skill, entry in list(skills.items()):
            if "score" not in entry:  # a bonus typed for a skill the character lacks
                del skills[skill]
        updated["traits"], updated["skills"] = traits, skills
        return self.validate_sheet(updated)

    def dialog(self, sheet: Sheet) -> tuple[Field, ...]:
        character = _character(sheet)
        catalogue = builtin_catalogue()
        skills = tuple(
            Choice(
                name,
                f"{name}: {character.traits[catalogue.skills[name].trait]}d10 vs {held.score}"
                + (f", bonus +{held.bonus}" if held.bonus else ""),
            )
            for name, held in character.skills.items()
        )
        return (
            Field(
                "skill",
                "Skill",
                "select",
                skills,
                default=skills[0].value if skills else None,
                help="" if skills else "The character has no skills yet; add one on the sheet.",
            ),
            Field(
                "dr",
                "Difficulty Rating",
                "int",
                default=1,
                minimum=rules.MIN_DR,
                maximum=rules.MAX_DR,
                help="Successes needed.",
            ),
            Field(
                "without_bonus",
                "Leave the skill's bonus out",
                "bool",
                default=False,
                help="Otherwise the + bonus points are spent for the most successes; "
                "you can reallocate them on the result card.",
            ),
        )

    def _request(self, sheet: Sheet, form: Mapping[str, Any]) -> RainwallRequest:
        character = _character(sheet)
        skill = str(form.get("skill") or "")
        if not skill:
            raise InvalidInput(
                "skill", skill, "one of the character's skills: " + ", ".join(character.skills)
            )
        dr = form_int(form, "dr")
        if dr is None:
            raise InvalidInput("dr", form.get("dr"), "the Difficulty Rating, a whole number")
        request = request_for(character, skill, dr, _variants(form))
        if form_flag(form, "without_bonus"):
            request = replace(request, bonus=0)
        return request.checked()

    def chances(self, sheet: Sheet, form: Mapping[str, Any]) -> dict[str, Fraction]:
        odds = check_odds(self._request(sheet, form))
        return {SUCCESS_KEY: odds.p_success} | {d.label: odds.degrees[d] for d in Degree}

    def roll(self, sheet: Sheet, form: Mapping[str, Any], source: RandomSource) -> Play:
        request = self._request(sheet, form)
        result = roll_check(request, source)
        record: Record = {
            "kind": "roll",
            "request": _request_json(request),
            "draws": draws_json(result.provenance.draws),
        }
        return Play(record, card_for(result), None, result.headline)

    def act(
        self,
        sheet: Sheet,
        chain: Sequence[Record],
        action: str,
        params: Mapping[str, Any],
        source: RandomSource,
    ) -> Play:
        if action != "reallocate":
            raise InvalidInput("action", action, "reallocate")
        result = rebuild(chain)
        moved = reallocate(result, _allocation(result, params))
        record: Record = {"kind": "reallocate", "allocation": list(moved.allocation), "draws": []}
        return Play(record, card_for(moved), None, moved.headline)

    def card(self, chain: Sequence[Record]) -> Card:
        return card_for(rebuild(chain))


TABLE: TableRules = RainwallTable()
"""Typed as the protocol so mypy proves the adapter satisfies it."""
