"""Advances, Unnatural gains, and SAN/COR with their threshold events.

The disorder and mutation tables are not in the text, so an event reports the
d100 + score total for the game master's own table.
"""

from __future__ import annotations

from functools import partial

from rulebound.core.errors import InvalidInput
from rulebound.core.random_source import RandomSource, RecordingSource
from rulebound.core.trace import Provenance
from rulebound.rulesets.legacy.character import (
    Change,
    Character,
    Event,
    find_characteristic,
    is_primary,
)
from rulebound.rulesets.legacy.content import CHARACTERISTICS, Catalogue, catalogue
from rulebound.rulesets.legacy.rules import ADVANCE

DAEMON_FATE = "daemon-fate"


def _secondary_gains(before: Character, after: Character, source: RandomSource) -> Change:
    """Roll 1d10 per level a primary's bonus rises above its previous highest."""
    rec = RecordingSource(source)
    scores, max_bonus = dict(after.scores), dict(after.max_bonus)
    events: list[Event] = []
    for primary, secondary in catalogue().pairs.items():
        old_max = before.max_bonus.get(primary, before.bonus(primary))
        new = after.bonus(primary)
        for _ in range(max(new - old_max, 0)):
            gain = rec.draw(10)
            scores[secondary] += gain
            events.append(
                Event(
                    "secondary gain",
                    f"{primary} bonus rose: {secondary} +{gain}",
                    gain,
                    Provenance.of(rec.describe(), rec.draws[-1:]),
                )
            )
        max_bonus[primary] = max(old_max, new)
    return Change(
        after.model_copy(update={"scores": scores, "max_bonus": max_bonus}), tuple(events)
    )


def _checked(code: str) -> str:
    hit = find_characteristic(code, extra=False) if isinstance(code, str) else None
    if hit is None:
        raise InvalidInput("characteristic", code, "one of " + ", ".join(CHARACTERISTICS))
    return hit


def advance(char: Character, code: str, source: RandomSource, amount: int = ADVANCE) -> Change:
    """An advance (+5 by default); a raised primary bonus feeds its secondary."""
    code = _checked(code)
    if amount <= 0:
        raise InvalidInput("amount", amount, "a positive increase (use reduce for losses)")
    after = char.model_copy(update={"scores": {**char.scores, code: char.scores[code] + amount}})
    change = _secondary_gains(char, after, source)
    event = Event("advance", f"{code} +{amount}", amount)
    return Change(change.character, (event, *change.events))


def gain_unnatural(char: Character, code: str, amount: int, source: RandomSource) -> Change:
    """Unnatural (X) raises the bonus directly, and so also feeds the secondary."""
    code = _checked(code)
    unnatural = {**char.unnatural, code: char.unnatural.get(code, 0) + amount}
    after = char.model_copy(update={"unnatural": unnatural})
    return _secondary_gains(char, after, source)


def reduce(char: Character, code: str, amount: int) -> Change:
    """A loss: the secondary is untouched and the previous highest bonus is remembered, also
    on a sheet that never recorded one (its bonus before the loss is the highest known)."""
    code = _checked(code)
    if amount <= 0:
        raise InvalidInput("amount", amount, "a positive reduction")
    value = max(char.scores[code] - amount, 0)
    update: dict[str, object] = {"scores": {**char.scores, code: value}}
    if is_primary(code):
        highest = max(char.max_bonus.get(code, 0), char.bonus(code))
        update["max_bonus"] = {**char.max_bonus, code: highest}
    after = char.model_copy(update=update).within_maxima()
    return Change(after, (Event("reduction", f"{code} -{amount}", amount),))


def _thresholds(kind: str, cat: Catalogue) -> tuple[int, ...]:
    t = cat.tables.thresholds
    return t.san if kind == "san" else t.cor


def gain(
    kind: str,
    char: Character,
    amount: int,
    source: RandomSource,
    *,
    starting: bool = False,
    cat: Catalogue | None = None,
) -> Change:
    """A SAN or COR gain (``kind``): each threshold it passes rolls on the GM's table.

    A Warped Soul halves a COR gain (rounded down), except the starting amount.
    """
    cat = cat or catalogue()
    if amount < 0:
        raise InvalidInput("amount", amount, f"a {kind.upper()} gain of 0 or more")
    soul = cat.soul(char.soul)
    if kind == "cor" and soul.halve_cor_gain and not starting:
        amount //= 2
    old = getattr(char, kind)
    new = old + amount
    rec = RecordingSource(source)
    label = "disorder" if kind == "san" else "mutation"
    twice = "twice-on-charts" in soul.powers or (
        kind == "cor" and "twice-on-mutations" in soul.powers
    )
    events: list[Event] = []
    for threshold in _thresholds(kind, cat):
        if old < threshold <= new:
            rolls = [rec.draw(100) for _ in range(2 if twice else 1)]
            total = min(rolls) + new
            shown = " or ".join(str(r) for r in rolls)
            detail = f"{kind.upper()} reached {threshold}: d100 {shown} + {new} = {total}"
            events.append(
                Event(
                    label,
                    detail + " (GM's table)",
                    total,
                    Provenance.of(rec.describe(), rec.draws[-len(rolls) :]),
                )
            )
    unplayable = char.unplayable
    limit = cat.tables.thresholds.unplayable
    if new >= limit and not (kind == "cor" and DAEMON_FATE in char.talents):
        unplayable = True
        events.append(Event("unplayable", f"{kind.upper()} reached {limit}", new))
    after = char.model_copy(update={kind: new, "unplayable": unplayable})
    return Change(after, (Event(f"{kind} gain", f"+{amount}", amount), *events))


gain_san = partial(gain, "san")
"""``gain_san(char, amount, source)``: a SAN gain, as ``gain``."""
gain_cor = partial(gain, "cor")
"""``gain_cor(char, amount, source)``: a COR gain, as ``gain``."""


def fear_immunity(char: Character) -> int:
    """Fear effects rated below this (SAN / 20, rounded down) are ignored."""
    return char.san // 20


def ignores_fear(char: Character, rating: int) -> bool:
    """Whether a fear effect of ``rating`` is ignored: its rating is below SAN // 20."""
    if rating < 0:
        raise InvalidInput("rating", rating, "a fear rating of 0 or more")
    return rating < fear_immunity(char)
