"""Legacy Machines and Magic behind the one game contract.

A roll is one check (from raw numbers, or from a sheet with its fatigue, armour, traits,
soul, curse and favour), an opposed check or an extended check (``request.py`` has its
record); its follow-ups are in ``chain.py``, its card in ``card.py``. The sheet actions,
the game master's tools and the guided creation keep their own records (``tools.py``).
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from pathlib import Path
from types import MappingProxyType
from typing import Any

from rulebound.core.random_source import RandomSource
from rulebound.rulesets import forms
from rulebound.rulesets.contract import (
    Card,
    Chances,
    ContentTable,
    Extra,
    FollowFlag,
    Game,
    Params,
    Record,
    Variants,
)
from rulebound.rulesets.grid import OddsGrid
from rulebound.rulesets.legacy import card, chain, dialog, odds, tables, tools
from rulebound.rulesets.legacy.chain import DECISIONS, FATE_ACTIONS, TURN, LegacyState
from rulebound.rulesets.legacy.checks import luck_request
from rulebound.rulesets.legacy.content import (
    CHARACTERISTICS,
    Catalogue,
    builtin_catalogue,
    load_homebrew_race,
    scoped,
)
from rulebound.rulesets.legacy.extended import ExtendedStatus
from rulebound.rulesets.legacy.opposed import OpposedOutcome
from rulebound.rulesets.legacy.request import LegacyRoll, dump_roll, load_roll, raw_request
from rulebound.rulesets.legacy.restrictions import validated
from rulebound.rulesets.legacy.rules import OUTCOMES, VARIANTS, Outcome, rule_numbers
from rulebound.rulesets.legacy.sheets import LegacySheets, dump

SUCCESS_KEY = "success (critical included)"
"""The first key of ``chances().as_mapping()``; the others are the five outcomes."""
PASSED = frozenset(o for o in OUTCOMES if o.passed)


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

    def roll(self, request: LegacyRoll, source: RandomSource) -> LegacyState:
        return chain.roll(request, source)

    def chances(self, request: LegacyRoll) -> Chances:
        if request.extended is not None:
            return _ends(odds.extended_chances(request.request, request.extended))
        if request.opposed is not None:
            duel = odds.opposed_chances(request.request, request.opposed)
            won = {OpposedOutcome.WIN}
            return Chances.over(duel, won, _each(duel), success_label="win", outcome_name="opposed")
        check = request.as_rolled()
        fails = {o: Fraction(int(o is Outcome.FAILURE)) for o in OUTCOMES}
        outcomes = fails if check is None else odds.check_chances(check)
        return Chances.over(outcomes, PASSED, success_label=SUCCESS_KEY, outcome_name="degrees")

    def odds(self, values: Mapping[str, Any], variants: Variants) -> Chances:
        if not values.get("death_saves"):
            return self.chances(self.request(values, variants))
        lck, scale = values.get("lck_cancel"), variants["scale"]
        cancel = Fraction(0) if lck is None else odds.p_success(luck_request(lck, scale))
        saves = odds.death_save_odds(cancel_chance=cancel)
        ends = {"stable": saves.p_stable, "dead": saves.p_dead}
        rolls = Extra("expected_rolls", "expected saves", saves.expected_rolls, "expectation")
        extras = (*_each(ends), rolls)
        return Chances.over(
            ends, {"stable"}, extras, success_label="stable", outcome_name="death_saves"
        )

    def after_chances(self, result: LegacyState) -> Chances | None:
        if not isinstance(result, chain.ExtendedState):
            return None
        c = result.check
        return _ends(odds.extended_chances(c.request, c.spec, c.success, c.failure, c.rolls_made))

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

    def grid(self, values: Mapping[str, Any], variants: Variants) -> OddsGrid:
        """Every scale reading and rank band side by side (the table's point is comparing)."""
        return tables.success_grid()

    def content(self) -> tuple[ContentTable, ...]:
        c = self.catalogue

        def signed(items: Mapping[Any, int]) -> str:
            return ", ".join(f"{k} {v:+d}" for k, v in items.items())

        rows: dict[str, list[Any]] = {
            "Characteristics: primary, name, secondary, name": [
                (p, c.names[p], s, c.names[s]) for p, s in c.pairs.items()
            ],
            "Races: key, name, " + ", ".join(CHARACTERISTICS) + ", LCK, unnatural, "
            "natural armour, REN, arms, traits": [
                (
                    r.key,
                    r.name,
                    *(str(r.base(k)) for k in CHARACTERISTICS),
                    str(r.base_lck),
                    signed(r.unnatural_bonuses),
                    str(r.natural_armour),
                    f"{r.ren:+d}",
                    str(r.arms),
                    ", ".join(c.traits[t].name for t in r.traits),
                )
                for r in c.races.values()
            ],
            "Origins: key, name, modifiers, affinity, trait, bonus fate, common skills, mutation": [
                (
                    o.key,
                    o.name,
                    signed(o.modifiers),
                    o.affinity,
                    o.trait,
                    str(o.bonus_fate),
                    ", ".join(o.common_skills),
                    "minor" if o.starting_mutation else "",
                )
                for o in c.origins.values()
            ],
            "Souls: key, name, kind, restrictions, effects": [
                (s.key, s.name, s.kind, "; ".join(s.limits(c.races)), "; ".join(s.effects()))
                for s in c.souls.values()
            ],
            "Traits: key, name, effects, summary": [
                (t.key, t.name, "; ".join(t.effects()), t.summary) for t in c.traits.values()
            ],
            "Affinities: key, name, kind, characteristics": [
                (a.key, a.name, a.kind, ", ".join(a.uses)) for a in c.affinities.values()
            ],
            "Difficulty classes: key, name, modifier, edge": [
                (d.key, d.name, f"{d.modifier:+d}", d.edge or "") for d in c.tables.difficulty
            ],
            "Rank bonus: ranks, bonus": [
                (f"{b.min_rank}-{b.max_rank}", f"+{b.bonus}") for b in c.tables.rank_bonus
            ],
            "Numbers: rule, value": [(k, str(v)) for k, v in rule_numbers(c).items()],
        }
        tables = ((title.split(": ", 1), listed) for title, listed in rows.items())
        return tuple(ContentTable.of(title, columns, listed) for (title, columns), listed in tables)


def _ends(ends: Mapping[ExtendedStatus, Fraction]) -> Chances:
    done = {ExtendedStatus.SUCCEEDED}
    return Chances.over(ends, done, success_label="succeeded", outcome_name="ends")


def _each(chances: Mapping[Any, Fraction]) -> tuple[Extra, ...]:
    """Each outcome's chance again as an extra, ``p_<outcome>`` (the odds JSON's old keys)."""
    return tuple(Extra(f"p_{key}", f"P({key})", p) for key, p in chances.items())


GAME = Legacy()
