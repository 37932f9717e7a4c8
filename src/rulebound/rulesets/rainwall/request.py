"""A validated check request, built from keyword values or JSON-like data."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from rulebound.core.errors import InvalidInput
from rulebound.core.limits import DEFAULT_LIMITS, Limits
from rulebound.core.random_source import trusted_builder
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


_request = trusted_builder(RainwallRequest)
_TOP_BONUS = DEFAULT_LIMITS.max_modifier
_TOP_DICE = min(rules.MAX_SCORE, DEFAULT_LIMITS.max_dice_per_roll)


def form_request(values: Mapping[str, object], options: Options) -> RainwallRequest:
    """A request from a form's typed values (``forms.read`` of the game's fields).

    Values plainly in range (what a form that passed ``forms.read`` holds) make the
    request at once (``trusted_builder``: the same value ``RainwallRequest`` makes); any
    other goes through the class and ``checked``, so every error reads as before.
    """
    dice, skill, dr = values["dice"], values["skill"], values["dr"]
    bonus = values.get("bonus", 0)
    trait, skill_name = values.get("trait_name") or "", values.get("skill_name") or ""
    if (
        type(dice) is int
        and rules.MIN_SCORE <= dice <= _TOP_DICE
        and type(skill) is int
        and rules.MIN_SCORE <= skill <= rules.MAX_SCORE
        and type(dr) is int
        and rules.MIN_DR <= dr <= rules.MAX_DR
        and type(bonus) is int
        and 0 <= bonus <= _TOP_BONUS
        and type(trait) is str
        and type(skill_name) is str
    ):
        return _request(dice, skill, dr, bonus, options, trait, skill_name)
    return RainwallRequest(
        dice=dice,  # type: ignore[arg-type]  # checked in __post_init__
        skill=skill,  # type: ignore[arg-type]
        dr=dr,  # type: ignore[arg-type]
        bonus=bonus,  # type: ignore[arg-type]
        options=options,
        trait_name=trait,  # type: ignore[arg-type]
        skill_name=skill_name,  # type: ignore[arg-type]
    ).checked()


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
