"""Rainwall behind the one game contract: requests, chances, the reallocation, the card.

A roll record is ``{"kind": "roll", "request": {dice, skill, dr, bonus, trait_name,
skill_name, variants}, "draws"}``; a reallocation is ``{"kind": "reallocate",
"allocation": [points per die], "draws": []}``.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from pathlib import Path
from typing import Any

from rulebound.core.errors import InvalidInput
from rulebound.core.keys import check_known
from rulebound.core.random_source import RandomSource
from rulebound.rulesets.contract import (
    Breakdown,
    Card,
    Chances,
    ContentTable,
    Extra,
    Field,
    FollowFlag,
    Game,
    Outcome,
    Params,
    Record,
    Variants,
)
from rulebound.rulesets.fields import number
from rulebound.rulesets.grid import OddsGrid
from rulebound.rulesets.plays import record_object
from rulebound.rulesets.rainwall import rules
from rulebound.rulesets.rainwall.card import card_for
from rulebound.rulesets.rainwall.content import Catalogue, builtin_catalogue, load_catalogue
from rulebound.rulesets.rainwall.odds import check_odds
from rulebound.rulesets.rainwall.request import FIELDS, RainwallRequest, parse_request
from rulebound.rulesets.rainwall.roll import (
    RainwallResult,
    allocation_from_labels,
    reallocate,
    roll_check,
)
from rulebound.rulesets.rainwall.rules import Degree, Options
from rulebound.rulesets.rainwall.sheets import DR, RainwallSheets
from rulebound.rulesets.rainwall.tables import success_grid

SUCCESS_LABEL = "success (any degree)"
EXPECTED = "expected successes after the spend"
REQUEST = "the roll's request as a JSON object"
SKILL_HELP = "Skill score (1 to 10), or a skill name with --character."

RAW_FIELDS = (
    number("dice", "Dice (the trait score)", 1, 10, required=True),
    number("skill", "Skill score (the target)", 1, 10, required=True, help=SKILL_HELP),
    DR,
    number("bonus", "Skill bonus points", 0, default=0),
    Field("trait_name", "Trait name", "text"),
    Field("skill_name", "Skill name", "text"),
)
ALLOCATE = "Override the spend as DIE=POINTS, e.g. d5=2; repeatable."


class Rainwall(Game[RainwallRequest, RainwallResult]):
    key = "rainwall"
    title = "Rainwall"
    variants = rules.VARIANTS
    fields = RAW_FIELDS
    follow_flags = (FollowFlag("allocate", "reallocate", "allocation", ALLOCATE, gather=True),)

    def __init__(self, catalogue: Catalogue | None = None) -> None:
        self.catalogue = catalogue or builtin_catalogue()
        self.sheets = RainwallSheets(self.catalogue)

    def with_content(self, path: Path) -> Rainwall:
        """The game with a homebrew traits and skills file merged over the built-ins."""
        return Rainwall(load_catalogue(path))

    # requests

    def request(self, values: Mapping[str, Any], variants: Variants) -> RainwallRequest:
        names = {k: values.get(k) or "" for k in ("trait_name", "skill_name")}
        return RainwallRequest(
            dice=values["dice"],
            skill=values["skill"],
            dr=values["dr"],
            bonus=values.get("bonus", 0),
            options=Options.from_mapping(variants),
            **names,
        ).checked()

    def load(self, data: Mapping[str, Any]) -> RainwallRequest:
        return parse_request(record_object(data, "request", REQUEST))

    def dump(self, request: RainwallRequest) -> dict[str, Any]:
        """The request as ``parse_request`` reads it back, field by field."""
        dumped = {k: getattr(request, k) for k in FIELDS if k != "variants"}
        return {"request": dumped | {"variants": request.options.as_mapping()}}

    # rolls

    def roll(self, request: RainwallRequest, source: RandomSource) -> RainwallResult:
        return roll_check(request.checked(), source)

    def chances(self, request: RainwallRequest) -> Chances:
        odds = check_odds(request.checked())
        mean = sum((n * p for n, p in odds.successes.items()), Fraction(0))
        return Chances(
            outcomes=tuple(Outcome(d.value, d.label, odds.degrees[d], d.succeeded) for d in Degree),
            extras=(Extra("expected_successes", EXPECTED, mean, "expectation"),),
            breakdowns=(
                _breakdown("ios", "Increment of Success", odds.ios),
                _breakdown("successes", "successes after the spend", odds.successes),
                _breakdown("raw_successes", "successes as rolled", odds.raw_successes),
            ),
            success_label=SUCCESS_LABEL,
            outcome_name="degrees",
        )

    def follow_params(self, result: RainwallResult, action: str, params: Params) -> Record:
        return {"allocation": list(_allocation(result, params))}

    def follow(
        self, result: RainwallResult, action: str, params: Params, source: RandomSource
    ) -> RainwallResult:
        return reallocate(result, params["allocation"])

    def card(self, result: RainwallResult) -> Card:
        return card_for(result)

    # tools

    def grid(self, values: Mapping[str, Any], variants: Variants) -> OddsGrid:
        return success_grid(
            values.get("dr") or 1, (values.get("bonus") or 0,), Options.from_mapping(variants)
        )

    def content(self) -> tuple[ContentTable, ...]:
        traits, skills = self.catalogue.traits.values(), self.catalogue.skills.values()
        degrees = [(d.label, when) for d, when in rules.DEGREE_RULES.items()]
        return (
            ContentTable.of("Rules", "rule, number", rules.RULE_NUMBERS),
            ContentTable.of("Degrees (the default readings)", "degree, when", degrees),
            ContentTable.of("Traits", "name, summary", [(t.name, t.summary) for t in traits]),
            ContentTable.of(
                "Skills", "name, trait, summary", [(s.name, s.trait, s.summary) for s in skills]
            ),
        )


def _breakdown(key: str, label: str, values: Mapping[int, Fraction]) -> Breakdown:
    return Breakdown(key, label, tuple((str(k), p) for k, p in sorted(values.items())))


def _allocation(result: RainwallResult, params: Params) -> tuple[int, ...]:
    """Points per die from a list, ``{"d5": 2}``, ``["d5=2"]`` or ``allocation.dN`` keys."""
    raw = params.get("allocation")
    if isinstance(raw, str):
        raw = [raw]
    if isinstance(raw, list | tuple) and raw and all(isinstance(v, str) and "=" in v for v in raw):
        raw = dict(v.split("=", 1) for v in raw)
    if isinstance(raw, Mapping):
        points = {str(label).strip(): _point(f"allocation.{label}", v) for label, v in raw.items()}
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
    check_known("allocation", dotted, labels, "a die label from")
    return tuple(_point(f"allocation.{label}", dotted.get(label)) for label in labels)


def _point(field: str, value: Any) -> int:
    if value is None or value == "":
        return 0
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().isdecimal():
        return int(value)
    raise InvalidInput(field, value, "a whole number of points")


GAME = Rainwall()
