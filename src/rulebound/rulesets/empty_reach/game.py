"""The Empty Reach behind the one game contract: requests, exact chances, the push, the card.

Records: a roll is ``{"kind": "roll", "request": <CheckRequest as JSON>, "draws"}``, a push
``{"kind": "push", "reroll": [die indices], "draws"}`` (the rerolled dice, then any gear
checks); the sheet actions keep theirs (``sheet_act``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from rulebound.core.errors import InvalidInput, raise_all
from rulebound.core.random_source import RandomSource
from rulebound.rulesets.content import input_error
from rulebound.rulesets.contract import (
    ActionView,
    Card,
    Chances,
    Choice,
    ContentTable,
    Field,
    FollowFlag,
    Game,
    Params,
    Play,
    Record,
    Sheet,
    Variants,
)
from rulebound.rulesets.empty_reach.card import PUSH, REROLL, card_for, tool_card
from rulebound.rulesets.empty_reach.check import (
    CheckRequest,
    GearInUse,
    PreparedCheck,
    parse_gear,
    prepare,
)
from rulebound.rulesets.empty_reach.content import EmptyReachContent, default_content
from rulebound.rulesets.empty_reach.gear import repair
from rulebound.rulesets.empty_reach.odds import PUSH_POLICIES, summary
from rulebound.rulesets.empty_reach.roll import (
    EmptyReachResult,
    check_may_push,
    push,
    roll_check,
    validate_selection,
)
from rulebound.rulesets.empty_reach.rules import VARIANTS
from rulebound.rulesets.empty_reach.sheets import DICE, EmptyReachSheets, raw_fields
from rulebound.rulesets.empty_reach.specialties import heal, second_wind
from rulebound.rulesets.empty_reach.tables import success_grid
from rulebound.rulesets.fields import choices, number
from rulebound.rulesets.forms import MISSING, coerce
from rulebound.rulesets.grid import OddsGrid
from rulebound.rulesets.plays import make_record, record_object

POLICIES = choices(PUSH_POLICIES)
ODDS_FIELDS = (
    Field("push", "Push: never, always (default dice) or if-failed", "select", POLICIES, "never"),
    number("gear_bonus", "Bonus of gear in use (steps up, risks it)", 0, 10),
    Field("opposed_attribute", "Defender's attribute die", "select", DICE),
    Field("opposed_skill", "Defender's skill die", "select", DICE),
)


class EmptyReach(Game[CheckRequest, EmptyReachResult]):
    key = "empty-reach"
    title = "The Empty Reach"
    variants = VARIANTS
    odds_fields = ODDS_FIELDS
    follow_flags = (
        FollowFlag("reroll", PUSH, "reroll", "Push, rerolling dice 0,1 or 'default'; repeatable."),
    )
    sheets: EmptyReachSheets

    def __init__(self, content: EmptyReachContent | None = None) -> None:
        self.game_content = content or default_content()
        self.fields = raw_fields(self.game_content)
        self.sheets = EmptyReachSheets(self.game_content)

    def with_content(self, path: Path) -> EmptyReach:
        """The game with a homebrew specialties file added to the built-in ones."""
        return EmptyReach(self.game_content.with_homebrew([path]))

    # requests

    def request(self, values: Mapping[str, Any], variants: Variants) -> CheckRequest:
        problems: list[InvalidInput] = []
        named = ("attribute_die", "skill_die", "skill", "attribute", "difficulty_level")
        payload: dict[str, Any] = {k: values.get(k) or None for k in named}
        payload |= {k: values.get(k) or 0 for k in ("helpers", "difficulty")}
        payload |= {k: values.get(k) or () for k in ("situations", "specialties")}
        if modifier := values.get("modifier"):
            payload["modifiers"] = ({"source": "modifier", "value": modifier},)
        if values.get("gear"):
            try:
                payload["gear"] = parse_gear(str(values["gear"]))
            except InvalidInput as exc:
                problems.append(exc)
        payload["unpushable"] = "passive roll" if values.get("passive") else None
        try:
            request = CheckRequest.model_validate(payload | {"options": dict(variants)})
        except ValidationError as exc:
            problems.append(input_error(exc))
        raise_all(problems)
        return request

    def load(self, data: Mapping[str, Any]) -> CheckRequest:
        request = record_object(data, "request", "the roll's request as a JSON object")
        try:
            return CheckRequest.model_validate(dict(request))
        except ValidationError as exc:
            raise input_error(exc, prefix="record.request") from None

    def dump(self, request: CheckRequest) -> dict[str, Any]:
        return {"request": request.model_dump(mode="json")}

    def prepare(self, request: CheckRequest) -> PreparedCheck:
        return prepare(request, self.game_content)

    # rolls

    def roll(self, request: CheckRequest, source: RandomSource) -> EmptyReachResult:
        return roll_check(self.prepare(request), source)

    def chances(self, request: CheckRequest) -> Chances:
        """The number of successes before any push (success is one or more)."""
        return summary(self.prepare(request), if_pushed=True)

    def odds(self, values: Mapping[str, Any], variants: Variants) -> Chances:
        """The successes after a push policy, what it costs, and an opposed roll's verdicts."""
        bonus = values.get("gear_bonus") or 0
        if bonus and values.get("gear"):
            raise InvalidInput("gear_bonus", bonus, "no gear bonus beside a named --gear")
        request = self.request(values, variants)
        if bonus:
            request = request.model_copy(update={"gear": GearInUse(name="gear", bonus=bonus)})
        defender = None
        if values.get("opposed_attribute"):
            side = {"attribute_die": values["opposed_attribute"], "options": request.options}
            side["skill_die"] = values.get("opposed_skill")
            defender = self.prepare(CheckRequest.model_validate(side))
        elif values.get("opposed_skill"):
            raise InvalidInput("opposed_attribute", None, "the defender's attribute die as well")
        check = self.prepare(request)
        chances = summary(check, values.get("push") or "never", defender)
        return replace(chances, success_label=f"success with {check.pool.describe()}")

    def follow_params(self, result: EmptyReachResult, action: str, params: Params) -> Record:
        """``{"reroll": [die indices]}``, the default choice filled in, checked by the rules."""
        if action != PUSH:
            raise self.no_follow_up(result, action)
        check_may_push(result)
        raw = params.get("reroll")
        chosen = coerce(REROLL, None if raw == "" else raw)
        return {"reroll": list(validate_selection(result, None if chosen is MISSING else chosen))}

    def follow(
        self, result: EmptyReachResult, action: str, params: Params, source: RandomSource
    ) -> EmptyReachResult:
        return push(result, source, params["reroll"])

    def card(self, result: EmptyReachResult) -> Card:
        return card_for(result)

    # tools

    def grid(self, values: Mapping[str, Any], variants: Variants) -> OddsGrid:
        return success_grid()

    def content(self) -> tuple[ContentTable, ...]:
        found, plus = self.game_content, "situational"
        rows: dict[tuple[str, str], list[tuple[str, ...]]] = {
            ("Attributes", "name, a pushed bane costs"): [
                (a.name, a.cost) for a in found.attributes.values()
            ],
            ("Skills", "name, attribute, summary"): [
                (s.name, s.attribute, s.summary) for s in found.skills.values()
            ],
            ("Specialties", "name, effect, situation key, summary"): [
                (s.name, s.effect, s.toggle_key if s.effect == plus else "", s.summary)
                for s in found.specialties.values()
            ],
            ("Situations", "key, name, modifier, skills"): [
                (s.key, s.name, f"{s.value:+d}", ", ".join(s.skills) or "any")
                for s in found.situations.values()
            ],
            ("Difficulty levels", "key, name, modifier"): [
                (d.key, d.name, f"{d.value:+d}") for d in found.difficulty.values()
            ],
        }
        return tuple(
            ContentTable.of(title, columns, listed) for (title, columns), listed in rows.items()
        )

    # sheet actions: their records are ``{"kind": "heal", "health", "resolve"}``,
    # ``{"kind": "repair", "gear"}`` and ``{"kind": "second-wind", "to_health"}``

    def sheet_actions(self, sheet: Sheet, variants: Variants) -> tuple[ActionView, ...]:
        held = self.sheets.character(sheet)
        points = tuple(number(k, k.title(), 0, default=0) for k in ("health", "resolve"))
        found = [ActionView("heal", "Recover Health or Resolve", points)]
        damaged = tuple(
            Choice(g.name, f"{g.name} {g.bonus}/{g.max_bonus}")
            for g in held.gear
            if not g.destroyed and (g.bonus < g.max_bonus or g.bonus == 0)
        )
        if damaged:
            item = Field("gear", "Item", "select", damaged, required=True)
            found.append(ActionView("repair", "Repair gear (Crafting roll)", (item,)))
        effects = {self.game_content.specialty(s).effect for s in held.specialties}
        if held.broken and "second-wind" in effects and not held.second_wind_used:
            help = "The rest go to Resolve; by default all go to a broken Health."
            split = number("to_health", "Successes to Health", 0, help=help)
            found.append(ActionView("second-wind", "Second Wind (Stamina roll, no push)", (split,)))
        return tuple(found)

    def sheet_act(
        self, sheet: Sheet, action: str, params: Params, variants: Variants, source: RandomSource
    ) -> Play:
        held = self.sheets.character(sheet)
        if action == "heal":
            health, resolve = params.get("health") or 0, params.get("resolve") or 0
            text = f"{held.name} recovers {health} Health, {resolve} Resolve"
            record = make_record("heal", {"health": health, "resolve": resolve}, ())
            after, card = heal(held, health, resolve), Card("Recovery", text, None)
        elif action == "repair":
            gear = str(params["gear"])
            crafting = self.roll(
                self.sheets.request(sheet, {"skill": "Crafting"}, variants), source
            )
            after, outcome = repair(held, gear, crafting)
            text = outcome.describe()
            card = tool_card(crafting, text, prefix=f"Repair {gear}: ")
            record = make_record("repair", {"gear": gear}, crafting.provenance.draws)
        elif action == "second-wind":
            split = params.get("to_health")  # left blank: not typed, the default split
            wind, after = second_wind(held, source, split if isinstance(split, int) else None)
            text = f"{wind.roll.headline}: +{wind.health} Health, +{wind.resolve} Resolve"
            card = tool_card(wind.roll, text, "Second Wind")
            chosen = {"to_health": wind.health}
            record = make_record("second-wind", chosen, wind.roll.provenance.draws)
        else:
            raise InvalidInput("action", action, "one of heal, repair, second-wind")
        return Play(record, card, after.model_dump(mode="json"), text)


GAME = EmptyReach()
