"""Healing and rests: rest points for wounds, fatigue restored, and Energy Imbued.

Rest points (CON bonus) restore one wound each; an Energy Imbued character (the
Positive origin) heals at double the natural rate, so two wounds a point, and once
a day may heal 1d5 on a passed concentration (WIL) check. Nothing ever rises above
its maximum.
"""

from __future__ import annotations

from rulebound.core.errors import InvalidInput, RuleViolation
from rulebound.core.random_source import RandomSource, RecordingSource
from rulebound.core.trace import Provenance
from rulebound.rulesets.legacy.actions import roll_as
from rulebound.rulesets.legacy.character import Change, Character, Event
from rulebound.rulesets.legacy.content import Catalogue, catalogue
from rulebound.rulesets.legacy.rules import DEFAULT_SCALE

CONCENTRATION = "WIL"


def heal(char: Character, amount: int) -> Change:
    """Restore wounds up to the maximum; healing above 0 ends bleeding out and wakes them."""
    if amount < 0:
        raise InvalidInput("amount", amount, "healing of 0 or more")
    if char.dead:
        raise RuleViolation("healing", "the character is dead")
    wounds = min(char.current_wounds + amount, char.max_wounds)
    update: dict[str, object] = {"wounds": wounds}
    events = [Event("healed", f"wounds {char.current_wounds} -> {wounds}", wounds)]
    if char.bleeding and wounds > 0:  # "allowing them to return to normal combat"
        update |= {"bleeding": False, "unconscious": False}
        update |= {"death_successes": 0, "death_failures": 0}
        events.append(Event("saved", "healed above 0: conscious, no more death saves"))
    return Change(char.model_copy(update=update), tuple(events))


def heal_rate(char: Character, cat: Catalogue | None = None) -> int:
    """Wounds restored per rest point: 1, or more for a trait such as Energy Imbued."""
    return max((t.heal_rate for t in char.traits(cat)), default=1)


def short_rest(char: Character, points: int, cat: Catalogue | None = None) -> Change:
    """Spend rest points on wounds (heal rate each); fatigue is fully restored."""
    if not 0 <= points <= char.current_rest_points:
        raise InvalidInput("points", points, f"0 to {char.current_rest_points} rest points")
    healed = heal(char, points * heal_rate(char, cat)).character if points else char
    after = healed.model_copy(
        update={"rest_points": char.current_rest_points - points, "fatigue_taken": 0}
    )
    return Change(after, (Event("short rest", f"{points} rest points spent", points),))


def long_rest(char: Character, cat: Catalogue | None = None) -> Change:
    """Spend every remaining rest point at the start; all are restored at the end."""
    spent = char.current_rest_points
    healed = heal(char, spent * heal_rate(char, cat)).character if spent else char
    after = healed.model_copy(update={"rest_points": char.max_rest_points, "fatigue_taken": 0})
    return Change(after, (Event("long rest", f"{spent} rest points spent, then restored", spent),))


def daily_heal(
    char: Character,
    source: RandomSource,
    scale: str = DEFAULT_SCALE,
    cat: Catalogue | None = None,
) -> Change:
    """Once a day, a concentration (WIL) check; on a pass heal the trait's dice (1d5).

    The attempt uses the day's heal whether or not the check passes (ruling 56).
    """
    c = cat or catalogue()
    trait = next((t for t in char.traits(c) if t.daily_heal is not None), None)
    if trait is None or trait.daily_heal is None:
        raise RuleViolation("daily heal", f"{char.name} has no trait that heals once a day")
    if char.daily_heal_used:
        raise RuleViolation(trait.name, "already used today (1/day)")
    check = roll_as(char, char.check(CONCENTRATION, scale=scale, cat=c), source)
    used = check.character.model_copy(update={"daily_heal_used": True})
    if not check.results[0].succeeded:
        event = Event(trait.name, "the concentration check failed: no healing today")
        return Change(used, (*check.events, event), check.results)
    rec = RecordingSource(source)
    expr = trait.daily_heal
    amount = sum(rec.draw(expr.sides) for _ in range(expr.dice)) + expr.plus
    healed = heal(used, amount)
    event = Event(trait.name, f"heals {amount}", amount, Provenance.of(rec.describe(), rec.draws))
    return Change(healed.character, (*check.events, event, *healed.events), check.results)
