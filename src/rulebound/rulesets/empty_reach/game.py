"""The Empty Reach behind the one game contract: requests, exact chances, the follow-ups, the card.

Records: a roll is ``{"kind": "roll", "request": <CheckRequest as JSON>, "draws"}`` (an
opposed roll's request names the defender; the draws are the active dice, then the
defender's), a push ``{"kind": "push", "reroll": [die indices], "draws"}`` (the rerolled
dice, then any gear checks); ``break-tie`` and ``split`` are in ``flow``. Repair and Second
Wind are rolls too, started from the sheet; ``heal`` is ``{"kind": "heal", "health",
"resolve"}``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from rulebound.core.errors import InvalidInput, raise_all
from rulebound.core.random_source import RandomSource
from rulebound.rulesets.contract import ActionView, Chances, Choice, Field, FollowFlag, Game
from rulebound.rulesets.empty_reach.check import (
    CheckRequest,
    Defender,
    GearInUse,
    Options,
    PreparedCheck,
    checked,
    parse_gear,
    prepare,
)
from rulebound.rulesets.empty_reach.content import EmptyReachContent, default_content
from rulebound.rulesets.empty_reach.odds import PUSH_POLICIES, summary
from rulebound.rulesets.empty_reach.rules import MAX_HELPERS, PUSH, VARIANTS
from rulebound.rulesets.empty_reach.sheets import EmptyReachSheets, raw_fields
from rulebound.rulesets.fields import choices, number
from rulebound.rulesets.forms import MISSING, coerce

if TYPE_CHECKING:
    from rulebound.rulesets.contract import (
        Card,
        Chain,
        ContentTable,
        Decision,
        Params,
        Play,
        Record,
        Sheet,
        Variants,
    )
    from rulebound.rulesets.empty_reach.flow import Played
    from rulebound.rulesets.grid import OddsGrid

POLICIES = choices(PUSH_POLICIES)
ODDS_FIELDS = (
    Field("push", "Push: never, always (default dice) or if-failed", "select", POLICIES, "never"),
    number("gear_bonus", "Bonus of gear in use (steps up, risks it)", 0, 10),
)


class _Flow(Protocol):
    """What the game calls in ``flow`` on every roll."""

    def roll(self, check: PreparedCheck, source: RandomSource) -> Played: ...

    def follow(
        self, result: Played, action: str, params: Params, source: RandomSource
    ) -> Played: ...


_FLOW: list[_Flow] = []


def _flow() -> _Flow:
    """``flow``, imported on the first roll (not with the game), then at hand."""
    if not _FLOW:
        from rulebound.rulesets.empty_reach import flow

        _FLOW.append(flow)
    return _FLOW[0]


class EmptyReach(Game[CheckRequest, "Played"]):
    key = "empty-reach"
    title = "The Empty Reach"
    variants = VARIANTS
    odds_fields = ODDS_FIELDS
    follow_flags = (
        FollowFlag("reroll", PUSH, "reroll", "Push, rerolling dice 0,1 or 'default'; repeatable."),
    )
    unseen_follow_ups = (ActionView(PUSH, "Push the roll", spends="damage or stress"),)
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
            payload["opposed"] = Defender.of(values)
            request = checked(CheckRequest, payload | {"options": Options.known(variants)})
        except InvalidInput as exc:
            problems.append(exc)
        raise_all(problems)
        return request

    def load(self, data: Mapping[str, Any]) -> CheckRequest:
        from rulebound.rulesets.plays import record_object

        request = record_object(data, "request", "the roll's request as a JSON object")
        return checked(CheckRequest, dict(request), prefix="record.request")

    def dump(self, request: CheckRequest) -> dict[str, Any]:
        return {"request": request.model_dump(mode="json")}

    def prepare(self, request: CheckRequest) -> PreparedCheck:
        return prepare(request, self.game_content)

    # rolls

    def roll(self, request: CheckRequest, source: RandomSource) -> Played:
        return _flow().roll(self.prepare(request), source)

    def chances(self, request: CheckRequest) -> Chances:
        """The number of successes before any push (success is one or more); an opposed
        roll's verdicts."""
        check = self.prepare(request)
        if check.defender is not None:
            from rulebound.rulesets.empty_reach.opposed import opposed_chances

            return opposed_chances(check, check.defender)
        return summary(check, if_pushed=True)

    def odds(self, values: Mapping[str, Any], variants: Variants) -> Chances:
        """The successes after a push policy, what it costs, and an opposed roll's verdicts."""
        bonus = values.get("gear_bonus") or 0
        if bonus and values.get("gear"):
            raise InvalidInput("gear_bonus", bonus, "no gear bonus beside a named --gear")
        request = self.request(values, variants)
        if bonus:
            request = request.model_copy(update={"gear": GearInUse(name="gear", bonus=bonus)})
        check = self.prepare(request)
        chances = summary(check, values.get("push") or "never", check.defender)
        return replace(chances, success_label=f"success with {check.pool.describe()}")

    def follow_params(self, result: Played, action: str, params: Params) -> Record:
        """The params the rules accept: a push's dice (the default choice filled in), a
        tie-break's none, a Second Wind split's successes to Health."""
        from rulebound.rulesets.empty_reach import flow
        from rulebound.rulesets.empty_reach.advisor import REROLL

        raw = params.get("reroll")
        chosen = coerce(REROLL, None if raw == "" else raw) if action == PUSH else MISSING
        return flow.follow_params(result, action, params, None if chosen is MISSING else chosen)

    def follow(self, result: Played, action: str, params: Params, source: RandomSource) -> Played:
        return _flow().follow(result, action, params, source)

    def decision(
        self, result: Played, action: str, params: Params, after: Played
    ) -> Decision | None:
        from rulebound.rulesets.empty_reach.decisions import decision

        return decision(result, action, params, after)

    def card(self, result: Played) -> Card:
        from rulebound.rulesets.empty_reach.card import card_for

        return card_for(result)

    def follow_ups(self, result: Played) -> tuple[ActionView, ...]:
        """What ``result`` offers, without the push's advice (its card shows that)."""
        from rulebound.rulesets.empty_reach.card import actions_of

        return actions_of(result, advised=False)

    # tools

    def grid(self, values: Mapping[str, Any], variants: Variants) -> OddsGrid:
        from rulebound.rulesets.empty_reach.tables import success_grid

        return success_grid()

    def content(self) -> tuple[ContentTable, ...]:
        return self.game_content.tables()

    # sheet actions: ``heal`` records ``{"kind": "heal", "health", "resolve"}``; repair and
    # Second Wind are rolls (``{"kind": "roll", ...}``) whose follow-ups go through ``flow``

    unreplayed_actions = ("heal",)
    """A recovery's card names the character, which its record does not hold."""

    def sheet_actions(self, sheet: Sheet, variants: Variants) -> tuple[ActionView, ...]:
        held = self.sheets.character(sheet)
        points = tuple(number(k, k.title(), 0, default=0) for k in ("health", "resolve"))
        found = [ActionView("heal", "Recover Health or Resolve", points)]
        damaged = [
            Choice(g.name, f"{g.name} {g.bonus}/{g.max_bonus}") for g in held.gear if g.damaged
        ]
        if damaged:
            tools = choices(
                {g.name: f"{g.name} (+{g.bonus})" for g in held.gear if g.bonus}, Choice("", "none")
            )
            fields = (
                Field("gear", "Item", "select", tuple(damaged), required=True),
                Field("tools", "Gear in use (tools)", "select", tools, default=""),
                number("helpers", "People helping", 0, MAX_HELPERS, default=0),
            )
            found.append(ActionView("repair", "Repair gear (a Crafting roll)", fields))
        effects = {self.game_content.specialty(s).effect for s in held.specialties}
        if held.broken and "second-wind" in effects and not held.second_wind_used:
            found.append(ActionView("second-wind", "Second Wind (a Stamina roll, no push)"))
        if "roll-twice" in effects:
            from rulebound.rulesets.empty_reach import twice

            found += filter(None, [twice.action(held)])
        return tuple(found)

    def sheet_act(
        self, sheet: Sheet, action: str, params: Params, variants: Variants, source: RandomSource
    ) -> Play:
        from rulebound.rulesets.empty_reach.gear import repair_request
        from rulebound.rulesets.empty_reach.specialties import heal, second_wind_request
        from rulebound.rulesets.plays import make_record, roll_play
        from rulebound.rulesets.views import Card, Play

        held, options = self.sheets.character(sheet), Options.of(variants)
        if action == "roll-twice":
            from rulebound.rulesets.empty_reach import twice

            return twice.act(held, params, source)
        if action == "heal":
            health, resolve = params.get("health") or 0, params.get("resolve") or 0
            text = f"{held.name} recovers {health} Health, {resolve} Resolve"
            record = make_record("heal", {"health": health, "resolve": resolve}, ())
            after = heal(held, health, resolve).model_dump(mode="json")
            return Play(record, Card("Recovery", text, None), after, text)
        if action == "repair":
            tools, helpers = params.get("tools") or None, params.get("helpers") or 0
            gear = str(params["gear"])
            request = repair_request(held, gear, tools=tools, helpers=helpers, options=options)
        elif action == "second-wind":
            request = second_wind_request(held, options)
        else:
            raise InvalidInput("action", action, "one of heal, repair, second-wind, roll-twice")
        result, record = roll_play(self, request, source)
        card = self.card(result)
        return Play(record, card, self.sheets.settle(sheet, result), card.outcome)

    def tool_follow(
        self, chain: Chain, action: str, params: Params, variants: Variants, source: RandomSource
    ) -> Play:
        """Keep one result of Killer or Lucky (``twice``)."""
        if chain and chain[0].get("kind") == "roll-twice":
            from rulebound.rulesets.empty_reach import twice

            return twice.follow(chain, action, params)
        return super().tool_follow(chain, action, params, variants, source)

    def tool_card(self, chain: Chain) -> Card:
        if chain and chain[0].get("kind") == "roll-twice":
            from rulebound.rulesets.empty_reach import twice

            return twice.card(chain)
        return super().tool_card(chain)


GAME = EmptyReach()
