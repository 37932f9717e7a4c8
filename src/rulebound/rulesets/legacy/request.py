"""The request one Legacy roll makes, and the roll record that stores it.

A roll record is ``{"kind": "roll", "sheet", "request", "affinity", "situations",
"favour", "draws"}``: the roller's sheet as it stood (None for a roll from raw
numbers), the check (``CheckRequest`` as JSON), the skill affinity it uses, the
situations ticked and whether favour was spent. An opposed roll adds ``"opposed"``
(the other side's check); an extended check adds ``"extended"`` (its thresholds),
``"rolls"`` (turns rolled at once) and ``"until_done"``. ``"rules"``: the rules it was
rolled under (``versions``), none on a record logged before they were numbered.

``raw_request`` and ``sheet_request`` build a roll from the player's choices (the typed
values of ``dialog``'s fields, by name), enforcing what the rules say about them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from pydantic import ConfigDict

from rulebound.core.canonical import to_jsonable
from rulebound.core.errors import InvalidInput, RuleViolation, raise_all, within
from rulebound.core.keys import find_key
from rulebound.core.random_source import trusted_builder
from rulebound.rulesets.legacy.assist import assist, lend, needed
from rulebound.rulesets.legacy.character import Character
from rulebound.rulesets.legacy.checks import (
    AssistMode,
    CheckRequest,
    from_json,
    resolve,
)
from rulebound.rulesets.legacy.content import catalogue
from rulebound.rulesets.legacy.extended import MAX_ROLLS, ExtendedSpec
from rulebound.rulesets.legacy.restrictions import checked, validated
from rulebound.rulesets.legacy.versions import (
    RULES,
    Rules,
    named,
    rules_of,
    sheet_touches_contest,
)

Variants = Mapping[str, str]
THRESHOLDS = ("success_threshold", "failure_threshold", "max_rolls")


@dataclass(frozen=True, slots=True)
class LegacyRoll:
    """A check to roll: alone (as a character or from numbers), opposed, or extended.

    ``rules``: the rules it is rolled under, today's for every new roll; a roll loaded from
    a record keeps the record's (``versions``)."""

    __pydantic_config__ = ConfigDict(extra="forbid")

    request: CheckRequest
    sheet: Character | None = None
    affinity: str | None = None
    situations: tuple[str, ...] = ()
    favour: bool = False
    opposed: CheckRequest | None = None
    extended: ExtendedSpec | None = None
    rolls: int = 1
    until_done: bool = False
    rules: Rules = RULES

    def __post_init__(self) -> None:
        if self.opposed is not None and self.extended is not None:
            raise InvalidInput("extended", "an opposed check", "no opposed side as well")
        if self.favour and self.sheet is None:  # "whenever you make a test": any, from a sheet
            raise InvalidInput("favour", True, "a check rolled from a character sheet")
        contest = self.opposed is not None or self.extended is not None
        if self.favour and contest and not sheet_touches_contest(self.rules):
            raise InvalidInput("favour", True, "none on an opposed or extended check (rules 1)")
        if not 1 <= self.rolls <= MAX_ROLLS:
            raise InvalidInput("rolls", self.rolls, f"1 to {MAX_ROLLS} rolls at once")
        if self.extended is None and (self.rolls != 1 or self.until_done):
            raise InvalidInput("rolls", self.rolls, "1: turns belong to an extended check")

    @property
    def name(self) -> str:
        return self.sheet.name if self.sheet is not None else ""

    def as_rolled(self) -> CheckRequest | None:
        """The check as ``chain.roll`` rolls it: spent favour's advantage, a curse's
        disadvantage; None when the roller cannot act (an automatic failure, no roll)."""
        check, char = self.request, self.sheet
        if char is None:
            return check
        if not char.can_act:
            return None
        return replace(
            check,
            advantage=check.advantage or self.favour,
            disadvantage=check.disadvantage or char.cursed,
        )

    def first_roll(self) -> CheckRequest:
        """The actor's check as an opposed check, or an extended check's first turn, rolls it
        (``as_rolled``). An unconscious or dead roller is refused: an automatic failure has
        no margin to compare or add up (ruling 91). Under the first rules, the check itself."""
        if not sheet_touches_contest(self.rules):
            return self.request
        if self.sheet is not None and not self.sheet.can_act:
            raise cannot_contest(self.sheet, "an opposed or extended check")
        return self.as_rolled() or self.request

    def after(self) -> Character | None:
        """The roller's sheet once this roll is made: favour and a curse spent by it (a curse
        is not spent by an automatic failure); None when it changes nothing on the sheet (as
        under the first rules, which spent nothing on an opposed or extended check)."""
        char, update = self.sheet, dict[str, bool]()
        if char is None or not sheet_touches_contest(self.rules):
            return None
        if self.favour:
            update["favour"] = False
        if char.cursed and char.can_act:
            update["cursed"] = False
        return char.model_copy(update=update) if update else None

    def edge_sources(self) -> tuple[str, ...]:
        """Where advantage and disadvantage came from (``Character.check``'s rules, named)."""
        c, request, roller = catalogue(), self.request, self.sheet
        helped = [a for a in request.assists if a.mode == "advantage"]
        lines = [f"advantage: assisted by {a.helper} ({a.relevant})" for a in helped]
        lines += ["advantage: favour spent"] if self.favour else []
        diff = c.difficulty(resolve(request).difficulty)
        lines += [f"{diff.edge}: {diff.name} difficulty"] if diff.edge else []
        if roller is not None:
            curse = roller.cursed and roller.can_act
            lines += ["disadvantage: cursed (spent by this roll)"] if curse else []
            found = roller.edges(request.characteristic, self.affinity, self.situations, c)
            lines += [f"{rule.edge}: {owner}" for owner, rule in found]
        given = {"advantage": request.advantage or self.favour}
        given["disadvantage"] = request.disadvantage
        for edge in (e for e, held in given.items() if held):
            if not any(x.startswith(edge + ":") for x in lines):
                lines.append(f"{edge}: called at the table")
        if {"advantage", "disadvantage"} <= {x.split(":")[0] for x in lines}:
            lines.append("advantage and disadvantage cancel: one die")
        return tuple(lines)


def cannot_contest(char: Character, what: str) -> RuleViolation:
    """Why ``char`` (unconscious or dead) takes no part in ``what`` (ruling 91)."""
    state = "dead" if char.dead else "unconscious"
    return RuleViolation(
        what,
        f"{char.name} is {state}: they make no actions and fail every check automatically, "
        "and an automatic failure has no margin to compare or add up",
    )


def load_roll(data: Mapping[str, Any]) -> LegacyRoll:
    """The roll a record's params describe, under the rules it names (none: the first);
    every bad field named (``sheet.scores.STR``...)."""
    roll = from_json(LegacyRoll, {**data, "rules": rules_of(data)}, "record")
    if roll.sheet is not None:
        checked(roll.sheet)
    return roll


def dump_roll(roll: LegacyRoll) -> dict[str, Any]:
    out: dict[str, Any] = {
        "sheet": None if roll.sheet is None else roll.sheet.model_dump(mode="json"),
        "request": to_jsonable(roll.request),
        "affinity": roll.affinity,
        "situations": list(roll.situations),
        "favour": roll.favour,
    }
    if roll.opposed is not None:
        out["opposed"] = to_jsonable(roll.opposed)
    if roll.extended is not None:
        out |= {"extended": roll.extended.model_dump(), "rolls": roll.rolls}
        out["until_done"] = roll.until_done
    return out | named(roll.rules)


# --- building a roll from the player's choices ------------------------------------------


_RAW_NAMES = ("score", "target", "bonus", "rank", "difficulty", "advantage", "disadvantage")
_PREFIXED = {prefix: tuple(prefix + name for name in _RAW_NAMES) for prefix in ("", "opposed.")}


def raw_check(values: Mapping[str, Any], variants: Variants, prefix: str = "") -> CheckRequest:
    names = _PREFIXED.get(prefix) or tuple(prefix + name for name in _RAW_NAMES)
    score, target, bonus, rank, difficulty, advantage, disadvantage = map(values.get, names)
    if target is None and score is None:
        raise InvalidInput(prefix + "target", None, "a final target, or a characteristic score")
    return CheckRequest(
        score=score or 0,
        bonus=bonus,
        rank=rank,
        difficulty=difficulty or "challenging",
        advantage=bool(advantage),
        disadvantage=bool(disadvantage),
        scale=variants["scale"],
        target=target if score is None else None,
        label="opponent" if prefix else "",
        affinity_bonus=variants["affinity_bonus"],
    )


_roll = trusted_builder(LegacyRoll)
_OTHER_SIDE = ("opposed.character", "opposed.target", "opposed.score", *THRESHOLDS)
"""The values that make a roll opposed or extended (``finish``); without them it is single."""


def raw_request(values: Mapping[str, Any], variants: Variants) -> LegacyRoll:
    check = assisted(None, raw_check(values, variants), values, None, None)
    situations = tuple(values.get("situations") or ())
    given = list(map(values.get, _OTHER_SIDE))
    if given.count(None) == len(given):  # none given: ``finish`` would keep it as it is
        return _roll(check, None, None, situations, False, None, None, 1, False, RULES)
    return finish(LegacyRoll(check, situations=situations), values, variants)


def sheet_request(char: Character, values: Mapping[str, Any], variants: Variants) -> LegacyRoll:
    """The check the sheet makes with these choices: its fatigue, armour, traits and soul."""
    affinity, proficiency = values.get("affinity") or None, values.get("proficiency") or None
    penalty, known = values.get("untrained_penalty") or 0, char.situations()
    chosen = tuple(dict.fromkeys(find_key(known, k) or k for k in values.get("situations") or ()))
    problems = [
        InvalidInput("situations", k, "one of " + (", ".join(known) or "none"))
        for k in chosen
        if k not in known
    ]
    if affinity and proficiency:
        problems.append(InvalidInput("proficiency", proficiency, "blank for an affinity check"))
    if penalty and not proficiency:
        problems.append(
            InvalidInput("untrained_penalty", penalty, "0 unless a proficiency is named")
        )
    raise_all(problems)
    favour = bool(values.get("favour"))
    if favour and not char.favour:
        raise RuleViolation("favour", f"{char.name} holds no favour to spend")
    rank = values.get("rank") or char.rank
    check = (char if rank == char.rank else char.model_copy(update={"rank": rank})).check(
        values["characteristic"],
        affinity=affinity,
        proficiency=proficiency,
        untrained_penalty=penalty,
        difficulty=values.get("difficulty") or "challenging",
        situations=chosen,
        advantage=bool(values.get("advantage")),
        disadvantage=bool(values.get("disadvantage")),
        scale=variants["scale"],
        affinity_bonus=variants["affinity_bonus"],
    )
    check = assisted(char, check, values, affinity, proficiency)
    return finish(LegacyRoll(check, char, affinity, chosen, favour), values, variants)


RAW_RELEVANT = "what the check calls for"
"""What a helper lends to a check from numbers, which names no affinity or proficiency."""


def assisted(
    char: Character | None,
    request: CheckRequest,
    values: Mapping[str, Any],
    affinity: str | None,
    proficiency: str | None,
) -> CheckRequest:
    """A helper's advantage, or proficiency and rank; a helper's sheet is checked (``assist``).

    A helper named without a sheet is taken on the table's word: whether they hold the
    relevant affinity or proficiency is for the table to confirm (the card names it).
    """
    mode, sheet = values.get("assist.mode") or "", values.get("helper")
    if sheet is not None:
        how: AssistMode = "proficiency" if mode == "proficiency" else "advantage"
        helper = picked("helper", sheet)
        if char is not None and helper.name == char.name:
            raise InvalidInput(
                "helper", helper.name, "another character (no one assists their own check)"
            )
        return assist(helper, request, mode=how, affinity=affinity, proficiency=proficiency)
    if not mode:
        return request
    name = str(values.get("assist.helper") or "")
    if not name or (char is not None and name == char.name):
        raise InvalidInput("assist.helper", name, "the helper's name (another character)")
    # a check from numbers names no affinity: what the helper must hold is the table's call
    relevant = (
        RAW_RELEVANT if char is None else needed(request, affinity, proficiency, catalogue())[0]
    )
    return lend(request, name, mode, relevant, values.get("assist.rank"))


def picked(field: str, sheet: object) -> Character:
    """The character a dialog field picked (its sheet), its problems named under the field."""
    try:
        return validated(sheet)
    except InvalidInput as exc:
        raise within(field, exc) from None


OPPOSED_NAMES = (
    *("character", "characteristic", "affinity", "difficulty"),
    *("advantage", "disadvantage", "target", "score"),
)
"""The ``opposed.*`` values ``finish`` reads (``raw_check`` reads the rest by prefix)."""


def finish(roll: LegacyRoll, values: Mapping[str, Any], variants: Variants) -> LegacyRoll:
    """The roll with its opposed side or its extended thresholds, when the values give one.

    An opposed side picked by sheet is that sheet's check, but not its curse: this play
    leaves the opponent's sheet as it is, so the curse could never be spent; it waits for
    their own next roll (ruling 92). An unconscious or dead opponent is refused (ruling 91).
    """
    side = {name: values.get(f"opposed.{name}") for name in OPPOSED_NAMES}
    opposed = None
    if side.get("character") is not None:
        other = picked("opposed.character", side["character"])
        if not other.can_act:
            raise cannot_contest(other, "the opposed side")
        opposed = other.check(
            side.get("characteristic") or "STR",
            affinity=side.get("affinity") or None,
            difficulty=side.get("difficulty") or "challenging",
            advantage=bool(side.get("advantage")),
            disadvantage=bool(side.get("disadvantage")),
            scale=variants["scale"],
            affinity_bonus=variants["affinity_bonus"],
        )
    elif side.get("target") is not None or side.get("score") is not None:
        opposed = raw_check(values, variants, "opposed.")
    given = {key: values.get(key) for key in THRESHOLDS}
    extended = None
    if any(v is not None for v in given.values()):
        missing = [key for key, value in given.items() if value is None]
        if missing:
            both = "--success-threshold, --failure-threshold and --max-rolls to start it"
            raise InvalidInput(missing[0], None, f"all three thresholds: {both}")
        extended = ExtendedSpec.model_validate(given)
    if opposed is None and extended is None:
        return roll
    turns = extended is not None  # how many turns to roll belongs to an extended check
    rolls, until_done = (
        (values.get("rolls") or 1) if turns else 1,
        turns and bool(values.get("until_done")),
    )
    return replace(roll, opposed=opposed, extended=extended, rolls=rolls, until_done=until_done)
