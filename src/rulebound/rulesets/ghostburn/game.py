"""Ghostburn behind the one game contract: requests, chances by band, the luck spend, the card.

A roll record is ``{"kind": "roll", "request": {...}, "set_aside": [...], "draws"}``: the
JSON request (``request.CheckPayload``: a sheet as it stood, less any item set aside, with
skill, trick, DL and GM shift; or a raw check's bonuses, DL and Luck Point pool) and the
items set aside. A luck spend is ``{"kind": "spend-luck", "bonus": N, "draws": []}``; the
GM's ``regain-luck`` sheet action is ``{"kind": "regain-luck", "name", "points", "before"}``.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rulebound.core.errors import InvalidInput, RuleViolation
from rulebound.core.limits import DEFAULT_LIMITS
from rulebound.core.random_source import RandomSource
from rulebound.rulesets.contract import (
    ActionView,
    Card,
    Chances,
    Choice,
    ContentTable,
    Field,
    FollowFlag,
    Game,
    Play,
)
from rulebound.rulesets.fields import number
from rulebound.rulesets.forms import coerce, pairs
from rulebound.rulesets.ghostburn.card import REGAIN, SPEND, card_for, regain_card
from rulebound.rulesets.ghostburn.character import MAX_LUCK_POINTS
from rulebound.rulesets.ghostburn.content import load_content
from rulebound.rulesets.ghostburn.luck import with_luck
from rulebound.rulesets.ghostburn.odds import SUCCESS_LABEL, chances
from rulebound.rulesets.ghostburn.options import VARIANTS, Options
from rulebound.rulesets.ghostburn.request import (
    Check,
    difficulty_for,
    form_check,
    raw_candidates,
)
from rulebound.rulesets.ghostburn.roll import GhostburnResult, roll
from rulebound.rulesets.ghostburn.rules import applied_total, stack
from rulebound.rulesets.ghostburn.sheets import CAP, GhostburnSheets
from rulebound.rulesets.ghostburn.tables import success_grid
from rulebound.rulesets.grid import OddsGrid
from rulebound.rulesets.plays import make_record

if TYPE_CHECKING:
    from rulebound.rulesets.contract import Chain, Decision, Params, Record, Sheet, Variants

__all__ = ["GAME", "SUCCESS_LABEL", "Ghostburn"]

BONUS = number("bonus", "Luck Bonus", 1, CAP)
PAIRS = "NAME=VALUE, repeatable"
LUCK_HELP = "After the roll: spend a Luck Point (spend), or keep the result (keep)."
RAW = (
    Field("ability_score", "Ability score", "int", help="Raw: the ability score."),
    Field("skill_bonus", "Skill bonus", "int", help="Raw: the skill bonus."),
    Field("gear", "Gear bonuses", "multiselect", help=f"Raw: gear {PAIRS}."),
    Field("aug", "Aug bonuses", "multiselect", help=f"Raw: aug {PAIRS}.", aliases=("augs",)),
    number("luck_points", "Luck Points", 0, MAX_LUCK_POINTS, help="Raw: Luck Points available."),
    number("luck_bonus", "Luck Bonus", 1, CAP, help="Raw: its size (odds: the odds with one)."),
)
"""A raw check, with no sheet, takes these besides the DL, GM shift, chart and trait."""
MODIFIER = Field("modifier", "Total bonus", "int", default=0, help="Total bonus added to 2d10.")


def _raw(values: Mapping[str, Any]) -> dict[str, Any]:
    """A raw check's bonuses: the two scores, and each ``--gear``/``--aug`` NAME=BONUS."""
    found = {k: values.get(k) or 0 for k in ("ability_score", "skill_bonus")}
    items = (("gear", "gear"), ("aug", "augs"))
    return found | {kind: pairs(field, values.get(field), whole=True) for field, kind in items}


class Ghostburn(Game[Check, GhostburnResult]):
    key = "ghostburn"
    title = "Ghostburn"
    variants = VARIANTS
    follow_flags = (FollowFlag("luck", SPEND, "luck", LUCK_HELP, skip=("keep",)),)
    unseen_follow_ups = (ActionView(SPEND, "Spend a Luck Point", spends="1 Luck Point"),)
    sheets: GhostburnSheets

    def __init__(self, homebrew: tuple[Path, ...] = ()) -> None:
        self.homebrew = homebrew
        self.catalogue = load_content(homebrew)
        self.sheets = GhostburnSheets(self.catalogue)
        _, trick, dl, chart, trait, shift, *_ = self.sheets.choice_fields
        self.fields = (dl, shift, chart, trait, *RAW)  # a trait only matters to a trick (odds)
        self.odds_fields = (MODIFIER, trick)

    def suggestions(self, field: str, values: Mapping[str, Any]) -> tuple[Choice, ...]:
        """The ladder's levels for a DL; for a target's trait, ``NAME=LEVEL`` for the trait
        the chosen trick reads (every trait a trick reads, with none chosen)."""
        levels = self.catalogue.ladder.levels
        if field == "dl":
            return tuple(Choice(level.name, f"{level.name} ({level.value})") for level in levels)
        if field != "trait":
            return ()
        tricks, typed = self.catalogue.tricks, str(values.get("trick") or "")
        try:
            spec = self.catalogue.trick(typed) if typed else None
        except InvalidInput:
            spec = None
        read = [spec.dl_trait] if spec is not None and spec.dl_trait else []
        traits = read or list(dict.fromkeys(t.dl_trait for t in tricks.values() if t.dl_trait))
        return tuple(
            Choice(f"{trait}={level.name}", f"target's {trait}: {level.name} ({level.value})")
            for trait in traits
            for level in levels
        )

    def with_content(self, path: Path) -> Ghostburn:
        """The game with a homebrew file merged over the built-ins (and any earlier files)."""
        return Ghostburn((*self.homebrew, path))

    # requests, rolls and odds

    def request(self, values: Mapping[str, Any], variants: Variants) -> Check:
        raw = _raw(values)
        payload: dict[str, Any] = {
            "dl": values.get("dl") or None,
            "dl_shift": values.get("dl_shift") or 0,
            "chart": values.get("chart") or "default",
            **raw,
            **{kind: [{"name": n, "bonus": b} for n, b in raw[kind]] for kind in ("gear", "augs")},
        }
        pairs("trait", values.get("trait"))  # checked, though only a trick reads a trait
        pool = {k: values[k] for k in ("luck_points", "luck_bonus") if values.get(k) is not None}
        return form_check({**payload, **pool, "variants": dict(variants)}, variants, self.catalogue)

    def load(self, data: Mapping[str, Any]) -> Check:
        return Check.load(data, self.catalogue)

    def dump(self, request: Check) -> dict[str, Any]:
        return request.dump()

    def rules_named(self, record: Mapping[str, Any]) -> int:
        rule = record.get("ladder", 1)  # the ladder rule (``options.LADDER_RULE``)
        return rule if type(rule) is int else 1  # not a rule: its replay is refused

    def roll(self, request: Check, source: RandomSource) -> GhostburnResult:
        return roll(request.request, source)

    def chances(self, request: Check) -> Chances:
        check, pool = request.request, request.request.pool
        bonus = pool.bonus if pool is not None and pool.points > 0 else None
        return chances(check.modifier, check.difficulty, check.chart, bonus)

    def odds(self, values: Mapping[str, Any], variants: Variants) -> Chances:
        """``modifier`` (plus any raw bonuses) against a DL, or a trick's DL and chart."""
        trick = values.get("trick")
        difficulty, chart = difficulty_for(
            self.catalogue,
            self.catalogue.trick(trick) if trick else None,
            dl=values.get("dl") or None,
            chart=values.get("chart") or None,
            traits=dict(pairs("trait", values.get("trait"))),
            dl_shift=values.get("dl_shift") or 0,
            options=Options.from_mapping(variants),
        )
        raw = raw_candidates(**_raw(values))
        modifier = (values.get("modifier") or 0) + applied_total(stack(raw))
        DEFAULT_LIMITS.check_modifier("modifier", modifier)
        return chances(modifier, difficulty, chart, values.get("luck_bonus"))

    # the luck spend and the card

    def follow_params(self, result: GhostburnResult, action: str, params: Params) -> Record:
        """``{"bonus": N}``: the sheet's Luck Bonus (``Sheets.follow_params``), or the pool's."""
        if action != SPEND:
            raise self.no_follow_up(result, action)
        word = params.get("luck")
        if word not in (None, "spend"):
            raise InvalidInput(
                "luck", word, "spend or keep (leave it out to be asked at a terminal)"
            )
        bonus, pool = params.get("bonus"), result.request.pool
        if bonus in (None, ""):
            if pool is None or pool.points < 1:
                raise RuleViolation("luck", "no Luck Points left to spend")
            bonus = pool.bonus
        return {"bonus": coerce(BONUS, bonus)}

    def follow(
        self, result: GhostburnResult, action: str, params: Params, source: RandomSource
    ) -> GhostburnResult:
        return with_luck(result, params["bonus"])

    def card(self, result: GhostburnResult) -> Card:
        return card_for(result, self.catalogue)

    def decision(
        self, result: GhostburnResult, action: str, params: Params, after: GhostburnResult
    ) -> Decision | None:
        from rulebound.rulesets.ghostburn.decisions import decision

        return decision(result, action, params, after)

    # the GM's regain-luck sheet action: the text never says how Luck Points come back (G20)

    def sheet_actions(self, sheet: Sheet, variants: Variants) -> tuple[ActionView, ...]:
        held = self.sheets.character(sheet)
        room = MAX_LUCK_POINTS - held.luck_points
        if room < 1:
            return ()
        points = number("points", "Luck Points", 1, room, default=1)
        advice = (f"{held.luck_points} now; the GM decides when luck comes back",)
        return (ActionView(REGAIN, "Regain Luck Points", (points,), advice),)

    def sheet_act(
        self, sheet: Sheet, action: str, params: Params, variants: Variants, source: RandomSource
    ) -> Play:
        if action != REGAIN:
            raise InvalidInput("action", action, REGAIN)
        held = self.sheets.character(sheet)
        points, before = params.get("points") or 1, held.luck_points
        record = make_record(REGAIN, {"name": held.name, "points": points, "before": before}, ())
        card = regain_card(record)
        after = held.with_luck_points(before + points).model_dump(mode="json")
        return Play(record, card, after, card.outcome)

    def tool_card(self, chain: Chain) -> Card:
        if len(chain) == 1 and chain[0].get("kind") == REGAIN:
            return regain_card(chain[0])
        return super().tool_card(chain)

    # the designer table and the content listing

    def grid(self, values: Mapping[str, Any], variants: Variants) -> OddsGrid:
        return success_grid(content=self.catalogue, options=Options.from_mapping(variants))

    def content(self) -> tuple[ContentTable, ...]:
        return self.catalogue.tables()


GAME = Ghostburn()
