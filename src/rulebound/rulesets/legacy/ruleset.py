"""The Legacy ruleset object behind the common ``Ruleset`` protocol."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from rulebound.core.random_source import RandomSource
from rulebound.rulesets.base import Variant
from rulebound.rulesets.content import input_error
from rulebound.rulesets.legacy.checks import (
    CheckRequest,
    LegacyResult,
    request_from_json,
    roll_check,
)
from rulebound.rulesets.legacy.odds import check_chances
from rulebound.rulesets.legacy.rules import (
    AFFINITY_BONUS_VARIANT,
    DEFAULT_AFFINITY_BONUS,
    DEFAULT_SCALE,
    SCALE_VARIANT,
)


class _AssistModel(BaseModel):
    model_config = ConfigDict(extra="forbid")

    helper: str = Field(min_length=1)
    mode: Literal["advantage", "proficiency"]
    relevant: str = Field(min_length=1)
    rank: int | None = Field(default=None, ge=1, le=6)


class _RequestModel(BaseModel):
    model_config = ConfigDict(extra="forbid")

    score: int = Field(default=0, ge=0, le=200)
    bonus: int | None = None
    characteristic: str = ""
    rank: int | None = None
    difficulty: str = "challenging"
    skill: bool = False
    has_skill_affinity: bool = True
    fatigued: bool = False
    advantage: bool = False
    disadvantage: bool = False
    modifier: int = 0
    scale: str = DEFAULT_SCALE
    target: int | None = None
    label: str = ""
    untrained_penalty: int = Field(default=0, ge=-20, le=0)
    affinity_bonus: str = DEFAULT_AFFINITY_BONUS
    assists: tuple[_AssistModel, ...] = ()


class LegacyRuleset:
    key = "legacy"
    title = "Legacy Machines and Magic"

    @property
    def variants(self) -> tuple[Variant, ...]:
        return (SCALE_VARIANT, AFFINITY_BONUS_VARIANT)

    def parse_request(self, payload: Mapping[str, object]) -> CheckRequest:
        try:
            model = _RequestModel.model_validate(dict(payload))
        except ValidationError as exc:
            raise input_error(exc) from None
        return request_from_json(model.model_dump())

    def roll(self, request: CheckRequest, source: RandomSource) -> LegacyResult:
        return roll_check(request, source)

    def chances(self, request: CheckRequest) -> Mapping[str, Fraction]:
        return {o.value: p for o, p in check_chances(request).items()}


RULESET = LegacyRuleset()
