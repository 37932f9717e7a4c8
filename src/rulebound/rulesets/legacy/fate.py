"""Fate: spend a point to reroll or to swap a test for an unmodified LCK test, or burn one.

Souls change the price: God-Fragment may keep a spent point on a passed LCK
check, Soulless may turn a burn into a spend on one, a Warlock may pay 1d10 STM
instead of spending (never instead of burning). Each function returns the new
character and the results together.
"""

from __future__ import annotations

from dataclasses import replace

from rulebound.core.errors import RuleViolation
from rulebound.core.random_source import RandomSource, RecordingSource
from rulebound.core.trace import Provenance
from rulebound.rulesets.legacy.actions import roll_as
from rulebound.rulesets.legacy.character import Change, Character, Event
from rulebound.rulesets.legacy.checks import (
    CheckRequest,
    LegacyResult,
    luck_request,
    roll_check,
)
from rulebound.rulesets.legacy.content import Catalogue, catalogue
from rulebound.rulesets.legacy.rules import BURN_LCK_COST as BURN_LCK_COST
from rulebound.rulesets.legacy.rules import DEFAULT_SCALE, characteristic_bonus
from rulebound.rulesets.legacy.versions import RULES, Rules


def _pay(
    char: Character,
    source: RandomSource,
    use_stamina: bool,
    cat: Catalogue,
    scale: str = DEFAULT_SCALE,
) -> Change:
    """Pay for one spend; the soul decides whether and how the point goes.

    A soul's LCK check on the price (God-Fragment here, Soulless in ``burn``) is part
    of paying, not a test: it is rolled plainly, even in a death save (ruling 69), on
    the table's ``scale`` like every other LCK check.
    """
    soul = cat.soul(char.soul)
    if use_stamina:
        if not soul.stamina_for_fate:
            raise RuleViolation("fate", f"paying with STM needs a Warlock Soul, not {soul.name}")
        if char.scores["STM"] <= 0:
            raise RuleViolation("Warlock Soul", "STM is already 0 and cannot go lower")
        rec = RecordingSource(source)
        loss = rec.draw(10)
        stm = max(char.scores["STM"] - loss, 0)
        after = char.model_copy(update={"scores": {**char.scores, "STM": stm}}).within_maxima()
        paid = Event(
            "stamina paid",
            f"STM {char.scores['STM']} -> {stm} (1d10: {loss}) instead of a fate point",
            loss,
            Provenance.of(rec.describe(), rec.draws),
        )
        return Change(after, (paid,))
    if char.fate < 1:
        raise RuleViolation("fate", "no fate points left to spend")
    if soul.spend_luck_check:
        check = roll_check(luck_request(char.lck, scale, "God-Fragment LCK check"), source)
        if check.succeeded:
            return Change(
                char, (Event("fate kept", "God-Fragment: the LCK check passed"),), (check,)
            )
        spent = char.model_copy(update={"fate": char.fate - 1})
        return Change(spent, (Event("fate spent", "God-Fragment LCK check failed"),), (check,))
    return Change(
        char.model_copy(update={"fate": char.fate - 1}), (Event("fate spent", "1 point"),)
    )


def spend_fate(
    char: Character,
    source: RandomSource,
    *,
    use_stamina: bool = False,
    purpose: str = "",
    scale: str = DEFAULT_SCALE,
    cat: Catalogue | None = None,
) -> Change:
    """Spend one fate point for an ability that asks for one (souls change the price)."""
    paid = _pay(char, source, use_stamina, cat or catalogue(), scale)
    if not purpose:
        return paid
    return Change(paid.character, (*paid.events, Event("fate use", purpose)), paid.results)


def spend_reroll(
    char: Character,
    result: LegacyResult,
    source: RandomSource,
    *,
    use_stamina: bool = False,
    cat: Catalogue | None = None,
) -> tuple[Change, LegacyResult]:
    """Pay, then reroll the same check; the new result's parent is the old one."""
    paid = _pay(char, source, use_stamina, cat or catalogue(), result.request.scale)
    rolled = roll_as(paid.character, result.request, source, parent=result, note="fate reroll")
    new = rolled.results[0]
    return Change(rolled.character, (*paid.events, *rolled.events), (*paid.results, new)), new


def luck_swap(
    char: Character,
    source: RandomSource,
    *,
    affinity: str | None = None,
    use_stamina: bool = False,
    scale: str = DEFAULT_SCALE,
    cat: Catalogue | None = None,
    rules: Rules = RULES,
) -> tuple[Change, LegacyResult]:
    """Replace a test with an unmodified LCK test; an Elf Soul does it free for Arcane.

    "This test is not modified": a curse neither touches it nor is spent (ruling 69), but
    under the rules of an older record (``rules``, ``roll_as``).
    """
    c = cat or catalogue()
    soul = c.soul(char.soul)
    if affinity is not None and c.affinity(affinity).key == soul.free_luck_swap_affinity:
        paid = Change(char, (Event("free luck swap", f"{soul.name}: no fate needed"),))
    else:
        paid = _pay(char, source, use_stamina, c, scale)
    lck = luck_request(char.lck, scale)
    rolled = roll_as(paid.character, lck, source, unmodified=True, rules=rules)
    result = rolled.results[0]
    events = (*paid.events, *rolled.events)
    return Change(rolled.character, events, (*paid.results, result)), result


def burn(
    char: Character,
    source: RandomSource,
    purpose: str = "avoid death",
    cat: Catalogue | None = None,
    *,
    scale: str = DEFAULT_SCALE,
) -> Change:
    """Burn a point: LCK -10 (needs LCK 10 or more), fate then capped at the new LCK bonus."""
    c = cat or catalogue()
    if char.lck < BURN_LCK_COST:
        raise RuleViolation(
            "burn fate", f"LCK {char.lck} is under {BURN_LCK_COST}: no fate to burn"
        )
    if char.fate < 1:
        raise RuleViolation("burn fate", "no fate points left to burn")
    soul = c.soul(char.soul)
    if soul.burn_luck_check:
        check = roll_check(luck_request(char.lck, scale, "Soulless LCK check"), source)
        if check.succeeded:
            spent = char.model_copy(update={"fate": char.fate - 1})
            event = Event("fate spent", f"Soulless: burn for {purpose} became a spend")
            return Change(spent, (event,), (check,))
        results: tuple[LegacyResult, ...] = (check,)
    else:
        results = ()
    lck, fate = burnt(char, c)
    after = char.model_copy(update={"lck": lck, "fate": fate})
    return Change(
        after, (Event("fate burnt", f"for {purpose}: LCK {char.lck} -> {lck}", lck),), results
    )


def burnt(char: Character, cat: Catalogue | None = None) -> tuple[int, int]:
    """LCK and fate after a burn: LCK -10, fate one less and capped at the new LCK bonus."""
    lck = char.lck - BURN_LCK_COST
    bonus = (cat or catalogue()).origin(char.origin).bonus_fate
    return lck, min(char.fate - 1, characteristic_bonus(lck) + bonus)


def award_favour(char: Character) -> Change:
    """The game master awards favour; it does not accumulate (held or not)."""
    if char.favour:
        return Change(char, (Event("favour", "already held: favour cannot be accumulated"),))
    return Change(char.model_copy(update={"favour": True}), (Event("favour", "awarded"),))


def use_favour(char: Character, request: CheckRequest) -> tuple[Change, CheckRequest]:
    """Spend favour for advantage on this check (advantage never stacks)."""
    if not char.favour:
        raise RuleViolation("favour", "the character holds no favour")
    after = char.model_copy(update={"favour": False})
    return Change(after, (Event("favour spent", "advantage on this check"),)), replace(
        request, advantage=True
    )
