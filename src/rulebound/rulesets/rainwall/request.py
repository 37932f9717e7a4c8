"""A validated check request, built from keyword values or JSON-like data."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from rulebound.core.errors import InvalidInput
from rulebound.core.limits import DEFAULT_LIMITS, Limits
from rulebound.rulesets.rainwall import rules
from rulebound.rulesets.rainwall.rules import Options

FIELDS = ("dice", "skill", "dr", "bonus", "trait_name", "skill_name", "variants")


@dataclass(frozen=True, slots=True)
class RainwallRequest:
    """One check: ``dice`` is the trait score, ``skill`` the target, ``bonus`` the skill's +N."""

    dice: int
    skill: int
    dr: int
    bonus: int = 0
    options: Options = field(default_factory=Options)
    trait_name: str = ""
    skill_name: str = ""

    def __post_init__(self) -> None:
        _check_int("dice", self.dice, rules.MIN_SCORE, rules.MAX_SCORE, "the trait score")
        _check_int("skill", self.skill, rules.MIN_SCORE, rules.MAX_SCORE, "the skill score")
        _check_int("dr", self.dr, rules.MIN_DR, rules.MAX_DR, "the Difficulty Rating")
        _check_int("bonus", self.bonus, 0, None, "the skill's + bonus")

    def checked(self, limits: Limits = DEFAULT_LIMITS) -> RainwallRequest:
        """Apply the safety caps that bound a roll's or an odds query's work."""
        limits.check_dice("dice", self.dice)
        limits.check_modifier("bonus", self.bonus)
        return self


def _check_int(name: str, value: object, low: int, high: int | None, meaning: str) -> None:
    if not isinstance(value, int) or isinstance(value, bool):
        raise InvalidInput(name, value, f"an integer ({meaning})")
    if value < low or (high is not None and value > high):
        span = f"from {low} to {high}" if high is not None else f"{low} or more"
        raise InvalidInput(name, value, f"an integer {span} ({meaning})")


def parse_request(
    payload: Mapping[str, object], limits: Limits = DEFAULT_LIMITS
) -> RainwallRequest:
    """Validate ``{"dice", "skill", "dr", "bonus"?, "variants"?, ...}``, naming any bad field."""
    if not isinstance(payload, Mapping):
        raise InvalidInput("request", payload, "a JSON object")
    for key in payload:
        if key not in FIELDS:
            raise InvalidInput("request", key, "only the fields " + ", ".join(FIELDS))
    for required in ("dice", "skill", "dr"):
        if required not in payload:
            raise InvalidInput(required, None, "a value: dice, skill and dr are required")
    variants = payload.get("variants", {})
    if not isinstance(variants, Mapping):
        raise InvalidInput("variants", variants, "an object of variant key to choice")
    names = {k: payload.get(k, "") for k in ("trait_name", "skill_name")}
    for key, value in names.items():
        if not isinstance(value, str):
            raise InvalidInput(key, value, "a string")
    request = RainwallRequest(
        dice=payload["dice"],  # type: ignore[arg-type]  # checked in __post_init__
        skill=payload["skill"],  # type: ignore[arg-type]
        dr=payload["dr"],  # type: ignore[arg-type]
        bonus=payload.get("bonus", 0),  # type: ignore[arg-type]
        options=Options.from_mapping(variants),
        trait_name=str(names["trait_name"]),
        skill_name=str(names["skill_name"]),
    )
    return request.checked(limits)
