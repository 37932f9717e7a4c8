"""Rainwall behind the one game contract: requests, chances, the reallocation, the card.

A roll record is ``{"kind": "roll", "request": {dice, skill, dr, bonus, trait_name,
skill_name, variants}, "draws"}``; a reallocation is ``{"kind": "reallocate",
"allocation": [points per die], "draws": []}``.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rulebound.core.random_source import RandomSource
from rulebound.rulesets.contract import Card, Chances, ContentTable, Field, FollowFlag, Game
from rulebound.rulesets.fields import number
from rulebound.rulesets.grid import OddsGrid
from rulebound.rulesets.plays import record_object
from rulebound.rulesets.rainwall import rules
from rulebound.rulesets.rainwall.card import card_for
from rulebound.rulesets.rainwall.content import Catalogue, builtin_catalogue, load_catalogue
from rulebound.rulesets.rainwall.odds import SUCCESS_LABEL, chances
from rulebound.rulesets.rainwall.request import (
    FIELDS,
    RainwallRequest,
    form_request,
    parse_request,
)
from rulebound.rulesets.rainwall.roll import (
    RainwallResult,
    allocation_from_params,
    reallocate,
    roll_check,
)
from rulebound.rulesets.rainwall.rules import Options
from rulebound.rulesets.rainwall.sheets import DR, RainwallSheets
from rulebound.rulesets.rainwall.tables import success_grid

if TYPE_CHECKING:
    from rulebound.rulesets.contract import Decision, Params, Record, Variants

__all__ = ["GAME", "SUCCESS_LABEL", "Rainwall"]

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
        return form_request(values, Options.from_mapping(variants))

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
        return chances(request.checked())

    def follow_params(self, result: RainwallResult, action: str, params: Params) -> Record:
        return {"allocation": list(allocation_from_params(result, params))}

    def follow(
        self, result: RainwallResult, action: str, params: Params, source: RandomSource
    ) -> RainwallResult:
        return reallocate(result, params["allocation"])

    def card(self, result: RainwallResult) -> Card:
        return card_for(result)

    def decision(
        self, result: RainwallResult, action: str, params: Params, after: RainwallResult
    ) -> Decision | None:
        from rulebound.rulesets.rainwall.decisions import decision

        return decision(result, action, params, after)

    # tools

    def grid(self, values: Mapping[str, Any], variants: Variants) -> OddsGrid:
        return success_grid(
            values.get("dr") or 1, (values.get("bonus") or 0,), Options.from_mapping(variants)
        )

    def content(self) -> tuple[ContentTable, ...]:
        return self.catalogue.tables()


GAME = Rainwall()
