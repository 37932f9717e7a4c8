"""The Legacy roll dialog: the fields, the check they describe, and its exact chances.

Form names: ``characteristic`` (a code, LCK or REN), ``affinity`` (a skill affinity
or blank for a characteristic check), ``proficiency`` and ``untrained_penalty``,
``difficulty``, ``rank`` (the sheet's by default), ``advantage``, ``disadvantage``,
``situations`` (the trait and soul situations that apply), ``favour`` (spend it for
advantage), ``assist.mode`` / ``assist.helper`` / ``assist.rank`` (a helper lends
advantage, or their proficiency and rank). Fatigue, worn armour, traits, the soul
and a curse come from the sheet. The table's variants travel as ``variants``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from rulebound.core.errors import InvalidInput, RuleViolation
from rulebound.rulesets.legacy.character import Character
from rulebound.rulesets.legacy.checks import MAX_PENALTY, Assist, CheckRequest
from rulebound.rulesets.legacy.content import CHARACTERISTICS, Catalogue, catalogue
from rulebound.rulesets.legacy.odds import check_chances
from rulebound.rulesets.legacy.rules import OUTCOMES, Outcome, difficulty_keys
from rulebound.rulesets.legacy.table_common import (
    bounded,
    character,
    choice,
    flag,
    text,
    variants,
    words,
)
from rulebound.rulesets.table import Choice, Field, Sheet

SUCCESS_KEY = "success (critical included)"
"""The first key of ``chances``; the others are the five outcomes, which sum to 1."""
CODES: tuple[str, ...] = (*CHARACTERISTICS, "LCK", "REN")
ASSIST_MODES: tuple[str, ...] = ("", "advantage", "proficiency")


# --- the dialog and the request ---------------------------------------------------------


def _skill_affinities(c: Catalogue) -> list[str]:
    return [k for k, a in c.affinities.items() if a.kind == "skill"]


def _situations(char: Character, c: Catalogue) -> dict[str, str]:
    """The situation keys the character's traits and soul react to (worn armour is automatic)."""
    found: dict[str, str] = {}
    owners = [(t.name, t.edges) for t in char.traits(c)] + [
        (c.soul(char.soul).name, c.soul(char.soul).edges)
    ]
    for owner, edges in owners:
        for rule in edges:
            if rule.situation and rule.situation != "armoured":
                where = f" on {'/'.join(rule.characteristics)}" if rule.characteristics else ""
                label = f"{rule.situation.replace('-', ' ')}: {owner} ({rule.edge}{where})"
                found[rule.situation] = label
    return found


def dialog(sheet: Sheet) -> tuple[Field, ...]:
    char = character(sheet)
    c = catalogue()
    notes = ["Fatigued: -1 applies." if char.fatigued else ""]
    notes += ["Cursed: disadvantage on this roll." if char.cursed else ""]
    notes += ["Unconscious: the check fails automatically." if not char.can_act else ""]
    codes = tuple(
        Choice(code, f"{c.names.get(code, code)} ({code}) {char.score(code)}") for code in CODES
    )
    affinities = [Choice("", "none: a characteristic check")] + [
        Choice(k, c.affinities[k].name + ("" if char.has_affinity(k, c) else " (not held)"))
        for k in _skill_affinities(c)
    ]
    difficulties = tuple(
        Choice(d.key, f"{d.name} ({d.modifier:+d}{', ' + d.edge if d.edge else ''})")
        for d in c.tables.difficulty
    )
    fields = [
        Field(
            "characteristic",
            "Characteristic",
            "select",
            codes,
            default="STR",
            help=" ".join(n for n in notes if n),
        ),
        Field(
            "affinity",
            "Skill affinity",
            "select",
            tuple(affinities),
            default="",
            help="A skill check without the affinity is one class harder.",
        ),
        Field(
            "proficiency",
            "Proficiency check",
            "text",
            default="",
            help="Held: " + (", ".join(char.proficiencies) or "none"),
        ),
        Field(
            "untrained_penalty",
            "Untrained penalty (the item's entry)",
            "int",
            default=0,
            minimum=-MAX_PENALTY,
            maximum=0,
        ),
        Field("difficulty", "Difficulty class", "select", difficulties, default="challenging"),
        Field(
            "rank",
            "Rank",
            "int",
            default=char.rank,
            minimum=1,
            maximum=6,
            help="Its bonus applies when the affinity or proficiency is held.",
        ),
        Field("advantage", "Advantage", "bool", default=False),
        Field("disadvantage", "Disadvantage", "bool", default=False),
    ]
    situations = _situations(char, c)
    if situations:
        fields.append(
            Field(
                "situations",
                "Situations",
                "multiselect",
                tuple(Choice(k, v) for k, v in situations.items()),
                default=(),
            )
        )
    if char.favour:
        fields.append(Field("favour", "Spend favour (advantage)", "bool", default=False))
    fields += [
        Field(
            "assist.mode",
            "Assisted by",
            "select",
            (
                Choice("", "nobody"),
                Choice("advantage", "a helper lending advantage"),
                Choice("proficiency", "a helper lending their proficiency and rank"),
            ),
            default="",
            group="assist",
        ),
        Field("assist.helper", "Helper's name", "text", default="", group="assist"),
        Field("assist.rank", "Helper's rank", "int", minimum=1, maximum=6, group="assist"),
    ]
    return tuple(fields)


@dataclass(frozen=True, slots=True)
class Built:
    request: CheckRequest
    affinity: str | None
    situations: tuple[str, ...]
    favour: bool


def build(char: Character, form: Mapping[str, Any]) -> Built:
    """The check the dialog describes, with the sheet's fatigue, armour, traits and soul."""
    scale, bonus_mode = variants(form)
    c = catalogue()
    code = choice(form, "characteristic", CODES, "")
    affinity = choice(form, "affinity", ("", *_skill_affinities(c)), "") or None
    proficiency = text(form, "proficiency") or None
    if affinity and proficiency:
        raise InvalidInput("proficiency", proficiency, "blank for an affinity check")
    penalty = bounded(form, "untrained_penalty", 0, -MAX_PENALTY, 0)
    if penalty and not proficiency:
        raise InvalidInput("untrained_penalty", penalty, "0 unless a proficiency is named")
    difficulty = choice(form, "difficulty", difficulty_keys(c), "challenging")
    rank = bounded(form, "rank", char.rank, 1, 6)
    known = _situations(char, c)
    situations = words(form, "situations")
    for key in situations:
        if key not in known:
            raise InvalidInput("situations", key, "one of " + (", ".join(known) or "none"))
    favour = flag(form, "favour")
    if favour and not char.favour:
        raise RuleViolation("favour", f"{char.name} holds no favour to spend")
    ranked = char if rank == char.rank else char.model_copy(update={"rank": rank})
    request = ranked.check(
        code,
        affinity=affinity,
        proficiency=proficiency,
        untrained_penalty=penalty,
        difficulty=difficulty,
        situations=situations,
        advantage=flag(form, "advantage"),
        disadvantage=flag(form, "disadvantage"),
        scale=scale,
        affinity_bonus=bonus_mode,
        cat=c,
    )
    return Built(
        _assisted(char, request, form, affinity, proficiency, c), affinity, situations, favour
    )


def _assisted(
    char: Character,
    request: CheckRequest,
    form: Mapping[str, Any],
    affinity: str | None,
    proficiency: str | None,
    c: Catalogue,
) -> CheckRequest:
    """A helper's advantage or proficiency, as ``assist.assist`` lends it.

    The table has only the roller's sheet, so the helper is a name: whether they hold
    the relevant affinity or proficiency is for the table to confirm (it is on the card).
    """
    mode = choice(form, "assist.mode", ASSIST_MODES, "")
    if not mode:
        return request
    helper = text(form, "assist.helper")
    if not helper or helper == char.name:
        raise InvalidInput("assist.helper", helper, "the helper's name (another character)")
    if proficiency:
        relevant = f"{proficiency} proficiency"
    else:
        key = affinity or request.characteristic.lower()
        if key not in c.affinities:
            raise InvalidInput(
                "assist.mode", mode, f"nobody: {request.characteristic} has no affinity"
            )
        relevant = f"{c.affinity(key).name} affinity"
    if mode == "advantage":
        lent = Assist(helper, "advantage", relevant)
        return replace(request, advantage=True, assists=(*request.assists, lent))
    rank = bounded(form, "assist.rank", 0, 1, 6)
    lent = Assist(helper, "proficiency", relevant, rank)
    return replace(
        request,
        rank=max(request.rank or 0, rank),
        has_skill_affinity=True,
        untrained_penalty=0,
        assists=(*request.assists, lent),
    )


def chances(sheet: Sheet, form: Mapping[str, Any]) -> dict[str, Fraction]:
    """Exact chances of the check as it would be rolled now (favour, curse and state included)."""
    char = character(sheet)
    built = build(char, form)
    request = replace(built.request, advantage=built.request.advantage or built.favour)
    request = replace(request, disadvantage=request.disadvantage or char.cursed)
    if char.can_act:
        outcomes = check_chances(request)
    else:
        outcomes = {o: Fraction(int(o is Outcome.FAILURE)) for o in OUTCOMES}
    passed = outcomes[Outcome.CRITICAL_SUCCESS] + outcomes[Outcome.SUCCESS]
    return {SUCCESS_KEY: passed} | {o.value: p for o, p in outcomes.items()}
