"""Coin toss: the smallest whole game on rulebound's contract, as a plug-in would write it.

Toss ``coins`` coins (a d2 each: 2 is heads); the task succeeds with at least ``need``
heads (or more than ``need`` under the ``exact`` variant's "more-than"). A character holds luck
tokens; one token tosses one tails coin again (the ``retoss`` follow-up).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from fractions import Fraction
from math import comb
from typing import Any

from rulebound.core.errors import InvalidInput, RuleViolation, raise_all
from rulebound.core.random_source import RandomSource
from rulebound.rulesets.contract import (
    ActionView,
    Card,
    Chances,
    CreationStep,
    DieView,
    Extra,
    Field,
    FollowFlag,
    Game,
    Outcome,
    Sheet,
    Sheets,
    SheetView,
    Variant,
    Variants,
)
from rulebound.rulesets.forms import read

HEADS = 2
MAX_COINS = 10
STRICT = Variant(
    "exact",
    ("at-least", "more-than"),
    "at-least",
    "Whether meeting the need exactly succeeds.",
    label="What meeting the need means",
    choice_labels=("exactly enough succeeds", "one more is needed"),
)


@dataclass(frozen=True, slots=True)
class Toss:
    coins: int
    need: int
    strict: bool = False
    name: str = ""


@dataclass(frozen=True, slots=True)
class Tossed:
    request: Toss
    faces: tuple[int, ...]
    retossed: tuple[int, ...] = ()
    parent: Tossed | None = None

    @property
    def heads(self) -> int:
        return sum(face == HEADS for face in self.faces)

    @property
    def succeeded(self) -> bool:
        return (
            self.heads > self.request.need
            if self.request.strict
            else self.heads >= self.request.need
        )


def toss(request: Toss, source: RandomSource) -> Tossed:
    return Tossed(request, tuple(source.draw(2) for _ in range(request.coins)))


def p_success(request: Toss) -> Fraction:
    lowest = request.need + 1 if request.strict else request.need
    ways = sum(comb(request.coins, k) for k in range(lowest, request.coins + 1))
    return Fraction(ways, 2**request.coins)


FIELDS = (
    Field("coins", "Coins to toss", "int", minimum=1, maximum=MAX_COINS, required=True),
    Field("need", "Heads needed", "int", minimum=0, maximum=MAX_COINS, default=1),
    Field("name", "What is tried", "text"),
)


class CoinSheets(Sheets[Toss, Tossed]):
    choice_fields = (Field("need", "Heads needed", "int", minimum=0, maximum=MAX_COINS, default=1),)

    def validate(self, sheet: Mapping[str, Any]) -> Sheet:
        name, coins, luck = sheet.get("name"), sheet.get("coins", 3), sheet.get("luck", 0)
        problems = []
        if not isinstance(name, str) or not name.strip():
            problems.append(InvalidInput("name", name, "a name"))
        if not isinstance(coins, int) or isinstance(coins, bool) or not 1 <= coins <= MAX_COINS:
            problems.append(InvalidInput("coins", coins, f"a whole number from 1 to {MAX_COINS}"))
        if not isinstance(luck, int) or isinstance(luck, bool) or not 0 <= luck <= 9:
            problems.append(InvalidInput("luck", luck, "a whole number from 0 to 9"))
        unknown = sorted(set(sheet) - {"name", "coins", "luck"})
        problems += [
            InvalidInput(key, sheet[key], "no such field on a coin sheet") for key in unknown
        ]
        raise_all(problems)
        return {"name": str(name).strip(), "coins": coins, "luck": luck}

    def new(self, name: str) -> Sheet:
        return self.validate({"name": name})

    def view(self, sheet: Sheet) -> SheetView:
        fields = (
            Field("name", "Name", "text"),
            Field("coins", "Coins", "int", minimum=1, maximum=MAX_COINS),
            Field("luck", "Luck tokens", "int", minimum=0, maximum=9),
        )
        return SheetView(fields, dict(sheet), (("Luck", str(sheet["luck"])),))

    def edit(self, sheet: Sheet, form: Mapping[str, Any]) -> Sheet:
        return self.validate(dict(sheet) | read(self.view(sheet).fields, form, defaults=False))

    def dialog(self, sheet: Sheet) -> tuple[Field, ...]:
        return (replace(self.choice_fields[0], maximum=sheet["coins"]),)

    def request(self, sheet: Sheet, values: Mapping[str, Any], variants: Variants) -> Toss:
        return GAME.request({"coins": sheet["coins"], "name": sheet["name"], **values}, variants)

    def follow_params(
        self, sheet: Sheet, result: Tossed, action: str, params: Mapping[str, Any]
    ) -> Mapping[str, Any]:
        if sheet["luck"] < 1:
            raise RuleViolation("luck", f"{sheet['name']} has no luck token left")
        return params

    def settle(self, sheet: Sheet, result: Tossed) -> Sheet | None:
        return {**sheet, "luck": sheet["luck"] - 1} if result.parent is not None else None


class CoinToss(Game[Toss, Tossed]):
    key = "coin-toss"
    title = "Coin Toss (example plug-in)"
    variants = (STRICT,)
    fields = FIELDS
    follow_flags = (FollowFlag("retoss", "retoss", "coin", "Toss this tails coin again."),)

    def __init__(self) -> None:
        self.sheets: CoinSheets = CoinSheets()

    def request(self, values: Mapping[str, Any], variants: Variants) -> Toss:
        coins, need = values["coins"], values.get("need", 1)
        if need > coins:
            raise InvalidInput("need", need, f"at most the {coins} coins tossed")
        return Toss(coins, need, variants.get("exact") == "more-than", values.get("name") or "")

    def load(self, data: Mapping[str, Any]) -> Toss:
        toss_ = data.get("toss")
        if not isinstance(toss_, Mapping):
            raise InvalidInput("record.toss", toss_, "the toss as a JSON object")
        values = {k: toss_.get(k) for k in ("coins", "need", "name")}
        return self.request(
            read(FIELDS, values), {"exact": "more-than" if toss_.get("strict") else "at-least"}
        )

    def dump(self, request: Toss) -> dict[str, Any]:
        return {
            "toss": {
                "coins": request.coins,
                "need": request.need,
                "strict": request.strict,
                "name": request.name,
            }
        }

    def roll(self, request: Toss, source: RandomSource) -> Tossed:
        return toss(request, source)

    def chances(self, request: Toss) -> Chances:
        p = p_success(request)
        return Chances(
            (
                Outcome("success", "enough heads", p, True),
                Outcome("failure", "too few heads", 1 - p, False),
            ),
            (Extra("expected_heads", "expected heads", Fraction(request.coins, 2), "expectation"),),
        )

    def follow_ups(self, result: Tossed) -> tuple[ActionView, ...]:
        tails = [
            i for i, face in enumerate(result.faces) if face != HEADS and i not in result.retossed
        ]
        if not tails:
            return ()
        coin = Field("coin", "Coin to toss again", "dice", required=True)
        better = Fraction(1, 2) if not result.succeeded else Fraction(0)
        useful = result.succeeded is False
        return (
            ActionView(
                "retoss",
                "Spend a luck token: toss one tails coin again",
                (coin,),
                (f"heads on the new toss: 50% (P(success) rises by up to {float(better):.0%})",),
                spends="1 luck token",
                available=useful,
                reason="" if useful else "the task already succeeded",
            ),
        )

    def follow_params(
        self, result: Tossed, action: str, params: Mapping[str, Any]
    ) -> dict[str, Any]:
        chosen = params.get("coin")
        index = chosen[0] if isinstance(chosen, list) and len(chosen) == 1 else chosen
        if (
            not isinstance(index, int)
            or isinstance(index, bool)
            or not 0 <= index < len(result.faces)
        ):
            raise InvalidInput("coin", chosen, "one coin showing tails, by its number")
        if result.faces[index] == HEADS or index in result.retossed:
            raise RuleViolation("retoss", f"coin {index} cannot be tossed again")
        return {"coin": index}

    def follow(
        self, result: Tossed, action: str, params: Mapping[str, Any], source: RandomSource
    ) -> Tossed:
        index = params["coin"]
        faces = list(result.faces)
        faces[index] = source.draw(2)
        return Tossed(result.request, tuple(faces), (*result.retossed, index), result)

    def card(self, result: Tossed) -> Card:
        request = result.request
        dice = tuple(
            DieView(
                f"coin {i}",
                2,
                face,
                ("heads" if face == HEADS else "tails",),
                "rerolled" if i in result.retossed else "rolled",
                (1,) if i in result.retossed else (),
                selectable=face != HEADS and i not in result.retossed,
            )
            for i, face in enumerate(result.faces)
        )
        verdict = "Success" if result.succeeded else "Failure"
        return Card(
            f"{request.name or 'Coin toss'}: {request.coins} coins, need {request.need}",
            f"{verdict}: heads {result.heads} of {request.coins}",
            result.succeeded,
            dice,
            actions=self.follow_ups(result),
        )

    def creation(
        self, state: Mapping[str, Any], form: Mapping[str, Any], source: RandomSource
    ) -> CreationStep | None:
        if "luck" not in state:
            return CreationStep("Toss for luck", (), {"luck": source.draw(3)}, ("Luck is a d3.",))
        name = form.get("name")
        if not name:
            return CreationStep(
                "Name",
                (Field("name", "Name", "text", required=True),),
                state,
                (f"Luck {state['luck']}",),
            )
        return CreationStep(
            "Done", (), state, sheet=self.sheets.validate({"name": name, "luck": state["luck"]})
        )


GAME = CoinToss()
