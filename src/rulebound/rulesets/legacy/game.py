"""Legacy Machines and Magic behind the one game contract.

A roll is one check (from raw numbers, or from a sheet with its fatigue, armour, traits,
soul, curse and favour), an opposed check or an extended check (``request.py`` has its
record); its follow-ups are in ``chain.py``, its card in ``card.py``. The sheet actions,
the game master's tools and the guided creation keep their own records (``tools.py``).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from types import MappingProxyType
from typing import Any

from rulebound.core.random_source import RandomSource
from rulebound.rulesets import forms
from rulebound.rulesets.contract import (
    Card,
    Chances,
    ContentTable,
    Decision,
    FollowFlag,
    Game,
    Params,
    Record,
    Variants,
)
from rulebound.rulesets.grid import OddsGrid
from rulebound.rulesets.legacy import card, chain, dialog, odds, tables, tools
from rulebound.rulesets.legacy.chain import DECISIONS, FATE_ACTIONS, TURN, LegacyState
from rulebound.rulesets.legacy.content import (
    Catalogue,
    builtin_catalogue,
    load_homebrew_race,
    scoped,
)
from rulebound.rulesets.legacy.odds import SUCCESS_KEY
from rulebound.rulesets.legacy.request import LegacyRoll, dump_roll, load_roll, raw_request
from rulebound.rulesets.legacy.restrictions import validated
from rulebound.rulesets.legacy.rules import VARIANTS, content_tables
from rulebound.rulesets.legacy.sheets import LegacySheets, dump
from rulebound.rulesets.legacy.versions import rules_of

__all__ = ["GAME", "SUCCESS_KEY", "Legacy"]


@scoped
class Legacy(tools.Tools, Game[LegacyRoll, LegacyState]):
    key = "legacy"
    title = "Legacy Machines and Magic"
    variants = VARIANTS
    odds_fields = (
        dialog.switch("death_saves", "Death-save odds instead"),
        dialog.number("lck_cancel", "Death saves: LCK of a soul cancelling criticals", 0, 200),
    )
    follow_flags = (
        FollowFlag("rolls", TURN, "rolls", "Extended: roll this many more turns."),
        FollowFlag("until-done", TURN, "until_done", "Extended: roll until it ends."),
    )
    cli_aliases: Mapping[str, tuple[str, ...]] = MappingProxyType({"chain": ("extended",)})

    def __init__(self, catalogue: Catalogue | None = None) -> None:
        self.catalogue = c = catalogue or builtin_catalogue()
        self.fields = (*dialog.numbers(c), dialog.situations_field(), *dialog.shared_fields(c))
        self.sheets = LegacySheets(c)

    def with_content(self, path: Path) -> Legacy:
        """The game with a homebrew race file (one race, the built-in races' format)."""
        return Legacy(load_homebrew_race(path))

    def request(self, values: Mapping[str, Any], variants: Variants) -> LegacyRoll:
        return raw_request(values, variants)

    def load(self, data: Mapping[str, Any]) -> LegacyRoll:
        return load_roll(data)

    def dump(self, request: LegacyRoll) -> dict[str, Any]:
        return dump_roll(request)

    def rules_named(self, record: Mapping[str, Any]) -> int:
        return rules_of(record)

    def roll(self, request: LegacyRoll, source: RandomSource) -> LegacyState:
        return chain.roll(request, source)

    def chances(self, request: LegacyRoll) -> Chances:
        return odds.roll_chances(request)

    def odds(self, values: Mapping[str, Any], variants: Variants) -> Chances:
        if not values.get("death_saves"):
            return self.chances(self.request(values, variants))
        return odds.death_save_chances(values.get("lck_cancel"), variants["scale"])

    def after_chances(self, result: LegacyState) -> Chances | None:
        if not isinstance(result, chain.ExtendedState):
            return None
        return odds.check_ends(result.check)

    def follow_params(self, result: LegacyState, action: str, params: Params) -> Record:
        if action in DECISIONS:
            return {}
        if action == TURN:
            return tools.turn_params(params)
        if action not in FATE_ACTIONS:
            raise self.no_follow_up(result, action)
        out: Record = {"sheet": dump(validated(params.get("sheet")))}  # fate is paid from it
        if action in ("fate-reroll", "luck-swap"):
            out |= forms.read((card.STAMINA,), params)
        return out | (forms.read((card.PURPOSE,), params) if action == "burn-fate" else {})

    def follow(
        self, result: LegacyState, action: str, params: Params, source: RandomSource
    ) -> LegacyState:
        return chain.follow(result, action, params, source)

    def card(self, result: LegacyState) -> Card:
        return card.card(result)

    def decision(
        self, result: LegacyState, action: str, params: Params, after: LegacyState
    ) -> Decision | None:
        from rulebound.rulesets.legacy.decisions import decision

        return decision(result, action, params, after)

    def grid(self, values: Mapping[str, Any], variants: Variants) -> OddsGrid:
        """Every scale reading and rank band side by side (the table's point is comparing)."""
        return tables.success_grid()

    def content(self) -> tuple[ContentTable, ...]:
        return content_tables(self.catalogue)


GAME = Legacy()
