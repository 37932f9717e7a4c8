"""The Ghostburn ruleset behind the common ``Ruleset`` protocol.

Generic callers send JSON-like payloads; this module validates them into a
``CheckRequest`` and hands off to the roller and the odds engine.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from rulebound.core.errors import InvalidInput
from rulebound.core.random_source import RandomSource
from rulebound.rulesets.base import Ruleset, Variant
from rulebound.rulesets.content import input_error
from rulebound.rulesets.ghostburn.character import parse_character
from rulebound.rulesets.ghostburn.content import GhostburnContent, builtin_content
from rulebound.rulesets.ghostburn.odds import band_odds, p_success
from rulebound.rulesets.ghostburn.options import VARIANTS, Options
from rulebound.rulesets.ghostburn.request import CheckRequest, character_request, raw_request
from rulebound.rulesets.ghostburn.roll import GhostburnResult, roll


class _Item(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    name: str = Field(min_length=1, max_length=60)
    bonus: int


class CheckPayload(BaseModel):
    """A character check (``character`` plus skill/trick) or a raw one (bonuses plus ``dl``)."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    character: dict[str, Any] | None = None
    skill: str | None = None
    trick: str | None = None
    ability: str | None = None
    chart: str | None = None
    dl: str | int | None = None
    dl_shift: int = 0
    traits: dict[str, str | int] = Field(default_factory=dict)
    ability_score: int = 0
    skill_bonus: int = 0
    gear: tuple[_Item, ...] = ()
    augs: tuple[_Item, ...] = ()
    variants: dict[str, str] = Field(default_factory=dict)


_RAW_ONLY = ("ability_score", "skill_bonus", "gear", "augs")
_CHARACTER_ONLY = ("skill", "trick", "ability", "traits")


def request_from_payload(payload: Mapping[str, object], content: GhostburnContent) -> CheckRequest:
    try:
        data = CheckPayload.model_validate(dict(payload))
    except ValidationError as exc:
        raise input_error(exc, prefix="request") from None
    options = Options.parse(data.variants)
    if data.character is not None:
        _reject_set(data, _RAW_ONLY, "with a character, the sheet supplies the bonuses")
        return character_request(
            parse_character(data.character),
            content,
            skill=data.skill,
            trick=data.trick,
            dl=data.dl,
            ability=data.ability,
            dl_shift=data.dl_shift,
            traits=data.traits,
            chart=data.chart,
            options=options,
        )
    _reject_set(data, _CHARACTER_ONLY, "a raw check takes bonuses and a dl, no character fields")
    if data.dl is None:
        raise InvalidInput("dl", None, "a DL (a level name or number) for a raw check")
    return raw_request(
        content,
        dl=data.dl,
        ability_score=data.ability_score,
        skill_bonus=data.skill_bonus,
        gear=[(item.name, item.bonus) for item in data.gear],
        augs=[(item.name, item.bonus) for item in data.augs],
        dl_shift=data.dl_shift,
        chart=data.chart or "default",
        options=options,
    )


def _reject_set(data: CheckPayload, fields: tuple[str, ...], why: str) -> None:
    for field in fields:
        if field in data.model_fields_set:
            raise InvalidInput(field, getattr(data, field), f"nothing: {why}")


class GhostburnRuleset:
    key = "ghostburn"
    title = "Ghostburn"

    def __init__(self, content: GhostburnContent | None = None) -> None:
        self._content = content

    @property
    def content(self) -> GhostburnContent:
        return self._content or builtin_content()

    @property
    def variants(self) -> tuple[Variant, ...]:
        return VARIANTS

    def parse_request(self, payload: Mapping[str, object]) -> CheckRequest:
        return request_from_payload(payload, self.content)

    def roll(self, request: CheckRequest, source: RandomSource) -> GhostburnResult:
        return roll(request, source)

    def chances(self, request: CheckRequest) -> Mapping[str, Fraction]:
        """``p_success`` (the result reaches the DL) and each band of the request's chart."""
        bands = band_odds(request.modifier, request.difficulty, request.chart)
        return {"p_success": p_success(request.modifier, request.difficulty), **bands}


RULESET: Ruleset[CheckRequest, GhostburnResult] = GhostburnRuleset()
"""Typed as the protocol so mypy proves the package satisfies it."""
