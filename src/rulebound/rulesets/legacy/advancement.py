"""Experience and the affinity tiers that price characteristic advances.

The text defines the tiers (Unfamiliar, Familiar, Innate) but gives no costs, so
the game master supplies an ``XpCosts`` table, as with the disorder tables.
"""

from __future__ import annotations

from enum import StrEnum

from pydantic import BaseModel, ConfigDict, Field, model_validator

from rulebound.core.errors import InvalidInput, RuleViolation
from rulebound.core.keys import find_key
from rulebound.core.random_source import RandomSource
from rulebound.rulesets.legacy.character import Change, Character, Event
from rulebound.rulesets.legacy.content import CHARACTERISTICS, Catalogue, catalogue
from rulebound.rulesets.legacy.progression import advance


class Tier(StrEnum):
    UNFAMILIAR = "unfamiliar"
    FAMILIAR = "familiar"
    INNATE = "innate"


def partner(code: str, cat: Catalogue | None = None) -> str:
    """A primary's secondary, or a secondary's primary."""
    pairs, code = (cat or catalogue()).pairs, find_key(CHARACTERISTICS, code) or code
    if code in pairs:
        return pairs[code]
    for primary, secondary in pairs.items():
        if secondary == code:
            return primary
    raise InvalidInput("characteristic", code, "one of " + ", ".join(CHARACTERISTICS))


def affinity_tier(char: Character, code: str, cat: Catalogue | None = None) -> Tier:
    """Innate: the characteristic's affinity and its pair's; Familiar: its own; else Unfamiliar."""
    c = cat or catalogue()
    other = partner(code, c)
    if not char.has_affinity(code.lower(), c):
        return Tier.UNFAMILIAR
    return Tier.INNATE if char.has_affinity(other.lower(), c) else Tier.FAMILIAR


class XpCosts(BaseModel):
    """The GM's price of one characteristic advance per tier; a closer affinity is never dearer."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    unfamiliar: int = Field(ge=0)
    familiar: int = Field(ge=0)
    innate: int = Field(ge=0)

    @model_validator(mode="after")
    def _ordered(self) -> XpCosts:
        if not self.unfamiliar >= self.familiar >= self.innate:
            raise ValueError("costs must satisfy unfamiliar >= familiar >= innate")
        return self

    def of(self, tier: Tier) -> int:
        cost: int = getattr(self, tier.value)
        return cost


def gain_xp(char: Character, amount: int, reason: str = "award") -> Change:
    if amount < 0:
        raise InvalidInput("amount", amount, "an award of 0 or more experience")
    after = char.model_copy(update={"xp": char.xp + amount})
    return Change(after, (Event("xp", f"{reason}: +{amount} ({after.xp})", amount),))


def purchase_advance(
    char: Character,
    code: str,
    costs: XpCosts,
    source: RandomSource,
    cat: Catalogue | None = None,
) -> Change:
    """Pay the tier's price in experience, then take the +5 advance (and any secondary gain)."""
    tier = affinity_tier(char, code, cat)
    cost = costs.of(tier)
    if char.xp < cost:
        raise RuleViolation(
            "characteristic advance", f"{code} is {tier.value}: costs {cost} XP, {char.xp} held"
        )
    paid = char.model_copy(update={"xp": char.xp - cost})
    change = advance(paid, code, source)
    spent = Event("xp spent", f"{code} advance ({tier.value}): -{cost}", cost)
    return Change(change.character, (spent, *change.events))
